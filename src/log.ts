import type { LogLevel } from "./config";

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** One JSON object per line on stdout, so any log shipper can read it without a parser of ours. */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => console.log(line),
): Logger {
  const emit = (at: Exclude<LogLevel, "silent">, msg: string, fields?: LogFields) => {
    if (rank[at] < rank[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }));
  };
  return {
    debug: (msg, fields) => emit("debug", msg, fields),
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
  };
}

/** Error details for a log line: the stack stays in the log, never in a response. */
export function describeError(error: unknown): LogFields {
  if (error instanceof Error) return { error: error.message, stack: error.stack };
  return { error: String(error) };
}
