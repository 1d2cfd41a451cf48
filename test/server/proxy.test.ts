import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../support/app";

/**
 * Behind a proxy (FEATUREBOARD_TRUST_PROXY=true) the client IP is the X-Forwarded-For entry the proxy
 * appended, the last one: the entries before it are whatever the client sent, so taking the first let a
 * client choose its own IP for every request and escape every per-IP limit, dashboard sign-in included.
 */
const lines: string[] = [];
const t = createTestApp(
  {
    FEATUREBOARD_TRUST_PROXY: "true",
    FEATUREBOARD_LOG_LEVEL: "info",
    FEATUREBOARD_RATE_LIMIT_SIGN_IN_PER_MINUTE: "1",
    FEATUREBOARD_RATE_LIMIT_SIGN_IN_BURST: "3",
  },
  (line) => lines.push(line),
);
afterAll(() => t.close());

const REAL_CLIENT = "198.51.100.7";

describe("behind a trusted proxy", () => {
  test("a spoofed first X-Forwarded-For entry does not escape the sign-in limit, nor the log", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      // A new account each time (so only the per-IP limit can apply) and a new made-up address in front
      // of the one the proxy appended.
      const response = await t.call("POST", "/admin/login", {
        key: null,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-for": `203.0.113.${attempt + 1}, ${REAL_CLIENT}`,
        },
        rawBody: new URLSearchParams({
          email: `guess${attempt}@example.com`,
          password: "wrong guess 123",
        }).toString(),
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429, 429]);
    // The access-log line is written once the answer has left.
    const loggedSignIns = () =>
      lines
        .map((line) => JSON.parse(line) as { msg?: string; path?: string; clientIp?: string })
        .filter((entry) => entry.msg === "request" && entry.path === "/admin/login");
    for (let wait = 0; wait < 100 && loggedSignIns().length < 6; wait++) await Bun.sleep(10);
    const logged = loggedSignIns();
    expect(logged.map((entry) => entry.clientIp)).toEqual(Array(6).fill(REAL_CLIENT));
  });
});
