import { homedir } from "node:os";
import { join } from "node:path";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type AiProviderName = "local" | "openai";

/** A token bucket: `perMinute` tokens refill evenly over a minute, at most `burst` are held. */
export interface RateLimitRule {
  perMinute: number;
  burst: number;
}

export interface Config {
  port: number;
  host: string;
  databasePath: string;
  /** FEATUREBOARD_DURABILITY: `full` (default) survives power loss; `fast` survives a process crash only. */
  durability: "full" | "fast";
  publicUrl: string;
  cacheDir: string;
  logLevel: LogLevel;
  trustProxy: boolean;
  bootstrapSecretKey: string | null;
  allowPrivateTargets: boolean;
  shutdownTimeoutMs: number;
  /** The payment processor's API root (Stripe's by default; tests point it at a loopback server). */
  payments: { apiUrl: string };
  rateLimits: {
    secretKey: RateLimitRule;
    publicIp: RateLimitRule;
    page: RateLimitRule;
    ai: RateLimitRule;
    signIn: RateLimitRule;
  };
  ai: {
    provider: AiProviderName;
    openaiApiKey: string | null;
    openaiBaseUrl: string | null;
    chatModel: string;
    embedModel: string;
    /** Per request to the provider; the client retries `maxRetries` times before UPSTREAM_ERROR. */
    timeoutMs: number;
    maxRetries: number;
    /** Inputs per embeddings request at first; halved on the server's "too many inputs" (docs/ai.md). */
    embedBatchSize: number;
    /** Each text sent to be embedded is cut to this many characters. */
    embedMaxChars: number;
    /** The raw cosine that maps to similarity 0.7 for this embedding model, when set (else the default). */
    embedBoundary: number | null;
  };
  mail: { smtpUrl: string | null; from: string };
  delivery: {
    /** Time-out of one outgoing attempt. */
    timeoutMs: number;
    /** Wait before each retry; after the last one the delivery is marked failed. */
    retryScheduleMs: number[];
    /** An endpoint whose attempts have all failed for this long is disabled. */
    disableAfterMs: number;
  };
  /** API roots of the providers, so tests (or an enterprise host) can point them elsewhere. */
  providers: { codeHostApiUrl: string; issueTrackerApiUrl: string };
}

/** Thrown for a bad environment value; `main` prints its message as one line and exits with code 2. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`${variable}: ${detail}`);
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

/** A raw-cosine boundary strictly between 0 and 1, or null when unset. */
function boundary(env: Env, name: string): number | null {
  const raw = text(env, name);
  if (raw === null) return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value >= 1) {
    throw new ConfigError(name, "must be a number between 0 and 1, such as 0.6");
  }
  return value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string): boolean {
  const raw = text(env, name);
  if (raw === null) return false;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(", ")}, got "${raw}"`);
  }
  return raw as T;
}

function httpUrl(env: Env, name: string): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(name, `expected an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

/**
 * The address users reach: every link is this plus a path, so a query or a fragment in it would end up in
 * the middle of every link (`https://x/?a=1/b/acme`).
 */
function publicUrl(env: Env, name: string): string | null {
  const url = httpUrl(env, name);
  if (url !== null && /[?#]/.test(url)) {
    throw new ConfigError(
      name,
      `expected an address without ?query or #fragment, such as https://feedback.example.com, got "${url}"`,
    );
  }
  return url;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "250ms", "5s", "30m", "2h", "5d": one duration in milliseconds, or null when malformed. */
function parseDuration(raw: string): number | null {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(raw.trim());
  return match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : null;
}

function duration(env: Env, name: string, fallback: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const value = parseDuration(raw);
  if (value === null)
    throw new ConfigError(name, `expected a duration such as 500ms, 5s, 30m, 2h or 5d, got "${raw}"`);
  return value;
}

function durations(env: Env, name: string, fallback: string): number[] {
  const raw = text(env, name) ?? fallback;
  const values = raw.split(",").map(parseDuration);
  if (values.some((value) => value === null)) {
    throw new ConfigError(name, `expected comma-separated durations such as 5s,5m,30m, got "${raw}"`);
  }
  return values as number[];
}

function rateRule(env: Env, prefix: string, fallback: RateLimitRule): RateLimitRule {
  return {
    perMinute: integer(env, `${prefix}_PER_MINUTE`, fallback.perMinute, 1, 1_000_000),
    burst: integer(env, `${prefix}_BURST`, fallback.burst, 1, 1_000_000),
  };
}

export const SECRET_KEY_PATTERN = /^sk_[0-9A-Za-z]{32}$/;

/** Reads and validates every setting once; the rest of the program only sees the typed result. */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, "PORT", 3000, 0, 65535);
  const bootstrapSecretKey = text(env, "FEATUREBOARD_BOOTSTRAP_SECRET_KEY");
  if (bootstrapSecretKey !== null && !SECRET_KEY_PATTERN.test(bootstrapSecretKey)) {
    throw new ConfigError(
      "FEATUREBOARD_BOOTSTRAP_SECRET_KEY",
      "expected sk_ followed by 32 letters or digits",
    );
  }
  const provider = oneOf(env, "FEATUREBOARD_AI_PROVIDER", ["local", "openai"] as const, "local");
  const openaiApiKey = text(env, "OPENAI_API_KEY");
  const openaiBaseUrl = httpUrl(env, "OPENAI_BASE_URL");
  if (provider === "openai" && openaiApiKey === null && openaiBaseUrl === null) {
    throw new ConfigError(
      "FEATUREBOARD_AI_PROVIDER",
      "openai needs OPENAI_API_KEY or OPENAI_BASE_URL (for a local OpenAI-compatible server)",
    );
  }
  const smtpUrl = text(env, "FEATUREBOARD_SMTP_URL");
  if (smtpUrl !== null && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError("FEATUREBOARD_SMTP_URL", `expected smtp:// or smtps://, got "${smtpUrl}"`);
  }
  const cacheHome = text(env, "XDG_CACHE_HOME") ?? join(homedir(), ".cache");

  return {
    port,
    host: text(env, "HOST") ?? "0.0.0.0",
    databasePath: text(env, "FEATUREBOARD_DB") ?? "data/featureboard.db",
    durability: oneOf(env, "FEATUREBOARD_DURABILITY", ["full", "fast"] as const, "full"),
    publicUrl: publicUrl(env, "FEATUREBOARD_PUBLIC_URL") ?? `http://localhost:${port}`,
    cacheDir: text(env, "FEATUREBOARD_CACHE_DIR") ?? join(cacheHome, "featureboard"),
    logLevel: oneOf(
      env,
      "FEATUREBOARD_LOG_LEVEL",
      ["debug", "info", "warn", "error", "silent"] as const,
      "info",
    ),
    trustProxy: boolean(env, "FEATUREBOARD_TRUST_PROXY"),
    bootstrapSecretKey,
    allowPrivateTargets: boolean(env, "FEATUREBOARD_ALLOW_PRIVATE_TARGETS"),
    shutdownTimeoutMs: integer(env, "FEATUREBOARD_SHUTDOWN_TIMEOUT_MS", 30_000, 0, 600_000),
    payments: { apiUrl: httpUrl(env, "FEATUREBOARD_PAYMENTS_API_URL") ?? "https://api.stripe.com" },
    rateLimits: {
      secretKey: rateRule(env, "FEATUREBOARD_RATE_LIMIT_KEY", { perMinute: 600, burst: 100 }),
      publicIp: rateRule(env, "FEATUREBOARD_RATE_LIMIT_IP", { perMinute: 60, burst: 20 }),
      // Board pages and the widget: a person clicking through a board never meets it; a scraper does.
      page: rateRule(env, "FEATUREBOARD_RATE_LIMIT_PAGE", { perMinute: 300, burst: 60 }),
      // A burst of the whole minute: "30 a minute" (the specification) lets 30 calls in a row through.
      ai: rateRule(env, "FEATUREBOARD_RATE_LIMIT_AI", { perMinute: 30, burst: 30 }),
      // Dashboard sign-in attempts, per account and per client IP: password guessing stays slow.
      signIn: rateRule(env, "FEATUREBOARD_RATE_LIMIT_SIGN_IN", { perMinute: 10, burst: 5 }),
    },
    ai: {
      provider,
      openaiApiKey,
      openaiBaseUrl,
      chatModel: text(env, "FEATUREBOARD_CHAT_MODEL") ?? "gpt-4o-mini",
      embedModel: text(env, "FEATUREBOARD_EMBED_MODEL") ?? "text-embedding-3-small",
      timeoutMs: integer(env, "FEATUREBOARD_AI_TIMEOUT_MS", 30_000, 1, 600_000),
      maxRetries: integer(env, "FEATUREBOARD_AI_MAX_RETRIES", 2, 0, 10),
      embedBatchSize: integer(env, "FEATUREBOARD_EMBED_BATCH_SIZE", 64, 1, 2048),
      embedMaxChars: integer(env, "FEATUREBOARD_EMBED_MAX_CHARS", 8_000, 100, 1_000_000),
      embedBoundary: boundary(env, "FEATUREBOARD_EMBED_BOUNDARY"),
    },
    mail: {
      smtpUrl,
      from: text(env, "FEATUREBOARD_MAIL_FROM") ?? "featureboard <no-reply@localhost>",
    },
    delivery: {
      timeoutMs: duration(env, "FEATUREBOARD_DELIVERY_TIMEOUT", 10_000),
      retryScheduleMs: durations(env, "FEATUREBOARD_WEBHOOK_RETRY_SCHEDULE", "5s,5m,30m,2h,5h,10h,10h"),
      disableAfterMs: duration(env, "FEATUREBOARD_WEBHOOK_DISABLE_AFTER", 5 * 86_400_000),
    },
    providers: {
      codeHostApiUrl: httpUrl(env, "FEATUREBOARD_CODE_HOST_API_URL") ?? "https://api.github.com",
      issueTrackerApiUrl: httpUrl(env, "FEATUREBOARD_ISSUE_TRACKER_API_URL") ?? "https://api.linear.app",
    },
  };
}
