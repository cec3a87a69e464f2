/**
 * Sliding-window pacing for the sender's endpoints (limity-api.md: windows of 1 s, 1 min and 1 h, all applied at
 * once). Each request first asks how long to wait; the history is kept in memory only: after a restart the sender
 * may use at most one more window's worth, and KSeF's 429 with Retry-After covers that.
 * @module
 */

/** Requests allowed per window; absent = no limit on that window. */
export interface WindowLimit {
  perSecond?: number;
  perMinute?: number;
  perHour?: number;
}

const WINDOWS = [["perSecond", 1000], ["perMinute", 60_000], ["perHour", 3_600_000]] as const;
/** KSeF counts requests when they arrive, we when they leave: a full window is waited out this much longer. */
const MARGIN_MS = 250;

/** Pacing of several request groups. */
export class SlidingWindows<G extends string> {
  #limits: Record<G, WindowLimit>;
  #history = new Map<G, number[]>();

  constructor(limits: Record<G, WindowLimit>) {
    this.#limits = limits;
  }

  /** Milliseconds to wait at `now` before a request of `group` keeps within every window (0 = go). */
  delay(group: G, now: number): number {
    const times = (this.#history.get(group) ?? []).filter((t) => t > now - 3_600_000);
    this.#history.set(group, times);
    let wait = 0;
    for (const [key, span] of WINDOWS) {
      const max = this.#limits[group]?.[key];
      if (max === undefined) continue;
      const inWindow = times.filter((t) => t > now - span);
      if (inWindow.length < max) continue;
      const oldest = inWindow[inWindow.length - max]!; // the request that must leave the window first
      wait = Math.max(wait, oldest + span + MARGIN_MS - now);
    }
    return Math.max(0, wait);
  }

  record(group: G, now: number): void {
    const times = this.#history.get(group) ?? [];
    times.push(now);
    this.#history.set(group, times);
  }
}
