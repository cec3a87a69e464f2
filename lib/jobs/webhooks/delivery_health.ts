/**
 * What the delivery worker keeps about each attempt (README “Webhooks”): the endpoint's
 * health in its delivery state (last attempt, last success, last error,
 * consecutive failures), one entry in its attempt log, and a log line at `warn`
 * for a failure. It never logs headers or the secret. It does not decide
 * retries or disabling: that is the worker's (endpoint_pass.ts).
 * @module
 */
import type { Logger } from "../../observe/log.ts";
import type { Collection, DeliveryHealth, DeliveryState, TenantStore } from "../../contracts/storage.ts";

/** Longest error message kept for an attempt: enough for a network error's text, never a whole response. */
const MAX_ERROR_MESSAGE = 200;

/** What one attempt did. */
export interface AttemptOutcome {
  ok: boolean;
  /** The receiver's HTTP status, or null when no answer came (network error, timeout, refused address). */
  status: number | null;
  /** Why it failed, for people; null on success. */
  error: string | null;
  durationMs: number;
}

/** The event an attempt was for and how it came about. */
export interface AttemptOf {
  eventId: string;
  type: string;
  collection: Collection;
  changeSeq: number;
  /** 1 for an event's first scheduled attempt. */
  attempt: number;
  manual: boolean;
}

/** The health of an endpoint without attempts yet. */
export const NO_ATTEMPTS: DeliveryHealth = Object.freeze({ last_attempt_at: null, last_success_at: null, last_error: null, consecutive_failures: 0 });

/** The failure text of a non-2xx answer. */
export function statusMessage(status: number): string {
  if (status >= 300 && status < 400) return `HTTP ${status}: redirects are not followed`;
  if (status === 410) return "HTTP 410 Gone";
  return `HTTP ${status}`;
}

/** `message` cut to the length kept. */
export function shortMessage(message: string): string {
  return message.length > MAX_ERROR_MESSAGE ? `${message.slice(0, MAX_ERROR_MESSAGE - 1)}…` : message;
}

/** Updates `state.health` and the endpoint's attempt log for one attempt at `nowMs`; logs a failure at warn. */
export async function recordAttempt(
  t: TenantStore, webhookId: string, state: DeliveryState, of: AttemptOf, outcome: AttemptOutcome, nowMs: number, logger: Logger,
): Promise<void> {
  const at = new Date(nowMs).toISOString();
  const h = { ...(state.health ?? NO_ATTEMPTS) };
  h.last_attempt_at = at;
  if (outcome.ok) {
    h.last_success_at = at;
    h.last_error = null;
    h.consecutive_failures = 0;
  } else {
    h.last_error = { status: outcome.status, message: shortMessage(outcome.error ?? "failed") };
    h.consecutive_failures++;
  }
  state.health = h;
  await t.appendDeliveryAttempt(webhookId, {
    event_id: of.eventId, type: of.type, attempt: of.attempt, manual: of.manual, attempted_at: at,
    status_code: outcome.status, duration_ms: Math.round(outcome.durationMs), error: outcome.ok ? null : h.last_error!.message,
    collection: of.collection, change_seq: of.changeSeq,
  });
  if (!outcome.ok) {
    logger.warn("webhook delivery failed", {
      tenant: t.tenant, webhook: webhookId, event: of.eventId, type: of.type, attempt: of.attempt, manual: of.manual,
      status: outcome.status, error: h.last_error!.message, consecutive_failures: h.consecutive_failures,
    });
  }
}

/**
 * After the endpoint was enabled again (`resumedAt` differs from what the state last saw), every waiting
 * retry becomes due at `nowMs` on a fresh schedule, in the order the events failed: delivery resumes where it
 * stopped. Returns whether the state changed.
 */
export function applyResume(state: DeliveryState, resumedAt: string | null | undefined, nowMs: number): boolean {
  if (!resumedAt || state.resumed_at === resumedAt) return false;
  state.resumed_at = resumedAt;
  for (const r of state.retries) {
    r.next_at = nowMs;
    r.attempts = 0;
  }
  return true;
}
