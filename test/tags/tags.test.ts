import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError } from "../support/app";

const t = createTestApp();
afterAll(() => t.close());

interface Row {
  n: number;
}
const count = (sql: string, ...params: string[]) => t.ctx.db.query<Row, string[]>(sql).get(...params)?.n ?? 0;
const projectId = t.project.project.id;

describe("tags", () => {
  beforeEach(() => {
    t.ctx.db.run("DELETE FROM tags");
  });

  test("create with the default theme, then list", async () => {
    const created = await t.call("POST", "/api/v1/tags", { body: { label: "Mobile" } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      label: "Mobile",
      theme: "#6366f1",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const listed = await t.call("GET", "/api/v1/tags");
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [created.body.data] });
  });

  test("a given hex theme is kept", async () => {
    const created = await t.call("POST", "/api/v1/tags", { body: { label: "Billing", theme: "#10B981" } });
    expect(created.body.data.theme).toBe("#10B981");
  });

  test("a 50-character label is accepted; 51 characters → 400 naming label", async () => {
    expect((await t.call("POST", "/api/v1/tags", { body: { label: "a".repeat(50) } })).status).toBe(201);
    const body = expectApiError(
      await t.call("POST", "/api/v1/tags", { body: { label: "b".repeat(51) } }),
      400,
      "VALIDATION_ERROR",
    );
    expect(body.message).toContain("label");
  });

  test("a blank label → 400", async () => {
    expectApiError(await t.call("POST", "/api/v1/tags", { body: { label: "   " } }), 400, "VALIDATION_ERROR");
    expectApiError(await t.call("POST", "/api/v1/tags", { body: { label: "" } }), 400, "VALIDATION_ERROR");
  });

  test("a non-hex theme → 400 naming theme", async () => {
    for (const theme of ["red", "#12345", "6366f1", "#gggggg"]) {
      const body = expectApiError(
        await t.call("POST", "/api/v1/tags", { body: { label: `T ${theme}`, theme } }),
        400,
        "VALIDATION_ERROR",
      );
      expect(body.message).toContain("theme");
    }
  });

  test("labels are unique per project regardless of case → 409 TAG_ALREADY_EXISTS", async () => {
    await t.call("POST", "/api/v1/tags", { body: { label: "Mobile" } });
    expectApiError(
      await t.call("POST", "/api/v1/tags", { body: { label: "mobile" } }),
      409,
      "TAG_ALREADY_EXISTS",
    );
    // Another project may use the same label.
    const elsewhere = await t.call("POST", "/api/v1/tags", {
      key: t.other.secretKey,
      body: { label: "Mobile" },
    });
    expect(elsewhere.status).toBe(201);
  });

  test("PATCH changes only the given fields", async () => {
    const { id } = (await t.call("POST", "/api/v1/tags", { body: { label: "Old", theme: "#000000" } })).body
      .data;
    const patched = await t.call("PATCH", `/api/v1/tags/${id}`, { body: { label: "New" } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id, label: "New", theme: "#000000" });
    const themed = await t.call("PATCH", `/api/v1/tags/${id}`, { body: { theme: "#fff" } });
    expect(themed.body.data).toMatchObject({ label: "New", theme: "#fff" });
  });

  test("PATCH with no field, or a bad one → 400", async () => {
    const { id } = (await t.call("POST", "/api/v1/tags", { body: { label: "Keep" } })).body.data;
    expectApiError(await t.call("PATCH", `/api/v1/tags/${id}`, { body: {} }), 400, "VALIDATION_ERROR");
    expectApiError(
      await t.call("PATCH", `/api/v1/tags/${id}`, { body: { theme: "blue" } }),
      400,
      "VALIDATION_ERROR",
    );
    expect((await t.call("GET", "/api/v1/tags")).body.data[0]).toMatchObject({
      label: "Keep",
      theme: "#6366f1",
    });
  });

  test("DELETE → {success: true}; the tag is gone", async () => {
    const { id } = (await t.call("POST", "/api/v1/tags", { body: { label: "Gone" } })).body.data;
    const deleted = await t.call("DELETE", `/api/v1/tags/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expect((await t.call("GET", "/api/v1/tags")).body.data).toEqual([]);
    expectApiError(await t.call("DELETE", `/api/v1/tags/${id}`), 404, "TAG_NOT_FOUND");
  });

  test("a tag of another project → 404 'Entity not found in this project', and it is untouched", async () => {
    const foreign = await t.call("POST", "/api/v1/tags", {
      key: t.other.secretKey,
      body: { label: "Theirs" },
    });
    const id = foreign.body.data.id;
    for (const [method, body] of [
      ["PATCH", { label: "Mine now" }],
      ["DELETE", undefined],
    ] as const) {
      const response = await t.call(method, `/api/v1/tags/${id}`, { body });
      expect(expectApiError(response, 404, "TAG_NOT_FOUND").message).toBe("Entity not found in this project");
    }
    const unknown = await t.call("PATCH", "/api/v1/tags/no-such-id", { body: { label: "x" } });
    expect(expectApiError(unknown, 404, "TAG_NOT_FOUND").message).toBe("Entity not found in this project");
    const theirs = await t.call("GET", "/api/v1/tags", { key: t.other.secretKey });
    expect(theirs.body.data.map((tag: { label: string }) => tag.label)).toContain("Theirs");
    expect((await t.call("GET", "/api/v1/tags")).body.data).toEqual([]);
  });
});

describe("tag changes leave an activity row and an outbox event", () => {
  const events = (type: string) =>
    t.ctx.db
      .query<{ payload: string }, [string, string]>(
        "SELECT payload FROM events WHERE project_id = ? AND type = ?",
      )
      .all(projectId, type)
      .map((row) => JSON.parse(row.payload));

  test("create, update and delete each write both", async () => {
    const { id } = (await t.call("POST", "/api/v1/tags", { body: { label: "Audited" } })).body.data;
    await t.call("PATCH", `/api/v1/tags/${id}`, { body: { theme: "#123456" } });
    await t.call("DELETE", `/api/v1/tags/${id}`);
    const actions = t.ctx.db
      .query<{ action: string }, [string, string]>(
        "SELECT action FROM activity WHERE project_id = ? AND entity_id = ? ORDER BY created_at, id",
      )
      .all(projectId, id)
      .map((row) => row.action);
    expect(actions).toEqual(["created", "updated", "deleted"]);
    const created = events("tag.created").find((event) => event.data.id === id);
    expect(created).toMatchObject({
      type: "tag.created",
      projectId,
      data: { id, label: "Audited", theme: "#6366f1" },
    });
    expect(Date.parse(created.timestamp)).not.toBeNaN();
    expect(
      events("tag.updated").some((event) => event.data.id === id && event.data.theme === "#123456"),
    ).toBe(true);
    expect(events("tag.deleted").some((event) => event.data.id === id)).toBe(true);
  });

  test("in the same transaction: when the outbox insert fails, no tag and no activity are stored", async () => {
    const tagsBefore = count("SELECT count(*) AS n FROM tags");
    const activityBefore = count("SELECT count(*) AS n FROM activity");
    t.ctx.db.run(
      "CREATE TEMP TRIGGER refuse_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'outbox down'); END",
    );
    try {
      const response = await t.call("POST", "/api/v1/tags", { body: { label: "Never stored" } });
      expectApiError(response, 500, "INTERNAL_ERROR");
    } finally {
      t.ctx.db.run("DROP TRIGGER refuse_events");
    }
    expect(count("SELECT count(*) AS n FROM tags")).toBe(tagsBefore);
    expect(count("SELECT count(*) AS n FROM activity")).toBe(activityBefore);
  });

  test("in the same transaction: when the activity insert fails, a delete is undone", async () => {
    const { id } = (await t.call("POST", "/api/v1/tags", { body: { label: "Survivor" } })).body.data;
    const eventsBefore = count("SELECT count(*) AS n FROM events");
    t.ctx.db.run(
      "CREATE TEMP TRIGGER refuse_activity BEFORE INSERT ON activity BEGIN SELECT RAISE(ABORT, 'audit down'); END",
    );
    try {
      expectApiError(await t.call("DELETE", `/api/v1/tags/${id}`), 500, "INTERNAL_ERROR");
    } finally {
      t.ctx.db.run("DROP TRIGGER refuse_activity");
    }
    expect(count("SELECT count(*) AS n FROM tags WHERE id = ?", id)).toBe(1);
    expect(count("SELECT count(*) AS n FROM events")).toBe(eventsBefore);
  });
});
