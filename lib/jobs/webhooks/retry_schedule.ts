/**
 * When to retry a failed webhook delivery: durations like `5m` for configuration,
 * the Standard Webhooks retry schedule with jitter, and the receiver's `Retry-After`
 * (RFC 9110 §10.2.3: delay-seconds or HTTP-date). Pure arithmetic: no timers, and the
 * randomness is injected so tests are exact.
 * @module
 */

/** Delays between attempts, from README “Webhooks” (the Standard Webhooks schedule, ending after 24 h). */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = Object.freeze(
  [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000],
);

/** Jitter applied to each scheduled delay: ±10 %, so endpoints that failed together do not retry together. */
export const RETRY_JITTER = 0.1;

/**
 * Longest `Retry-After` honoured: 24 h, the longest step of the default schedule. A receiver
 * may slow us down, but not park an event for longer than the schedule would.
 */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** Most entries in a retry schedule: 100 attempts is far beyond any sane policy and bounds a typo. */
export const MAX_RETRY_SCHEDULE_LENGTH = 100;

/** Longest single duration accepted: 365 days, which still fits timers and dates comfortably. */
const _MAX_DURATION_MS = 365 * 86_400_000;

const _UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const _DURATION = /^([0-9]{1,12})(ms|s|m|h|d)$/;

/** Milliseconds of a duration `<integer><ms|s|m|h|d>`, e.g. "250ms", "5m", "1d"; RangeError otherwise. */
export function parseDuration(text: string): number {
  const match = _DURATION.exec(text.trim());
  if (match === null) throw new RangeError(`Cannot parse duration "${text}": expected e.g. 250ms, 5s, 5m, 2h or 1d`);
  const ms = Number(match[1]) * _UNIT_MS[match[2] as keyof typeof _UNIT_MS];
  if (ms > _MAX_DURATION_MS) throw new RangeError(`Cannot parse duration "${text}": longer than 365 days`);
  return ms;
}

/** The delays (ms) of a comma-separated schedule such as "5s,5m,30m"; RangeError when empty or malformed. */
export function parseRetrySchedule(text: string): number[] {
  if (text.trim() === "") throw new RangeError("Cannot parse retry schedule: it is empty");
  const delays = text.split(",").map(parseDuration);
  if (delays.length > MAX_RETRY_SCHEDULE_LENGTH) {
    throw new RangeError(`Cannot parse retry schedule: more than ${MAX_RETRY_SCHEDULE_LENGTH} entries`);
  }
  return delays;
}

/**
 * Milliseconds to wait before the next attempt after `attemptsSoFar` failed attempts, or null
 * to give up (the schedule is exhausted). The scheduled delay gets ±10 % jitter from `random`
 * (a number in [0, 1)); a receiver's Retry-After, capped at 24 h, is a floor on the result.
 */
export function nextAttemptDelay(
  schedule: readonly number[],
  attemptsSoFar: number,
  random: () => number,
  retryAfterMs: number | null = null,
): number | null {
  if (!Number.isSafeInteger(attemptsSoFar) || attemptsSoFar < 1) {
    throw new RangeError("Cannot schedule a retry: attemptsSoFar must be a positive integer");
  }
  const base = schedule[attemptsSoFar - 1];
  if (base === undefined) return null;
  const jittered = Math.max(0, Math.round(base * (1 + RETRY_JITTER * (2 * random() - 1))));
  if (retryAfterMs === null || !(retryAfterMs > 0)) return jittered;
  // Honour the receiver only up to the cap: a hostile or broken Retry-After cannot stall an endpoint forever.
  return Math.max(jittered, Math.min(Math.ceil(retryAfterMs), MAX_RETRY_AFTER_MS));
}

const _DELTA_SECONDS = /^[0-9]+$/;
const _MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const _WEEKDAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const _WEEKDAY_LONG = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const _MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const _TIME = "([0-9]{2}):([0-9]{2}):([0-9]{2})";
// RFC 9110 §5.6.7: recipients accept IMF-fixdate and the two obsolete forms.
const _IMF_FIXDATE = new RegExp(`^${_WEEKDAY}, ([0-9]{2}) ${_MONTH} ([0-9]{4}) ${_TIME} GMT$`);
const _RFC850_DATE = new RegExp(`^${_WEEKDAY_LONG}, ([0-9]{2})-${_MONTH}-([0-9]{2}) ${_TIME} GMT$`);
const _ASCTIME_DATE = new RegExp(`^${_WEEKDAY} ${_MONTH} ([0-9 ][0-9]) ${_TIME} ([0-9]{4})$`);

/**
 * Milliseconds from `nowMs` that a `Retry-After` value asks for (0 for a date in the past),
 * or null when absent or unreadable (then the schedule alone decides).
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (_DELTA_SECONDS.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  const dateMs = _parseHttpDate(text, nowMs);
  return dateMs === null ? null : Math.max(0, dateMs - nowMs);
}

function _parseHttpDate(text: string, nowMs: number): number | null {
  let m = _IMF_FIXDATE.exec(text);
  if (m !== null) return _utc(Number(m[3]), m[2]!, m[1]!, m[4]!, m[5]!, m[6]!);
  m = _RFC850_DATE.exec(text);
  if (m !== null) {
    // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future is in the past century.
    const nowYear = new Date(nowMs).getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + Number(m[3]);
    if (year > nowYear + 50) year -= 100;
    return _utc(year, m[2]!, m[1]!, m[4]!, m[5]!, m[6]!);
  }
  m = _ASCTIME_DATE.exec(text);
  if (m !== null) return _utc(Number(m[6]), m[1]!, m[2]!.trim(), m[3]!, m[4]!, m[5]!);
  return null;
}

function _utc(year: number, month: string, day: string, hour: string, minute: string, second: string): number | null {
  const monthIndex = _MONTHS.indexOf(month);
  const d = Number(day);
  const [h, min, s] = [Number(hour), Number(minute), Number(second)];
  if (d < 1 || h > 23 || min > 59 || s > 60) return null;
  const ms = Date.UTC(year, monthIndex, d, h, min, Math.min(s, 59));
  // Date.UTC rolls 31 Feb over into March: refuse dates that do not exist.
  return new Date(ms).getUTCDate() === d ? ms : null;
}
