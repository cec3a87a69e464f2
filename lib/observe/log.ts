/**
 * The logger contract: JSON lines with a level, a message and fields. The core
 * only calls it; where the lines go (stdout, a test array) is the embedder's choice.
 * Callers never pass tokens, secrets or invoice content.
 * @module
 */

/** Log levels, least to most severe. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A structured logger. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  enabled(level: LogLevel): boolean;
}

/** A logger writing one JSON object per line through `write`, dropping lines below `level`. */
export function createJsonLogger(level: LogLevel, write: (line: string) => void, now: () => number = Date.now): Logger {
  const min = LOG_LEVELS.indexOf(level);
  const at = (l: LogLevel) => (msg: string, fields?: Record<string, unknown>): void => {
    if (LOG_LEVELS.indexOf(l) < min) return;
    write(`${JSON.stringify({ time: new Date(now()).toISOString(), level: l, msg, ...fields })}\n`);
  };
  return {
    debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"),
    enabled: (l) => LOG_LEVELS.indexOf(l) >= min,
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = createJsonLogger("error", () => {});
