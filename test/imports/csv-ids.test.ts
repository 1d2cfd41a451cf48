import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp } from "../support/app";

// A CSV row's `id` names the request in the tool it came from: importing the same file again creates
// nothing twice (docs/export-format.md, "CSV rows").

const t = createTestApp();
afterAll(() => t.close());

const projectId = t.project.project.id;
const count = (table: "posts" | "votes" | "comments", id = projectId) =>
  t.ctx.db.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${table} WHERE project_id = ?`).get(id)
    ?.n ?? 0;

function importRows(body: Record<string, unknown>, key?: string) {
  return t.call("POST", "/api/v1/import", { body, ...(key ? { key } : {}) });
}

async function titles(key?: string): Promise<string[]> {
  const listed = await t.call("GET", "/api/v1/posts?limit=100", key ? { key } : {});
  return listed.body.data.map((post: { title: string }) => post.title).sort();
}

/** A spreadsheet an admin moves from: ids, votes and comments. */
const SHEET =
  "ID,Title,Votes,Comments\r\n" +
  'cn-1,Dark mode,3,"First!\nSecond"\r\n' +
  "cn-2,Export to PDF,1,\r\n" +
  "cn-3,Calendar sync,0,Please\r\n";

describe("csv rows with an id", () => {
  beforeEach(() => {
    t.ctx.db.run("DELETE FROM posts");
  });

  test("the same CSV imported twice creates nothing the second time: no post, vote or comment", async () => {
    const first = await importRows({ csv: SHEET });
    expect(first.body.data).toEqual({
      imported: 3,
      skipped: 0,
      errors: [],
      alreadyImported: 0,
      unreadColumns: [],
    });
    const stored = { posts: count("posts"), votes: count("votes"), comments: count("comments") };
    expect(stored).toEqual({ posts: 3, votes: 4, comments: 3 });

    const second = await importRows({ csv: SHEET });
    expect(second.status).toBe(200);
    // Skipped with their reason, not as errors.
    expect(second.body.data).toEqual({
      imported: 0,
      skipped: 3,
      errors: [],
      alreadyImported: 3,
      unreadColumns: [],
    });
    expect({ posts: count("posts"), votes: count("votes"), comments: count("comments") }).toEqual(stored);
  });

  test("a file fixed and imported again: only the rows not imported before are created", async () => {
    const broken = "id,title,status\n1,Dark mode,\n2,Export to PDF,SOMEDAY\n3,Calendar sync,\n";
    const first = (await importRows({ csv: broken })).body.data;
    expect(first).toMatchObject({ imported: 2, skipped: 1, alreadyImported: 0 });
    expect(first.errors).toEqual([
      { row: 2, line: 3, error_code: "VALIDATION_ERROR", message: expect.stringContaining("status") },
    ]);
    const fixed = broken.replace("SOMEDAY", "Planned");
    const second = (await importRows({ csv: fixed })).body.data;
    expect(second).toEqual({ imported: 1, skipped: 2, errors: [], alreadyImported: 2, unreadColumns: [] });
    expect(await titles()).toEqual(["Calendar sync", "Dark mode", "Export to PDF"]);
  });

  test("two rows of one file with the same id: the second is a row error naming the first", async () => {
    const response = await importRows({
      data: [
        { id: "7", title: "Dark mode" },
        { id: "8", title: "Export to PDF" },
        // A number and its text are the same id; cells are trimmed.
        { id: 7, title: "Dark theme" },
        { id: " 8 ", title: "PDF export" },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ imported: 2, skipped: 2, alreadyImported: 0 });
    expect(response.body.data.errors).toEqual([
      {
        row: 3,
        error_code: "VALIDATION_ERROR",
        message: expect.stringMatching(/'id'.*row 1 has the same id '7'/),
      },
      {
        row: 4,
        error_code: "VALIDATION_ERROR",
        message: expect.stringMatching(/'id'.*row 2 has the same id '8'/),
      },
    ]);
    expect(await titles()).toEqual(["Dark mode", "Export to PDF"]);
  });

  test("a row without an id is imported again each time the file is (nothing names it)", async () => {
    const sheet = "id,title\nx-1,With an id\n,Without an id\n";
    await importRows({ csv: sheet });
    const second = (await importRows({ csv: sheet })).body.data;
    expect(second).toMatchObject({ imported: 1, skipped: 1, alreadyImported: 1, errors: [] });
    expect(await titles()).toEqual(["With an id", "Without an id", "Without an id"]);
  });

  test("two imports of the same file at once create each request once", async () => {
    const rows = Array.from({ length: 400 }, (_, index) => ({ id: `r${index}`, title: `Request ${index}` }));
    const [one, two] = await Promise.all([importRows({ data: rows }), importRows({ data: rows })]);
    expect(one.body.data.imported + two.body.data.imported).toBe(400);
    expect(one.body.data.alreadyImported + two.body.data.alreadyImported).toBe(400);
    expect(count("posts")).toBe(400);
  });

  test("ids are the project's: another project imports the same file; a deleted post comes back", async () => {
    await importRows({ csv: SHEET });
    const theirs = (await importRows({ csv: SHEET }, t.other.secretKey)).body.data;
    expect(theirs).toMatchObject({ imported: 3, alreadyImported: 0 });
    expect(count("posts", t.other.project.id)).toBe(3);

    const listed = (await t.call("GET", "/api/v1/posts?limit=100")).body.data;
    const dark = listed.find((post: { title: string }) => post.title === "Dark mode");
    expect((await t.call("DELETE", `/api/v1/posts/${dark.id}`)).status).toBe(200);
    const again = (await importRows({ csv: SHEET })).body.data;
    expect(again).toMatchObject({ imported: 1, alreadyImported: 2 });
    expect(await titles()).toEqual(["Calendar sync", "Dark mode", "Export to PDF"]);
  });
});

describe("columns an import does not read", () => {
  beforeEach(() => {
    t.ctx.db.run("DELETE FROM posts");
  });

  test("are named in the result, in the order they first appear; the rows are imported", async () => {
    const csv = "Title,Post URL,Board,votes\nDark mode,https://old.example/p/1,Features,2\n";
    const response = await importRows({ csv });
    expect(response.body.data).toEqual({
      imported: 1,
      skipped: 0,
      errors: [],
      alreadyImported: 0,
      // Header names are read lower-cased.
      unreadColumns: ["post url", "board"],
    });

    const rows = await importRows({
      data: [
        { title: "One", owner: "Ada" },
        { title: "Two", eta: "Q3", owner: "Bo" },
      ],
    });
    expect(rows.body.data.unreadColumns).toEqual(["owner", "eta"]);
    expect(count("posts")).toBe(3);
  });
});
