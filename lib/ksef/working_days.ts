/**
 * Polish working days: every day but Saturdays, Sundays and the statutory public holidays of the act on days free
 * from work (ustawa z 18 stycznia 1951 r. o dniach wolnych od pracy, art. 1, as amended: 6 January since 2011,
 * 24 December since 2025), the movable ones from the date of Easter (the anonymous Gregorian algorithm). Dates are
 * calendar dates `YYYY-MM-DD` in Poland; also the instants where a day of Europe/Warsaw begins and ends, from the
 * EU summer-time rule (Directive 2000/84/EC), so that no time-zone database is needed. Computes only.
 * @module
 */

const _DAY_MS = 86_400_000;
const _ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Fixed public holidays (MM-DD) and the first year each is one, where that is within the calendars served. */
const _FIXED: readonly { day: string; since?: number }[] = [
  { day: "01-01" }, { day: "01-06", since: 2011 }, { day: "05-01" }, { day: "05-03" }, { day: "08-15" },
  { day: "11-01" }, { day: "11-11" }, { day: "12-24", since: 2025 }, { day: "12-25" }, { day: "12-26" },
];
/** Movable public holidays, in days after Easter Sunday: Easter Sunday and Monday, Pentecost Sunday, Corpus Christi. */
const _MOVABLE = [0, 1, 49, 60] as const;

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, "Meeus/Jones/Butcher"). */
export function easterSunday(year: number): string {
  const a = year % 19, b = Math.floor(year / 100), c = year % 100;
  const d = Math.floor(b / 4), e = b % 4, f = Math.floor((b + 8) / 25), g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30, i = Math.floor(c / 4), k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7, m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31), day = ((h + l - 7 * m + 114) % 31) + 1;
  return _format(Date.UTC(year, month - 1, day));
}

/** The statutory public holidays of a year in Poland, in date order. */
export function polishPublicHolidays(year: number): string[] {
  const easter = _parse(easterSunday(year));
  const fixed = _FIXED.filter((h) => h.since === undefined || year >= h.since).map((h) => `${year}-${h.day}`);
  return [...fixed, ..._MOVABLE.map((n) => _format(easter + n * _DAY_MS))].sort();
}

const _holidays = new Map<number, ReadonlySet<string>>();

/** True for a day that is neither a Saturday, a Sunday nor a public holiday. */
export function isPolishWorkingDay(date: string): boolean {
  const t = _parse(date);
  const weekday = new Date(t).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const year = new Date(t).getUTCFullYear();
  let set = _holidays.get(year);
  if (set === undefined) _holidays.set(year, (set = new Set(polishPublicHolidays(year))));
  return !set.has(date);
}

/** The `n`-th working day after `date` (n ≥ 1): `addPolishWorkingDays(d, 1)` is the next working day. */
export function addPolishWorkingDays(date: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`addPolishWorkingDays() counts 1 or more working days, not ${n}`);
  let t = _parse(date);
  for (let left = n; left > 0;) {
    t += _DAY_MS;
    if (isPolishWorkingDay(_format(t))) left--;
  }
  return _format(t);
}

/** The calendar date in Poland (Europe/Warsaw) at the instant `ms`. */
export function warsawDate(ms: number): string {
  return _format(ms + _warsawOffset(ms));
}

/** The instant (ms) a day of Europe/Warsaw ends: midnight at the start of the next day, local time. */
export function endOfWarsawDay(date: string): number {
  const nextMidnight = _parse(date) + _DAY_MS; // as if local time were UTC
  // Local midnight is 22:00 or 23:00 UTC, never within an hour of a change (01:00 UTC): either offset tells it.
  return nextMidnight - _warsawOffset(nextMidnight - 3_600_000);
}

/** Central European Time's offset at `ms`: +2 h from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October. */
function _warsawOffset(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const summer = ms >= _lastSunday(year, 2) + 3_600_000 && ms < _lastSunday(year, 9) + 3_600_000;
  return (summer ? 2 : 1) * 3_600_000;
}

/** 00:00 UTC of the last Sunday of a month (0-based). */
function _lastSunday(year: number, month: number): number {
  const last = Date.UTC(year, month + 1, 0);
  return last - new Date(last).getUTCDay() * _DAY_MS;
}

function _parse(date: string): number {
  const m = _ISO_DATE.exec(date);
  const t = m === null ? NaN : Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(t) || _format(t) !== date) throw new RangeError(`Not a calendar date YYYY-MM-DD: ${JSON.stringify(date)}`);
  return t;
}

function _format(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
