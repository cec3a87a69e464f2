/**
 * The `submission.ksef_deadline_near` event (README "Offline invoices"): an offline submission still waiting for
 * KSeF whose deadline is near (lib/ksef/deadline_near.ts) gets `ksef.deadline_warned_at`, stored as a change of
 * its `ksef` state; the webhook outbox turns exactly that change into the event (lib/jobs/webhooks/endpoint_pass.ts).
 * The mark is stored with the submission, so the event fires once, across restarts and processes.
 * @module
 */
import type { SubmissionRecord, TenantStore } from "../../../lib/contracts/storage.ts";
import { isDeadlineNear } from "../../../lib/ksef/deadline_near.ts";

/** True for a waiting offline submission whose deadline is near at `now` and that was not warned of yet. */
export function needsDeadlineWarning(sub: SubmissionRecord, now: number, nearMs: number): boolean {
  const k = sub.ksef;
  if (!k || k.mode !== "offline" || typeof k.deadline !== "string" || k.deadline_warned_at) return false;
  return (k.status === "queued" || k.status === "sending") && isDeadlineNear(k.deadline, now, nearMs);
}

/** Marks the tenant's waiting offline submissions whose deadline is near; returns how many were marked now. */
export async function warnNearDeadlines(store: TenantStore, pending: readonly SubmissionRecord[], now: number, nearMs: number): Promise<number> {
  let marked = 0;
  for (const sub of pending) {
    if (!needsDeadlineWarning(sub, now, nearMs)) continue;
    const at = new Date(now).toISOString();
    // updated_at equal to deadline_warned_at is what makes this version the event (and no later one).
    await store.saveSubmissionKsef(sub.id, { ...sub.ksef!, deadline_warned_at: at, updated_at: at });
    marked++;
  }
  return marked;
}
