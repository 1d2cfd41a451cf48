import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses } from "../http/schemas";
import { BoardExportSchema, ImportResultSchema, ImportSchema } from "./schema";
import { exportProject, importData } from "./service";

export function importRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1", "Import and export")
    .post("/import", async ({ project, body }) => ({ data: await importData(db, project.id, body) }), {
      body: ImportSchema,
      response: {
        200: dataOf(ImportResultSchema, "What was imported and what was not"),
        ...errorResponses(400, 413),
      },
      detail: {
        summary: "Import posts",
        description:
          "`source: csv` (default): up to 10,000 rows in `data` (or CSV text in `csv`), each with `title` and " +
          "optionally `id` (its id where it came from: a row whose id was imported before is skipped and counted " +
          "in `alreadyImported`; two rows with one id are an error), `description`, `status`, `votes` (a count), " +
          "`tags` (names, comma separated, created when missing), `author_email`, `author_name`, `created_at`, " +
          "`comments` (one per line); at most 100,000 votes in all; other columns are named in `unreadColumns`. " +
          "`source: board-export`: the document of GET /export, at most 10,000 posts and 50,000 " +
          "entities; importing the same export again creates nothing twice. A bad row is " +
          "reported in `errors` (1-based `row`) and skipped; the good rows are kept. Body up to 10 MiB.",
      },
    })
    .get("/export", ({ project }) => ({ data: exportProject(db, project) }), {
      response: { 200: dataOf(BoardExportSchema, "The whole project"), ...errorResponses() },
      detail: {
        summary: "Export the project",
        description:
          "Posts, tags, votes, comments, board users, releases and activity in the board-export format " +
          "(docs/export-format.md), which POST /import reads back with `source: board-export`.",
      },
    });
}
