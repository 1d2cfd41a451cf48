import type { JsonBody, TestApp } from "./app";

/** Creates a post through the API and returns its body (`data`). */
export async function makePost(
  t: TestApp,
  body: Record<string, unknown> = {},
  key?: string,
): Promise<JsonBody> {
  const response = await t.call("POST", "/api/v1/posts", {
    body: { title: "A feature", ...body },
    ...(key ? { key } : {}),
  });
  if (response.status !== 201) throw new Error(`post not created: ${response.text}`);
  return response.body.data;
}

export async function makeUser(t: TestApp, body: Record<string, unknown>, key?: string): Promise<JsonBody> {
  const response = await t.call("POST", "/api/v1/users", { body, ...(key ? { key } : {}) });
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`user not created: ${response.text}`);
  return response.body.data;
}

export async function makeTag(t: TestApp, label: string, key?: string): Promise<JsonBody> {
  const response = await t.call("POST", "/api/v1/tags", { body: { label }, ...(key ? { key } : {}) });
  if (response.status !== 201) throw new Error(`tag not created: ${response.text}`);
  return response.body.data;
}

export interface ChangeLog {
  events: { type: string; payload: JsonBody }[];
  activity: { action: string; entityType: string; entityId: string | null }[];
}

/**
 * Remembers where the outbox and the activity log stand, then returns exactly what was written after
 * that point: how a test checks that a mutation left the entries it should, and no others.
 */
export function watchChanges(t: TestApp): () => ChangeLog {
  const db = t.ctx.db;
  const seq = db.query<{ seq: number | null }, []>("SELECT max(seq) AS seq FROM events").get()?.seq ?? 0;
  const activityRow =
    db.query<{ n: number | null }, []>("SELECT max(rowid) AS n FROM activity").get()?.n ?? 0;
  return () => ({
    events: db
      .query<{ type: string; payload: string }, [number]>(
        "SELECT type, payload FROM events WHERE seq > ? ORDER BY seq",
      )
      .all(seq)
      .map((row) => ({ type: row.type, payload: JSON.parse(row.payload) })),
    activity: db
      .query<{ action: string; entity_type: string; entity_id: string | null }, [number]>(
        "SELECT action, entity_type, entity_id FROM activity WHERE rowid > ? ORDER BY rowid",
      )
      .all(activityRow)
      .map((row) => ({ action: row.action, entityType: row.entity_type, entityId: row.entity_id })),
  });
}

/** Serves the test app on an ephemeral loopback port, for tests that need real concurrent HTTP. */
export function listen(t: TestApp): { url: string; stop: () => Promise<void> } {
  t.app.listen({ port: 0, hostname: "127.0.0.1" });
  const server = t.app.server!;
  return { url: `http://127.0.0.1:${server.port}`, stop: async () => void (await t.app.stop()) };
}
