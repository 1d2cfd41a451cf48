import type { Config } from "./config";
import type { Db } from "./db/connection";
import type { RateLimits } from "./http/rate-limit";
import type { Logger } from "./log";

/** What the running service shares with every capability: built once in `server.ts` (or by a test). */
export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  rateLimits: RateLimits;
}
