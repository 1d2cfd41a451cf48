import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError, readJson } from "../support/app";
import { listen, makePost, makeUser } from "../support/board";

const t = createTestApp();
afterAll(() => t.close());

const votesPath = (postId: string) => `/api/v1/posts/${postId}/votes`;
const voteRows = (postId: string) =>
  t.ctx.db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM votes WHERE post_id = ?").get(postId)?.n;

describe("votes", () => {
  test("a board user's vote carries their name and email; the list shows it", async () => {
    const post = await makePost(t);
    const user = await makeUser(t, { email: "ada@example.com", name: "Ada" });
    const created = await t.call("POST", votesPath(post.id), { body: { boardUserId: user.id } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      boardUserId: user.id,
      anonymousId: null,
      createdAt: expect.any(String),
      boardUserName: "Ada",
      boardUserEmail: "ada@example.com",
    });
    const listed = await t.call("GET", votesPath(post.id));
    expect(listed.body.data).toEqual([created.body.data]);
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(1);
    expectApiError(
      await t.call("POST", votesPath(post.id), { body: { boardUserId: user.id } }),
      409,
      "DUPLICATE_VOTE",
    );
  });

  test("the body needs exactly one of boardUserId and anonymousId; a foreign board user → 404", async () => {
    const post = await makePost(t);
    expectApiError(await t.call("POST", votesPath(post.id), { body: {} }), 400, "VALIDATION_ERROR");
    expectApiError(await t.call("POST", votesPath(post.id)), 400, "VALIDATION_ERROR");
    const user = await makeUser(t, { email: "two@example.com" });
    expectApiError(
      await t.call("POST", votesPath(post.id), { body: { boardUserId: user.id, anonymousId: "a" } }),
      400,
      "VALIDATION_ERROR",
    );
    // null is "not given", as a Vote reads: the other one is the vote's.
    const anonymous = await t.call("POST", votesPath(post.id), {
      body: { boardUserId: null, anonymousId: "n" },
    });
    expect(anonymous.status).toBe(201);
    expect(anonymous.body.data).toMatchObject({ boardUserId: null, anonymousId: "n" });
    const registered = await t.call("POST", votesPath(post.id), {
      body: { boardUserId: user.id, anonymousId: null },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.data).toMatchObject({ boardUserId: user.id, anonymousId: null });
    const neither = expectApiError(
      await t.call("POST", votesPath(post.id), { body: { boardUserId: null, anonymousId: null } }),
      400,
      "VALIDATION_ERROR",
    );
    // A rule of the body as a whole, not of a field named "body".
    expect(neither.message).toBe("Invalid request body: give exactly one of boardUserId or anonymousId");
    const foreigner = await makeUser(t, { email: "far@example.com" }, t.other.secretKey);
    expectApiError(
      await t.call("POST", votesPath(post.id), { body: { boardUserId: foreigner.id } }),
      404,
      "USER_NOT_FOUND",
    );
  });

  test("PATCH replaces anonymousId, clears boardUserId and keeps the vote", async () => {
    const post = await makePost(t);
    const user = await makeUser(t, { email: "patch@example.com" });
    const vote = (await t.call("POST", votesPath(post.id), { body: { boardUserId: user.id } })).body.data;
    const patched = await t.call("PATCH", `${votesPath(post.id)}/${vote.id}`, {
      body: { anonymousId: "device-9" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      id: vote.id,
      boardUserId: null,
      anonymousId: "device-9",
      createdAt: vote.createdAt,
    });
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(1);
  });

  test("PATCH to an anonymousId that already voted on the post → 409 ANONYMOUS_ID_ALREADY_VOTED", async () => {
    const post = await makePost(t);
    await t.call("POST", votesPath(post.id), { body: { anonymousId: "taken" } });
    const other = (await t.call("POST", votesPath(post.id), { body: { anonymousId: "free" } })).body.data;
    const response = await t.call("PATCH", `${votesPath(post.id)}/${other.id}`, {
      body: { anonymousId: "taken" },
    });
    expectApiError(response, 409, "ANONYMOUS_ID_ALREADY_VOTED");
    expect(
      (await t.call("GET", votesPath(post.id))).body.data
        .map((v: { anonymousId: string }) => v.anonymousId)
        .sort(),
    ).toEqual(["free", "taken"]);
  });

  test("PATCH accepts only anonymousId of 1 to 200 characters", async () => {
    const post = await makePost(t);
    const vote = (await t.call("POST", votesPath(post.id), { body: { anonymousId: "v" } })).body.data;
    const path = `${votesPath(post.id)}/${vote.id}`;
    for (const body of [
      { anonymousId: "" },
      { anonymousId: "x".repeat(201) },
      { anonymousId: "ok", boardUserId: "u" },
      {},
    ]) {
      expectApiError(await t.call("PATCH", path, { body }), 400, "VALIDATION_ERROR");
    }
    expect((await t.call("PATCH", path, { body: { anonymousId: "y".repeat(200) } })).status).toBe(200);
  });

  test("DELETE → 204 with an empty body; voteCount goes down with it", async () => {
    const post = await makePost(t);
    const vote = (await t.call("POST", votesPath(post.id), { body: { anonymousId: "bye" } })).body.data;
    await t.call("POST", votesPath(post.id), { body: { anonymousId: "stay" } });
    const deleted = await t.call("DELETE", `${votesPath(post.id)}/${vote.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(1);
    expect(voteRows(post.id)).toBe(1);
    expectApiError(await t.call("DELETE", `${votesPath(post.id)}/${vote.id}`), 404, "VOTE_NOT_FOUND");
  });

  test("voteCount and the vote row change in one transaction: a failing outbox undoes both", async () => {
    const post = await makePost(t);
    const vote = (await t.call("POST", votesPath(post.id), { body: { anonymousId: "atomic" } })).body.data;
    t.ctx.db.run(
      "CREATE TEMP TRIGGER refuse_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'down'); END",
    );
    try {
      expectApiError(await t.call("DELETE", `${votesPath(post.id)}/${vote.id}`), 500, "INTERNAL_ERROR");
      expectApiError(
        await t.call("POST", votesPath(post.id), { body: { anonymousId: "late" } }),
        500,
        "INTERNAL_ERROR",
      );
    } finally {
      t.ctx.db.run("DROP TRIGGER refuse_events");
    }
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(1);
    expect(voteRows(post.id)).toBe(1);
  });

  test("a vote of another post, even of this project, → 404 VOTE_NOT_FOUND", async () => {
    const [a, b] = [await makePost(t), await makePost(t)];
    const vote = (await t.call("POST", votesPath(a.id), { body: { anonymousId: "x" } })).body.data;
    expectApiError(await t.call("DELETE", `${votesPath(b.id)}/${vote.id}`), 404, "VOTE_NOT_FOUND");
    expectApiError(
      await t.call("PATCH", `${votesPath(b.id)}/${vote.id}`, { body: { anonymousId: "y" } }),
      404,
      "VOTE_NOT_FOUND",
    );
  });
});

describe("concurrent votes over HTTP", () => {
  test("200 distinct anonymous ids at once → 200 × 201 and voteCount 200", async () => {
    const post = await makePost(t);
    const server = listen(t);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          fetch(`${server.url}${votesPath(post.id)}`, {
            method: "POST",
            headers: { authorization: `Bearer ${t.project.secretKey}`, "content-type": "application/json" },
            body: JSON.stringify({ anonymousId: `crowd-${i}` }),
          }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 201)).toHaveLength(200);
    } finally {
      await server.stop();
    }
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(200);
    expect(voteRows(post.id)).toBe(200);
  });

  test("50 votes at once by one anonymous id → one 201 and 49 × 409 DUPLICATE_VOTE", async () => {
    const post = await makePost(t);
    const server = listen(t);
    let responses: { status: number; code: string | undefined }[];
    try {
      responses = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(`${server.url}${votesPath(post.id)}`, {
            method: "POST",
            headers: { authorization: `Bearer ${t.project.secretKey}`, "content-type": "application/json" },
            body: JSON.stringify({ anonymousId: "same-person" }),
          }).then(async (r) => ({ status: r.status, code: (await readJson(r)).error_code })),
        ),
      );
    } finally {
      await server.stop();
    }
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409 && r.code === "DUPLICATE_VOTE")).toHaveLength(49);
    expect((await t.call("GET", `/api/v1/posts/${post.id}`)).body.data.voteCount).toBe(1);
  });
});
