import type { AppContext } from "../context";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses } from "../http/schemas";
import { IMPORT_BODY_LIMIT } from "../http/body";
import {
  BoardExportSchema,
  CSV_COLUMNS_MARKDOWN,
  ImportResultSchema,
  ImportSchema,
  MAX_EXPORT_ENTITIES,
  MAX_IMPORT_ROWS,
  MAX_VOTES_PER_IMPORT,
} from "./schema";
import { exportProject, importData } from "./service";

const count = (value: number) => value.toLocaleString("en-US");

/** The import's reference text, from the limits and the column description the import itself reads. */
const IMPORT_DESCRIPTION =
  `\`source: csv\` (default): up to ${count(MAX_IMPORT_ROWS)} rows in \`data\` (or CSV text with a header ` +
  "row in `csv`). The columns:\n\n" +
  `${CSV_COLUMNS_MARKDOWN}\n\n` +
  `At most ${count(MAX_VOTES_PER_IMPORT)} votes in all; other columns are named in \`unreadColumns\`. ` +
  "Two rows with one `id` are an error.\n\n" +
  `\`source: board-export\`: the document of GET /export, at most ${count(MAX_IMPORT_ROWS)} posts and ` +
  `${count(MAX_EXPORT_ENTITIES)} entities; importing the same export again creates nothing twice.\n\n` +
  "A bad row is reported in `errors` (1-based `row`) and skipped; the good rows are kept. " +
  `Body up to ${IMPORT_BODY_LIMIT / (1024 * 1024)} MiB.`;

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
        description: IMPORT_DESCRIPTION,
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
