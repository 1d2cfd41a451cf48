import { recordActivity } from "../activity/service";
import { type Db, inTransaction } from "../db/connection";
import { validationError } from "../http/errors";
import { importBoardExport } from "./board-export";
import { CsvError, parseCsv } from "./csv";
import { importCsvRows } from "./csv-import";
import { type ImportInput, type ImportResult, MAX_IMPORT_ROWS } from "./schema";

export { exportProject } from "./board-export";

/** The rows of a CSV import: parsed from `csv` text, or given as `data`; at most MAX_IMPORT_ROWS. */
export function csvRowsOf(input: Pick<ImportInput, "csv" | "data">): Record<string, unknown>[] {
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
 * POST /import. Every row is a savepoint of its own directly in the group-commit transaction, so a bad
 * row is reported and skipped, the good rows are kept, and all of them (embeddings and events included)
 * commit together in one commit after this synchronous call. No savepoint wraps the whole import: SQLite
 * journals pages again for every savepoint nested in an open one, which made a 10,000-row import
 * quadratic (docs/reporting.md).
 */
export function importData(db: Db, projectId: string, input: ImportInput): ImportResult {
  const source = input.source ?? "csv";
  if (source === "board-export" && input.csv !== undefined) {
    throw validationError("csv", "is for source csv only");
  }
  if (source === "csv" && input.data === undefined && input.csv === undefined) {
    throw validationError("data", "is required");
  }
  const result =
    source === "csv"
      ? importCsvRows(db, projectId, csvRowsOf(input))
      : importBoardExport(db, projectId, input.data);
  inTransaction(db, () =>
    recordActivity(db, projectId, {
      action: "imported",
      entityType: "import",
      entityId: null,
      metadata: { source, imported: result.imported, skipped: result.skipped },
    }),
  );
  return result;
}
