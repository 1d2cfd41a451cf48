import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { LOCAL_MODEL_KEY } from "../../src/ai/local-embedder";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { closeDatabase, commitNow } from "../../src/db/connection";
import { createLogger } from "../../src/log";
import { createPost } from "../../src/posts/service";
import { createProject } from "../../src/projects/service";
import { createContext } from "../../src/server";
import { tempDir } from "../support/app";
import { runCommand, SOURCE_COMMAND } from "../support/process";

const dir = tempDir();
const database = join(dir, "ai.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const count = (db: ReturnType<typeof createContext>["db"], table: string) =>
  db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;

describe("re-embedding after a provider change", () => {
  test("posts written while another provider was configured are queued, and `ai reindex` embeds them", async () => {
    // A server configured for an OpenAI-compatible provider that is not reachable: posts are created and
    // queued for embedding (the provider cannot run inside the post's transaction).
    const openaiConfig = loadConfig({
      FEATUREBOARD_DB: database,
      FEATUREBOARD_LOG_LEVEL: "silent",
      FEATUREBOARD_AI_PROVIDER: "openai",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    });
    const ctx = createContext(openaiConfig, createLogger("silent"));
    createApp(ctx);
    const { project } = createProject(ctx.db, { slug: "acme", plan: "growth" });
    for (const title of ["Dark mode", "Export to CSV", "Single sign-on"])
      createPost(ctx.db, project.id, { title });
    commitNow(ctx.db);
    expect(count(ctx.db, "embedding_queue")).toBe(3);
    expect(count(ctx.db, "post_embeddings")).toBe(0);
    closeDatabase(ctx.db);

    const env = { FEATUREBOARD_DB: database, FEATUREBOARD_LOG_LEVEL: "silent" };
    // In words for a person; --json for a script.
    const words = runCommand([...SOURCE_COMMAND, "ai", "status"], env);
    expect(words.exitCode).toBe(0);
    expect(words.stdout).toContain("provider:        local\n");
    expect(words.stdout).toContain("stored vectors:  none yet");
    expect(words.stdout).toContain("waiting:         3 posts\n");
    expect(words.stdout).toContain("failed:          none\n");
    const status = runCommand([...SOURCE_COMMAND, "ai", "status", "--json"], env);
    expect(status.exitCode).toBe(0);
    // `ai status` only reads: the stored vectors' model stays the other provider's until a reindex.
    const before = JSON.parse(status.stdout);
    expect(before).toMatchObject({ provider: "local", queued: 3, embedded: 0 });
    expect(before.modelKey).not.toBe(LOCAL_MODEL_KEY);
    expect(JSON.parse(runCommand([...SOURCE_COMMAND, "ai", "status", "--json"], env).stdout)).toEqual(before);

    const reindex = runCommand([...SOURCE_COMMAND, "ai", "reindex"], env);
    expect(reindex.exitCode).toBe(0);
    expect(reindex.stdout).toContain("3 posts embedded");
    const after = JSON.parse(runCommand([...SOURCE_COMMAND, "ai", "status", "--json"], env).stdout);
    expect(after).toMatchObject({ modelKey: LOCAL_MODEL_KEY, embedded: 3, queued: 0 });

    const again = runCommand([...SOURCE_COMMAND, "ai", "reindex", "--all"], env);
    expect(again.stdout).toContain("3 posts embedded");
  });

  test("the server's background worker re-embeds queued posts without any request", async () => {
    const config = loadConfig({ FEATUREBOARD_DB: join(dir, "worker.db"), FEATUREBOARD_LOG_LEVEL: "silent" });
    const ctx = createContext(config, createLogger("silent"));
    const { project } = createProject(ctx.db, { slug: "acme", plan: "growth" });
    // Posts written with no provider attached (as an import from the CLI would be) wait in the queue.
    createPost(ctx.db, project.id, { title: "Dark mode" });
    commitNow(ctx.db);
    expect(count(ctx.db, "embedding_queue")).toBe(1);
    // server.ts starts the runtime's worker (building the app starts nothing).
    createApp(ctx);
    await Bun.sleep(1500);
    expect(count(ctx.db, "post_embeddings")).toBe(0);
    ctx.ai.startWorker();
    for (let i = 0; i < 50 && count(ctx.db, "post_embeddings") === 0; i++) await Bun.sleep(100);
    ctx.ai.stopWorker();
    expect(count(ctx.db, "post_embeddings")).toBe(1);
    expect(count(ctx.db, "embedding_queue")).toBe(0);
    closeDatabase(ctx.db);
  });
});
