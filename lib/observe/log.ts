/**
 * The logger contract: JSON lines with a level, a message and fields. The core
 * only calls it; where the lines go (stdout, a test array) is the embedder's choice.
 * Callers never pass tokens, secrets or invoice content.
 * @module
 */
import { Buffer } from "node:buffer";

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

/**
 * A logger writing one JSON object per line through `write`, dropping lines below `level`: `time`, `level` and
 * `msg` first, then the fields (one of those three names among the fields replaces it in place).
 */
export function createJsonLogger(level: LogLevel, write: (line: string) => void, now: () => number = Date.now): Logger {
  const min = LOG_LEVELS.indexOf(level);
  // A line per request: the time's text is made once per millisecond, and the fields are serialised as they are
  // rather than first copied behind the three leading members.
  let isoMs = NaN, iso = "";
  const at = (l: LogLevel) => {
    const levelMember = `","level":"${l}","msg":`;
    const on = LOG_LEVELS.indexOf(l) >= min;
    return (msg: string, fields?: Record<string, unknown>): void => {
      if (!on) return;
      const ms = now();
      if (ms !== isoMs) iso = new Date((isoMs = ms)).toISOString();
      if (fields && ("time" in fields || "level" in fields || "msg" in fields)) {
        write(`${JSON.stringify({ time: iso, level: l, msg, ...fields })}\n`);
        return;
      }
      write(`{"time":"${iso}${levelMember}${_string(msg)}${fields ? _members(fields) : ""}}\n`);
    };
  };
  return {
    debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"),
    enabled: (l) => LOG_LEVELS.indexOf(l) >= min,
  };
}

/** True when JSON.stringify would write `s` as it is between quotes: printable ASCII without `"` or `\\`. */
function _plain(s: string): boolean {
  // A loop rather than a regular expression: the request line's values are short, and this runs for each of them.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

function _string(s: string): string {
  return _plain(s) ? `"${s}"` : JSON.stringify(s);
}

/** Field names seen, at most: they are the callers' constants (a request line has eight), so the cache stays small. */
const _MAX_KEYS = 1024;
const _keys = new Map<string, string>();

/** `,"name":` for a member, made once per name. */
function _key(name: string): string {
  let text = _keys.get(name);
  if (text === undefined) {
    text = `,${_string(name)}:`;
    if (_keys.size < _MAX_KEYS) _keys.set(name, text);
  }
  return text;
}

/**
 * `,"name":value` for each member, the same text JSON.stringify gives, in less than half its time for the flat
 * fields a request line has (ids, a route, numbers): it is written once per request. Objects and anything
 * else that is not a string, finite number, boolean or null are left to JSON.stringify (toJSON included).
 */
function _members(fields: Record<string, unknown>): string {
  let out = "";
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const v = fields[key];
    let text: string | undefined;
    if (typeof v === "string") text = _string(v);
    else if (typeof v === "number") text = Number.isFinite(v) ? String(v) : "null";
    else if (typeof v === "boolean" || v === null) text = String(v);
    else text = JSON.stringify(v); // undefined, functions and symbols: no member, as in JSON.stringify
    if (text !== undefined) out += _key(key) + text;
  }
  return out;
}

/** The stream a bounded writer writes to (process.stdout fits): it says how much it still holds. */
export interface LogOutput {
  write(chunk: string | Uint8Array): unknown;
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

/** Options of batchedLogOutput. */
export interface BatchedLogOptions {
  /** Calls `flush` once the current turn of the event loop is over (server.ts passes setImmediate). */
  schedule: (flush: () => void) => void;
  /** Bytes per write at most, cut at line ends (default PIPE_BUF); a longer line is written alone. */
  maxWrite?: number;
  /** Characters held before they are written at once, without waiting for the end of the turn (default 64 KiB). */
  maxPending?: number;
}

/** A LogOutput that gathers lines and writes them in few writes; `flush()` writes what it holds now. */
export interface BatchedLogOutput extends LogOutput {
  flush(): void;
}

/**
 * POSIX write(2): a write of at most PIPE_BUF bytes (4096 on Linux) to a pipe is never interleaved with another
 * process's, so the lines of processes sharing one stdout (WORKERS > 1) stay whole.
 */
export const PIPE_BUF = 4096;
const NEWLINE = 0x0a;

/**
 * Lines written through this are held until the end of the turn of the event loop and then handed to `out` in
 * writes of whole lines: one system call for the lines of many requests instead of one each (stdout to a file or
 * a pipe is written synchronously). Nothing is dropped here; its held characters count in `writableLength`, so
 * boundedLogWriter over it still bounds the backlog. The embedder calls flush() at exit and before a crash's
 * last words (storage/process/log_output.ts).
 */
export function batchedLogOutput(out: LogOutput, o: BatchedLogOptions): BatchedLogOutput {
  const maxWrite = o.maxWrite ?? PIPE_BUF;
  const maxPending = o.maxPending ?? 64 * 1024;
  let held: string[] = [];
  let heldLength = 0;
  let scheduled = false;
  const flush = (): void => {
    if (held.length === 0) return;
    const text = held.length === 1 ? held[0]! : held.join("");
    held = [];
    heldLength = 0;
    // 3 bytes of UTF-8 at most per UTF-16 unit; past that, a turn's lines (a few KB of ASCII, at a line per
    // request) are measured rather than copied into a Buffer and cut, which cost a listing request 0.3 µs.
    if (text.length <= maxWrite && (text.length * 3 <= maxWrite || Buffer.byteLength(text) <= maxWrite)) return void out.write(text);
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length;) {
      let end = at + maxWrite >= bytes.length ? bytes.length : bytes.lastIndexOf(NEWLINE, at + maxWrite - 1) + 1;
      if (end <= at) end = bytes.indexOf(NEWLINE, at) + 1 || bytes.length;
      out.write(bytes.subarray(at, end));
      at = end;
    }
  };
  const flushScheduled = (): void => {
    scheduled = false;
    flush();
  };
  return {
    write(line: string | Uint8Array): void {
      const text = typeof line === "string" ? line : new TextDecoder().decode(line);
      held.push(text);
      heldLength += text.length;
      if (heldLength >= maxPending) flush();
      else if (!scheduled) {
        scheduled = true;
        o.schedule(flushScheduled);
      }
    },
    get writableLength(): number {
      return heldLength + out.writableLength;
    },
    flush,
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = createJsonLogger("error", () => {});
