import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError, type JsonBody, type TestApp } from "../support/app";
import { makePost, makeTag, makeUser, watchChanges } from "../support/board";

const source = createTestApp();
const elsewhere = createTestApp();
afterAll(() => {
  source.close();
  elsewhere.close();
});

async function ok(response: Promise<{ status: number; text: string; body: JsonBody }>, status = 200) {
  const answered = await response;
  if (answered.status !== status)
    throw new Error(`expected ${status}, got ${answered.status}: ${answered.text}`);
  return answered.body.data;
}

/** A project with every kind of entity and link the export carries. */
beforeAll(async () => {
  const t = source;
  const mobile = await makeTag(t, "Mobile");
  const billing = await ok(
    t.call("POST", "/api/v1/tags", { body: { label: "Billing", theme: "#10b981" } }),
    201,
  );
  const ada = await makeUser(t, { email: "ada@example.com", name: "Ada", userSpend: 49.9 });
  const grace = await makeUser(t, { email: "grace@example.com", name: "Grace" });
  // A board user whose email was removed: exported and imported without one.
  await ok(t.call("PATCH", `/api/v1/users/${grace.id}`, { body: { email: null } }));
  const dark = await makePost(t, {
    title: "Dark mode",
    description: "Easier on the eyes",
    status: "APPROVED",
    tagIds: [mobile.id, billing.id],
    metadata: { crm: "A-1" },
    createdByBoardUserId: ada.id,
  });
  const invoices = await makePost(t, { title: "PDF invoices", status: "COMPLETE", tagIds: [billing.id] });
  const reopened = await makePost(t, { title: "Reopened", status: "COMPLETE" });
  const duplicate = await makePost(t, { title: "Night theme" });
  await makePost(t, { title: "Untouched" });
  await ok(t.call("POST", `/api/v1/posts/${dark.id}/votes`, { body: { boardUserId: ada.id } }), 201);
  await ok(t.call("POST", `/api/v1/posts/${dark.id}/votes`, { body: { boardUserId: grace.id } }), 201);
  await ok(t.call("POST", `/api/v1/posts/${duplicate.id}/votes`, { body: { anonymousId: "anon-1" } }), 201);
  await ok(t.call("POST", `/api/v1/posts/${invoices.id}/votes`, { body: { anonymousId: "anon-1" } }), 201);
  await ok(
    t.call("POST", `/api/v1/posts/${dark.id}/comments`, { body: { body: "Yes please", authorName: "Lin" } }),
    201,
  );
  await ok(
    t.call("POST", `/api/v1/posts/${invoices.id}/comments`, {
      body: { body: "Check with finance", isInternalNote: true },
    }),
    201,
  );
  await ok(t.call("POST", `/api/v1/posts/${duplicate.id}/merge`, { body: { intoPostId: dark.id } }));
  await ok(
    t.call("POST", "/api/v1/releases", {
      body: {
        title: "v1.0",
        content: "# Shipped",
        label: "1.0.0",
        isDraft: false,
        postIds: [invoices.id, reopened.id],
      },
    }),
    201,
  );
  await ok(t.call("PATCH", `/api/v1/posts/${reopened.id}`, { body: { status: "IN_PROGRESS" } }));
  await ok(t.call("POST", "/api/v1/releases", { body: { title: "v1.1 draft", postIds: [dark.id] } }), 201);
});

const exportOf = (t: TestApp, key?: string) => ok(t.call("GET", "/api/v1/export", key ? { key } : {}));
const importInto = (t: TestApp, document: unknown, key?: string) =>
  ok(
    t.call("POST", "/api/v1/import", {
      body: { source: "board-export", data: document },
      ...(key ? { key } : {}),
    }),
  );

const sorted = (items: JsonBody[]): JsonBody[] =>
  [...items].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/**
 * The export with every id replaced by what identifies the entity in this fixture (titles, labels,
 * emails), so two exports of different instances compare equal exactly when entities, fields and the
 * links between them are the same.
 */
function normalize(document: JsonBody) {
  const key = new Map<string, string>();
  for (const tag of document.tags) key.set(tag.id, `tag:${tag.label}`);
  for (const user of document.users) key.set(user.id, `user:${user.email ?? user.name}`);
  for (const post of document.posts) key.set(post.id, `post:${post.title}`);
  for (const release of document.releases) key.set(release.id, `release:${release.title}`);
  const ref = (id: string | null) => (id === null ? null : (key.get(id) ?? `unknown:${id}`));
  const strip = ({ id: _id, ...rest }: JsonBody) => rest;
  return {
    tags: sorted(document.tags.map(strip)),
    users: sorted(document.users.map(strip)),
    posts: sorted(
      document.posts.map((post: JsonBody) => ({
        ...strip(post),
        releaseId: ref(post.releaseId),
        mergedIntoId: ref(post.mergedIntoId),
        createdByBoardUserId: ref(post.createdByBoardUserId),
        tagIds: post.tagIds.map(ref).sort(),
      })),
    ),
    votes: sorted(
      document.votes.map((vote: JsonBody) => ({
        ...strip(vote),
        postId: ref(vote.postId),
        boardUserId: ref(vote.boardUserId),
      })),
    ),
    comments: sorted(
      document.comments.map((comment: JsonBody) => ({
        ...strip(comment),
        postId: ref(comment.postId),
        boardUserId: ref(comment.boardUserId),
      })),
    ),
    releases: sorted(
      document.releases.map((release: JsonBody) => ({
        ...strip(release),
        postIds: release.postIds.map(ref).sort(),
      })),
    ),
  };
}

describe("board export", () => {
  test("GET /export carries every kind of entity in the documented format", async () => {
    const document = await exportOf(source);
    expect(document).toMatchObject({
      format: "featureboard.board-export",
      version: 1,
      project: { id: source.project.project.id, slug: "acme", name: "Acme" },
    });
    expect(document.tags).toHaveLength(2);
    expect(document.users).toHaveLength(2);
    expect(document.posts).toHaveLength(5);
    expect(document.votes).toHaveLength(4);
    expect(document.comments).toHaveLength(2);
    expect(document.releases).toHaveLength(2);
    expect(document.activity.length).toBeGreaterThan(10);
    // Sanity of the fixture's links, so the comparisons below compare something.
    const normal = normalize(document);
    expect(normal.posts.find((post) => post.title === "Night theme")).toMatchObject({
      status: "CLOSED",
      mergedIntoId: "post:Dark mode",
    });
    expect(normal.posts.find((post) => post.title === "PDF invoices")).toMatchObject({
      status: "ARCHIVED",
      releaseId: "release:v1.0",
    });
    expect(normal.posts.find((post) => post.title === "Reopened")).toMatchObject({ releaseId: null });
    expect(JSON.stringify(normal)).not.toContain("unknown:");
  });

  test("export, import into another project, export again: the same entities and links", async () => {
    const original = await exportOf(source);
    const result = await importInto(source, original, source.other.secretKey);
    expect(result).toEqual({
      imported: 17,
      skipped: 0,
      errors: [],
      created: { tags: 2, users: 2, posts: 5, votes: 4, comments: 2, releases: 2 },
    });
    const copy = await exportOf(source, source.other.secretKey);
    expect(copy.project.id).toBe(source.other.project.id);
    expect(normalize(copy)).toEqual(normalize(original));
    // New ids: nothing was written under the source's ids.
    expect(copy.posts.map((post: { id: string }) => post.id)).not.toContain(original.posts[0].id);
  });

  test("into another instance: the same, and the imported posts went through post creation", async () => {
    const original = await exportOf(source);
    const changes = watchChanges(elsewhere);
    const result = await importInto(elsewhere, original);
    expect(result.errors).toEqual([]);
    expect(normalize(await exportOf(elsewhere))).toEqual(normalize(original));
    const types = changes().events.map((event) => event.type);
    expect(types.filter((type) => type === "post.created")).toHaveLength(5);
    expect(types.filter((type) => type === "vote.created")).toHaveLength(4);
    // A restored release was published elsewhere: it is not announced again.
    expect(types).not.toContain("release.published");
  });

  test("importing the same export twice creates nothing twice", async () => {
    const original = await exportOf(source);
    const fresh = createTestApp();
    try {
      await importInto(fresh, original);
      const once = await exportOf(fresh);
      const again = await importInto(fresh, original);
      expect(again).toEqual({
        imported: 0,
        skipped: 17,
        errors: [],
        created: { tags: 0, users: 0, posts: 0, votes: 0, comments: 0, releases: 0 },
      });
      const twice = await exportOf(fresh);
      expect(normalize(twice)).toEqual(normalize(once));
      expect(twice.posts.map((post: { id: string }) => post.id).sort()).toEqual(
        once.posts.map((post: { id: string }) => post.id).sort(),
      );
    } finally {
      fresh.close();
    }
  });

  test("an export imported into the project it came from creates nothing", async () => {
    const original = await exportOf(source);
    const result = await importInto(source, original);
    expect(result.imported).toBe(0);
    expect(result.errors).toEqual([]);
    expect(normalize(await exportOf(source))).toEqual(normalize(original));
  });

  test("a bad entity is reported by list and row and skipped; what depends on it too; the rest is kept", async () => {
    const original = await exportOf(source);
    const broken = structuredClone(original);
    const dark = broken.posts.find((post: { title: string }) => post.title === "Dark mode");
    dark.status = "SOMEDAY";
    const fresh = createTestApp();
    try {
      const result = await importInto(fresh, [broken]);
      const darkRow = broken.posts.indexOf(dark) + 1;
      expect(result.errors).toContainEqual({
        row: darkRow,
        entity: "posts",
        error_code: "VALIDATION_ERROR",
        message: expect.stringContaining("status"),
      });
      // Its three votes (one moved in by the merge), its comment and the draft release that ships it.
      expect(result.errors.filter((error: { entity: string }) => error.entity === "votes")).toHaveLength(3);
      expect(result.errors.filter((error: { entity: string }) => error.entity === "comments")).toHaveLength(
        1,
      );
      expect(result.errors.filter((error: { entity: string }) => error.entity === "releases")).toHaveLength(
        1,
      );
      expect(result.created).toEqual({ tags: 2, users: 2, posts: 4, votes: 1, comments: 1, releases: 1 });
      // Fixed and imported again: only what was missing is created.
      dark.status = "APPROVED";
      const retried = await importInto(fresh, broken);
      expect(retried.errors).toEqual([]);
      expect(retried.created).toEqual({ tags: 0, users: 0, posts: 1, votes: 3, comments: 1, releases: 1 });
      // Every link too, the merge of a post imported before the post it was merged into included.
      expect(normalize(await exportOf(fresh))).toEqual(normalize(original));
    } finally {
      fresh.close();
    }
  });

  test("a post row that is not an object (null) is a row error, not a 500 after the rows before it were stored", async () => {
    const original = await exportOf(source);
    const broken = structuredClone(original);
    broken.posts.splice(1, 0, null);
    const fresh = createTestApp();
    try {
      const result = await importInto(fresh, broken);
      expect(result.errors).toContainEqual(
        expect.objectContaining({ row: 2, entity: "posts", error_code: "VALIDATION_ERROR" }),
      );
      expect(result.created.posts).toBe(original.posts.length);
      // Every link survives, the merges and releases read after the posts included.
      expect(normalize(await exportOf(fresh))).toEqual(normalize(original));
    } finally {
      fresh.close();
    }
  });

  test("merge links a merge would refuse (into itself, into each other) are row errors; the posts stay", async () => {
    const original = await exportOf(source);
    const row = (id: string, mergedIntoId: string) => ({
      ...structuredClone(original.posts[0]),
      id,
      title: `Loop ${id}`,
      mergedIntoId,
    });
    const posts = [row("a", "b"), row("b", "a"), row("c", "c")];
    const looped = { ...original, posts, votes: [], comments: [], releases: [] };
    const fresh = createTestApp();
    try {
      const result = await importInto(fresh, looped);
      expect(result.created.posts).toBe(3);
      expect(result.errors).toEqual([
        expect.objectContaining({ row: 2, entity: "posts", message: expect.stringContaining("merged into") }),
        expect.objectContaining({
          row: 3,
          entity: "posts",
          message: expect.stringContaining("another post"),
        }),
      ]);
      const stored = (await exportOf(fresh)).posts as {
        id: string;
        title: string;
        mergedIntoId: string | null;
      }[];
      const byTitle = new Map(stored.map((post) => [post.title, post]));
      expect(byTitle.get("Loop a")!.mergedIntoId).toBe(byTitle.get("Loop b")!.id);
      expect(byTitle.get("Loop b")!.mergedIntoId).toBeNull();
      expect(byTitle.get("Loop c")!.mergedIntoId).toBeNull();
    } finally {
      fresh.close();
    }
  });

  test("rows with source board-export (each with a title, as the specification gives data) are imported as rows", async () => {
    const imported = await elsewhere.call("POST", "/api/v1/import", {
      body: {
        source: "board-export",
        data: [
          { title: "Row from another board", description: "Exported row by row", votes: 3 },
          { description: "no title" },
        ],
      },
    });
    expect(imported.status).toBe(200);
    expect(imported.body.data).toMatchObject({ imported: 1, skipped: 1 });
    const posts = (await elsewhere.call("GET", "/api/v1/posts?limit=100")).body.data;
    expect(posts).toContainEqual(expect.objectContaining({ title: "Row from another board", voteCount: 3 }));
  });

  test("a document of another format is 400 and stores nothing", async () => {
    const before = await exportOf(elsewhere);
    for (const data of [
      { format: "other", version: 1 },
      [],
      "text",
      { format: "featureboard.board-export", version: 2 },
    ]) {
      expectApiError(
        await elsewhere.call("POST", "/api/v1/import", { body: { source: "board-export", data } }),
        400,
        "VALIDATION_ERROR",
      );
    }
    expect((await exportOf(elsewhere)).posts).toHaveLength(before.posts.length);
  });

  test("more than 10,000 posts, or 50,000 entities in all, is 400 before anything is written", async () => {
    const original = await exportOf(source);
    const fresh = createTestApp();
    try {
      const padding = (length: number) => Array.from({ length }, () => ({}));
      const manyPosts = {
        ...original,
        posts: [...original.posts, ...padding(10_001 - original.posts.length)],
      };
      const postsRefused = expectApiError(
        await fresh.call("POST", "/api/v1/import", { body: { source: "board-export", data: manyPosts } }),
        400,
        "VALIDATION_ERROR",
      );
      expect(postsRefused.message).toContain("posts");

      const listed = ["tags", "users", "posts", "votes", "comments", "releases"].reduce(
        (sum, list) => sum + original[list].length,
        0,
      );
      const manyEntities = { ...original, votes: [...original.votes, ...padding(50_001 - listed)] };
      const totalRefused = expectApiError(
        await fresh.call("POST", "/api/v1/import", { body: { source: "board-export", data: manyEntities } }),
        400,
        "VALIDATION_ERROR",
      );
      expect(totalRefused.message).toContain("50000");

      const after = await exportOf(fresh);
      expect([after.tags, after.users, after.posts, after.votes, after.comments, after.releases]).toEqual([
        [],
        [],
        [],
        [],
        [],
        [],
      ]);
      // The same document just under both limits is read (its padding reported as bad rows).
      const atLimit = { ...original, votes: [...original.votes, ...padding(50_000 - listed)] };
      const accepted = await importInto(fresh, atLimit);
      expect(accepted.created.posts).toBe(original.posts.length);
    } finally {
      fresh.close();
    }
  });
});
