import type { Static, TSchema } from "elysia";
import { listActivityRows, recordActivity } from "../activity/service";
import { forgetPost } from "../ai/embeddings";
import { createComment } from "../comments/service";
import { type Db, inTransaction } from "../db/connection";
import { appendEvent } from "../events/outbox";
import { ApiError, validationError } from "../http/errors";
import { requireValid } from "../http/validation-message";
import { createPost, findPostRow, listPostRows, tagsOfPosts, toPost } from "../posts/service";
import { createRelease, listAllReleases } from "../releases/service";
import { createTag, findTagByLabel, listTags } from "../tags/service";
import { toCents } from "../users/money";
import * as users from "../users/service";
import { castVote } from "../votes/service";
import {
  type BoardExport,
  type EntityCounts,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  ExportCommentSchema,
  ExportPostSchema,
  ExportReleaseSchema,
  ExportTagSchema,
  ExportUserSchema,
  ExportVoteSchema,
  type ImportError,
  type ImportResult,
  MAX_EXPORT_ENTITIES,
  MAX_IMPORT_ROWS,
} from "./schema";
import * as store from "./store";
import type { MappedEntity } from "./store";

// ---- export ----

/** The whole project in the board-export format (docs/export-format.md); every list oldest first. */
export function exportProject(db: Db, project: { id: string; slug: string; name: string }): BoardExport {
  const projectId = project.id;
  const postRows = listPostRows(db, { projectId }, "date", -1, 0).reverse();
  const tagsByPost = tagsOfPosts(
    db,
    postRows.map((row) => row.id),
  );
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    project: { id: project.id, slug: project.slug, name: project.name },
    tags: listTags(db, projectId),
    users: users.listUserRows(db, projectId, -1, 0).map(users.toBoardUser),
    posts: postRows.map((row) => {
      const { projectId: _project, ...post } = toPost(row);
      return { ...post, tagIds: (tagsByPost.get(row.id) ?? []).map((tag) => tag.id) };
    }),
    votes: store.allVotes(db, projectId),
    comments: store.allComments(db, projectId),
    releases: listAllReleases(db, projectId),
    activity: listActivityRows(db, projectId, {}, -1, 0).reverse(),
  };
}

// ---- import ----

const LISTS = ["tags", "users", "posts", "votes", "comments", "releases"] as const;
type ListName = (typeof LISTS)[number];
const ENTITY_OF: Record<ListName, MappedEntity> = {
  tags: "tag",
  users: "user",
  posts: "post",
  votes: "vote",
  comments: "comment",
  releases: "release",
};

const NOT_FOUND = { tag: "TAG_NOT_FOUND", user: "USER_NOT_FOUND", post: "POST_NOT_FOUND" } as const;
type Referenced = keyof typeof NOT_FOUND;

function missing(entity: Referenced, sourceId: string): ApiError {
  return new ApiError(
    NOT_FOUND[entity],
    `The ${entity} ${sourceId} it refers to is not in the export, or could not be imported`,
    "Fix the referenced entity's own error first, then import the export again: what was imported is kept.",
  );
}

/** The document `data` holds: itself, or the one item of an array holding it (as POST /import takes it). */
function documentIn(data: unknown): unknown {
  return Array.isArray(data) && data.length === 1 ? data[0] : data;
}

/**
 * Whether `data` holds a document of this export's format and version, the one `importBoardExport` reads
 * (docs/export-format.md); anything else it refuses.
 */
export function isThisExportFormat(data: unknown): boolean {
  const document = documentIn(data);
  return (
    typeof document === "object" &&
    document !== null &&
    "format" in document &&
    document.format === EXPORT_FORMAT &&
    "version" in document &&
    document.version === EXPORT_VERSION
  );
}

/** Reads the document, or an array holding it, and refuses anything that is not this format. */
/**
 * Whether `data` is a board-export document (or an array holding the one): what `source: board-export`
 * reads as one. An array of rows (objects without `format`) is read as rows (`importData`).
 */
export function isBoardExportDocument(data: unknown): boolean {
  if (!Array.isArray(data) || data.length === 0) return true;
  const [first] = data;
  return typeof first === "object" && first !== null && "format" in first;
}

function readDocument(data: unknown): Record<string, unknown> {
  const document = documentIn(data);
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw validationError("data", "must be a board-export document (the data of GET /export)");
  }
  const record = document as Record<string, unknown>;
  if (!isThisExportFormat(record)) {
    throw validationError("data", `must have format '${EXPORT_FORMAT}' and version ${EXPORT_VERSION}`);
  }
  let entities = 0;
  for (const list of LISTS) {
    const items = record[list];
    if (items === undefined) continue;
    if (!Array.isArray(items)) throw validationError(`data.${list}`, "must be an array");
    entities += items.length;
  }
  // Checked before anything is written, like the row limit of csv imports, so one request stays short.
  const posts = (record.posts as unknown[] | undefined)?.length ?? 0;
  if (posts > MAX_IMPORT_ROWS)
    throw validationError("data.posts", `must have at most ${MAX_IMPORT_ROWS} posts`);
  if (entities > MAX_EXPORT_ENTITIES) {
    throw validationError(
      "data",
      `holds ${entities} tags, users, posts, votes, comments and releases; one import takes at most ` +
        `${MAX_EXPORT_ENTITIES}: import it in parts (docs/export-format.md)`,
    );
  }
  return record;
}

/**
 * Imports a board export into a project, each entity in its own savepoint of the group-commit transaction.
 * Every entity it creates, or matches (a tag by label, a user by email), is remembered in
 * `import_mappings`, so importing the same export again finds it and creates nothing twice. An export
 * imported into the very project it came from matches every entity that still exists by its own id.
 */
export function importBoardExport(db: Db, projectId: string, data: unknown): ImportResult {
  const document = readDocument(data);
  const list = (name: ListName) => (document[name] as unknown[] | undefined) ?? [];
  const sameProject =
    typeof document.project === "object" &&
    document.project !== null &&
    (document.project as Record<string, unknown>).id === projectId;
  const errors: ImportError[] = [];
  const created: EntityCounts = { tags: 0, users: 0, posts: 0, votes: 0, comments: 0, releases: 0 };
  let skipped = 0;

  const target = (entity: MappedEntity, sourceId: string): string | null =>
    store.mappedId(db, projectId, entity, sourceId) ??
    (sameProject && store.entityExists(db, projectId, entity, sourceId) ? sourceId : null);
  const requireTarget = (entity: Referenced, sourceId: string): string => {
    const id = target(entity, sourceId);
    if (id === null) throw missing(entity, sourceId);
    return id;
  };
  const newlyCreated = new Set<string>();

  /** Imports one list; `create` answers the id of the entity it made or matched, and whether it made one. */
  function each<S extends TSchema & { static: { id: string } }>(
    name: ListName,
    schema: S,
    create: (item: Static<S>) => { id: string; made: boolean },
  ) {
    const entity = ENTITY_OF[name];
    list(name).forEach((item, index) => {
      try {
        const source = requireValid(schema, item, "row");
        if (target(entity, source.id) !== null) {
          skipped++;
          return;
        }
        inTransaction(db, () => {
          const { id, made } = create(source);
          store.rememberMapping(db, projectId, entity, source.id, id);
          if (made) {
            created[name]++;
            newlyCreated.add(id);
          } else skipped++;
        });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        skipped++;
        errors.push({ row: index + 1, entity: name, error_code: error.code, message: error.message });
      }
    });
  }

  const ms = (value: string) => Date.parse(value);

  each("tags", ExportTagSchema, (tag) => {
    const existing = findTagByLabel(db, projectId, tag.label);
    if (existing) return { id: existing.id, made: false };
    return {
      id: createTag(db, projectId, { label: tag.label, theme: tag.theme }, { createdAt: ms(tag.createdAt) })
        .id,
      made: true,
    };
  });

  each("users", ExportUserSchema, (user) => {
    const origin = { createdAt: ms(user.createdAt) };
    if (user.email === null)
      return { id: createUserWithoutEmail(db, projectId, user, origin.createdAt), made: true };
    const existing = users.findUserRowByEmail(db, projectId, user.email);
    if (existing) return { id: existing.id, made: false };
    const input = {
      email: user.email,
      name: user.name,
      avatarUrl: user.avatarUrl,
      userSpend: Number(user.userSpend),
    };
    return { id: users.upsertUserByEmail(db, projectId, input, origin).user.id, made: true };
  });

  const postRows = list("posts");
  const posts = postRows.flatMap((row) => postLinksOf(row) ?? []);
  each("posts", ExportPostSchema, (post) => {
    const author =
      post.createdByBoardUserId === null ? undefined : requireTarget("user", post.createdByBoardUserId);
    const made = createPost(
      db,
      projectId,
      {
        title: post.title,
        description: post.description,
        status: post.status,
        metadata: post.metadata,
        tagIds: post.tagIds.map((tagId) => requireTarget("tag", tagId)),
        ...(author === undefined ? {} : { createdByBoardUserId: author }),
      },
      { createdAt: ms(post.createdAt), updatedAt: ms(post.updatedAt) },
    );
    return { id: made.id, made: true };
  });
  // Merge links need both posts, so they follow once every post exists.
  inTransaction(db, () => {
    postRows.forEach((row, index) => {
      const post = postLinksOf(row);
      if (post === null || typeof post.id !== "string" || typeof post.mergedIntoId !== "string") return;
      const postId = target("post", post.id);
      const intoId = target("post", post.mergedIntoId);
      // Either end new: the link is made, also when its target arrives in a later import than the post.
      if (postId === null || intoId === null || !(newlyCreated.has(postId) || newlyCreated.has(intoId)))
        return;
      const refusal = mergeRefusal(db, projectId, postId, intoId);
      if (refusal !== null) {
        errors.push({ row: index + 1, entity: "posts", error_code: "VALIDATION_ERROR", message: refusal });
        return;
      }
      store.setMergedInto(db, projectId, postId, intoId);
      // A merged post is a known duplicate: like a merge over the API, it leaves similarity search.
      forgetPost(db, postId);
    });
  });

  each("votes", ExportVoteSchema, (vote) => {
    const postId = requireTarget("post", vote.postId);
    const voter =
      vote.boardUserId !== null
        ? { boardUserId: requireTarget("user", vote.boardUserId) }
        : vote.anonymousId !== null
          ? { anonymousId: vote.anonymousId }
          : {};
    return { id: castVote(db, projectId, postId, voter, { createdAt: ms(vote.createdAt) }).id, made: true };
  });

  each("comments", ExportCommentSchema, (comment) => {
    const made = createComment(
      db,
      projectId,
      requireTarget("post", comment.postId),
      {
        body: comment.body,
        authorName: comment.authorName,
        isInternalNote: comment.isInternalNote,
        boardUserId: comment.boardUserId === null ? null : requireTarget("user", comment.boardUserId),
        anonymousId: comment.anonymousId,
      },
      { createdAt: ms(comment.createdAt) },
    );
    return { id: made.id, made: true };
  });

  each("releases", ExportReleaseSchema, (release) => {
    const made = createRelease(
      db,
      projectId,
      {
        title: release.title,
        content: release.content,
        label: release.label,
        isDraft: release.isDraft,
        postIds: release.postIds.map((postId) => requireTarget("post", postId)),
      },
      {
        createdAt: ms(release.createdAt),
        updatedAt: ms(release.updatedAt),
        publishedAt: release.publishedAt === null ? null : ms(release.publishedAt),
        restored: true,
      },
    );
    // The posts that named this release name the new one.
    for (const post of posts) {
      if (post.releaseId !== release.id || typeof post.id !== "string") continue;
      const postId = target("post", post.id);
      if (postId !== null) store.setPostRelease(db, projectId, postId, made.id);
    }
    return { id: made.id, made: true };
  });

  const imported = Object.values(created).reduce((sum, count) => sum + count, 0);
  return { imported, skipped, errors, created };
}

/**
 * Why an export's merge link cannot be kept, as a merge over the API would refuse it: a post merged into
 * itself, or into a post that is merged itself (two posts merged into each other made each say the other
 * holds its votes). The post stays, unmerged; the link is reported as its row's error.
 */
function mergeRefusal(db: Db, projectId: string, postId: string, intoId: string): string | null {
  if (postId === intoId) return "Invalid 'mergedIntoId': must be another post than the one merged";
  const into = findPostRow(db, projectId, intoId);
  if (into?.merged_into_id) return `Invalid 'mergedIntoId': that post was merged into ${into.merged_into_id}`;
  return null;
}

/**
 * The link fields of an export's post row, read again once every post exists (merges, releases): from any
 * row that is an object, valid or not, as `each` has refused the invalid ones and their ids map to nothing.
 * A row that is not an object (`null`) has none; reading it ended the import in a 500 after its first rows
 * were stored.
 */
function postLinksOf(row: unknown): { id: unknown; mergedIntoId: unknown; releaseId: unknown } | null {
  if (typeof row !== "object" || row === null) return null;
  return {
    id: "id" in row ? row.id : undefined,
    mergedIntoId: "mergedIntoId" in row ? row.mergedIntoId : undefined,
    releaseId: "releaseId" in row ? row.releaseId : undefined,
  };
}

/** A board user known without an email (the users service registers users by email). */
function createUserWithoutEmail(
  db: Db,
  projectId: string,
  user: { name: string | null; avatarUrl: string | null; userSpend: string },
  createdAt: number,
): string {
  const row: users.UserRow = {
    id: Bun.randomUUIDv7(),
    email: null,
    name: user.name,
    avatar_url: user.avatarUrl,
    spend_cents: toCents(Number(user.userSpend)),
    created_at: createdAt,
  };
  users.insertUser(db, projectId, row);
  const created = users.toBoardUser(row);
  recordActivity(db, projectId, {
    action: "created",
    entityType: "user",
    entityId: row.id,
    metadata: { name: user.name },
  });
  appendEvent(db, projectId, "user.created", created);
  return row.id;
}
