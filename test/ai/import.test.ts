import { afterAll, describe, expect, test } from "bun:test";
import { makePost } from "../support/board";
import { createAiTestApp } from "./support";

const source = createAiTestApp();
const target = createAiTestApp();
afterAll(() => {
  source.close();
  target.close();
});

const similarIn = async (query: string) => {
  const response = await target.call(
    "GET",
    `/api/v1/posts/similar?query=${encodeURIComponent(query)}&threshold=0.5&limit=50`,
  );
  expect(response.status).toBe(200);
  return response.body.data as { id: string; title: string }[];
};

describe("similarity after a board-export import", () => {
  test("imported posts are found by /posts/similar; a post imported as merged is not", async () => {
    const kept = await makePost(source, {
      title: "Offline mode",
      description: "Work without internet access",
    });
    const twin = await makePost(source, { title: "Use the app offline without internet" });
    await makePost(source, { title: "Export invoices as PDF" });
    const merged = await source.call("POST", `/api/v1/posts/${twin.id}/merge`, {
      body: { intoPostId: kept.id },
    });
    expect(merged.status).toBe(200);
    const exported = await source.call("GET", "/api/v1/export");
    expect(exported.status).toBe(200);

    const imported = await target.call("POST", "/api/v1/import", {
      body: { source: "board-export", data: exported.body.data },
    });
    expect(imported.status).toBe(200);
    const rows = target.ctx.db
      .query<{ id: string; title: string; merged_into_id: string | null }, [string]>(
        "SELECT id, title, merged_into_id FROM posts WHERE project_id = ?",
      )
      .all(target.project.project.id);
    const importedKept = rows.find((row) => row.title === "Offline mode")!;
    const importedTwin = rows.find((row) => row.title === "Use the app offline without internet")!;
    expect(importedTwin.merged_into_id).toBe(importedKept.id);

    const hits = await similarIn("offline mode without internet");
    expect(hits.map((hit) => hit.id)).toContain(importedKept.id);
    expect(hits.map((hit) => hit.id)).not.toContain(importedTwin.id);
    expect((await similarIn("export invoices as pdf")).map((hit) => hit.title)).toContain(
      "Export invoices as PDF",
    );
    // The merged post left the index itself, not only the results.
    const indexed = target.ctx.db
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM post_embeddings WHERE post_id = ?")
      .get(importedTwin.id);
    expect(indexed?.n).toBe(0);
  });

  test("a post marked merged while it still has a vector is not returned", async () => {
    const keeper = await makePost(target, { title: "Calendar sync with Google Calendar" });
    const stray = await makePost(target, { title: "Sync to Google Calendar" });
    // A writer that sets merged_into_id without forgetting the vector (as the import once did).
    target.ctx.db.run("UPDATE posts SET merged_into_id = ? WHERE id = ?", [keeper.id, stray.id]);
    const ids = (await similarIn("google calendar sync")).map((hit) => hit.id);
    expect(ids).toContain(keeper.id);
    expect(ids).not.toContain(stray.id);
  });
});
