import { afterAll, describe, expect, test } from "bun:test";
import { formatCents, toCents } from "../../src/users/money";
import { createTestApp, expectApiError } from "../support/app";
import { makeUser } from "../support/board";

describe("money", () => {
  test("is stored in integer cents and formatted with two decimals", () => {
    expect(toCents(49.9)).toBe(4990);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1234.565)).toBe(123457);
    expect(formatCents(4990)).toBe("49.90");
    expect(formatCents(5)).toBe("0.05");
    expect(formatCents(0)).toBe("0.00");
    expect(formatCents(100_000_000_00)).toBe("100000000.00");
  });
});

describe("board users", () => {
  const t = createTestApp();
  afterAll(() => t.close());

  test("POST /users creates by email (201), then updates the same user (200)", async () => {
    const created = await t.call("POST", "/api/v1/users", {
      body: { email: "ada@example.com", name: "Ada", userSpend: 49.9 },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      email: "ada@example.com",
      name: "Ada",
      avatarUrl: null,
      userSpend: "49.90",
      createdAt: expect.any(String),
    });
    const again = await t.call("POST", "/api/v1/users", {
      body: { email: "ADA@example.com", avatarUrl: "https://img.example/a.png" },
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      id: created.body.data.id,
      name: "Ada",
      userSpend: "49.90",
      avatarUrl: "https://img.example/a.png",
    });
  });

  test("GET /users pages, oldest first; limit at most 100", async () => {
    for (let i = 0; i < 4; i++) await makeUser(t, { email: `p${i}@example.com` });
    const page = await t.call("GET", "/api/v1/users?limit=2&page=2");
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
    expect((await t.call("GET", "/api/v1/users")).body.pagination.limit).toBe(50);
    expectApiError(await t.call("GET", "/api/v1/users?limit=101"), 400, "VALIDATION_ERROR");
  });

  test("PATCH changes only the given fields; userSpend is a number in, a string out", async () => {
    const user = await makeUser(t, { email: "bob@example.com", name: "Bob", userSpend: 10 });
    const path = `/api/v1/users/${user.id}`;
    const spend = await t.call("PATCH", path, { body: { userSpend: 1234.5 } });
    expect(spend.status).toBe(200);
    expect(spend.body.data).toMatchObject({ name: "Bob", email: "bob@example.com", userSpend: "1234.50" });
    const cleared = await t.call("PATCH", path, { body: { name: null, email: null } });
    expect(cleared.body.data).toMatchObject({ name: null, email: null, userSpend: "1234.50" });
    expect((await t.call("GET", path)).body.data).toEqual(cleared.body.data);
  });

  test("PATCH refuses a negative spend, a bad email, unknown fields; an email in use → 409", async () => {
    const user = await makeUser(t, { email: "carol@example.com" });
    await makeUser(t, { email: "dave@example.com" });
    const path = `/api/v1/users/${user.id}`;
    for (const [body, field] of [
      [{ userSpend: -1 }, "userSpend"],
      [{ userSpend: "12" }, "userSpend"],
      [{ email: "not-an-email" }, "email"],
      [{ plan: "vip" }, "plan"],
    ] as const) {
      expect(
        expectApiError(await t.call("PATCH", path, { body }), 400, "VALIDATION_ERROR").message,
      ).toContain(field);
    }
    expectApiError(
      await t.call("PATCH", path, { body: { email: "DAVE@example.com" } }),
      409,
      "EMAIL_ALREADY_USED",
    );
    expect((await t.call("GET", path)).body.data).toMatchObject({
      email: "carol@example.com",
      userSpend: "0.00",
    });
  });

  test("a user of another project → 404 USER_NOT_FOUND", async () => {
    const theirs = await makeUser(t, { email: "theirs@example.com" }, t.other.secretKey);
    const body = expectApiError(await t.call("GET", `/api/v1/users/${theirs.id}`), 404, "USER_NOT_FOUND");
    expect(body.message).toBe("Entity not found in this project");
    expectApiError(
      await t.call("PATCH", `/api/v1/users/${theirs.id}`, { body: { name: "x" } }),
      404,
      "USER_NOT_FOUND",
    );
  });
});
