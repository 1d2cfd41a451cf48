// Similarity benchmark (issue: AI workflows). One project with 10,000 posts and one with 100,000, embedded
// by the local provider; GET /posts/similar is called in-process (app.handle: routing, auth, validation,
// search, JSON) and its top 5 are compared with the same scoring (similarPostsOf) over an exact brute-force
// cosine scan of every vector of the project, done in the same run. The dataset is built once and reused (pass --rebuild to start over).
//
//   npx bun bench/similar.ts [--queries 300] [--sizes 10000,100000] [--dir /tmp/featureboard-bench-similar]

import { existsSync, mkdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AiRuntime, embedPost } from "../src/ai/embeddings";
import { LocalProvider } from "../src/ai/local-provider";
import { calibrate } from "../src/ai/provider";
import { CANDIDATES, embedQuery, EXACT_SCAN_LIMIT, similarPostsOf } from "../src/ai/similarity";
import { allVectors } from "../src/ai/store";
import { seededRandom } from "../src/ai/vectors";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { closeDatabase, commitNow, inTransaction } from "../src/db/connection";
import { openMigrated } from "../src/db/migrate";
import { createLogger } from "../src/log";
import { createKey, createProject, requireProjectBySlug } from "../src/projects/service";
import { createContext } from "../src/server";

const { values } = parseArgs({
  options: {
    queries: { type: "string", default: "300" },
    sizes: { type: "string", default: "10000,100000" },
    dir: { type: "string", default: "/tmp/featureboard-bench-similar" },
    rebuild: { type: "boolean", default: false },
  },
});
const QUERIES = Number(values.queries);
const SIZES = values.sizes.split(",").map(Number);
const dir = values.dir;
const databasePath = join(dir, `similar-${SIZES.join("-")}.db`);
const cacheDir = join(dir, "cache");

const SUBJECTS = [
  "dark mode",
  "CSV export",
  "single sign-on",
  "two-factor authentication",
  "mobile app",
  "Slack notifications",
  "keyboard shortcuts",
  "bulk editing",
  "recurring tasks",
  "translations",
  "offline mode",
  "role permissions",
  "audit log",
  "Google Calendar sync",
  "file attachments",
  "undo for deletions",
  "email templates",
  "webhooks",
  "time zones",
  "API tokens",
  "Gantt timeline",
  "print layout",
  "global search",
  "Zapier integration",
  "due date reminders",
  "PDF invoices",
  "larger fonts",
  "sorting by date",
  "saved filters",
  "custom fields",
  "guest access",
  "public roadmap",
  "changelog widget",
  "Jira sync",
  "GitHub issues",
  "SAML groups",
  "dashboard charts",
  "weekly digest",
  "mentions in comments",
  "emoji reactions",
  "markdown editor",
  "image uploads",
  "video embeds",
  "custom domains",
  "branding colours",
  "SCIM provisioning",
  "data retention",
  "GDPR export",
  "EU hosting",
  "uptime status page",
  "multiple boards",
  "private boards",
  "voting limits",
  "anonymous voting",
  "merge duplicates",
  "tag colours",
  "status labels",
  "release notes",
  "RSS feed",
  "Teams notifications",
  "Discord webhook",
  "Intercom import",
  "Zendesk sidebar",
  "Salesforce revenue",
  "HubSpot contacts",
  "Stripe revenue sync",
  "user segments",
  "survey questions",
  "NPS scores",
  "widget on mobile",
];
const ASKS = [
  "Please add",
  "We need",
  "It would be great to have",
  "Could you support",
  "Our team keeps asking for",
  "Is there any plan for",
  "Customers want",
  "Requesting",
  "Add support for",
  "Would love",
];
const CONTEXTS = [
  "for the admin dashboard",
  "on the public board",
  "for enterprise customers",
  "in the mobile widget",
  "for our support team",
  "across all projects",
  "for managers",
  "in the API",
  "for the sales team",
  "before the end of the quarter",
  "for compliance reasons",
  "to save time every week",
];
const DETAILS = [
  "We lose hours without it.",
  "Three of our biggest accounts asked this month.",
  "Competitors already have it.",
  "It blocks our rollout to the whole company.",
  "Our security review requires it.",
  "Small change, big impact.",
  "People keep emailing us about it.",
  "This is the top request from our customer survey.",
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function postText(random: () => number) {
  const subject = pick(random, SUBJECTS);
  const second = random() < 0.4 ? ` and ${pick(random, SUBJECTS)}` : "";
  return {
    title: `${pick(random, ASKS)} ${subject}${second} ${pick(random, CONTEXTS)}`,
    description:
      `${pick(random, DETAILS)} ${pick(random, DETAILS)} ${random() < 0.5 ? pick(random, CONTEXTS) : ""}`.trim(),
  };
}

async function build(): Promise<void> {
  if (existsSync(databasePath) && !values.rebuild) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const db = openMigrated({ databasePath, cacheDir });
  const ai = new AiRuntime(db, new LocalProvider());
  const random = seededRandom(42);
  for (const size of SIZES) {
    const { project } = createProject(db, { slug: `bench-${size}`, plan: "growth" });
    const insert = db.query(
      `INSERT INTO posts (id, project_id, title, description, status, vote_count, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'APPROVED', 0, ?, ?)`,
    );
    const CHUNK = 5000;
    for (let start = 0; start < size; start += CHUNK) {
      inTransaction(db, () => {
        for (let i = start; i < Math.min(size, start + CHUNK); i++) {
          const id = Bun.randomUUIDv7();
          const text = postText(random);
          const now = Date.now();
          insert.run(id, project.id, text.title, text.description, now, now);
          // The same hook the post service calls inside its transaction.
          embedPost(db, project.id, id);
        }
      });
      commitNow(db);
      // Queued in the chunk's transaction, embedded as the worker would.
      await ai.drain(project.id);
      commitNow(db);
    }
  }
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  db.run("ANALYZE");
  closeDatabase(db);
  console.log(`built ${SIZES.join(" + ")} posts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure() {
  const config = loadConfig({
    FEATUREBOARD_DB: databasePath,
    FEATUREBOARD_CACHE_DIR: cacheDir,
    FEATUREBOARD_LOG_LEVEL: "silent",
    FEATUREBOARD_RATE_LIMIT_KEY_PER_MINUTE: "1000000",
    FEATUREBOARD_RATE_LIMIT_KEY_BURST: "1000000",
    FEATUREBOARD_RATE_LIMIT_AI_PER_MINUTE: "1000000",
    FEATUREBOARD_RATE_LIMIT_AI_BURST: "1000000",
  });
  const ctx = createContext(config, createLogger("silent"));
  const app = createApp(ctx);
  const provider = new LocalProvider();
  const rows: string[] = [];
  for (const size of SIZES) {
    const project = requireProjectBySlug(ctx.db, `bench-${size}`);
    const secretKey = createKey(ctx.db, project.slug, "secret");
    commitNow(ctx.db);
    // Ground truth: every vector of the project in one matrix, scanned in full for each query.
    const stored = allVectors(ctx.db, project.id);
    const dimension = stored[0]!.vector.length;
    const matrix = new Float32Array(stored.length * dimension);
    stored.forEach((row, index) => matrix.set(row.vector, index * dimension));
    // The service's answer with an exact scan in place of the index: the nearest 10 by cosine (it asks the
    // index for twice the 5 it returns), scored and cut by the same similarPostsOf.
    const exactTop5 = (text: string, query: Float32Array): string[] => {
      const best: { index: number; score: number }[] = [];
      for (let index = 0; index < stored.length; index++) {
        let score = 0;
        const offset = index * dimension;
        for (let i = 0; i < dimension; i++) score += matrix[offset + i]! * query[i]!;
        if (best.length < 10 || score > best[9]!.score) {
          best.push({ index, score });
          best.sort((a, b) => b.score - a.score);
          if (best.length > 10) best.pop();
        }
      }
      const hits = best.map((hit) => ({
        postId: stored[hit.index]!.post_id,
        similarity: calibrate(hit.score, provider.calibration),
      }));
      return similarPostsOf(ctx.db, project.id, text, hits, { threshold: 0, limit: 5 }).map(
        (post) => post.id,
      );
    };
    const latencies: number[] = [];
    const exactLatencies: number[] = [];
    let recallSum = 0;
    const random = seededRandom(7 + size);
    const queries = Array.from({ length: QUERIES + 20 }, () => postText(random).title);
    // Latency first, with nothing else running, then the ground truth for the same queries.
    const answers: Set<string>[] = [];
    for (const [q, text] of queries.entries()) {
      const url = `http://localhost/api/v1/posts/similar?query=${encodeURIComponent(text)}&threshold=0&limit=5`;
      const t0 = performance.now();
      const response = await app.handle(
        new Request(url, { headers: { authorization: `Bearer ${secretKey}` } }),
      );
      const body = (await response.json()) as { data: { id: string }[] };
      const elapsed = performance.now() - t0;
      if (response.status !== 200) throw new Error(`similar answered ${response.status}`);
      if (q < 20) continue; // warm-up
      latencies.push(elapsed);
      answers.push(new Set(body.data.map((hit) => hit.id)));
    }
    for (const [q, text] of queries.slice(20).entries()) {
      const t1 = performance.now();
      const truth = exactTop5(text, await embedQuery(provider, { title: text, description: null }));
      exactLatencies.push(performance.now() - t1);
      recallSum += truth.filter((id) => answers[q]!.has(id)).length / truth.length;
    }
    latencies.sort((a, b) => a - b);
    exactLatencies.sort((a, b) => a - b);
    rows.push(
      `| ${size.toLocaleString("en")} | ${QUERIES} | ${percentile(latencies, 50).toFixed(2)} | ${percentile(latencies, 95).toFixed(2)} | ` +
        `${(recallSum / QUERIES).toFixed(3)} | ${percentile(exactLatencies, 50).toFixed(1)} | ${percentile(exactLatencies, 95).toFixed(1)} |`,
    );
    console.log(rows.at(-1));
  }
  closeDatabase(ctx.db);
  // limit=5: the search asks for twice that (10), and the index hands over max(CANDIDATES, 4 × 10).
  console.log(
    `\nsignature KNN candidates: ${Math.max(CANDIDATES, 4 * 10)} (limit 5); exact scan up to ${EXACT_SCAN_LIMIT} posts`,
  );
  console.log(
    `load average (1, 5, 15 min) at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  );
  console.log("| posts | queries | p50 ms | p95 ms | recall@5 | exact scan p50 ms | exact scan p95 ms |");
  console.log("|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

await build();
console.log(
  `load average (1, 5, 15 min) at the start: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(", ")}`,
);
await measure();
