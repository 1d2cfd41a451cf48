import { recordActivity } from "../activity/store";
import { type Db, inTransaction } from "../db/connection";
import { validationError } from "../http/errors";
import { importBoardExport } from "./board-export";
import { CsvError, parseCsv } from "./csv";
import { importCsvRows } from "./csv-import";
import { type ImportInput, type ImportResult, MAX_IMPORT_ROWS } from "./schema";

export { exportProject } from "./board-export";

function csvRows(input: ImportInput): Record<string, unknown>[] {
  if (input.csv !== undefined) {
    if (input.data !== undefined) throw validationError("body", "give either data or csv, not both");
    let rows: Record<string, unknown>[];
    try {
      rows = parseCsv(input.csv);
    } catch (error) {
      if (error instanceof CsvError) throw validationError("csv", error.message);
      throw error;
    }
    if (rows.length > MAX_IMPORT_ROWS)
      throw validationError("csv", `must have at most ${MAX_IMPORT_ROWS} rows`);
    return rows;
  }
  if (!Array.isArray(input.data)) throw validationError("data", "must be an array of rows for source csv");
  return input.data;
}

/**
 * POST /import: all of it in one transaction (one commit, embeddings and events included), each row in
 * a savepoint of its own, so a bad row is reported and skipped and the good rows are kept.
 */
export function importData(db: Db, projectId: string, input: ImportInput): ImportResult {
  const source = input.source ?? "csv";
  if (source === "board-export" && input.csv !== undefined)
    throw validationError("csv", "is for source csv only");
  if (source === "csv" && input.data === undefined && input.csv === undefined) {
    throw validationError("data", "is required");
  }
  return inTransaction(db, () => {
    const result =
      source === "csv"
        ? importCsvRows(db, projectId, csvRows(input))
        : importBoardExport(db, projectId, input.data);
    recordActivity(db, projectId, {
      action: "imported",
      entityType: "import",
      entityId: null,
      metadata: { source, imported: result.imported, skipped: result.skipped },
    });
    return result;
  });
}
