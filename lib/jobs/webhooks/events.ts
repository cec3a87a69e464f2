/**
 * Webhook event types (README “Webhooks”), validation of a subscription's `events`, matching
 * an event against a subscription, and the event body that is signed and delivered.
 * It does not build the resources in `data`: callers pass the resource's JSON form.
 * @module
 */

import { validationError } from "../../http/errors.ts";

/** Every event type the API emits. */
export const WEBHOOK_EVENT_TYPES = [
  "document.created",
  "document.updated",
  "sync.completed",
  "sync.failed",
  "submission.created",
  "submission.ksef_accepted",
  "submission.ksef_rejected",
  "submission.ksef_deadline_near",
  "ksef.certificate_expiring",
] as const;

/** An event type the API emits. */
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The subscription to every event type, now and in the future. */
export const ALL_EVENTS = "*";

const _KNOWN: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

/** Longest event name echoed back in an error message, so a huge string is not reflected whole. */
const _MAX_ECHO = 64;

/**
 * The subscription's event names without duplicates, or a 422 VALIDATION_ERROR on `events`:
 * it must be a non-empty array of known event types, or exactly `["*"]`.
 */
export function validateEvents(value: unknown): string[] {
  if (value === undefined || value === null) throw validationError("events", "required", "events is required");
  if (!Array.isArray(value)) throw validationError("events", "invalid_type", "events must be an array of event types");
  if (value.length === 0) throw validationError("events", "empty", "events must name at least one event type");
  const names = new Set<string>();
  for (const item of value) {
    if (typeof item !== "string") throw validationError("events", "invalid_type", "events must contain only strings");
    if (item !== ALL_EVENTS && !_KNOWN.has(item)) {
      const shown = JSON.stringify(item.length > _MAX_ECHO ? item.slice(0, _MAX_ECHO) + "…" : item);
      throw validationError("events", "unknown_event", `Unknown event type ${shown}: use ${WEBHOOK_EVENT_TYPES.join(", ")}, or ["*"] for all`);
    }
    names.add(item);
  }
  // "*" alongside names is almost certainly a mistake; say so rather than guess what was meant.
  if (names.has(ALL_EVENTS) && names.size > 1) {
    throw validationError("events", "wildcard_not_alone", 'events must be exactly ["*"] or a list of event types');
  }
  return [...names];
}

/** Whether a subscription to `subscribed` receives an event of `type`. */
export function eventMatches(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes(ALL_EVENTS) || subscribed.includes(type);
}

/** The delivered body `{"type","timestamp","data"}`; `timestampIso` is the event's time, e.g. "2026-11-21T23:25:01.123Z". */
export function buildEventBody(type: WebhookEventType, timestampIso: string, data: unknown): string {
  return JSON.stringify({ type, timestamp: timestampIso, data });
}
