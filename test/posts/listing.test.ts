import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, expectApiError, type JsonBody, readJson, type TestApp } from "../support/app";
import { listen, makePost } from "../support/board";

const ids = (response: { body: JsonBody }) => response.body.data.map((post: { id: string }) => post.id);

/** Makes the vote count of a post exactly `n`, through the API. */
async function giveVotes(t: TestApp, postId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await t.call("POST", `/api/v1/posts/${postId}/votes`, { body: { anonymousId: `voter-${postId}-${i}` } });
  }
}

describe("offset mode", () => {
  const t = createTestApp();
  afterAll(() => t.close());
  let a: JsonBody, b: JsonBody, c: JsonBody, d: JsonBody;

  beforeAll(async () => {
    a = await makePost(t, { title: "a", status: "APPROVED" });
    b = await makePost(t, { title: "b" });
    c = await makePost(t, { title: "c", status: "APPROVED" });
    d = await makePost(t, { title: "d" });
    await giveVotes(t, b.id, 3);
    await giveVotes(t, a.id, 1);
    await giveVotes(t, c.id, 1);
  });

  test("sorts by votes by default; ties by creation time, newest first", async () => {
    const response = await t.call("GET", "/api/v1/posts");
    expect(response.status).toBe(200);
    // b has 3; a and c tie at 1 (c is newer); d has none.
    expect(ids(response)).toEqual([b.id, c.id, a.id, d.id]);
    expect(response.body.data[0]).toMatchObject({ voteCount: 3, tags: [] });
    expect(response.body.pagination).toEqual({ page: 1, limit: 50, total: 4, totalPages: 1 });
  });

  test("sort=date is newest first", async () => {
    expect(ids(await t.call("GET", "/api/v1/posts?sort=date"))).toEqual([d.id, c.id, b.id, a.id]);
  });

  test("page and limit", async () => {
    const second = await t.call("GET", "/api/v1/posts?limit=3&page=2");
    expect(ids(second)).toEqual([d.id]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 3, total: 4, totalPages: 2 });
  });

  test("status filter", async () => {
    const approved = await t.call("GET", "/api/v1/posts?status=APPROVED");
    expect(ids(approved)).toEqual([c.id, a.id]);
    expect(approved.body.pagination.total).toBe(2);
  });

  test("updated_since is an inclusive lower bound on updatedAt", async () => {
    const patched = await t.call("PATCH", `/api/v1/posts/${d.id}`, { body: { title: "d, edited" } });
    const since = patched.body.data.updatedAt;
    const response = await t.call("GET", `/api/v1/posts?updated_since=${encodeURIComponent(since)}`);
    expect(ids(response)).toContain(d.id);
    const later = new Date(Date.parse(since) + 1).toISOString();
    expect(
      ids(await t.call("GET", `/api/v1/posts?updated_since=${encodeURIComponent(later)}`)),
    ).not.toContain(d.id);
  });

  test("limit outside 1 to 100, a bad sort, status or date → 400 naming the parameter", async () => {
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["page=0", "page"],
      ["sort=popular", "sort"],
      ["status=DONE", "status"],
      ["updated_since=yesterday", "updated_since"],
      // A date alone, or a space for the T, would be read in some time zone nobody chose.
      ["updated_since=2026-11-26", "updated_since"],
      ["updated_since=2026-11-26%2009:00:00Z", "updated_since"],
    ]) {
      const body = expectApiError(await t.call("GET", `/api/v1/posts?${query}`), 400, "VALIDATION_ERROR");
      expect(body.message).toContain(field);
    }
    const offset = encodeURIComponent("2026-11-26T09:00:00.5+01:00");
    expect((await t.call("GET", `/api/v1/posts?updated_since=${offset}`)).status).toBe(200);
  });

  test("a parameter given twice → 400 naming it, not one of its values silently", async () => {
    for (const [query, field] of [
      ["status=APPROVED&status=PENDING", "status"],
      ["limit=5&sort=date&limit=6", "limit"],
    ]) {
      const body = expectApiError(await t.call("GET", `/api/v1/posts?${query}`), 400, "VALIDATION_ERROR");
      expect(body.message).toBe(`Invalid '${field}': is given more than once`);
    }
    const other = expectApiError(
      await t.call("GET", "/api/v1/analytics?period=week&period=month"),
      400,
      "VALIDATION_ERROR",
    );
    expect(other.message).toContain("period");
    expect((await t.call("GET", "/api/v1/posts?status=APPROVED&limit=5")).status).toBe(200);
  });
});

describe("cursor mode", () => {
  const t = createTestApp();
  afterAll(() => t.close());
  const created: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 7; i++)
      created.push((await makePost(t, { title: `p${i}`, status: i % 2 ? "APPROVED" : "PENDING" })).id);
  });

  test("an empty cursor starts a scan by date; nextCursor leads to the end, then is null", async () => {
    const first = await t.call("GET", "/api/v1/posts?cursor=&limit=3");
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual(created.slice(-3).reverse());
    expect(first.body.pagination).toMatchObject({
      page: 1,
      limit: 3,
      total: 7,
      totalPages: 3,
      hasMore: true,
    });
    const second = await t.call("GET", `/api/v1/posts?limit=3&cursor=${first.body.pagination.nextCursor}`);
    expect(ids(second)).toEqual(created.slice(1, 4).reverse());
    expect(second.body.pagination.page).toBe(2);
    const third = await t.call("GET", `/api/v1/posts?limit=3&cursor=${second.body.pagination.nextCursor}`);
    expect(ids(third)).toEqual([created[0]]);
    expect(third.body.pagination).toMatchObject({ page: 3, hasMore: false, nextCursor: null });
  });

  test("sort=date is accepted; cursor with page or with sort=votes → 400 VALIDATION_ERROR", async () => {
    expect((await t.call("GET", "/api/v1/posts?cursor=&sort=date")).status).toBe(200);
    const withPage = expectApiError(
      await t.call("GET", "/api/v1/posts?cursor=&page=1"),
      400,
      "VALIDATION_ERROR",
    );
    expect(withPage.message).toContain("page");
    const byVotes = expectApiError(
      await t.call("GET", "/api/v1/posts?cursor=&sort=votes"),
      400,
      "VALIDATION_ERROR",
    );
    expect(byVotes.message).toContain("sort");
  });

  test("changing status or updated_since during a scan → 400 CURSOR_PARAMS_CHANGED", async () => {
    const first = await t.call("GET", "/api/v1/posts?cursor=&limit=2&status=APPROVED");
    const next = first.body.pagination.nextCursor;
    expect(ids(first).every((id: string) => created.indexOf(id) % 2 === 1)).toBe(true);
    expect((await t.call("GET", `/api/v1/posts?limit=2&status=APPROVED&cursor=${next}`)).status).toBe(200);
    expectApiError(await t.call("GET", `/api/v1/posts?limit=2&cursor=${next}`), 400, "CURSOR_PARAMS_CHANGED");
    expectApiError(
      await t.call("GET", `/api/v1/posts?status=PENDING&cursor=${next}`),
      400,
      "CURSOR_PARAMS_CHANGED",
    );
    const since = "updated_since=2020-01-01T00:00:00.000Z";
    expectApiError(
      await t.call("GET", `/api/v1/posts?status=APPROVED&${since}&cursor=${next}`),
      400,
      "CURSOR_PARAMS_CHANGED",
    );
  });

  test("a cursor that is not ours → 400 INVALID_CURSOR", async () => {
    for (const cursor of ["garbage", Buffer.from('{"v":1}').toString("base64url"), "%%%"]) {
      expectApiError(
        await t.call("GET", `/api/v1/posts?cursor=${encodeURIComponent(cursor)}`),
        400,
        "INVALID_CURSOR",
      );
    }
  });

  test("keeps the first request's time bound: posts created later are not in the scan", async () => {
    const first = await t.call("GET", "/api/v1/posts?cursor=&limit=2");
    await Bun.sleep(3);
    const late = await makePost(t, { title: "late" });
    const seen = [...ids(first)];
    let next = first.body.pagination.nextCursor;
    while (next) {
      const page = await t.call("GET", `/api/v1/posts?limit=2&cursor=${next}`);
      seen.push(...ids(page));
      next = page.body.pagination.nextCursor;
    }
    expect(seen).not.toContain(late.id);
    expect(ids(await t.call("GET", "/api/v1/posts?cursor=&limit=1"))).toEqual([late.id]);
  });

  test("in offset mode there is no hasMore or nextCursor", async () => {
    const pagination = (await t.call("GET", "/api/v1/posts")).body.pagination;
    expect(pagination.hasMore).toBeUndefined();
    expect(pagination.nextCursor).toBeUndefined();
  });
});

describe("a cursor scan under concurrent writes", () => {
  const t = createTestApp();
  afterAll(() => t.close());

  test("500 posts while others vote, delete and insert: none twice, none missed, none inserted later", async () => {
    const original: string[] = [];
    for (let i = 0; i < 500; i++) original.push((await makePost(t, { title: `post ${i}` })).id);
    const server = listen(t);
    const headers = { authorization: `Bearer ${t.project.secretKey}`, "content-type": "application/json" };
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const deleted = new Set<string>();
    const inserted: string[] = [];
    let scanning = true;
    const seen: string[] = [];

    const first = await readJson(await api("GET", "/api/v1/posts?cursor=&limit=23"));
    seen.push(...first.data.map((post: { id: string }) => post.id));
    await Bun.sleep(3); // anything created from now on is outside the scan's first millisecond

    const writer = (async () => {
      let round = 0;
      while (scanning) {
        round += 1;
        const target = original[(round * 37) % original.length]!;
        const victim = original[(round * 53 + 11) % original.length]!;
        await Promise.all([
          api("POST", `/api/v1/posts/${target}/votes`, { anonymousId: `writer-${round}` }),
          deleted.has(victim)
            ? null
            : api("DELETE", `/api/v1/posts/${victim}`).then(() => deleted.add(victim)),
          api("POST", "/api/v1/posts", { title: `inserted ${round}` }).then(async (r) =>
            inserted.push((await readJson(r)).data.id),
          ),
        ]);
      }
    })();

    let next: string | null = first.pagination.nextCursor;
    while (next) {
      const page = await readJson(
        await api("GET", `/api/v1/posts?limit=23&cursor=${encodeURIComponent(next)}`),
      );
      seen.push(...page.data.map((post: { id: string }) => post.id));
      next = page.pagination.nextCursor;
      await Bun.sleep(1);
    }
    scanning = false;
    await writer;
    await server.stop();

    expect(deleted.size).toBeGreaterThan(5);
    expect(inserted.length).toBeGreaterThan(5);
    expect(new Set(seen).size).toBe(seen.length);
    const seenSet = new Set(seen);
    const missed = original.filter((id) => !deleted.has(id) && !seenSet.has(id));
    expect(missed).toEqual([]);
    expect(inserted.filter((id) => seenSet.has(id))).toEqual([]);
  });
});
