/**
 * The timing loop the micro benchmarks share: a warm-up, then a few timed rounds of about equal length, and the
 * best round's microseconds per call (the least disturbed by the other work of a shared machine).
 * @module
 */
import process from "node:process";

/** How a measurement runs. */
export interface TimingOptions {
  /** All rounds together take about this long (wall time). */
  budgetMs: number;
  /** Calls before timing (default 50). */
  warmup?: number;
  /** Timed rounds (default 3). */
  rounds?: number;
  /** Calls per round at the least, for calls longer than a round (default 1). */
  minCalls?: number;
  /** "cpu": user + system time of the process rather than wall time, where other processes share the cores. */
  clock?: "wall" | "cpu";
}

const _cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Best microseconds per call of `run`. */
export function bestMicrosPerCall(run: () => unknown, o: TimingOptions): number {
  const rounds = o.rounds ?? 3;
  const minCalls = o.minCalls ?? 1;
  const clock = o.clock === "cpu" ? _cpuMs : () => performance.now();
  for (let i = 0; i < (o.warmup ?? 50); i++) run();
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    let n = 0;
    const start = performance.now();
    const from = clock();
    while (performance.now() - start < o.budgetMs / rounds || n < minCalls) {
      run();
      n++;
    }
    best = Math.min(best, ((clock() - from) * 1000) / n);
  }
  return best;
}
