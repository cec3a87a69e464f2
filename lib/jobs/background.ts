/**
 * Background loops (sync poller, webhook worker) and the failures of their
 * passes: a pass that throws is logged at `error` with its stack, counted in
 * `background_failures_total{loop}`, and the loop goes on at its next tick, so
 * a transient storage error never takes the process down.
 * It does not retry within a pass: the next tick is the retry.
 * @module
 */
import type { Logger } from "../observe/log.ts";
import type { Metrics } from "../observe/metrics.ts";

/** Where failures of background work are reported. */
export interface BackgroundOptions {
  logger: Logger;
  metrics?: Metrics | undefined;
}

/** The fields that describe a caught error in a log line: its message and, where there is one, its stack. */
export function errorFields(e: unknown): { error: string; stack?: string } {
  if (e instanceof Error) return e.stack ? { error: e.message, stack: e.stack } : { error: e.message };
  return { error: String(e) };
}

/** Logs a failed pass of background work `loop` at error and counts it. */
export function reportFailure(o: BackgroundOptions, loop: string, e: unknown, fields: Record<string, unknown> = {}): void {
  o.metrics?.inc("background_failures_total", "Failed passes of background loops (sync poll, sync runs, webhook delivery).", { loop });
  o.logger.error(`${loop} failed`, { loop, ...fields, ...errorFields(e) });
}

/** Runs `pass` every `intervalMs` until the returned function is called; a failing pass is reported, never thrown. */
export function repeatEvery(loop: string, intervalMs: number, pass: () => Promise<void>, o: BackgroundOptions): () => void {
  const tick = (): void => {
    let p: Promise<void>;
    try {
      p = pass();
    } catch (e) {
      return reportFailure(o, loop, e);
    }
    p.catch((e: unknown) => reportFailure(o, loop, e));
  };
  const timer = setInterval(tick, intervalMs);
  return () => clearInterval(timer);
}
