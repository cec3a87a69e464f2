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

/** The stream a bounded writer writes to (process.stdout fits): it says how much it still holds. */
export interface LogOutput {
  write(line: string): unknown;
  /** Bytes handed to the stream that its reader has not taken yet. */
  readonly writableLength: number;
}

/** Options of boundedLogWriter. */
export interface BoundedLogOptions {
  /** Beyond this many unread bytes, lines are dropped (default DEFAULT_LOG_BACKLOG). */
  maxBacklog?: number;
  /** Counts dropped lines as `log_lines_dropped_total`. */
  metrics?: { inc(name: string, help: string, labels: Record<string, string>): void };
  now?: () => number;
}

/**
 * 1 MiB of unread lines (some 4,000 request lines) rides out a reader's hiccup; past that, a stalled collector
 * would make the process hold every line until it is killed for memory.
 */
export const DEFAULT_LOG_BACKLOG = 1024 * 1024;

/**
 * A `write` for createJsonLogger that never lets the output's backlog grow past a bound: lines beyond it are
 * dropped and counted, and the next line that gets through is preceded by one saying how many were lost.
 */
export function boundedLogWriter(out: LogOutput, o: BoundedLogOptions = {}): (line: string) => void {
  const max = o.maxBacklog ?? DEFAULT_LOG_BACKLOG;
  const now = o.now ?? Date.now;
  let dropped = 0;
  return (line) => {
    if (out.writableLength + line.length > max) {
      dropped++;
      o.metrics?.inc("log_lines_dropped_total", "Log lines dropped because the log reader fell behind.", {});
      return;
    }
    if (dropped > 0) {
      out.write(`${JSON.stringify({ time: new Date(now()).toISOString(), level: "warn", msg: "log lines dropped: the log reader fell behind", dropped })}\n`);
      dropped = 0;
    }
    out.write(line);
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = createJsonLogger("error", () => {});
