import { recordActivity } from "../activity/service";
import { beforeNextSlice, type Db, inTransaction, whenCommitted, whenWritable } from "../db/connection";
import { bodyError, validationError } from "../http/errors";
import { importBoardExport, isBoardExportDocument, isThisExportFormat } from "./board-export";
import { CsvError, type CsvRows, csvText, parseCsv } from "./csv";
import { checkCsvImport, type CsvImportPlan, importCsvSlice } from "./csv-import";
import { nextTurn } from "../turns";
import {
  CSV_COLUMN_LIST,
  type ImportError,
  type ImportInput,
  type ImportResult,
  MAX_IMPORT_ROWS,
} from "./schema";

export { exportProject } from "./board-export";

/** The rows of a CSV import and, for CSV text, the line of the file each row starts on. */
export interface CsvImportRows {
  rows: readonly Record<string, unknown>[];
  lines: readonly number[] | null;
}

/**
 * The rows of a CSV import: parsed from `csv` text (a step at a time, csv.ts), or given as `data`; at
 * most MAX_IMPORT_ROWS.
 */
export async function csvRowsOf(input: Pick<ImportInput, "csv" | "data">): Promise<CsvImportRows> {
  if (input.csv !== undefined) {
    if (input.data !== undefined) throw bodyError("give either data or csv, not both");
    let parsed: CsvRows;
    try {
      parsed = await parseCsv(input.csv);
    } catch (error) {
      if (error instanceof CsvError) throw validationError("csv", error.message);
      throw error;
    }
    if (parsed.rows.length > MAX_IMPORT_ROWS)
      throw validationError("csv", `must have at most ${MAX_IMPORT_ROWS} rows`);
    return parsed;
  }
  if (!Array.isArray(input.data)) throw validationError("data", "must be an array of rows for source csv");
  return { rows: input.data, lines: null };
}

/**
 * The template CSV the dashboard's Import screen offers: a header with every column the import reads and
 * two example rows, both built from CSV_COLUMNS (schema.ts), so the template is what the import accepts.
 */
export function csvImportTemplate(): string {
  return csvText([
    CSV_COLUMN_LIST.map((column) => column.name),
    CSV_COLUMN_LIST.map((column) => column.examples[0]),
    CSV_COLUMN_LIST.map((column) => column.examples[1]),
  ]);
}

/**
 * How long one slice of an import may hold the event loop: requests that arrive meanwhile wait at most
 * about this long and its commit (issue 19: no slice longer than ~10 ms; at 8 ms, slice and commit held
 * the loop 12-23 ms). A slice is cut by time, not by a row count, because a row's cost varies (tags,
 * votes, comments) and so does the machine.
 */
export const IMPORT_SLICE_MS = 5;

export interface SliceHooks {
  /** Runs each slice's synchronous writes (the dashboard wraps them in `actAs`). */
  around?: <T>(write: () => T) => T;
  /**
   * After each slice is committed (and synced): how far the import got, and the slice's rows found imported
   * before and its bad rows. Called in slice order.
   */
  progress?: (done: number, imported: number, alreadyImported: number, errors: ImportError[]) => void;
}

/** The rows checked in steps (checkCsvImport), from a turn of its own: the body's parse and validation have just held the loop. */
async function checkRows(rows: readonly Record<string, unknown>[]): Promise<CsvImportPlan> {
  await nextTurn();
  return checkCsvImport(rows, nextTurn, IMPORT_SLICE_MS);
}

/**
 * A CSV import in slices of IMPORT_SLICE_MS: checked whole first (nothing is written for a bad file),
 * then each slice's rows are written (a savepoint per row, so a bad row is reported and skipped) and
 * committed, with the event loop free between slices, so a 10,000-row import never holds up other
 * requests for long (docs/reporting.md).
 */
export async function importCsvInSlices(
  db: Db,
  projectId: string,
  { rows, lines }: CsvImportRows,
  hooks: SliceHooks = {},
  checked?: CsvImportPlan,
): Promise<ImportResult> {
  const plan = checked ?? (await checkRows(rows));
  // A row of CSV text is also said by its line in the file: what a spreadsheet shows.
  const located = (rowErrors: ImportError[]) =>
    lines ? rowErrors.map((error) => ({ ...error, line: lines[error.row - 1] })) : rowErrors;
  const around = hooks.around ?? (<T>(write: () => T) => write());
  const errors: ImportError[] = [];
  let imported = 0;
  let alreadyImported = 0;
  // Each slice commits on its own turn (group commit); the next slice is written while that commit's WAL
  // sync runs off the event loop (docs/decisions.md, "Durability"). Progress is reported once a slice is
  // committed and synced, and the import answers once every slice is.
  const commits: Promise<void>[] = [];
  const failures: unknown[] = [];
  for (let offset = 0; offset < rows.length && failures.length === 0;) {
    // Before each slice, the first included: the check of the rows has just held the loop.
    await beforeNextSlice(db);
    await whenWritable(db);
    const until = performance.now() + IMPORT_SLICE_MS;
    const slice = around(() => importCsvSlice(db, projectId, rows, plan, offset, until));
    const sliceErrors = located(slice.errors);
    offset += slice.written;
    imported += slice.imported;
    alreadyImported += slice.alreadyImported;
    errors.push(...sliceErrors);
    const reached = { done: offset, imported };
    commits.push(
      whenCommitted(db).then(
        () => hooks.progress?.(reached.done, reached.imported, slice.alreadyImported, sliceErrors),
        (error: unknown) => {
          failures.push(error);
        },
      ),
    );
  }
  await Promise.all(commits);
  if (failures.length > 0) throw failures[0];
  return {
    imported,
    skipped: alreadyImported + errors.length,
    errors,
    alreadyImported,
    unreadColumns: plan.unreadColumns,
  };
}

function recordImport(
  db: Db,
  projectId: string,
  source: string,
  result: ImportResult,
  importId: string | null,
) {
  inTransaction(db, () =>
    recordActivity(db, projectId, {
      action: "imported",
      entityType: "import",
      entityId: importId,
      metadata: { source, imported: result.imported, skipped: result.skipped },
    }),
  );
}

/**
 * POST /import. A CSV is written in committed slices (importCsvInSlices); a board export in one go, each
 * row a savepoint of its own directly in the group-commit transaction. No savepoint wraps a whole import:
 * SQLite journals pages again for every savepoint nested in an open one, which made a 10,000-row import
 * quadratic (docs/reporting.md).
 */
export async function importData(db: Db, projectId: string, input: ImportInput): Promise<ImportResult> {
  const source = input.source ?? "csv";
  if (source === "board-export" && input.csv !== undefined) {
    throw validationError("csv", "is for source csv only");
  }
  if (input.data === undefined && (source === "board-export" || input.csv === undefined)) {
    throw validationError("data", "is required");
  }
  // An array of rows (each with a title, as the specification gives `data`) is read as a CSV's rows are,
  // whichever the source: another board's export, row by row. A board-export document is read whole.
  if (source === "board-export" && isBoardExportDocument(input.data)) {
    // Synchronous to the end, so a caller's actAs covers every entry it records.
    const result = importBoardExport(db, projectId, input.data);
    recordImport(db, projectId, source, result, null);
    return result;
  }
  const result = await importCsvInSlices(db, projectId, await csvRowsOf(input));
  recordImport(db, projectId, source, result, null);
  return result;
}

/**
 * Whether `importData` refuses `data` (source board-export) as no board export of this format and version:
 * read as a document, not as rows, and of another format or version. The dashboard words that refusal for
 * a person (docs/dashboard.md, "Import"); the API's message stays as it is.
 */
export function isForeignBoardExport(data: unknown): boolean {
  return isBoardExportDocument(data) && !isThisExportFormat(data);
}

/** The activity entry of a finished dashboard import job. */
export function recordImportJob(db: Db, projectId: string, result: ImportResult, importId: string): void {
  recordImport(db, projectId, "csv", result, importId);
}
