/**
 * The usual xs:date, `YYYY-MM-DD` without a timezone, checked by its characters instead of values.ts's regular
 * expressions: invoices carry a few per line (KSeF's P_6A, UBL's dates), each compared with the type's bounds too.
 * @module
 */

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function _digits(v: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = v.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Whether `v` is `YYYY-MM-DD` (four ASCII digits, two, two), whatever the numbers. */
export function hasPlainDateShape(v: string): boolean {
  return v.length === 10 && v.charCodeAt(4) === 45 && v.charCodeAt(7) === 45 && _digits(v, 0, 4) >= 0 && _digits(v, 5, 7) >= 0 && _digits(v, 8, 10) >= 0;
}

/** Whether a `YYYY-MM-DD` value is a date of XML Schema 1.0: no year 0000, a month 1-12, a day of that month (29 February in leap years). */
export function isPlainDate(v: string): boolean {
  if (!hasPlainDateShape(v)) return false;
  const y = _digits(v, 0, 4), m = _digits(v, 5, 7), d = _digits(v, 8, 10);
  if (y === 0 || m < 1 || m > 12 || d < 1 || d > DAYS[m - 1]!) return false;
  return !(m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)));
}
