/**
 * When an offline invoice's deadline is near (README "Offline invoices"): less than a configurable time (default 12
 * hours) before the end of its deadline day in Europe/Warsaw (`offline_deadline.ts`). The `overdue=true` filter of
 * the submissions feed and the `submission.ksef_deadline_near` event use the same window.
 * @module
 */
import { endOfWarsawDay, warsawDate } from "./working_days.ts";

/** The default window: 12 hours, half a day to get the invoice to KSeF (or to correct it) before the deadline ends. */
export const DEFAULT_DEADLINE_NEAR_MS = 12 * 3_600_000;

/** True when the deadline day `deadline` (YYYY-MM-DD) ends within `nearMs` of `now`, or has ended. */
export function isDeadlineNear(deadline: string, now: number, nearMs: number): boolean {
  return endOfWarsawDay(deadline) - now < nearMs;
}

/**
 * The first deadline day that is not near at `now`: a deadline is near exactly when it is before this day, so a
 * store can compare dates (YYYY-MM-DD sorts as text) instead of computing instants.
 */
export function nearDeadlinesBefore(now: number, nearMs: number): string {
  // The day whose end is the first one at least nearMs away: the day of now + nearMs (its end is after that instant).
  return warsawDate(now + nearMs);
}
