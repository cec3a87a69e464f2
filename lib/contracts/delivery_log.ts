/**
 * The retention and paging rules of a webhook endpoint's attempt log (README “Webhooks”),
 * shared by the stores that keep the log as a list (memory, file): the newest
 * DELIVERY_ATTEMPTS_KEPT attempts and none older than DELIVERY_ATTEMPTS_MAX_AGE_MS.
 * Pure: no I/O; PostgreSQL states the same rules in SQL.
 * @module
 */
import { DELIVERY_ATTEMPTS_KEPT, DELIVERY_ATTEMPTS_MAX_AGE_MS, type DeliveryAttempt } from "./storage.ts";

/** The attempts of `log` (oldest first) that the retention keeps once `newest` is the latest attempt. */
export function keptAttempts(log: readonly DeliveryAttempt[], newest: DeliveryAttempt): DeliveryAttempt[] {
  const oldest = Date.parse(newest.attempted_at) - DELIVERY_ATTEMPTS_MAX_AGE_MS;
  const tail = log.length > DELIVERY_ATTEMPTS_KEPT ? log.slice(log.length - DELIVERY_ATTEMPTS_KEPT) : [...log];
  const first = tail.findIndex((a) => Date.parse(a.attempted_at) >= oldest);
  return first < 0 ? [] : first === 0 ? tail : tail.slice(first);
}

/** One page of `log` (oldest first): attempts after `after`, at most `limit`, none attempted before `notBefore`. */
export function attemptPage(log: readonly DeliveryAttempt[], after: number, limit: number, notBefore: string): { items: DeliveryAttempt[]; hasMore: boolean } {
  const since = Date.parse(notBefore);
  const recent = log.filter((a) => a.seq > after && Date.parse(a.attempted_at) >= since);
  return { items: recent.slice(0, limit), hasMore: recent.length > limit };
}
