// The data and the processes the HTTP benches share (bench/board.ts, bench/stalls.ts).
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { closeDatabase, commitNow, inTransaction } from "../src/db/connection";
import { openMigrated } from "../src/db/migrate";
import { POST_STATUSES } from "../src/posts/schema";
import { createProject } from "../src/projects/service";

const ROOT = new URL("../", import.meta.url).pathname;

/**
 * A project with `posts` posts (a year of them, a few minutes apart, a third tagged) and `votes` votes
 * skewed toward a few posts, written straight into a new database file.
 */
export function seedBoard(options: {
  databasePath: string;
  cacheDir: string;
  posts: number;
  votes: number;
}): {
  secretKey: string;
  postIds: string[];
} {
  const { databasePath, cacheDir } = options;
  const POSTS = options.posts;
  const VOTES = options.votes;
  const started = performance.now();
  const db = openMigrated({ databasePath, cacheDir });
  const { secretKey, project } = createProject(db, { slug: "bench", plan: "growth" });
  const now = Date.now();
  const postIds: string[] = [];
  inTransaction(db, () => {
    const tagIds = Array.from({ length: 20 }, (_, i) => {
      const id = Bun.randomUUIDv7();
      db.query(
        "INSERT INTO tags (id, project_id, label, theme, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(id, project.id, `Tag ${i}`, "#6366f1", now, now);
      return id;
    });
    const insertPost = db.query(
      `INSERT INTO posts (id, project_id, title, description, status, vote_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
    );
    const insertTag = db.query("INSERT INTO post_tags (post_id, tag_id) VALUES (?, ?)");
    for (let i = 0; i < POSTS; i++) {
      // A year of posts, oldest first, a few minutes apart.
      const createdAt = now - (POSTS - i) * 300_000;
      const id = Bun.randomUUIDv7("hex", createdAt);
      postIds.push(id);
      insertPost.run(
        id,
        project.id,
        `Feature request number ${i}: make the reports page faster`,
        "A customer asked for this in a support ticket; several others agreed on the call.",
        POST_STATUSES[i % POST_STATUSES.length]!,
        createdAt,
        createdAt,
      );
      if (i % 3 === 0) insertTag.run(id, tagIds[i % tagIds.length]!);
    }
  });
  // Votes go in chunks, each committed and checkpointed, so the WAL stays small while seeding.
  const insertVote = db.query(
    "INSERT INTO votes (id, project_id, post_id, anonymous_id, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const CHUNK = 50_000;
  for (let start = 0; start < VOTES; start += CHUNK) {
    inTransaction(db, () => {
      for (let i = start; i < Math.min(VOTES, start + CHUNK); i++) {
        // Skewed: a few posts collect most votes, as on a real board.
        const postIndex = Math.floor(POSTS * Math.random() ** 3);
        insertVote.run(
          Bun.randomUUIDv7(),
          project.id,
          postIds[postIndex]!,
          `seed-${i}`,
          now - (i % 1_000_000),
        );
      }
    });
    commitNow(db);
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  // Seeding writes vote rows directly, so it sets the counts the service keeps in step vote by vote.
  inTransaction(db, () =>
    db.run("UPDATE posts SET vote_count = (SELECT count(*) FROM votes WHERE votes.post_id = posts.id)"),
  );
  closeDatabase(db);
  const analyzed = openMigrated({ databasePath, cacheDir });
  analyzed.run("ANALYZE");
  closeDatabase(analyzed);
  console.log(
    `seeded ${POSTS} posts and ${VOTES} votes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { secretKey, postIds };
}

export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** Starts a server process logging to a file (as in production), and waits until it answers. */
export async function startServer(
  dir: string,
  name: string,
  command: string[],
  env: Record<string, string>,
  readyPath: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = freePort();
  const proc = Bun.spawn(command, {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), ...env },
    stdout: Bun.file(join(dir, `${name}.log`)),
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (proc.exitCode !== null) throw new Error(`${name} exited with ${proc.exitCode}`);
    const ok = await fetch(`${url}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (attempt > 200) throw new Error(`${name} did not start`);
    await Bun.sleep(50);
  }
  // Resolves once the process has exited: a service still closing its database would share the disk and
  // the cores with whatever is measured next.
  return {
    url,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** Waits until the server has embedded every queued post (read through a second connection); seconds taken. */
export async function waitForEmbeddings(databasePath: string): Promise<number> {
  const reader = new Database(databasePath, { readonly: true });
  const started = performance.now();
  try {
    for (;;) {
      const waiting =
        reader.query<{ n: number }, []>("SELECT count(*) AS n FROM embedding_queue").get()?.n ?? 0;
      if (waiting === 0) break;
      await Bun.sleep(200);
    }
  } finally {
    reader.close();
  }
  return (performance.now() - started) / 1000;
}
