import { parseArgs } from "node:util";
import { AiRuntime, indexStatus, resetIndex } from "../ai/embeddings";
import { calibrateFromMerges, MIN_MERGED_PAIRS } from "../ai/calibration";
import { createProvider } from "../ai/providers";
import { requireProjectBySlug } from "../projects/service";
import type { Config } from "../config";
import { commitNow, type Db, inTransaction } from "../db/connection";
import { plural } from "../plural";
import { UsageError } from "./usage";

type Print = (line: string) => void;

/** `ai status` in words: what a person at a terminal reads; `--json` gives the object itself. */
function describeStatus(status: ReturnType<typeof indexStatus>): string[] {
  const lines = [
    `provider:        ${status.provider ?? "none (AI search and suggestions are off)"}`,
    `stored vectors:  ${status.embedded === 0 ? "none yet" : plural(status.embedded, "post")}${status.modelKey ? ` (model ${status.modelKey})` : ""}`,
    `waiting:         ${status.queued === 0 ? "nothing" : plural(status.queued, "post")}`,
  ];
  if (status.failed.length === 0) lines.push("failed:          none");
  else {
    lines.push(
      `failed:          ${status.failed.length} set aside (newest first; editing the post or ai reindex retries):`,
    );
    for (const failure of status.failed) lines.push(`  ${failure.postId}: ${failure.reason}`);
  }
  return lines;
}

/**
 * `featureboard ai status` shows which model the stored vectors belong to and what is waiting;
 * `featureboard ai reindex [--all]` embeds every waiting post now (after a provider or model change the
 * server does it in the background; this does it in the foreground). `--all` re-embeds every post.
 * `featureboard ai calibrate [--project SLUG]` suggests FEATUREBOARD_EMBED_BOUNDARY from the merges the team
 * made (src/ai/calibration.ts); it changes nothing.
 */
export async function aiCommand(args: string[], db: Db, config: Config, print: Print): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "status") {
    const { values } = parseArgs({ args: rest, options: { json: { type: "boolean", default: false } } });
    // Read-only: a different model in the configuration drops nothing here (that is what reindex does).
    const status = indexStatus(db, createProvider(config).name);
    if (values.json) print(JSON.stringify(status));
    else for (const line of describeStatus(status)) print(line);
    return 0;
  }
  if (sub === "reindex") {
    const { values } = parseArgs({ args: rest, options: { all: { type: "boolean", default: false } } });
    const ai = new AiRuntime(db, createProvider(config));
    if (values.all) inTransaction(db, () => resetIndex(db, Date.now()));
    commitNow(db);
    const started = performance.now();
    let total = 0;
    for (;;) {
      const handled = await ai.drain(null, 16);
      commitNow(db);
      if (handled === 0) break;
      total += handled;
      print(`embedded ${total} posts`);
    }
    const status = indexStatus(db, ai.provider.name);
    print(
      `reindex done: ${total} posts embedded in ${Math.round(performance.now() - started)} ms; ` +
        `${status.embedded} stored (${status.modelKey}), ${status.queued} waiting`,
    );
    return 0;
  }
  if (sub === "calibrate") {
    const { values } = parseArgs({
      args: rest,
      options: { project: { type: "string" }, json: { type: "boolean", default: false } },
    });
    const projectId = values.project ? requireProjectBySlug(db, values.project).id : null;
    const report = await calibrateFromMerges(new AiRuntime(db, createProvider(config)), projectId);
    commitNow(db);
    if (values.json) {
      print(JSON.stringify(report));
      return 0;
    }
    print(
      report.suggested === null
        ? `calibrate: ${report.mergedPairs} merged pairs; at least ${MIN_MERGED_PAIRS} are needed (merge duplicates on the dashboard or with POST /posts/{id}/merge)`
        : `calibrate: suggested FEATUREBOARD_EMBED_BOUNDARY=${report.suggested} (now ${report.current}; precision ${report.precision}, recall ${report.recall} on ${report.mergedPairs} merged pairs)`,
    );
    return 0;
  }
  throw new UsageError(`unknown ai command: ${sub ?? "(none)"}`);
}
