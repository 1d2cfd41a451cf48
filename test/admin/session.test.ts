import { expect, test } from "bun:test";
import { sessionCookie } from "../../src/admin/session";

test("the session cookie is Secure exactly when the public URL is https", () => {
  const https = sessionCookie("https://board.example.com", "tok", 60);
  expect(https).toContain("; Secure");
  expect(https).toContain("HttpOnly");
  expect(https).toContain("SameSite=Lax");
  expect(https).toContain("Path=/admin");
  expect(sessionCookie("http://localhost:3000", "tok", 60)).not.toContain("Secure");
});
