import { parseArgs } from "node:util";
import { AiRuntime, indexStatus, resetIndex } from "../ai/embeddings";
import { calibrateFromMerges, MIN_MERGED_PAIRS } from "../ai/calibration";
import { createProvider } from "../ai/providers";
import { requireProjectBySlug } from "../projects/service";
import type { Config } from "../config";
import { commitNow, type Db, inTransaction } from "../db/connection";
import { UsageError } from "./usage";

type Print = (line: string) => void;

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
    // Read-only: a different model in the configuration drops nothing here (that is what reindex does).
    print(JSON.stringify(indexStatus(db, createProvider(config).name)));
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
    const { values } = parseArgs({ args: rest, options: { project: { type: "string" } } });
    const projectId = values.project ? requireProjectBySlug(db, values.project).id : null;
    const report = await calibrateFromMerges(new AiRuntime(db, createProvider(config)), projectId);
    commitNow(db);
    print(JSON.stringify(report));
    print(
      report.suggested === null
        ? `calibrate: ${report.mergedPairs} merged pairs; at least ${MIN_MERGED_PAIRS} are needed (merge duplicates on the dashboard or with POST /posts/{id}/merge)`
        : `calibrate: suggested FEATUREBOARD_EMBED_BOUNDARY=${report.suggested} (now ${report.current}; precision ${report.precision}, recall ${report.recall} on ${report.mergedPairs} merged pairs)`,
    );
    return 0;
  }
  throw new UsageError(`unknown ai command: ${sub ?? "(none)"}`);
}
