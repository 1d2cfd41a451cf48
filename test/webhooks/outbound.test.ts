import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  ANSWER_BYTES,
  callOnce,
  isUnsafeAddress,
  resolveTarget,
  UnsafeTargetError,
  useHostResolver,
  withoutTargetPath,
} from "../../src/http/outbound";
import { createTestApp, expectApiError } from "../support/app";
import { startReceiver } from "../support/receiver";

describe("outgoing URL safety", () => {
  test.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:a9fe:a9fe",
    "fe80::1",
    "fc00::1",
    "fd00:ec2::254",
    "64:ff9b::10.0.0.1",
    // Ranges that wrap or translate IPv4, and reserved IPv6 ranges (issue 13).
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::8.8.8.8",
    "2002:a9fe:a9fe::1",
    "2002:7f00:1::1",
    "2001::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "fec0::1",
    "100::1",
    "::ffff:0:169.254.169.254",
    "::ffff:0:8.8.8.8",
    "3fff::1",
    "2001:db8::1",
  ])("%s is refused", (address) => {
    expect(isUnsafeAddress(address)).toBe(true);
  });

  test.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:0808:0808::1",
    "2a00:1450:4001:81c::200e",
  ])("%s is allowed", (address) => {
    expect(isUnsafeAddress(address)).toBe(false);
  });

  test("a host name is checked after resolution: localhost is refused, allowed only with the flag", async () => {
    await expect(resolveTarget("https://localhost/hook", false)).rejects.toBeInstanceOf(UnsafeTargetError);
    expect((await resolveTarget("http://localhost/hook", true)).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    await expect(resolveTarget("http://93.184.216.34/hook", false)).rejects.toThrow("https");
  });

  const receiver = startReceiver();
  afterAll(() => receiver.stop());

  test("without the flag a call to a loopback receiver fails before connecting; with it, it arrives", async () => {
    const request = { method: "POST" as const, headers: {}, body: "{}" };
    const refused = await callOnce(receiver.url, request, { allowPrivate: false, timeoutMs: 1000 });
    expect(refused).toMatchObject({ ok: false, statusCode: null });
    expect(refused.error).toContain("https");
    const refusedHttps = await callOnce(receiver.url.replace("http:", "https:"), request, {
      allowPrivate: false,
      timeoutMs: 1000,
    });
    expect(refusedHttps.error).toContain("127.0.0.1");
    expect(receiver.received).toHaveLength(0);

    const allowed = await callOnce(`${receiver.url}/in`, request, { allowPrivate: true, timeoutMs: 1000 });
    expect(allowed).toMatchObject({ ok: true, statusCode: 200 });
    expect(receiver.received).toHaveLength(1);
  });

  test("the call keeps the original Host header while connecting to the checked address", async () => {
    const port = new URL(receiver.url).port;
    await callOnce(
      `http://localhost:${port}/host`,
      { method: "POST", headers: {}, body: "" },
      { allowPrivate: true, timeoutMs: 1000 },
    );
    expect(receiver.received.at(-1)?.headers.host).toBe(`localhost:${port}`);
  });
});

describe("how much of an answer is read", () => {
  const MB = 1024 * 1024;
  /** A receiver answering `status` with a body of `size` bytes, made as it is pulled: counts what was sent. */
  function hugeAnswer(status: number, size: number) {
    const chunk = new Uint8Array(64 * 1024).fill("x".charCodeAt(0));
    const sent = { bytes: 0 };
    const receiver = startReceiver(
      () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              if (sent.bytes >= size) return controller.close();
              sent.bytes += chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
          { status },
        ),
    );
    return { receiver, sent };
  }
  const request = { method: "POST" as const, headers: {}, body: "{}" };
  const options = { allowPrivate: true, timeoutMs: 10_000 };

  test("a 500 with a 200 MB body: only its start is read, the rest is never fetched", async () => {
    const { receiver, sent } = hugeAnswer(500, 200 * MB);
    const outcome = await callOnce(receiver.url, request, options);
    receiver.stop();
    expect(outcome).toMatchObject({ ok: false, statusCode: 500 });
    expect(outcome.error).toBe(`HTTP 500: ${"x".repeat(300)}`);
    // What the sockets buffer before the rest is cancelled, not the 200 MB the whole body would take.
    expect(sent.bytes).toBeLessThan(32 * MB);
  });

  test("a 2xx longer than the caller can read fails the call instead of filling the memory", async () => {
    const { receiver, sent } = hugeAnswer(200, 200 * MB);
    const outcome = await callOnce(receiver.url, { method: "GET", headers: {} }, options);
    receiver.stop();
    expect(outcome).toMatchObject({ ok: false, statusCode: 200, responseText: "" });
    expect(outcome.error).toContain(`longer than ${ANSWER_BYTES} bytes`);
    expect(sent.bytes).toBeLessThan(ANSWER_BYTES + 32 * MB);
  });

  test("answerBytes: 0 (a webhook) reads none of a 2xx answer: it succeeds, however long", async () => {
    const { receiver, sent } = hugeAnswer(200, 200 * MB);
    const outcome = await callOnce(receiver.url, request, { ...options, answerBytes: 0 });
    receiver.stop();
    expect(outcome).toMatchObject({ ok: true, statusCode: 200 });
    expect(sent.bytes).toBeLessThan(32 * MB);
  });

  test("an answer within the limit is read whole", async () => {
    const receiver = startReceiver(() => Response.json({ number: 7, body: "é".repeat(10_000) }));
    const outcome = await callOnce(receiver.url, { method: "GET", headers: {} }, options);
    receiver.stop();
    expect(outcome.ok).toBe(true);
    expect(JSON.parse(outcome.responseText)).toEqual({ number: 7, body: "é".repeat(10_000) });
  });
});

describe("a failed call's reason", () => {
  test("never carries the target's path or query, where a chat webhook keeps its secret", () => {
    const url = "https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX?x=1";
    // The form of Bun's TLS errors, which quote the URL they fetched (seen with a wrong certificate).
    const reason = withoutTargetPath(
      'ERR_TLS_CERT_ALTNAME_INVALID fetching "https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX?x=1"',
      url,
    );
    expect(reason).toBe('ERR_TLS_CERT_ALTNAME_INVALID fetching "https://hooks.slack.com/…"');
    // Connected to the checked address instead of the name: the path is the same, and goes too.
    expect(
      withoutTargetPath('failed fetching "https://1.1.1.1/services/T000/B000/XXXXSECRETXXXX?x=1"', url),
    ).toBe('failed fetching "https://1.1.1.1/…"');
    expect(withoutTargetPath("ECONNREFUSED: Unable to connect", url)).toBe("ECONNREFUSED: Unable to connect");
    expect(withoutTargetPath("HTTP 500 /", "https://example.com/")).toBe("HTTP 500 /");
  });
});

describe("host names resolving to private addresses (a stubbed DNS)", () => {
  const records: Record<string, string[]> = {
    "intranet.example.com": ["10.0.0.1"],
    "metadata.example.com": ["169.254.169.254"],
    "split.example.com": ["93.184.216.34", "10.0.0.1"],
    "public.example.com": ["93.184.216.34"],
  };
  const looked: string[] = [];
  let restore = () => {};
  beforeAll(() => {
    restore = useHostResolver(async (host) => {
      looked.push(host);
      const addresses = records[host];
      if (!addresses) throw new Error(`ENOTFOUND ${host}`);
      return addresses.map((address) => ({ address, family: 4 }));
    });
  });
  const t = createTestApp();
  afterAll(() => {
    restore();
    t.close();
  });

  test.each([
    ["intranet.example.com", "10.0.0.1"],
    ["metadata.example.com", "169.254.169.254"],
    ["split.example.com", "10.0.0.1"],
  ])("%s (resolves to %s) is refused, by name, without the allow flag", async (host, address) => {
    const refusal = resolveTarget(`https://${host}/hook`, false);
    await expect(refusal).rejects.toBeInstanceOf(UnsafeTargetError);
    await expect(resolveTarget(`https://${host}/hook`, false)).rejects.toThrow(address);
    expect(looked).toContain(host);
    expect((await resolveTarget(`https://${host}/hook`, true)).address).toBe(records[host]![0]!);
  });

  test("a public name resolves to the address the call will connect to", async () => {
    expect(await resolveTarget("https://public.example.com/hook", false)).toMatchObject({
      address: "93.184.216.34",
      family: 4,
    });
  });

  test("webhook and chat URLs on such names → 400 VALIDATION_ERROR naming the field; nothing stored", async () => {
    for (const host of ["intranet.example.com", "metadata.example.com"]) {
      const webhook = await t.call("POST", "/api/v1/integrations/webhooks", {
        body: { url: `https://${host}/hook`, events: ["*"] },
      });
      expect(expectApiError(webhook, 400, "VALIDATION_ERROR").message).toContain("url");
      const chat = await t.call("PUT", "/api/v1/integrations/team-chat", {
        body: { webhookUrl: `https://${host}/services/T/B/X` },
      });
      expect(expectApiError(chat, 400, "VALIDATION_ERROR").message).toContain("webhookUrl");
    }
    expect((await t.call("GET", "/api/v1/integrations/webhooks")).body.data).toEqual([]);
    expectApiError(await t.call("GET", "/api/v1/integrations/team-chat"), 404, "INTEGRATION_NOT_FOUND");
  });

  test("at delivery time the same name fails the attempt before any connection", async () => {
    const outcome = await callOnce(
      "https://metadata.example.com/latest/meta-data/",
      { method: "POST", headers: {}, body: "{}" },
      { allowPrivate: false, timeoutMs: 1000 },
    );
    expect(outcome).toMatchObject({ ok: false, statusCode: null });
    expect(outcome.error).toContain("169.254.169.254");
  });
});
