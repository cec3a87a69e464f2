/**
 * Reads a decimal or integer literal (XML Schema Part 2 §3.2.3.1, §3.3.13.1) in one pass over its characters,
 * without a regular expression and without building strings: whether it is lexically valid, its digit counts
 * for totalDigits and fractionDigits, and, while it has at most 15 significant digits, its exact value.
 * @module
 */

/** Significant digits a Number holds exactly (IEEE 754 binary64 holds 15 decimal digits). */
export const EXACT_DIGITS = 15;

const ZERO = 48;
const DOT = 46;
// Literals, so each power is exact (10^15 < 2^53) whatever `**` would round to.
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

function _isDigit(c: number): boolean {
  return c >= ZERO && c <= ZERO + 9;
}

/** One scanner per compiled type: `read` fills the fields for the last literal read. */
export class DecimalScan {
  /** Integer digits, leading zeros not counted. */
  int = 0;
  /** Fraction digits, trailing zeros not counted. */
  frac = 0;
  /** The value, exact when `int + frac <= EXACT_DIGITS` and `read` was asked for it (meaningless otherwise). */
  value = 0;
  /** The sign as written: its character code, or 0 for none. */
  sign = 0;
  /** Integer digits as written, leading zeros included. */
  writtenInt = 0;
  /** Fraction digits as written, trailing zeros included; -1 when there is no decimal point. */
  writtenFrac = -1;

  /**
   * Whether `v` is in the lexical space `[+-]?(\d+(\.\d*)?|\.\d+)`, or `[+-]?\d+` when `integer`; its value is
   * computed only when `valued` (a type without bounds and range does not compare it). Kept within V8's size for
   * inlining (460 bytes of bytecode): the type checks of accept.ts call it for every decimal value.
   */
  read(v: string, integer: boolean, valued = true): boolean {
    const n = v.length;
    const first = v.charCodeAt(0); // NaN when empty
    const signed = first === 43 || first === 45; // + or -
    let i = signed ? 1 : 0;
    const intStart = i;
    while (i < n && v.charCodeAt(i) === ZERO) i++;
    const significant = i;
    while (i < n && _isDigit(v.charCodeAt(i))) i++;
    const intEnd = i;
    let fracEnd = i;
    if (i < n && v.charCodeAt(i) === DOT) {
      if (integer) return false;
      i++;
      while (i < n && _isDigit(v.charCodeAt(i))) i++;
      if (intEnd === intStart && i === intEnd + 1) return false; // "." alone
      fracEnd = i;
      while (fracEnd > intEnd + 1 && v.charCodeAt(fracEnd - 1) === ZERO) fracEnd--;
    } else if (intEnd === intStart) return false; // no digit at all
    if (i !== n) return false;
    const int = intEnd - significant;
    const frac = fracEnd > intEnd ? fracEnd - intEnd - 1 : 0;
    this.int = int;
    this.frac = frac;
    this.sign = signed ? first : 0;
    this.writtenInt = intEnd - intStart;
    this.writtenFrac = i > intEnd ? i - intEnd - 1 : -1;
    if (valued && int + frac <= EXACT_DIGITS) this.value = _value(v, significant, intEnd, fracEnd, frac, first === 45);
    return true;
  }
}

/**
 * The significant digits read as one integer below 10^15 (exact), divided by a power of ten (exact too): one
 * correctly rounded division, so the same Number as `Number(v)`, which rounds the same rational correctly.
 */
function _value(v: string, from: number, intEnd: number, fracEnd: number, frac: number, negative: boolean): number {
  let m = 0;
  for (let i = from; i < intEnd; i++) m = m * 10 + (v.charCodeAt(i) - ZERO);
  for (let i = intEnd + 1; i < fracEnd; i++) m = m * 10 + (v.charCodeAt(i) - ZERO);
  const x = frac === 0 ? m : m / POW10[frac]!;
  return negative ? -x : x;
}
