import { createComment } from "../comments/service";
import { type Db, inTransaction } from "../db/connection";
import { ApiError, validationError } from "../http/errors";
import { LIMITS } from "../http/limits";
import { POST_STATUSES, type PostStatus, STATUS_LABELS } from "../posts/schema";
import { createPost } from "../posts/service";
import { createTag, findTagByLabel } from "../tags/service";
import { castImportedVotes } from "../votes/service";
import { isEmailAddress } from "../users/schema";
import { findUserRowByEmail, upsertUserByEmail } from "../users/service";
import { CSV_COLUMNS, type ImportError, MAX_VOTES_PER_IMPORT, MAX_VOTES_PER_ROW } from "./schema";
import * as store from "./store";

/**
 * A column a row is read by: one that CSV_COLUMNS (schema.ts) describes, so the reader cannot read a column
 * the Import screen and the template do not name. Any other is named in the result's `unreadColumns`.
 */
type ColumnName = keyof typeof CSV_COLUMNS;
const READ_COLUMNS: ReadonlySet<string> = new Set(Object.keys(CSV_COLUMNS));

/**
 * Unread columns one result names: a JSON row may hold any number of keys, and the list is a hint to the
 * admin, not an inventory.
 */
const UNREAD_COLUMNS_LISTED = 100;

interface CsvPost {
  /** The request's id in the tool it came from: a second import of the same row creates nothing. */
  sourceId: string | null;
  title: string;
  description: string | null;
  status: PostStatus | undefined;
  votes: number;
  tags: string[];
  authorEmail: string | null;
  authorName: string | null;
  createdAt: number | undefined;
  comments: { body: string; authorName: string | null }[];
}

/** A cell as it came (text from a CSV; JSON rows may give arrays), of a column CSV_COLUMNS describes. */
function cell(row: Record<string, unknown>, field: ColumnName): unknown {
  return row[field];
}

/** A cell as text: spreadsheets and JSON both reach here, so numbers are accepted where text is meant. */
function text(row: Record<string, unknown>, field: ColumnName): string | null {
  const value = cell(row, field);
  if (value === undefined || value === null) return null;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value !== "string") throw validationError(field, "must be text");
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

function limited(field: ColumnName, value: string | null, max: number): string | null {
  if (value !== null && value.length > max) throw validationError(field, `must be at most ${max} characters`);
  return value;
}

/** "In progress", "in-progress" and "IN_PROGRESS" all name the same status. */
const statusKey = (name: string) => name.toUpperCase().replace(/[\s-]+/g, "_");

/** Each status by its API name and by the word the board and dashboard show for it ("Planned" is APPROVED). */
const STATUS_BY_NAME = new Map<string, PostStatus>(
  POST_STATUSES.flatMap((status) => [
    [statusKey(status), status],
    [statusKey(STATUS_LABELS[status]), status],
  ]),
);

function parseStatus(value: string | null): PostStatus | undefined {
  if (value === null) return undefined;
  const status = STATUS_BY_NAME.get(statusKey(value));
  if (!status) {
    throw validationError(
      "status",
      `must be one of ${POST_STATUSES.join(", ")} (or as the board shows them: ${POST_STATUSES.map((name) => STATUS_LABELS[name]).join(", ")})`,
    );
  }
  return status;
}

function parseVotes(value: string | null): number {
  if (value === null) return 0;
  if (!/^\d+$/.test(value) || Number(value) > MAX_VOTES_PER_ROW) {
    throw validationError("votes", `must be a whole number from 0 to ${MAX_VOTES_PER_ROW}`);
  }
  return Number(value);
}

function parseTags(raw: unknown): string[] {
  const labels = Array.isArray(raw)
    ? raw
    : raw === undefined || raw === null
      ? []
      : typeof raw === "string"
        ? raw.split(",")
        : null;
  if (labels === null || labels.some((label) => typeof label !== "string")) {
    throw validationError("tags", "must be tag names separated by commas");
  }
  const unique = new Map<string, string>();
  for (const label of (labels as string[]).map((each) => each.trim()).filter((each) => each !== "")) {
    if (label.length > CSV_COLUMNS.tags.maxLength)
      throw validationError(
        "tags",
        `'${label.slice(0, 60)}' is longer than ${CSV_COLUMNS.tags.maxLength} characters`,
      );
    // The first spelling of a label wins; tags match case-insensitively anyway.
    if (!unique.has(label.toLowerCase())) unique.set(label.toLowerCase(), label);
  }
  return [...unique.values()];
}

function parseCreatedAt(value: string | null): number | undefined {
  if (value === null) return undefined;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d\d-\d\d/.test(value) || Number.isNaN(ms)) {
    throw validationError(
      "created_at",
      "must be an ISO 8601 date or date-time, such as 2024-05-01T10:00:00Z",
    );
  }
  return ms;
}

/** A text cell holds one comment per line; JSON rows may give an array of texts or of {body, author_name}. */
function parseComments(raw: unknown): CsvPost["comments"] {
  if (raw === undefined || raw === null) return [];
  const items = typeof raw === "string" ? raw.split(/\r?\n/) : Array.isArray(raw) ? raw : null;
  if (items === null) throw validationError("comments", "must be text, one comment per line, or an array");
  const comments: CsvPost["comments"] = [];
  for (const item of items) {
    const { body, authorName } =
      typeof item === "string"
        ? { body: item, authorName: null }
        : typeof item === "object" && item !== null
          ? {
              body: (item as Record<string, unknown>).body,
              authorName: (item as Record<string, unknown>).author_name ?? null,
            }
          : { body: null, authorName: null };
    if (typeof body !== "string" || (authorName !== null && typeof authorName !== "string")) {
      throw validationError("comments", "each comment must be text or {body, author_name}");
    }
    if (body.trim() === "") continue;
    if (body.length > CSV_COLUMNS.comments.maxLength) {
      throw validationError(
        "comments",
        `a comment must be at most ${CSV_COLUMNS.comments.maxLength} characters`,
      );
    }
    comments.push({
      body: body.trim(),
      authorName: limited("comments", authorName, LIMITS.personNameLength),
    });
  }
  return comments;
}

/** Checks a whole row before anything is written: a bad row is reported and leaves nothing behind. */
function readRow(row: Record<string, unknown>): CsvPost {
  const title = limited("title", text(row, "title"), CSV_COLUMNS.title.maxLength);
  if (title === null) throw validationError("title", "is required");
  const authorEmail = limited("author_email", text(row, "author_email"), CSV_COLUMNS.author_email.maxLength);
  if (authorEmail !== null && !isEmailAddress(authorEmail))
    throw validationError("author_email", "must be an email address");
  return {
    sourceId: limited("id", text(row, "id"), CSV_COLUMNS.id.maxLength),
    title,
    description: limited("description", text(row, "description"), CSV_COLUMNS.description.maxLength),
    status: parseStatus(text(row, "status")),
    votes: parseVotes(text(row, "votes")),
    tags: parseTags(cell(row, "tags")),
    authorEmail,
    authorName: limited("author_name", text(row, "author_name"), CSV_COLUMNS.author_name.maxLength),
    createdAt: parseCreatedAt(text(row, "created_at")),
    comments: parseComments(cell(row, "comments")),
  };
}

function tagIdFor(db: Db, projectId: string, label: string, createdAt: number | undefined): string {
  return findTagByLabel(db, projectId, label)?.id ?? createTag(db, projectId, { label }, { createdAt }).id;
}

/** The board user behind an email: the existing one, else a new one (named by `author_name`). */
function authorFor(db: Db, projectId: string, post: CsvPost): string | null {
  if (post.authorEmail === null) return null;
  const existing = findUserRowByEmail(db, projectId, post.authorEmail);
  if (existing) return existing.id;
  return upsertUserByEmail(
    db,
    projectId,
    { email: post.authorEmail, name: post.authorName },
    { createdAt: post.createdAt },
  ).user.id;
}

/**
 * Writes one checked row through the services, so post-creation hooks, activity and events all run; answers
 * the created post's id.
 */
function writeRow(db: Db, projectId: string, post: CsvPost): string {
  const author = authorFor(db, projectId, post);
  const tagIds = post.tags.map((label) => tagIdFor(db, projectId, label, post.createdAt));
  const created = createPost(
    db,
    projectId,
    {
      title: post.title,
      description: post.description,
      ...(post.status ? { status: post.status } : {}),
      tagIds,
      ...(author ? { createdByBoardUserId: author } : {}),
    },
    { createdAt: post.createdAt },
  );
  if (post.votes > 0) {
    castImportedVotes(db, projectId, created.id, post.votes, post.createdAt ?? Date.parse(created.createdAt));
  }
  for (const comment of post.comments) {
    createComment(db, projectId, created.id, comment, { createdAt: post.createdAt });
  }
  return created.id;
}

/** A row whose id another import (of the same file, at the same time) took first: its writes are undone. */
class TakenMeanwhile extends Error {}

/**
 * Imports one row, or finds it imported before by its id. A bad row throws its ApiError; `earlierRow` is the
 * 0-based index of an earlier row of the same file with the same id, which makes this one a bad row.
 */
function importRow(
  db: Db,
  projectId: string,
  row: Record<string, unknown>,
  earlierRow: number | undefined,
): "created" | "already imported" {
  const post = readRow(row);
  const sourceId = post.sourceId;
  if (sourceId === null) {
    inTransaction(db, () => writeRow(db, projectId, post));
    return "created";
  }
  if (earlierRow !== undefined) {
    throw validationError(
      "id",
      `row ${earlierRow + 1} has the same id '${sourceId}'; a request is imported once, so one of them must go`,
    );
  }
  if (store.importedPostOf(db, projectId, "csv", sourceId) !== null) return "already imported";
  try {
    inTransaction(db, () => {
      const postId = writeRow(db, projectId, post);
      if (!store.rememberImportedPost(db, projectId, "csv", sourceId, postId)) throw new TakenMeanwhile();
    });
  } catch (error) {
    if (error instanceof TakenMeanwhile) return "already imported";
    throw error;
  }
  return "created";
}

/** The id cell of a row, or null when it has none (or one its row's own check will refuse). */
function sourceIdOf(row: Record<string, unknown>): string | null {
  try {
    return text(row, "id");
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** What a whole CSV import learns of its rows before writing any: repeated ids and unread columns. */
export interface CsvImportPlan {
  /** Row → the earlier row with the same id (0-based): such a row is a bad row. */
  earlierRowWithId: ReadonlyMap<number, number>;
  unreadColumns: string[];
}

/** How many rows the check goes through between two looks at the clock. */
const ROWS_BETWEEN_CLOCK_READS = 256;

/**
 * What a whole CSV import must satisfy before any row is written, and what it learns of the rows on the
 * way, in one pass: the votes of all rows within MAX_VOTES_PER_IMPORT (else the whole request is refused,
 * nothing written; a `votes` cell that is not a valid count is left to its row's own error), each row whose
 * id an earlier row has already (0-based, with that earlier row), and the columns the import does not read.
 * The pass stops for `pause` whenever it has run `stepMs`: 10,000 rows took 8-16 ms in one piece, on the
 * turn that had just parsed the request's body (issue 19, docs/performance.md).
 */
export async function checkCsvImport(
  rows: readonly Record<string, unknown>[],
  pause: () => Promise<void>,
  stepMs: number,
): Promise<CsvImportPlan> {
  let votes = 0;
  const firstRowOf = new Map<string, number>();
  const earlierRowWithId = new Map<number, number>();
  const seenColumns = new Set<string>();
  const unreadColumns: string[] = [];
  let stepEnds = performance.now() + stepMs;
  for (const [index, row] of rows.entries()) {
    if (index % ROWS_BETWEEN_CLOCK_READS === 0 && performance.now() > stepEnds) {
      await pause();
      stepEnds = performance.now() + stepMs;
    }
    try {
      votes += parseVotes(text(row, "votes"));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
    const id = sourceIdOf(row);
    if (id !== null) {
      const first = firstRowOf.get(id);
      if (first === undefined) firstRowOf.set(id, index);
      else earlierRowWithId.set(index, first);
    }
    for (const column of Object.keys(row)) {
      if (seenColumns.has(column)) continue;
      seenColumns.add(column);
      if (!READ_COLUMNS.has(column) && unreadColumns.length < UNREAD_COLUMNS_LISTED)
        unreadColumns.push(column);
    }
  }
  if (votes > MAX_VOTES_PER_IMPORT) {
    throw validationError(
      "votes",
      `the rows ask for ${votes} votes in total; one import may create at most ${MAX_VOTES_PER_IMPORT}`,
    );
  }
  return { earlierRowWithId, unreadColumns };
}

/**
 * Writes the rows of an import from `offset` on, each in a savepoint of its own, until the clock passes
 * `until` (a performance.now() time) or the rows run out; says how many it went through (`written`), how
 * many it created and how many it found imported before by their id. Errors name rows as the file numbers
 * them (1-based).
 */
export function importCsvSlice(
  db: Db,
  projectId: string,
  rows: readonly Record<string, unknown>[],
  plan: CsvImportPlan,
  offset: number,
  until: number,
): { imported: number; alreadyImported: number; errors: ImportError[]; written: number } {
  const errors: ImportError[] = [];
  let imported = 0;
  let alreadyImported = 0;
  let index = offset;
  // At least one row per slice, however slow, so an import always moves on.
  do {
    try {
      const outcome = importRow(db, projectId, rows[index]!, plan.earlierRowWithId.get(index));
      if (outcome === "created") imported++;
      else alreadyImported++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      errors.push({ row: index + 1, error_code: error.code, message: error.message });
    }
    index++;
  } while (index < rows.length && performance.now() < until);
  return { imported, alreadyImported, errors, written: index - offset };
}
