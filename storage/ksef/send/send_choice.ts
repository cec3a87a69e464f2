/**
 * Which way the queued invoices of one form code go (README "Sending to KSeF", the `ksef` source's `send_mode`):
 * `online` sends each in an online session; `batch` gathers them for a short window, bounded by count and size,
 * then sends them as one batch session; `auto` sends one waiting alone online (its KSeF number within seconds) and
 * many as a batch. Why the threshold is 10: KSeF takes 10 online sends a second but only 30 a minute and 180 an
 * hour per context (open-api.json x-rate-limits); past 10 an online queue starts to wait on those windows and
 * spends the hour's budget, while a batch costs about five limited requests whatever its size.
 * @module
 */
import type { SendMode } from "../connection/config.ts";
import type { SubmissionRecord } from "../../../lib/contracts/storage.ts";

/** The knobs of the choice; tests shrink them. */
export interface ChoiceTuning {
  /** `auto`: this many waiting of one form code go as a batch. */
  batchThreshold: number;
  /** `auto`: fewer are held while invoices keep arriving (a burst being uploaded) until none came for this long… */
  autoQuietMs: number;
  /** …but never longer than this after the first of them. */
  autoHoldMs: number;
  /** `batch`: how long the oldest invoice waits for others before a batch goes out anyway. */
  gatherMs: number;
  /** limity.md: at most 10,000 invoices a session. */
  maxBatchInvoices: number;
  /** XML bytes in one batch: its ZIP stays well under the 4 GiB a ZIP without ZIP64 can hold (50 parts of 100 MB at most). */
  maxBatchBytes: number;
}

export const DEFAULT_CHOICE_TUNING: ChoiceTuning = {
  batchThreshold: 10, autoQuietMs: 1000, autoHoldMs: 3000, gatherMs: 30_000, maxBatchInvoices: 10_000, maxBatchBytes: 2_000_000_000,
};

/** The choice: send `take` online or as one batch now, or hold them (the job comes back soon). */
export type Choice = { how: "online" | "batch"; take: SubmissionRecord[] } | { how: "hold"; take: [] };

/** Chooses for `queued` (one form code, oldest first, every one `queued`). */
export function chooseSending(mode: SendMode, queued: readonly SubmissionRecord[], now: number, t: ChoiceTuning): Choice {
  if (queued.length === 0 || mode === "online") return { how: "online", take: [...queued] };
  const take = _bounded(queued, t);
  const full = take.length < queued.length || take.length >= t.maxBatchInvoices;
  const oldest = Date.parse(queued[0]!.created_at);
  if (mode === "batch") return full || now - oldest >= t.gatherMs ? { how: "batch", take } : { how: "hold", take: [] };
  if (queued.length >= t.batchThreshold) return { how: "batch", take };
  const newest = Date.parse(queued[queued.length - 1]!.created_at);
  if (now - newest < t.autoQuietMs && now - oldest < t.autoHoldMs) return { how: "hold", take: [] };
  return { how: "online", take: [...queued] };
}

// The oldest ones that fit one batch session.
function _bounded(queued: readonly SubmissionRecord[], t: ChoiceTuning): SubmissionRecord[] {
  const out: SubmissionRecord[] = [];
  let bytes = 0;
  for (const s of queued) {
    if (out.length >= t.maxBatchInvoices || (out.length > 0 && bytes + s.size > t.maxBatchBytes)) break;
    out.push(s);
    bytes += s.size;
  }
  return out;
}
