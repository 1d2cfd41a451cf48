import { type Static, t } from "elysia";
import { ActivityEntrySchema } from "../activity/schema";
import { BodyInteger, DateTime, Enum, Id } from "../http/schemas";
import { MetadataSchema, POST_STATUSES, PostStatusSchema, STATUS_LABELS } from "../posts/schema";
import { ReleaseSchema } from "../releases/schema";
import { TagSchema } from "../tags/schema";
import { BoardUserSchema, Email } from "../users/schema";
import { LIMITS } from "../http/limits";

export const MAX_IMPORT_ROWS = 10_000;
/** Tags, users, posts, votes, comments and releases one board-export import may hold (activity aside). */
export const MAX_EXPORT_ENTITIES = 50_000;
export const EXPORT_FORMAT = "featureboard.board-export";
export const EXPORT_VERSION = 1;

// ---- the board-export format (docs/export-format.md) ----

export const ExportPostSchema = t.Object(
  {
    id: Id,
    title: t.String({ minLength: 1, maxLength: LIMITS.postTitleLength }),
    description: t.Nullable(t.String({ maxLength: LIMITS.postDescriptionLength })),
    status: PostStatusSchema,
    voteCount: t.Optional(
      BodyInteger({ description: "Informational: an import counts the votes it creates" }),
    ),
    metadata: MetadataSchema,
    createdAt: DateTime,
    updatedAt: DateTime,
    releaseId: t.Nullable(Id),
    mergedIntoId: t.Nullable(Id),
    createdByBoardUserId: t.Nullable(Id),
    tagIds: t.Array(Id, { maxItems: LIMITS.tagsPerPost, uniqueItems: true }),
  },
  { title: "ExportPost" },
);
export type ExportPost = Static<typeof ExportPostSchema>;

export const ExportVoteSchema = t.Object(
  {
    id: Id,
    postId: Id,
    boardUserId: t.Nullable(Id),
    anonymousId: t.Nullable(t.String({ minLength: 1, maxLength: LIMITS.anonymousIdLength })),
    createdAt: DateTime,
  },
  { title: "ExportVote" },
);
export type ExportVote = Static<typeof ExportVoteSchema>;

export const ExportCommentSchema = t.Object(
  {
    id: Id,
    postId: Id,
    body: t.String({ minLength: 1, maxLength: LIMITS.commentLength }),
    authorName: t.Nullable(t.String({ maxLength: LIMITS.personNameLength })),
    isInternalNote: t.Boolean(),
    boardUserId: t.Nullable(Id),
    anonymousId: t.Nullable(t.String({ maxLength: LIMITS.anonymousIdLength })),
    createdAt: DateTime,
  },
  { title: "ExportComment" },
);
export type ExportComment = Static<typeof ExportCommentSchema>;

/** What an import reads of a tag, a user and a release: the API's own shapes, checked as strictly. */
export const ExportTagSchema = t.Object({
  id: Id,
  label: t.String({ minLength: 1, maxLength: LIMITS.tagLabelLength }),
  theme: t.String({
    pattern: "^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$",
    error: "must be a hex colour such as #6366f1",
  }),
  createdAt: DateTime,
});
export type ExportTag = Static<typeof ExportTagSchema>;
export const ExportUserSchema = t.Object({
  id: Id,
  email: t.Nullable(Email),
  name: t.Nullable(t.String({ maxLength: LIMITS.personNameLength })),
  avatarUrl: t.Nullable(
    t.String({ maxLength: LIMITS.urlLength, pattern: "^https?://", error: "must be an http(s) URL" }),
  ),
  userSpend: t.String({
    pattern: "^\\d{1,10}(\\.\\d{1,2})?$",
    error: "must be an amount such as 49.90 (at most two decimals)",
  }),
  createdAt: DateTime,
});
export type ExportUser = Static<typeof ExportUserSchema>;
export const ExportReleaseSchema = t.Object({
  id: Id,
  title: t.String({ minLength: 1, maxLength: LIMITS.releaseTitleLength }),
  content: t.Nullable(t.String({ maxLength: LIMITS.releaseContentLength })),
  label: t.Nullable(t.String({ maxLength: LIMITS.releaseLabelLength })),
  isDraft: t.Boolean(),
  publishedAt: t.Nullable(DateTime),
  postIds: t.Array(Id, { maxItems: LIMITS.releasePosts, uniqueItems: true }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export type ExportRelease = Static<typeof ExportReleaseSchema>;

export const BoardExportSchema = t.Object(
  {
    format: t.Literal(EXPORT_FORMAT),
    version: t.Literal(EXPORT_VERSION),
    exportedAt: DateTime,
    project: t.Object({ id: Id, slug: t.String(), name: t.String() }),
    tags: t.Array(TagSchema),
    users: t.Array(BoardUserSchema),
    posts: t.Array(ExportPostSchema),
    votes: t.Array(ExportVoteSchema),
    comments: t.Array(ExportCommentSchema),
    releases: t.Array(ReleaseSchema),
    activity: t.Array(ActivityEntrySchema),
  },
  { title: "BoardExport", description: "The whole project; format in docs/export-format.md" },
);
export type BoardExport = Static<typeof BoardExportSchema>;

// ---- the CSV columns (docs/export-format.md, "CSV rows") ----

/** Anonymous votes one csv row may ask for: a `votes` count is turned into that many vote rows. */
export const MAX_VOTES_PER_ROW = 10_000;
/** Vote rows one import request may create across its rows, so a small file cannot hold the server. */
export const MAX_VOTES_PER_IMPORT = 100_000;

const count = (value: number) => value.toLocaleString("en-US");

/**
 * One column a CSV import reads: whether a row needs it, what it takes (in the words the Import screen
 * shows), the longest text it takes (for `tags` and `comments`: each tag's, each comment's), and its cells
 * in the two example rows of the dashboard's template CSV, which the import must accept as they are.
 */
export interface CsvColumn {
  required: boolean;
  accepts: string;
  maxLength?: number;
  examples: readonly [string, string];
}

/**
 * The columns a CSV import reads, in the template's order: the one description that the import's row
 * reader (csv-import.ts), the Import screen's column list and the template CSV all read, so none of them can
 * name a column or a rule the others do not have.
 */
export const CSV_COLUMNS = {
  id: {
    required: false,
    maxLength: LIMITS.idLength,
    accepts:
      `The request's id in the tool it came from (text or a number, up to ${LIMITS.idLength} characters); ` +
      "a row whose id was imported into this project before is skipped, so a file can be imported again",
    examples: ["example-1", "example-2"],
  },
  title: {
    required: true,
    maxLength: LIMITS.postTitleLength,
    accepts: `Text, up to ${count(LIMITS.postTitleLength)} characters`,
    examples: ["Dark mode", "Export requests to PDF"],
  },
  description: {
    required: false,
    maxLength: LIMITS.postDescriptionLength,
    accepts: `Text, up to ${count(LIMITS.postDescriptionLength)} characters`,
    examples: ["A dark theme for the board, the widget and emails.", ""],
  },
  status: {
    required: false,
    accepts:
      `One of ${POST_STATUSES.join(", ")}, or as the board shows them: ` +
      `${POST_STATUSES.map((status) => STATUS_LABELS[status]).join(", ")} (any case; ` +
      `"in progress" is IN_PROGRESS); default ${POST_STATUSES[0]}`,
    examples: [STATUS_LABELS.APPROVED, "in progress"],
  },
  votes: {
    required: false,
    accepts: `A whole number from 0 to ${count(MAX_VOTES_PER_ROW)}: that many anonymous votes; default 0`,
    examples: ["12", "3"],
  },
  tags: {
    required: false,
    maxLength: LIMITS.tagLabelLength,
    accepts:
      `Tag names separated by commas, each up to ${LIMITS.tagLabelLength} characters; found by name in any ` +
      "case, created when missing",
    examples: ["UI, Themes", "Export"],
  },
  author_email: {
    required: false,
    maxLength: LIMITS.emailLength,
    accepts: "An email address: the board user who asked (found, or created), who is subscribed to it",
    examples: ["ada@example.com", ""],
  },
  author_name: {
    required: false,
    maxLength: LIMITS.personNameLength,
    accepts: `The name of the user author_email creates, up to ${LIMITS.personNameLength} characters; ignored without author_email`,
    examples: ["Ada Lovelace", ""],
  },
  created_at: {
    required: false,
    accepts: "An ISO 8601 date or date-time, such as 2024-05-01 or 2024-05-01T10:00:00Z; default now",
    examples: ["2024-05-01T10:00:00Z", "2024-06-15"],
  },
  comments: {
    required: false,
    maxLength: LIMITS.commentLength,
    accepts: `Comments, one per line of the cell, each up to ${count(LIMITS.commentLength)} characters`,
    examples: ["Yes please!\nMy eyes would thank you.", ""],
  },
} as const satisfies Record<string, CsvColumn>;

/** The columns as a list, each with its name, in the order CSV_COLUMNS gives them. */
export const CSV_COLUMN_LIST: readonly (CsvColumn & { name: string })[] = Object.entries(CSV_COLUMNS).map(
  ([name, column]) => ({ name, ...column }),
);

// ---- POST /import ----

/**
 * The CSV columns for the API document, one Markdown list item each with what it accepts: the words the
 * Import screen shows, so the API reference cannot describe a column the import does not read.
 */
export const CSV_COLUMNS_MARKDOWN = CSV_COLUMN_LIST.map(
  (column) => `- \`${column.name}\` (${column.required ? "required" : "optional"}): ${column.accepts}.`,
).join("\n");

/** The CSV columns named in the API document, the required ones or the others. */
const columnNames = (required: boolean) =>
  CSV_COLUMN_LIST.filter((column) => column.required === required)
    .map((column) => `\`${column.name}\``)
    .join(", ");

/**
 * One row: any object (its fields are read and checked row by row by the import). An object open to any
 * property, not a record of strings to unknowns: a record's check tests every key against its pattern,
 * 12-17 ms on the event loop for 10,000 rows, against under 1 ms (issue 19; docs/performance.md).
 */
const Row = t.Object({}, { additionalProperties: true });

export const ImportSchema = t.Object({
  source: t.Optional(
    Enum(["csv", "board-export"], {
      description: "`csv` (default): rows; `board-export`: a GET /export document",
    }),
  ),
  data: t.Optional(
    t.Union([t.Array(Row, { maxItems: MAX_IMPORT_ROWS }), Row], {
      description: `csv: up to 10,000 row objects (${columnNames(true)} required; ${columnNames(false)}). board-export: the export document (or an array holding it).`,
    }),
  ),
  csv: t.Optional(
    t.String({ description: "An addition: CSV text with a header row, instead of `data` (source csv only)" }),
  ),
});
export type ImportInput = Static<typeof ImportSchema>;

export const ImportErrorSchema = t.Object({
  row: t.Integer({ description: "1-based position of the row (or, for board-export, within its list)" }),
  entity: t.Optional(t.String({ description: "board-export only: the list the row is in (posts, votes…)" })),
  line: t.Optional(
    t.Integer({
      description:
        "`csv` text only: the line of the file the row starts on (the header is line 1; a quoted cell may span lines)",
    }),
  ),
  error_code: t.String(),
  message: t.String(),
});
export type ImportError = Static<typeof ImportErrorSchema>;

const Counts = t.Object({
  tags: t.Integer(),
  users: t.Integer(),
  posts: t.Integer(),
  votes: t.Integer(),
  comments: t.Integer(),
  releases: t.Integer(),
});
export type EntityCounts = Static<typeof Counts>;

export const ImportResultSchema = t.Object({
  imported: t.Integer({ description: "csv: posts created; board-export: entities created" }),
  skipped: t.Integer({
    description: "Rows not imported: bad ones, and ones imported before (csv: by their `id`; board-export)",
  }),
  errors: t.Array(ImportErrorSchema),
  alreadyImported: t.Optional(
    t.Integer({
      description:
        "csv: rows skipped because a row with their `id` was imported into this project before (counted in " +
        "`skipped`, not in `errors`)",
    }),
  ),
  unreadColumns: t.Optional(
    t.Array(t.String(), {
      description:
        "csv: the columns no field is read from (their cells were ignored), in the order they first appear; " +
        "at most 100 named",
    }),
  ),
  created: t.Optional(
    t.Object(Counts.properties, { description: "board-export: what was created, by kind" }),
  ),
});
export type ImportResult = Static<typeof ImportResultSchema>;
