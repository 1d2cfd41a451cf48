import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError } from "../support/app";
import { makeTag, watchChanges } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());

const count = (sql: string, ...params: string[]) =>
  t.ctx.db.query<{ n: number }, string[]>(sql).get(...params)?.n ?? 0;
const projectId = t.project.project.id;
const postsOf = (id = projectId) => count("SELECT count(*) AS n FROM posts WHERE project_id = ?", id);

function importRows(body: Record<string, unknown>, key?: string) {
  return t.call("POST", "/api/v1/import", { body, ...(key ? { key } : {}) });
}

async function postTitled(title: string) {
  const listed = await t.call("GET", "/api/v1/posts?limit=100");
  return listed.body.data.find((post: { title: string }) => post.title === title);
}

describe("csv import", () => {
  beforeEach(() => {
    t.ctx.db.run("DELETE FROM posts");
    t.ctx.db.run("DELETE FROM tags");
    t.ctx.db.run("DELETE FROM board_users");
  });

  test("every field: status, votes, tags (created when missing), author, created_at, comments", async () => {
    const existing = await makeTag(t, "Mobile");
    const changes = watchChanges(t);
    const response = await importRows({
      data: [
        {
          title: "  Dark mode  ",
          description: "Please",
          status: "in progress",
          votes: "3",
          tags: "mobile, Desktop ,desktop",
          author_email: "ada@example.com",
          author_name: "Ada",
          created_at: "2024-03-01T12:00:00Z",
          comments: "First!\nSecond",
        },
        { title: "Export to PDF", votes: 0, tags: ["Desktop"], author_email: "ada@example.com" },
        // The word the board and dashboard show for APPROVED.
        { title: "Calendar sync", status: "Planned" },
      ],
    });
    expect(response.body.data).toEqual({
      imported: 3,
      skipped: 0,
      errors: [],
      alreadyImported: 0,
      unreadColumns: [],
    });
    expect((await postTitled("Calendar sync")).status).toBe("APPROVED");

    const dark = await postTitled("Dark mode");
    expect(dark).toMatchObject({
      description: "Please",
      status: "IN_PROGRESS",
      voteCount: 3,
      createdAt: "2024-03-01T12:00:00.000Z",
    });
    expect(dark.tags.map((tag: { label: string }) => tag.label)).toEqual(["Desktop", "Mobile"]);
    expect(dark.tags.find((tag: { label: string }) => tag.label === "Mobile").id).toBe(existing.id);
    expect((await t.call("GET", `/api/v1/posts/${dark.id}/votes`)).body.data).toHaveLength(3);
    const comments = (await t.call("GET", `/api/v1/posts/${dark.id}/comments`)).body.data;
    expect(comments.map((comment: { body: string }) => comment.body)).toEqual(["First!", "Second"]);

    const users = (await t.call("GET", "/api/v1/users")).body.data;
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ email: "ada@example.com", name: "Ada" });
    expect(dark.createdByBoardUserId).toBe(users[0].id);
    expect((await postTitled("Export to PDF")).createdByBoardUserId).toBe(users[0].id);

    // Through the services: each created entity has its event and activity entry.
    const log = changes();
    const types = log.events.map((event) => event.type);
    expect(types.filter((type) => type === "post.created")).toHaveLength(3);
    expect(types.filter((type) => type === "tag.created")).toHaveLength(1);
    // Imported vote counts are history written in bulk, not new votes: no vote.created per vote.
    expect(types.filter((type) => type === "vote.created")).toHaveLength(0);
    expect(types.filter((type) => type === "comment.created")).toHaveLength(2);
    expect(types.filter((type) => type === "user.created")).toHaveLength(1);
    expect(log.activity.at(-1)).toEqual({ action: "imported", entityType: "import", entityId: null });
  });

  test("csv text: header, quoted commas, quotes and line breaks, CRLF", async () => {
    const csv =
      'Title,Description,Tags,Comments\r\n"Sync, but faster","He said ""now""",ops,"one\ntwo"\r\nPlain,,,\r\n,missing title,,\r\n';
    const response = await importRows({ source: "csv", csv });
    expect(response.body.data).toEqual({
      imported: 2,
      skipped: 1,
      // Line 5 of the file: the first row's comments cell spans lines 2 and 3.
      errors: [
        { row: 3, line: 5, error_code: "VALIDATION_ERROR", message: expect.stringContaining("title") },
      ],
      alreadyImported: 0,
      unreadColumns: [],
    });
    const post = await postTitled("Sync, but faster");
    expect(post.description).toBe('He said "now"');
    expect(post.tags.map((tag: { label: string }) => tag.label)).toEqual(["ops"]);
    const comments = (await t.call("GET", `/api/v1/posts/${post.id}/comments`)).body.data;
    expect(comments.map((comment: { body: string }) => comment.body)).toEqual(["one", "two"]);
  });

  test("csv text: a byte-order mark and blank lines are ignored; a stray quote is 400", async () => {
    const response = await importRows({ csv: "\uFEFFtitle,votes\n\nFirst,2\n\nSecond,\n" });
    expect(response.body.data).toEqual({
      imported: 2,
      skipped: 0,
      errors: [],
      alreadyImported: 0,
      unreadColumns: [],
    });
    expect((await postTitled("First")).voteCount).toBe(2);
    const stray = expectApiError(
      await importRows({ csv: 'title\n"quoted" then text\n' }),
      400,
      "VALIDATION_ERROR",
    );
    expect(stray.message).toContain("csv");
    expect(postsOf()).toBe(2);
  });

  test("csv text: a skipped row also gives the line of the file it starts on, after cells that span lines", async () => {
    const csv =
      'title,description,votes\r\nFirst,"Steps:\n1. open\n2. close",1\r\n\r\n,no title,0\r\nLast,,many\r\n';
    const response = await importRows({ csv });
    expect(response.body.data.errors).toEqual([
      { row: 2, line: 6, error_code: "VALIDATION_ERROR", message: expect.stringContaining("title") },
      { row: 3, line: 7, error_code: "VALIDATION_ERROR", message: expect.stringContaining("votes") },
    ]);
    expect(response.body.data.imported).toBe(1);
    // Rows given as `data` have no file, so no line.
    const rows = await importRows({ data: [{ title: "" }] });
    expect(rows.body.data.errors).toEqual([
      { row: 1, error_code: "VALIDATION_ERROR", message: expect.stringContaining("title") },
    ]);
  });

  test("a bad row leaves nothing behind: not its tags, not its user", async () => {
    const response = await importRows({
      data: [{ title: "x", tags: "brand-new", author_email: "new@example.com", created_at: "last tuesday" }],
    });
    expect(response.body.data.errors).toEqual([
      { row: 1, error_code: "VALIDATION_ERROR", message: expect.stringContaining("created_at") },
    ]);
    expect(count("SELECT count(*) AS n FROM tags")).toBe(0);
    expect(count("SELECT count(*) AS n FROM board_users")).toBe(0);
    expect(postsOf()).toBe(0);
  });

  test("request errors are 400 and store nothing", async () => {
    expectApiError(await importRows({}), 400, "VALIDATION_ERROR");
    expectApiError(await importRows({ source: "xml", data: [] }), 400, "VALIDATION_ERROR");
    const tooMany = Array.from({ length: 10_001 }, () => ({ title: "x" }));
    expectApiError(await importRows({ data: tooMany }), 400, "VALIDATION_ERROR");
    expectApiError(await importRows({ data: { title: "not an array" } }), 400, "VALIDATION_ERROR");
    // A row is any object (src/imports/schema.ts), never a number, a string, null or an array.
    for (const row of [1, "title", null, [{ title: "nested" }]]) {
      expectApiError(await importRows({ data: [{ title: "fine" }, row] }), 400, "VALIDATION_ERROR");
    }
    expectApiError(await importRows({ csv: 'title\n"never closed' }), 400, "VALIDATION_ERROR");
    expectApiError(await importRows({ csv: "title\nx", data: [] }), 400, "VALIDATION_ERROR");
    expect(postsOf()).toBe(0);
    expect((await t.call("POST", "/api/v1/import", { body: { data: [] }, key: null })).status).toBe(401);
  });

  test("votes: at most 100,000 across one request (else 400, nothing stored), 10,000 per row", async () => {
    const tooMany = Array.from({ length: 11 }, (_, index) => ({ title: `busy ${index}`, votes: 10_000 }));
    const refused = expectApiError(await importRows({ data: tooMany }), 400, "VALIDATION_ERROR");
    expect(refused.message).toContain("100000");
    expect(postsOf()).toBe(0);
    expect(count("SELECT count(*) AS n FROM votes WHERE project_id = ?", projectId)).toBe(0);

    // The cap itself is accepted, and each post's voteCount equals its vote rows.
    const atCap = [
      ...Array.from({ length: 10 }, (_, index) => ({ title: `popular ${index}`, votes: 10_000 })),
      { title: "one too many", votes: 10_001 },
    ];
    const response = await importRows({ data: atCap });
    expect(response.body.data).toEqual({
      imported: 10,
      skipped: 1,
      errors: [{ row: 11, error_code: "VALIDATION_ERROR", message: expect.stringContaining("votes") }],
      alreadyImported: 0,
      unreadColumns: [],
    });
    expect(count("SELECT count(*) AS n FROM votes WHERE project_id = ?", projectId)).toBe(100_000);
    const mismatched = count(
      `SELECT count(*) AS n FROM posts p WHERE project_id = ?
       AND vote_count != (SELECT count(*) FROM votes v WHERE v.post_id = p.id)`,
      projectId,
    );
    expect(mismatched).toBe(0);
    expect(count("SELECT min(vote_count) AS n FROM posts WHERE project_id = ?", projectId)).toBe(10_000);
  });

  test("the import goes to the key's project only", async () => {
    await importRows({ data: [{ title: "theirs" }] }, t.other.secretKey);
    expect(postsOf()).toBe(0);
    expect(postsOf(t.other.project.id)).toBe(1);
  });
});
