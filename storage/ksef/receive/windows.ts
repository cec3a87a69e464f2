/**
 * The date windows of the `ksef` source. open-api.json InvoiceQueryFilters.dateRange: "Maksymalny dozwolony okres
 * wynosi 3 miesiące" (api-changelog.md 2.0.0 cut it from 2 years), and a range without `to` runs to KSeF's now. So a
 * window whose 3 months end in the past is sent closed (`to` = 3 months after `from`), and only a window that reaches
 * the present is sent open, ending at KSeF's high-water mark (przyrostowe-pobieranie-faktur.md).
 * @module
 */

/** open-api.json InvoiceQueryFilters.dateRange: at most 3 months. */
export const MAX_WINDOW_MONTHS = 3;
/**
 * An open window is sent only while its 3 months end at least this long after our clock: KSeF measures the open
 * range to its own clock, which may run ahead of ours.
 */
export const OPEN_WINDOW_MARGIN_MS = 60 * 60_000;

/** `ms` plus `months` calendar months in UTC, the day clamped to the month's last (so never more than `months`). */
export function addMonthsUtc(ms: number, months: number): number {
  const d = new Date(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return target.getTime();
}

/**
 * Where a subject type's first window starts without `since`: 3 months back, as far as one open window reaches.
 * Three calendar months are at least 89 days (February to April), so 89 days back, less twice the margin, fits in
 * one open window whatever the months: a first sync is one export per subject type.
 */
export function defaultSince(now: number): number {
  return now - DEFAULT_HISTORY_DAYS * 86_400_000 + 2 * OPEN_WINDOW_MARGIN_MS;
}

/** The shortest span of 3 calendar months, in days. */
export const DEFAULT_HISTORY_DAYS = 89;

/** The end (ISO) of the window that starts at `from`, or null for an open window that reaches the present. */
export function windowEnd(from: string, now: number): string | null {
  const limit = addMonthsUtc(Date.parse(from), MAX_WINDOW_MONTHS);
  return limit - OPEN_WINDOW_MARGIN_MS > now ? null : new Date(limit).toISOString();
}
