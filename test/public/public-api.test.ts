import { afterAll, describe, expect, test } from "bun:test";
import { TokenBuckets } from "../../src/http/rate-limit";
import { createProject } from "../../src/projects/service";
import { createTestApp, expectApiError } from "../support/app";
import { makePost, makeTag } from "../support/board";
import { plantPrivateData, PrivateDataScan, publicCaller } from "../support/private-data";

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

  test("a submission by an email already known does not rename that board user", async () => {
    await pub("POST", "/api/public/posts", {
      body: { projectSlug: "acme", title: "Dark mode", email: "submitter@example.com", name: "Impostor" },
    });
    const users = (await t.call("GET", "/api/v1/users")).body.data as { email: string; name: string }[];
    expect(users.find((user) => user.email === "submitter@example.com")?.name).toBe("Sam");
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
    expectApiError(
      await pub("POST", "/api/public/posts", { body: { projectSlug: "nobody", title: "x" } }),
      404,
      "PROJECT_NOT_FOUND",
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
    expectApiError(await pub("GET", `${board}/posts/${foreign.id}`), 404, "POST_NOT_FOUND");
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

  test("with an email the vote belongs to the board user too: another device of the same person does not vote twice", async () => {
    const post = await makePost(t, { title: "Vote with email", status: "APPROVED" });
    const path = `${board}/posts/${post.id}/vote`;
    expect(
      (await pub("POST", path, { body: { anonymousId: "laptop", email: "voter@example.com", name: "Vi" } }))
        .status,
    ).toBe(201);
    const phone = await pub("POST", path, { body: { anonymousId: "phone", email: "VOTER@example.com" } });
    expect(phone.status).toBe(200);
    expect(phone.body.data.voteCount).toBe(1);
    const votes = (await t.call("GET", `/api/v1/posts/${post.id}/votes`)).body.data;
    expect(votes).toEqual([
      expect.objectContaining({ anonymousId: "laptop", boardUserEmail: "voter@example.com" }),
    ]);
    // The REST API sees the same vote; the public unvote finds it by email from the other device.
    expect(
      (await pub("DELETE", path, { body: { anonymousId: "phone", email: "voter@example.com" } })).body.data
        .voteCount,
    ).toBe(0);
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
