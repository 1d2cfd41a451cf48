import { afterAll, describe, expect, test } from "bun:test";
import { callOnce, isUnsafeAddress, resolveTarget, UnsafeTargetError } from "../../src/http/outbound";
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
  ])("%s is refused", (address) => {
    expect(isUnsafeAddress(address)).toBe(true);
  });

  test.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "%s is allowed",
    (address) => {
      expect(isUnsafeAddress(address)).toBe(false);
    },
  );

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
