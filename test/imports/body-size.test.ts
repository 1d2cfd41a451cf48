import { afterAll, expect, test } from "bun:test";
import { createTestApp, expectApiError, type TestResponse } from "../support/app";
import { listen } from "../support/board";

const t = createTestApp();
const server = listen(t);
afterAll(async () => {
  await server.stop();
  t.close();
});

const MiB = 1024 * 1024;
const postsOf = () =>
  t.ctx.db
    .query<{ n: number }, [string]>("SELECT count(*) AS n FROM posts WHERE project_id = ?")
    .get(t.project.project.id)?.n ?? 0;

/** A one-row import body of exactly `bytes` bytes: the row's unknown `padding` column is ignored. */
function bodyOf(bytes: number, title: string): string {
  const empty = JSON.stringify({ data: [{ title, padding: "" }] });
  return JSON.stringify({ data: [{ title, padding: "x".repeat(bytes - empty.length) }] });
}

/** Over a real loopback server, so the body arrives with its Content-Length as from any client. */
async function send(body: string): Promise<TestResponse> {
  const response = await fetch(`${server.url}/api/v1/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.project.secretKey}`, "content-type": "application/json" },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

test("POST /import takes bodies above the 1 MiB default up to 10 MiB", async () => {
  for (const [bytes, title] of [
    [2 * MiB, "two MiB"],
    [10 * MiB, "exactly ten MiB"],
  ] as const) {
    const body = bodyOf(bytes, title);
    expect(body.length).toBe(bytes);
    const response = await send(body);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      imported: 1,
      skipped: 0,
      errors: [],
      alreadyImported: 0,
      // Said, not silently dropped.
      unreadColumns: ["padding"],
    });
  }
  expect(postsOf()).toBe(2);
});

test("a body above 10 MiB is 413 PAYLOAD_TOO_LARGE and stores nothing, with or without Content-Length", async () => {
  const body = bodyOf(10 * MiB + 1, "too big");
  const before = postsOf();
  const refused = expectApiError(await send(body), 413, "PAYLOAD_TOO_LARGE");
  expect(refused.message).toContain("10 MiB");
  // In-process the body is a stream without a declared length: counted as it arrives.
  expectApiError(await t.call("POST", "/api/v1/import", { rawBody: body }), 413, "PAYLOAD_TOO_LARGE");
  expect(postsOf()).toBe(before);
});
