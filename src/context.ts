import type { AiRuntime } from "./ai/embeddings";
import type { Config } from "./config";
import type { MailSender } from "./email/sender";
import type { SyncResult } from "./payments/schema";
import type { Db } from "./db/connection";
import type { RateLimits } from "./http/rate-limit";
import type { ImportJobs } from "./imports/jobs";
import type { Logger } from "./log";

/** What the running service shares with every capability: built once in `server.ts` (or by a test). */
export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  rateLimits: RateLimits;
  /** The AI provider and the embedding work around it (its worker is started by server.ts). */
  ai: AiRuntime;
  /** Sends queued subscriber mail (SMTP or the local outbox); started by server.ts. */
  mail: MailSender;
  /** Payment syncs in flight, by project: a second request joins the running one. */
  paymentSyncs: Map<string, Promise<SyncResult>>;
  /** CSV imports started from the dashboard, with their progress. */
  imports: ImportJobs;
}
