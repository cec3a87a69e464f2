/**
 * The server's log lines on stdout. Stdout to a file or a pipe is written synchronously, one system call per
 * write, and a line per request made that call a sixth of a listing request's cost (README "Tests and
 * benchmarks"): the lines of one turn of the event loop are written together instead (lib/observe/log.ts,
 * batchedLogOutput), behind the bounded backlog. No line is lost to the batching: what is held is written on the
 * next turn, at exit (process.exit after a graceful stop included) and before an uncaught error's message.
 * It does not handle signals: a stop signal ends in process.exit, whose exit event writes what is left.
 * @module
 */
import { setImmediate } from "node:timers";
import { batchedLogOutput, boundedLogWriter, type BoundedLogOptions } from "../../lib/observe/log.ts";

/** The log's `write` for createJsonLogger, and `flush` for a caller about to write to stderr or exit. */
export interface ProcessLog {
  write(line: string): void;
  flush(): void;
}

/** A bounded, batched writer of log lines to process.stdout, flushed at exit and on an uncaught error. */
export function createStdoutLog(options: Pick<BoundedLogOptions, "metrics"> = {}): ProcessLog {
  const out = batchedLogOutput(process.stdout, { schedule: (flush) => void setImmediate(flush) });
  const flush = (): void => out.flush();
  process.on("exit", flush);
  // Runs before node prints the error and exits: the lines that led up to it come first, as they happened.
  process.on("uncaughtExceptionMonitor", flush);
  return { write: boundedLogWriter(out, options), flush };
}
