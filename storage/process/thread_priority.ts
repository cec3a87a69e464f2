/**
 * The invoice threads' place in the operating system's scheduler. On Linux a thread is a task with a nice value
 * of its own, so a thread can lower just its own priority: the invoice threads take a nice value of 10 when they
 * start, and when a long parse and the event loop want the same core, the event loop goes first (README "Limits",
 * `bench/upload_pressure.bench.ts`). A parse still has the core whenever the event loop does not want it.
 * @module
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The nice value of the invoice threads: the event loop's share of a contended core is ~10× theirs. */
export const INVOICE_THREAD_NICE = 10;

/**
 * Sets the calling thread's nice value. True when it was set; false where threads have no priority of their own
 * to set this way (not Linux) or the system refused.
 */
export function setThreadNice(nice: number): boolean {
  try {
    // "/proc/thread-self" is "<pid>/task/<tid>": the calling thread's id, which setpriority(2) takes on Linux.
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
