/**
 * The JSON of a webhook endpoint (README “Webhooks”): the record, its secret only in
 * the answer that created it, and its delivery state (last attempt, last
 * success, last error, consecutive failures, next attempt). The state is the
 * worker's; this module only reads it.
 * @module
 */
import type { DeliveryState, WebhookRecord } from "../../contracts/storage.ts";
import { NO_ATTEMPTS } from "../../jobs/webhooks/delivery_health.ts";

/** When the worker will next attempt a delivery to `w`, as far as the state says; null when nothing waits or it is disabled. */
function _nextAttemptAt(w: WebhookRecord, state: DeliveryState | null, nowMs: number): string | null {
  if (w.status !== "enabled" || !state || state.retries.length === 0) return null;
  let next = Math.min(...state.retries.map((r) => r.next_at));
  // Re-enabled, and the worker has not yet made the waiting retries due.
  if (w.resumed_at && state.resumed_at !== w.resumed_at) next = Math.min(next, Date.parse(w.resumed_at));
  // A retry already due goes out with the worker's next pass: now, as far as a client can tell.
  return new Date(Math.max(next, nowMs)).toISOString();
}

/** The JSON of an endpoint at `nowMs`; the secret only when it was just created. */
export function webhookView(w: WebhookRecord, withSecret: boolean, state: DeliveryState | null, nowMs: number): Record<string, unknown> {
  const h = state?.health ?? NO_ATTEMPTS;
  return {
    id: w.id, url: w.url, events: w.events, description: w.description, status: w.status,
    ...(withSecret ? { secret: w.secret } : {}), created_at: w.created_at,
    last_attempt_at: h.last_attempt_at, last_success_at: h.last_success_at, last_error: h.last_error,
    consecutive_failures: h.consecutive_failures, next_attempt_at: _nextAttemptAt(w, state, nowMs),
  };
}
