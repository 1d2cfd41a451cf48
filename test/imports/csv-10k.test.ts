import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../support/app";

// A file of its own: the fixture is large, and other tests should not wait for its clean-up.
const t = createTestApp();
afterAll(() => t.close());

const count = (sql: string, ...params: string[]) =>
  t.ctx.db.query<{ n: number }, string[]>(sql).get(...params)?.n ?? 0;
const projectId = t.project.project.id;

test("10,000 rows with 3 bad ones: 9,997 posts, 3 errors naming their rows", async () => {
  const rows: Record<string, unknown>[] = Array.from({ length: 10_000 }, (_, index) => ({
    title: `Imported request ${index + 1}`,
    description: "From the old board",
    tags: index % 2 === 0 ? "mobile" : "web, api",
  }));
  rows[99] = { description: "no title" };
  rows[4999] = { title: "bad status", status: "SOMEDAY" };
  rows[9999] = { title: "bad votes", votes: "-2" };
  const response = await t.call("POST", "/api/v1/import", { body: { source: "csv", data: rows } });
  expect(response.status).toBe(200);
  expect(response.body.data.imported).toBe(9997);
  expect(response.body.data.skipped).toBe(3);
  expect(response.body.data.errors).toEqual([
    { row: 100, error_code: "VALIDATION_ERROR", message: expect.stringContaining("title") },
    { row: 5000, error_code: "VALIDATION_ERROR", message: expect.stringContaining("status") },
    { row: 10000, error_code: "VALIDATION_ERROR", message: expect.stringContaining("votes") },
  ]);
  expect(count("SELECT count(*) AS n FROM posts WHERE project_id = ?", projectId)).toBe(9997);
  expect(count("SELECT count(*) AS n FROM tags WHERE project_id = ?", projectId)).toBe(3);
  expect(
    count("SELECT count(*) AS n FROM events WHERE type = 'post.created' AND project_id = ?", projectId),
  ).toBeGreaterThanOrEqual(9997);
});

test("a large import writes in slices: other work runs between them and sees the import part done", async () => {
  const rows = Array.from({ length: 3_000 }, (_, index) => ({ title: `Sliced request ${index + 1}` }));
  const sliced = "SELECT count(*) AS n FROM posts WHERE project_id = ? AND title LIKE 'Sliced request %'";
  let finished = false;
  const imported = t
    .call("POST", "/api/v1/import", { body: { source: "csv", data: rows } })
    .then((response) => {
      finished = true;
      return response;
    });
  // Between slices the event loop turns: work scheduled meanwhile runs, and sees some rows but not all.
  // One long synchronous import would show 0, then all 3,000 at once.
  const seen = new Set<number>();
  while (!finished) {
    seen.add(count(sliced, projectId));
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect((await imported).status).toBe(200);
  expect([...seen].some((n) => n > 0 && n < 3_000)).toBe(true);
  expect(count(sliced, projectId)).toBe(3_000);
});
