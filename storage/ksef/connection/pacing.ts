/**
 * The source's own pacing under KSeF's documented per-endpoint limits
 * (limity/limity-api.md: sliding windows of 1 s, 60 s and 60 min, all applied
 * at once, counted per context and IP address). Each request first asks how
 * long to wait; the history of the hourly-limited endpoints is persisted with
 * the source's position so a restart does not forget the last hour. A 429 is
 * handled by the client (Retry-After), not here.
 * @module
 */

/** Requests allowed per sliding window; absent = no limit on that window. */
export interface RateLimit {
  perSecond?: number;
  perMinute?: number;
  perHour?: number;
}

/** The endpoint groups this source calls. */
export type EndpointGroup = "auth" | "metadata" | "export" | "exportStatus" | "download";

/**
 * KSeF's limits per s/min/h as open-api.json 2.6.0 gives them in each operation's 429 description (the table
 * "Limity liczby żądań" with its group), which limity/limity-api.md follows: metadata (invoiceMetadata) 8/16/20,
 * exports (invoiceExport) 8/16/20, export status (invoiceExportStatus) 10/60/600, download by KSeF number
 * (invoiceDownload) 8/16/64. `/auth/*` and `/security/public-key-certificates`: 60 a second. The test environment
 * has them switched off; production applies them per context and IP address.
 */
export const KSEF_LIMITS: Readonly<Record<EndpointGroup, RateLimit>> = {
  auth: { perSecond: 60 },
  metadata: { perSecond: 8, perMinute: 16, perHour: 20 },
  export: { perSecond: 8, perMinute: 16, perHour: 20 },
  exportStatus: { perSecond: 10, perMinute: 60, perHour: 600 },
  download: { perSecond: 8, perMinute: 16, perHour: 64 },
};

const WINDOWS = [["perSecond", 1000], ["perMinute", 60_000], ["perHour", 3_600_000]] as const;
const HOUR = 3_600_000;
/** KSeF counts requests when they arrive, we when they leave: a full window is waited out this much longer. */
export const PACING_MARGIN_MS = 250;

/** Times of past requests per group, for the state file. */
export type PacingHistory = Partial<Record<EndpointGroup, number[]>>;

/** Sliding-window pacing of one KSeF context. */
export class Pacer {
  #limits: Record<EndpointGroup, RateLimit>;
  #history: Record<EndpointGroup, number[]>;

  constructor(limits: Partial<Record<EndpointGroup, RateLimit>> = {}, history: PacingHistory = {}) {
    this.#limits = { ...KSEF_LIMITS, ...limits };
    this.#history = { auth: [], metadata: [], export: [], exportStatus: [], download: [] };
    for (const [g, times] of Object.entries(history)) {
      if (g in this.#history && Array.isArray(times)) this.#history[g as EndpointGroup] = times.filter((t) => typeof t === "number").sort((a, b) => a - b);
    }
  }

  /** Milliseconds to wait at `now` before a request of `group` keeps within every window (0 = go). */
  delay(group: EndpointGroup, now: number): number {
    const times = this.#history[group];
    const limit = this.#limits[group];
    let wait = 0;
    for (const [key, span] of WINDOWS) {
      const max = limit[key];
      if (max === undefined) continue;
      if (max <= 0) throw new RangeError(`KSeF limit ${group}.${key} must be positive`);
      const inWindow = times.filter((t) => t > now - span - PACING_MARGIN_MS);
      // The request may go once the oldest request that keeps the window full has left it.
      if (inWindow.length >= max) wait = Math.max(wait, inWindow[inWindow.length - max]! + span + PACING_MARGIN_MS - now);
    }
    return wait;
  }

  /** Notes a request of `group` made at `now`. */
  record(group: EndpointGroup, now: number): void {
    const times = this.#history[group];
    times.push(now);
    while (times.length > 0 && times[0]! <= now - HOUR) times.shift();
  }

  /** The last hour of history, for persisting. */
  snapshot(now: number): PacingHistory {
    const out: PacingHistory = {};
    for (const [g, times] of Object.entries(this.#history)) {
      const recent = times.filter((t) => t > now - HOUR);
      if (recent.length > 0) out[g as EndpointGroup] = recent;
    }
    return out;
  }
}
