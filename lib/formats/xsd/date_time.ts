/**
 * The fields of XML Schema date/time literals (XML Schema Part 2 §3.2.7–§3.2.14), read by one scan of a value
 * that passed its type's lexical pattern: their ranges (months, days of the month, 24:00:00, timezones) and their
 * order for the bound facets. No regular expression looks at the value, so a year or a fraction of a second of
 * millions of digits costs one pass. Does not check the lexical form itself (values.ts does).
 * @module
 */

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DASH = 45;
const COLON = 58;
const DOT = 46;

/** A date/time literal's fields; those its form lacks are null (the fraction is "" then). */
interface _Fields {
  negative: boolean;
  /** The year's digits as written (at least four). */
  year: string | null;
  month: number | null;
  day: number | null;
  hour: number | null;
  minute: number | null;
  second: number | null;
  /** The digits after the seconds' point. */
  fraction: string;
  /** The timezone as minutes east of UTC, or null without one. */
  zone: number | null;
  /** Whether the timezone's hours are at most 14 and its minutes at most 59 (and 0 at 14). */
  zoneInRange: boolean;
}

/** Whether a lexically valid date/time value's fields are in range (XML Schema 1.0: no year 0000). */
export function hasValidDateTimeFields(v: string): boolean {
  const f = _read(v);
  if (!f.zoneInRange) return false;
  if (f.year !== null && f.year === "0000" && !f.negative) return false;
  if (f.month !== null && (f.month < 1 || f.month > 12)) return false;
  if (f.day !== null) {
    // A gDay has no month: any day of some month.
    const most = f.month === null ? 31 : DAYS[f.month - 1]!;
    if (f.day < 1 || f.day > most) return false;
    if (f.month === 2 && f.day === 29 && f.year !== null && !_isLeap(f.year)) return false;
  }
  if (f.hour !== null) {
    if (f.minute! > 59 || f.second! > 59 || f.hour > 24) return false;
    if (f.hour === 24 && (f.minute !== 0 || f.second !== 0 || _hasNonZero(f.fraction))) return false;
  }
  return true;
}

/**
 * Orders two date/time literals of the same type. Values in the same timezone (or both without) compare field
 * by field; values with different timezones are normalised to UTC (XML Schema Part 2 §3.2.7.4, simplified: a value
 * without a timezone is taken as UTC, and only dateTimes of four-digit years are moved across a day).
 */
export function compareDateTimes(a: string, b: string): number {
  const x = _utc(_read(a)), y = _utc(_read(b));
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  const sign = x.negative ? -1 : 1;
  const year = _compareDigits(x.year ?? "", y.year ?? "");
  if (year !== 0) return sign * year;
  for (const k of ["month", "day", "hour", "minute", "second"] as const) {
    const d = (x[k] ?? 0) - (y[k] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return _compareFractions(x.fraction, y.fraction);
}

/** Whether the value ends in a timezone (`Z` or `±hh:mm`). */
export function hasTimezone(v: string): boolean {
  return _zoneAt(v) !== v.length;
}

/** Where a value's timezone starts (its length when it has none). */
function _zoneAt(v: string): number {
  const n = v.length;
  if (v.charCodeAt(n - 1) === 90) return n - 1; // Z
  const sign = v.charCodeAt(n - 6);
  if (n >= 6 && (sign === 43 || sign === DASH) && v.charCodeAt(n - 3) === COLON && _digits(v, n - 5, n - 3) >= 0 && _digits(v, n - 2, n) >= 0) return n - 6;
  return n;
}

function _read(v: string): _Fields {
  const f: _Fields = { negative: false, year: null, month: null, day: null, hour: null, minute: null, second: null, fraction: "", zone: null, zoneInRange: true };
  const end = _zoneAt(v);
  if (end === v.length - 1) f.zone = 0;
  else if (end < v.length) {
    const hours = _digits(v, end + 1, end + 3), minutes = _digits(v, end + 4, end + 6);
    f.zone = (v.charCodeAt(end) === DASH ? -1 : 1) * (hours * 60 + minutes);
    f.zoneInRange = minutes <= 59 && hours * 60 + minutes <= 14 * 60;
  }
  if (v.startsWith("---")) {
    f.day = _digits(v, 3, 5);
  } else if (v.startsWith("--")) {
    f.month = _digits(v, 2, 4);
    if (v.charCodeAt(4) === DASH) f.day = _digits(v, 5, 7);
  } else if (v.charCodeAt(2) === COLON) {
    _readTime(v, 0, end, f);
  } else {
    f.negative = v.charCodeAt(0) === DASH;
    let i = f.negative ? 1 : 0;
    const from = i;
    while (i < end && _isDigit(v.charCodeAt(i))) i++;
    f.year = v.slice(from, i);
    if (v.charCodeAt(i) === DASH) {
      f.month = _digits(v, i + 1, i + 3);
      if (v.charCodeAt(i + 3) === DASH) {
        f.day = _digits(v, i + 4, i + 6);
        if (v.charCodeAt(i + 6) === 84) _readTime(v, i + 7, end, f); // T
      }
    }
  }
  return f;
}

/** `hh:mm:ss(.s+)?` at `at`, up to `end`. */
function _readTime(v: string, at: number, end: number, f: _Fields): void {
  f.hour = _digits(v, at, at + 2);
  f.minute = _digits(v, at + 3, at + 5);
  f.second = _digits(v, at + 6, at + 8);
  if (v.charCodeAt(at + 8) === DOT) f.fraction = v.slice(at + 9, end);
}

/** The value at UTC: a dateTime of a four-digit year with a timezone other than Z is moved by it. */
function _utc(f: _Fields): _Fields {
  if (f.zone === null || f.zone === 0 || f.hour === null || f.year === null || f.year.length !== 4 || f.negative) return f;
  // setUTCFullYear, unlike Date.UTC, takes years 0-99 as they are.
  const d = new Date(0);
  d.setUTCFullYear(Number(f.year), f.month! - 1, f.day!);
  d.setUTCHours(f.hour, f.minute! - f.zone, f.second!);
  const year = d.getUTCFullYear();
  return {
    ...f, year: String(Math.abs(year)).padStart(4, "0"), negative: year < 0, month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), zone: 0,
  };
}

/** Compares two unsigned digit strings as numbers. */
function _compareDigits(a: string, b: string): number {
  let i = 0, j = 0;
  while (i < a.length - 1 && a.charCodeAt(i) === 48) i++;
  while (j < b.length - 1 && b.charCodeAt(j) === 48) j++;
  if (a.length - i !== b.length - j) return a.length - i < b.length - j ? -1 : 1;
  for (; i < a.length; i++, j++) if (a[i] !== b[j]) return a[i]! < b[j]! ? -1 : 1;
  return 0;
}

/** Compares two fractions of a second (their digits after the point). */
function _compareFractions(a: string, b: string): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = i < a.length ? a.charCodeAt(i) : 48, y = i < b.length ? b.charCodeAt(i) : 48;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether a year (its digits) is a leap year; 400 divides 10,000, so its last four digits decide. */
function _isLeap(year: string): boolean {
  const y = Number(year.slice(-4));
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

function _hasNonZero(digits: string): boolean {
  for (let i = 0; i < digits.length; i++) if (digits.charCodeAt(i) !== 48) return true;
  return false;
}

function _isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The number the ASCII digits at [from, to) make, or -1. */
function _digits(v: string, from: number, to: number): number {
  if (from < 0 || to > v.length) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = v.charCodeAt(i);
    if (!_isDigit(c)) return -1;
    n = n * 10 + c - 48;
  }
  return n;
}
