import { expect, test } from "bun:test";
import { loggedPath } from "../../src/http/request-info";

test("the access log drops one-time secrets from paths and keeps every other path as it is", () => {
  expect(loggedPath("/admin/invite/abcDEF123_-")).toBe("/admin/invite/…");
  expect(loggedPath("/admin/login/link/abcDEF123_-")).toBe("/admin/login/link/…");
  expect(loggedPath("/email/unsubscribe/tok123")).toBe("/email/unsubscribe/…");
  expect(loggedPath("/email/confirm/tok123")).toBe("/email/confirm/…");
  for (const path of ["/api/v1/posts/123", "/admin/login", "/admin/posts/abc", "/b/acme/posts/1"]) {
    expect(loggedPath(path)).toBe(path);
  }
});
