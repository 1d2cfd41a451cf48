import { afterAll, describe, expect, test } from "bun:test";
import { Elysia, type TSchema } from "elysia";
import { errorHandler } from "../../src/http/error-handler";
import { TokenBuckets } from "../../src/http/rate-limit";
import {
  PublicBoardSchema,
  publicDataOf,
  PublicPostDetailSchema,
  PublicPostListSchema,
  PublicPostSchema,
  PublicVoteSchema,
} from "../../src/public/schema";
import { createProject } from "../../src/projects/service";
import { createTestApp, expectApiError } from "../support/app";
import { makePost, makeTag, watchChanges } from "../support/board";
import {
  plantPrivateData,
  PRIVATE,
  PrivateDataScan,
  privateFieldsInSchema,
  publicCaller,
} from "../support/private-data";

const t = createTestApp();
afterAll(() => t.close());
const scan = new PrivateDataScan();
const pub = publicCaller(t, scan);
const board = "/api/public/boards/acme";
const plantedPostId = await plantPrivateData(t);

const approve = (postId: string, status = "APPROVED") =>
  t.call("PATCH", `/api/v1/posts/${postId}`, { body: { status } });
const listedIds = async (query = "") =>
  ((await pub("GET", `${board}/posts${query}`)).body.data as { id: string }[]).map((post) => post.id);

describe("public submissions", () => {
  test("a submission is PENDING and unlisted until the team approves it through the REST API", async () => {
    const submitted = await pub("POST", "/api/public/posts", {
      body: {
        projectSlug: "acme",
        title: "Export to CSV",
        description: "Download the board as a spreadsheet",
        metadata: { plan: "enterprise" },
        email: "submitter@example.com",
        name: "Sam",
      },
    });
    expect(submitted.status).toBe(201);
    const post = submitted.body.data;
    expect(post).toEqual({
      id: expect.any(String),
      title: "Export to CSV",
      description: "Download the board as a spreadsheet",
      status: "PENDING",
      voteCount: 0,
      tags: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await listedIds()).not.toContain(post.id);
    expectApiError(await pub("GET", `${board}/posts/${post.id}`), 404, "POST_NOT_FOUND");
    expectApiError(
      await pub("POST", `${board}/posts/${post.id}/vote`, { body: { anonymousId: "a" } }),
      404,
      "POST_NOT_FOUND",
    );

    // The team sees the private context and the submitter's board user.
    const stored = (await t.call("GET", `/api/v1/posts/${post.id}`)).body.data;
    expect(stored.metadata).toEqual({ plan: "enterprise" });
    const author = (await t.call("GET", `/api/v1/users/${stored.createdByBoardUserId}`)).body.data;
    expect(author).toMatchObject({ email: "submitter@example.com", name: "Sam" });

    expect((await approve(post.id)).status).toBe(200);
    expect(await listedIds()).toContain(post.id);
    expect((await pub("GET", `${board}/posts/${post.id}`)).body.data.status).toBe("APPROVED");
  });

  test("a submission by an email already known is not filed in that board user's name, nor renames them", async () => {
    const submitted = await pub("POST", "/api/public/posts", {
      body: { projectSlug: "acme", title: "Dark mode", email: "submitter@example.com", name: "Impostor" },
    });
    expect(submitted.status).toBe(201);
    const users = (await t.call("GET", "/api/v1/users")).body.data as {
      id: string;
      email: string;
      name: string;
    }[];
    const customer = users.find((user) => user.email === "submitter@example.com")!;
    expect(customer.name).toBe("Sam");
    const stored = (await t.call("GET", `/api/v1/posts/${submitted.body.data.id}`)).body.data;
    expect(stored.createdByBoardUserId).toBeNull();
    const subscribed = t.ctx.db
      .query<{ n: number }, [string, string]>(
        "SELECT count(*) AS n FROM post_subscribers WHERE post_id = ? AND board_user_id = ?",
      )
      .get(stored.id, customer.id)!.n;
    expect(subscribed).toBe(0);
  });

  test("bad input is refused and stores nothing", async () => {
    const before = (await t.call("GET", "/api/v1/posts?limit=1")).body.pagination.total;
    expectApiError(
      await pub("POST", "/api/public/posts", { body: { projectSlug: "acme", title: "" } }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(
      await pub("POST", "/api/public/posts", { body: { title: "No project" } }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(
      await pub("POST", "/api/public/posts", {
        body: { projectSlug: "acme", title: "x", status: "APPROVED" },
      }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(
      await pub("POST", "/api/public/posts", { body: { projectSlug: "acme", title: "x", email: "nope" } }),
      400,
      "VALIDATION_ERROR",
    );
    const unknown = expectApiError(
      await pub("POST", "/api/public/posts", { body: { projectSlug: "nobody", title: "x" } }),
      404,
      "PROJECT_NOT_FOUND",
    );
    // A visitor's hint, not an operator's command.
    expect(unknown.resolution_hint).toBe(
      "Check the project's slug: it is the part of the board's address after /b/.",
    );
    expect((await t.call("GET", "/api/v1/posts?limit=1")).body.pagination.total).toBe(before);
  });

  test("the widget's publishable key stands for the slug; a wrong or secret key is refused", async () => {
    const headers = { "x-publishable-key": t.project.publishableKey };
    const viaKey = await pub("POST", "/api/public/posts", { body: { title: "From the widget" }, headers });
    expect(viaKey.status).toBe(201);
    expect((await t.call("GET", `/api/v1/posts/${viaKey.body.data.id}`)).status).toBe(200);
    expect((await pub("GET", `${board}/posts`, { headers })).status).toBe(200);
    expectApiError(
      await pub("POST", "/api/public/posts", {
        body: { title: "x" },
        headers: { "x-publishable-key": t.project.secretKey },
      }),
      401,
      "INVALID_API_KEY",
    );
    expectApiError(
      await pub("POST", "/api/public/posts", { body: { projectSlug: "other-co", title: "x" }, headers }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(await pub("GET", "/api/public/boards/other-co", { headers }), 400, "VALIDATION_ERROR");
  });
});

describe("browsing a board", () => {
  test("the board answers its name, page URL and counts, and counts a page view", async () => {
    const views = () =>
      t.ctx.db
        .query<{ n: number }, [string]>(
          "SELECT coalesce(sum(views), 0) AS n FROM page_views WHERE project_id = ?",
        )
        .get(t.project.project.id)?.n;
    const before = views();
    const response = await pub("GET", board);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      slug: "acme",
      name: "Acme",
      boardUrl: `${t.ctx.config.publicUrl}/b/acme`,
      accentColor: null,
      logoUrl: null,
      counts: { posts: expect.any(Number), approved: expect.any(Number), in_progress: 0, complete: 0 },
    });
    expect(response.body.data.counts.posts).toBe(response.body.data.counts.approved);
    expect(views()).toBe((before ?? 0) + 1);
  });

  test("listing: visible statuses only, by votes or date, status filter, search words, pages", async () => {
    const tag = await makeTag(t, "Listing");
    const progress = await makePost(t, {
      title: "Kanban view in progress",
      status: "IN_PROGRESS",
      tagIds: [tag.id],
    });
    const complete = await makePost(t, { title: "Kanban export complete", status: "COMPLETE" });
    const closed = await makePost(t, { title: "Kanban closed", status: "CLOSED" });
    const archived = await makePost(t, { title: "Kanban archived", status: "ARCHIVED" });
    for (const anonymousId of ["v1", "v2"])
      await pub("POST", `${board}/posts/${complete.id}/vote`, { body: { anonymousId } });

    const all = await listedIds();
    expect(all).toEqual(expect.arrayContaining([progress.id, complete.id, plantedPostId]));
    expect(all).not.toContain(closed.id);
    expect(all).not.toContain(archived.id);
    expect(all[0]).toBe(complete.id);
    expect(await listedIds("?sort=date")).toEqual(expect.arrayContaining([progress.id]));
    expect((await listedIds("?sort=date"))[0]).toBe(complete.id);
    expect(await listedIds("?status=IN_PROGRESS")).toEqual([progress.id]);
    expect(await listedIds("?q=kanban")).toEqual([complete.id, progress.id]);
    expect(await listedIds("?q=kanban%20VIEW")).toEqual([progress.id]);
    expect(await listedIds("?q=100%25")).toEqual([]);
    const listed = (await pub("GET", `${board}/posts?status=IN_PROGRESS`)).body.data[0];
    expect(listed.tags).toEqual([{ id: tag.id, label: "Listing", theme: "#6366f1" }]);

    const page = await pub("GET", `${board}/posts?q=kanban&limit=1&page=2`);
    expect(page.body.data.map((post: { id: string }) => post.id)).toEqual([progress.id]);
    expect(page.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expectApiError(await pub("GET", `${board}/posts?status=PENDING`), 400, "VALIDATION_ERROR");
    expectApiError(await pub("GET", `${board}/posts?limit=101`), 400, "VALIDATION_ERROR");

    // Closed posts stay reachable by id (links live on); ids of another project do not.
    expect((await pub("GET", `${board}/posts/${closed.id}`)).status).toBe(200);
    const foreign = await makePost(t, { title: "Foreign", status: "APPROVED" }, t.other.secretKey);
    const notListed = expectApiError(await pub("GET", `${board}/posts/${foreign.id}`), 404, "POST_NOT_FOUND");
    // The public board takes no key, so its hint does not send the caller to one.
    expect(notListed.resolution_hint).toBe("Check the post id; it must be one this board lists.");
  });

  test("a post shows its public comments, never internal notes", async () => {
    const detail = await pub("GET", `${board}/posts/${plantedPostId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.comments.map((comment: { body: string }) => comment.body)).toEqual([
      "A public reply",
    ]);
    expect(detail.body.data.voteCount).toBe(1);
  });

  test("roadmap: approved, in progress and complete, each by votes", async () => {
    const roadmap = (await pub("GET", `${board}/roadmap`)).body.data;
    expect(Object.keys(roadmap)).toEqual(["approved", "in_progress", "complete"]);
    for (const [column, status] of [
      ["approved", "APPROVED"],
      ["in_progress", "IN_PROGRESS"],
      ["complete", "COMPLETE"],
    ] as const) {
      const posts = roadmap[column] as { status: string; voteCount: number }[];
      expect(posts.length).toBeGreaterThan(0);
      expect(posts.every((post) => post.status === status)).toBe(true);
      const counts = posts.map((post) => post.voteCount);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    }
  });
});

describe("changelog", () => {
  test("published releases only, newest first, with their notes and shipped posts", async () => {
    const shipped = await makePost(t, { title: "Shipped in v1", status: "COMPLETE" });
    await t.call("POST", "/api/v1/releases", { body: { title: "Unpublished draft" } });
    const first = await t.call("POST", "/api/v1/releases", {
      body: { title: "v1", content: "- First", label: "v1", isDraft: false, postIds: [shipped.id] },
    });
    const second = await t.call("POST", "/api/v1/releases", {
      body: { title: "v2", content: "- Second", isDraft: false },
    });
    const changelog = await pub("GET", `${board}/changelog`);
    expect(changelog.status).toBe(200);
    expect(changelog.body.data).toEqual([
      {
        id: second.body.data.id,
        title: "v2",
        content: "- Second",
        label: null,
        publishedAt: second.body.data.publishedAt,
        postIds: [],
      },
      {
        id: first.body.data.id,
        title: "v1",
        content: "- First",
        label: "v1",
        publishedAt: first.body.data.publishedAt,
        postIds: [shipped.id],
      },
    ]);
    expect(changelog.body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    const page = await pub("GET", `${board}/changelog?limit=1&page=2`);
    expect(page.body.data.map((release: { title: string }) => release.title)).toEqual(["v1"]);
    // The shipped post is ARCHIVED: off the listings, still reachable by id.
    expect((await pub("GET", `${board}/posts/${shipped.id}`)).body.data.status).toBe("ARCHIVED");
    expectApiError(await pub("GET", "/api/public/boards/hidden-none/changelog"), 404, "PROJECT_NOT_FOUND");
  });
});

describe("votes and comments", () => {
  test("voting twice with one anonymous id keeps one vote; unvote removes it; unvoting again is harmless", async () => {
    const post = await makePost(t, { title: "Vote me", status: "APPROVED" });
    const path = `${board}/posts/${post.id}/vote`;
    const first = await pub("POST", path, { body: { anonymousId: "browser-1" } });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({ postId: post.id, voted: true, voteCount: 1 });
    const second = await pub("POST", path, { body: { anonymousId: "browser-1" } });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ postId: post.id, voted: true, voteCount: 1 });
    expect((await t.call("GET", `/api/v1/posts/${post.id}/votes`)).body.data).toHaveLength(1);

    const removed = await pub("DELETE", path, { body: { anonymousId: "browser-1" } });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ postId: post.id, voted: false, voteCount: 0 });
    expect((await pub("DELETE", path, { body: { anonymousId: "browser-1" } })).body.data.voteCount).toBe(0);
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(0);
    expectApiError(await pub("POST", path, { body: {} }), 400, "VALIDATION_ERROR");
  });

  test("a vote belongs to its anonymous id: knowing a customer's email neither removes nor reveals their vote", async () => {
    const post = await makePost(t, { title: "Vote with email", status: "APPROVED" });
    const path = `${board}/posts/${post.id}/vote`;
    // A new email links the vote to the board user it creates.
    expect(
      (await pub("POST", path, { body: { anonymousId: "laptop", email: "voter@example.com", name: "Vi" } }))
        .status,
    ).toBe(201);
    const votes = () => t.call("GET", `/api/v1/posts/${post.id}/votes`).then((r) => r.body.data);
    expect(await votes()).toEqual([
      expect.objectContaining({ anonymousId: "laptop", boardUserEmail: "voter@example.com" }),
    ]);

    // Someone else giving that email: the answer is that of any new voter, and the customer's vote stays.
    const stranger = await pub("POST", path, {
      body: { anonymousId: "stranger", email: "VOTER@example.com" },
    });
    expect(stranger.status).toBe(201);
    expect(stranger.body.data).toEqual({ postId: post.id, voted: true, voteCount: 2 });
    const afterStranger = (await votes()) as { anonymousId: string; boardUserId: string | null }[];
    expect(afterStranger.find((vote) => vote.anonymousId === "stranger")?.boardUserId).toBeNull();

    // Removing with the customer's email removes only the stranger's own vote.
    const removed = await pub("DELETE", path, {
      body: { anonymousId: "stranger", email: "voter@example.com" },
    });
    expect(removed.body.data).toEqual({ postId: post.id, voted: false, voteCount: 1 });
    const other = await pub("DELETE", path, { body: { anonymousId: "someone", email: "voter@example.com" } });
    expect(other.body.data).toEqual({ postId: post.id, voted: false, voteCount: 1 });
    expect(await votes()).toEqual([expect.objectContaining({ anonymousId: "laptop" })]);

    // A customer known to the team (a REST vote by board user): same 201 for a stranger using the email.
    const customer = await t.call("POST", "/api/v1/users", { body: { email: "known@example.com" } });
    await t.call("POST", `/api/v1/posts/${post.id}/votes`, { body: { boardUserId: customer.body.data.id } });
    const knownAnswer = await pub("POST", path, { body: { anonymousId: "s2", email: "known@example.com" } });
    const unknownAnswer = await pub("POST", path, {
      body: { anonymousId: "s3", email: "nobody@example.com" },
    });
    expect([knownAnswer.status, unknownAnswer.status]).toEqual([201, 201]);
    expect(
      await pub("DELETE", path, { body: { anonymousId: "s2", email: "known@example.com" } }),
    ).toMatchObject({
      status: 200,
    });
    const left = (await votes()) as { boardUserId: string | null }[];
    expect(left.some((vote) => vote.boardUserId === customer.body.data.id)).toBe(true);
  });

  test("posts the board does not list (PENDING, CLOSED, ARCHIVED) refuse votes and comments like unknown ones", async () => {
    for (const status of ["PENDING", "CLOSED", "ARCHIVED"]) {
      const post = await makePost(t, { title: `Hidden ${status}`, status });
      const path = `${board}/posts/${post.id}`;
      const changes = watchChanges(t);
      expectApiError(
        await pub("POST", `${path}/vote`, { body: { anonymousId: "a" } }),
        404,
        "POST_NOT_FOUND",
      );
      expectApiError(
        await pub("DELETE", `${path}/vote`, { body: { anonymousId: "a" } }),
        404,
        "POST_NOT_FOUND",
      );
      expectApiError(
        await pub("POST", `${path}/comments`, { body: { body: "Hello" } }),
        404,
        "POST_NOT_FOUND",
      );
      expect(changes()).toEqual({ events: [], activity: [] });
      const unknown = await pub("POST", `${board}/posts/0000-unknown/vote`, { body: { anonymousId: "a" } });
      const hidden = await pub("POST", `${path}/vote`, { body: { anonymousId: "a" } });
      const sameness = (body: Record<string, unknown>) => [
        body.error_code,
        body.message,
        body.resolution_hint,
      ];
      expect(sameness(hidden.body)).toEqual(sameness(unknown.body));
    }
  });

  test("a public comment is listed on the post and is never an internal note", async () => {
    const post = await makePost(t, { title: "Comment me", status: "IN_PROGRESS" });
    const created = await pub("POST", `${board}/posts/${post.id}/comments`, {
      body: { body: "Please add this", authorName: "Pat", anonymousId: "browser-2" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      postId: post.id,
      body: "Please add this",
      authorName: "Pat",
      isTeamReply: false,
      createdAt: expect.any(String),
    });
    expect((await pub("GET", `${board}/posts/${post.id}`)).body.data.comments).toEqual([created.body.data]);
    const stored = (await t.call("GET", `/api/v1/posts/${post.id}/comments?internal=all`)).body.data;
    expect(stored).toEqual([expect.objectContaining({ id: created.body.data.id, isInternalNote: false })]);
    expectApiError(
      await pub("POST", `${board}/posts/${post.id}/comments`, { body: { body: "x", isInternalNote: true } }),
      400,
      "VALIDATION_ERROR",
    );
    expectApiError(
      await pub("POST", `${board}/posts/${post.id}/comments`, { body: { body: "x".repeat(5001) } }),
      400,
      "VALIDATION_ERROR",
    );
  });
});

describe("changes made through the public API", () => {
  test("write the same activity and events as the REST API; an idempotent repeat writes none", async () => {
    const post = await makePost(t, { title: "Watched", status: "APPROVED" });
    const path = `${board}/posts/${post.id}`;
    let changes = watchChanges(t);
    await pub("POST", `${path}/vote`, {
      body: { anonymousId: "w1", email: "watcher@example.com", name: "Wat" },
    });
    const cast = changes();
    expect(cast.events.map((event) => event.type)).toEqual(["user.created", "vote.created"]);
    expect(cast.events[1]!.payload.data).toMatchObject({
      postId: post.id,
      voteCount: 1,
      anonymousId: "w1",
      boardUserEmail: "watcher@example.com",
      boardUserName: "Wat",
    });
    expect(cast.activity.map((entry) => `${entry.entityType}.${entry.action}`)).toEqual([
      "user.created",
      "vote.created",
    ]);

    changes = watchChanges(t);
    await pub("POST", `${path}/vote`, { body: { anonymousId: "w1" } });
    expect(changes()).toEqual({ events: [], activity: [] });

    changes = watchChanges(t);
    await pub("DELETE", `${path}/vote`, { body: { anonymousId: "w1" } });
    expect(changes().events.map((event) => event.type)).toEqual(["vote.removed"]);

    changes = watchChanges(t);
    await pub("POST", `${path}/comments`, { body: { body: "Seen", authorName: "W" } });
    await pub("POST", "/api/public/posts", { body: { projectSlug: "acme", title: "Watched submission" } });
    expect(changes().events.map((event) => event.type)).toEqual(["comment.created", "post.created"]);
  });
});

describe("access", () => {
  test("a private board answers 403 BOARD_NOT_PUBLIC on every route; an unknown one 404", async () => {
    const secret = createProject(t.ctx.db, { slug: "hidden", name: "Hidden", isPublic: false });
    const post = await makePost(t, { title: "Hidden", status: "APPROVED" }, secret.secretKey);
    const hidden = "/api/public/boards/hidden";
    const calls: [string, string, unknown?][] = [
      ["GET", hidden],
      ["GET", `${hidden}/posts`],
      ["GET", `${hidden}/posts/${post.id}`],
      ["GET", `${hidden}/roadmap`],
      ["GET", `${hidden}/changelog`],
      ["POST", `${hidden}/posts/${post.id}/vote`, { anonymousId: "a" }],
      ["DELETE", `${hidden}/posts/${post.id}/vote`, { anonymousId: "a" }],
      ["POST", `${hidden}/posts/${post.id}/comments`, { body: "hi" }],
      ["POST", "/api/public/posts", { projectSlug: "hidden", title: "x" }],
    ];
    for (const [method, path, body] of calls) {
      expectApiError(await pub(method, path, body === undefined ? {} : { body }), 403, "BOARD_NOT_PUBLIC");
    }
    expectApiError(
      await pub("POST", "/api/public/posts", {
        body: { title: "x" },
        headers: { "x-publishable-key": secret.publishableKey },
      }),
      403,
      "BOARD_NOT_PUBLIC",
    );
    expectApiError(await pub("GET", "/api/public/boards/nobody/posts"), 404, "PROJECT_NOT_FOUND");
  });

  test("CORS: any origin, preflights answered", async () => {
    const preflight = await t.call("OPTIONS", `${board}/posts`, {
      key: null,
      headers: { origin: "https://customer.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("X-Publishable-Key");
    const get = await pub("GET", `${board}/posts`, { headers: { origin: "https://customer.example" } });
    expect(get.headers.get("access-control-allow-origin")).toBe("*");
    const failed = await pub("GET", "/api/public/boards/nobody");
    expect(failed.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("per-IP rate limit, also for requests that carry an Authorization header", async () => {
    const limited = createTestApp({
      FEATUREBOARD_RATE_LIMIT_IP_PER_MINUTE: "60",
      FEATUREBOARD_RATE_LIMIT_IP_BURST: "2",
    });
    try {
      for (const key of [null, `Bearer ${limited.project.secretKey}`]) {
        const headers: Record<string, string> = key ? { authorization: key } : {};
        const responses = [];
        for (let i = 0; i < 3; i++)
          responses.push(await limited.call("GET", "/api/public/boards/acme", { key: null, headers }));
        expect(responses[0]!.headers.get("ratelimit-policy")).toContain('"client-ip"');
        expectApiError(responses[2]!, 429, "RATE_LIMITED");
        expect(responses[2]!.headers.get("retry-after")).toBeTruthy();
        // Each run used the bucket up; the second run starts from a full one.
        limited.ctx.rateLimits.publicIp = new TokenBuckets("client-ip", { perMinute: 60, burst: 2 });
      }
    } finally {
      limited.close();
    }
  });
});

test("no public route's success schema has a field for metadata, internal notes, emails or spend", async () => {
  const doc = (await t.call("GET", "/api/v1/openapi.json", { key: null })).body;
  const publicPaths = Object.entries(
    doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
  ).filter(([path]) => path.startsWith("/api/public/"));
  expect(publicPaths.length).toBeGreaterThanOrEqual(6);
  const found: string[] = [];
  for (const [path, operations] of publicPaths) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status.startsWith("2"))
          found.push(...privateFieldsInSchema(response, `${method} ${path} ${status}`));
      }
    }
  }
  expect(found).toEqual([]);
  // The check itself sees such a field.
  expect(
    privateFieldsInSchema({ properties: { data: { items: { properties: { userSpend: {} } } } } }),
  ).toHaveLength(1);
});

test("the scan finds planted private data where it is", () => {
  const probe = new PrivateDataScan();
  probe.record("probe", JSON.stringify({ data: { title: "x", metadata: null } }));
  probe.record(
    "probe",
    JSON.stringify({ content: [{ type: "text", text: JSON.stringify({ userSpend: "1" }) }] }),
  );
  probe.record("probe", `{"body":"${"internal-note-sentinel-91c2"}"}`);
  probe.record("probe", '{"who":"ada@example.com"}');
  expect(probe.findings()).toHaveLength(4);
});

test("no public response carried metadata, an internal note, an email or spend", () => {
  expect(scan.count).toBeGreaterThan(40);
  expect(scan.findings()).toEqual([]);
});

describe("public schemas fail closed on a leaked nested field", () => {
  // A route built like the public ones (same app options, error handler and schemas) whose service result
  // carries a private field below the top level: Elysia's normalize:false alone would let it through.
  const post = {
    id: "p1",
    title: "Leaky",
    description: null,
    status: "APPROVED",
    voteCount: 1,
    tags: [{ id: "t1", label: "UI", theme: "#fff" }],
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
  const leaks: [string, TSchema, unknown][] = [
    [
      "post",
      publicDataOf(PublicPostSchema),
      { data: { ...post, metadata: { note: PRIVATE.metadataValue } } },
    ],
    [
      "tag",
      publicDataOf(PublicPostSchema),
      { data: { ...post, tags: [{ ...post.tags[0], boardUserEmail: PRIVATE.email }] } },
    ],
    [
      "list item",
      PublicPostListSchema,
      {
        data: [{ ...post, metadata: { note: PRIVATE.metadataValue } }],
        pagination: { page: 1, limit: 1, total: 1, totalPages: 1 },
      },
    ],
    [
      "comment",
      publicDataOf(PublicPostDetailSchema),
      {
        data: {
          ...post,
          comments: [
            {
              id: "c1",
              postId: "p1",
              body: PRIVATE.internalNote,
              authorName: null,
              createdAt: post.createdAt,
              isInternalNote: true,
            },
          ],
        },
      },
    ],
    [
      "board counts",
      publicDataOf(PublicBoardSchema),
      {
        data: {
          slug: "a",
          name: "A",
          boardUrl: "u",
          counts: { posts: 0, approved: 0, in_progress: 0, complete: 0, userSpend: PRIVATE.spend },
        },
      },
    ],
    [
      "envelope",
      publicDataOf(PublicVoteSchema),
      { data: { postId: "p1", voted: true, voteCount: 1 }, boardUserEmail: PRIVATE.email },
    ],
  ];

  for (const [where, schema, leaked] of leaks) {
    test(`${where}: a 500 INTERNAL_ERROR, not the field`, async () => {
      const app = new Elysia({ normalize: false, encodeSchema: false })
        .use(errorHandler(t.ctx))
        .get("/leak", () => leaked as never, { response: { 200: schema } });
      const response = await app.handle(new Request("http://localhost/leak"));
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(text).error_code).toBe("INTERNAL_ERROR");
      for (const value of Object.values(PRIVATE)) expect(text).not.toContain(value);
    });
  }

  test("every object of every public success schema in the OpenAPI document refuses unknown fields", async () => {
    const doc = (await t.call("GET", "/api/v1/openapi.json", { key: null })).body;
    const loose: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${path}[${index}]`));
      if (typeof node !== "object" || node === null) return;
      const schema = node as { type?: unknown; properties?: unknown; additionalProperties?: unknown };
      // The swagger plugin rebuilds each top-level response object without the keyword; the envelope is
      // refused at run time all the same (normalize: false, and the "envelope" case above).
      const topLevel = path.endsWith("application/json.schema");
      if (schema.type === "object" && schema.properties && schema.additionalProperties !== false && !topLevel)
        loose.push(path);
      for (const [key, inner] of Object.entries(node)) visit(inner, `${path}.${key}`);
    };
    for (const [path, operations] of Object.entries(
      doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
    )) {
      if (!path.startsWith("/api/public/")) continue;
      for (const [method, operation] of Object.entries(operations))
        for (const [status, response] of Object.entries(operation.responses))
          if (status.startsWith("2")) visit(response, `${method} ${path} ${status}`);
    }
    expect(loose.join("\n")).toBe("");
  });
});

test("OpenAPI: every public route declares 401 (a bad X-Publishable-Key) and 429 (the per-IP limit)", async () => {
  const doc = (await t.call("GET", "/api/v1/openapi.json", { key: null })).body;
  const missing: string[] = [];
  for (const [path, operations] of Object.entries(
    doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
  )) {
    if (!path.startsWith("/api/public/")) continue;
    for (const [method, operation] of Object.entries(operations))
      for (const status of ["401", "429"])
        if (!(status in operation.responses)) missing.push(`${method} ${path} ${status}`);
  }
  expect(missing).toEqual([]);
  // What the 401 describes is what such a key gets, on a read as on a write.
  const headers = { "x-publishable-key": t.project.secretKey };
  expectApiError(await pub("GET", `${board}/posts`, { headers }), 401, "INVALID_API_KEY");
  expectApiError(await pub("GET", `${board}/roadmap`, { headers }), 401, "INVALID_API_KEY");
});
