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
const PLUS = 43;
const MINUS = 45;
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
   * Whether `v` is in the lexical space `[+-]?(\d+(\.\d*)?|\.\d+)`, or `[+-]?\d+` when `integer`. One read of
   * each character (charCodeAt past the end is NaN, which ends every loop): the type checks of accept.ts call it
   * for every decimal value. The significant digits are gathered as they come into one integer, exact while there
   * are at most 15 of them; a fraction's zeros are held back until a digit after them shows they are not trailing.
   */
  read(v: string, integer: boolean): boolean {
    const n = v.length;
    let c = v.charCodeAt(0); // NaN when empty
    const sign = c === PLUS || c === MINUS ? c : 0;
    let i = sign === 0 ? 0 : 1;
    if (i === 1) c = v.charCodeAt(1);
    const intStart = i;
    let m = 0, int = 0;
    for (; _isDigit(c); c = v.charCodeAt(++i)) {
      if (int === 0 && c === ZERO) continue; // a leading zero
      m = m * 10 + (c - ZERO);
      int++;
    }
    const intEnd = i;
    let frac = 0;
    if (c === DOT) {
      if (integer) return false;
      let zeros = 0;
      for (c = v.charCodeAt(++i); _isDigit(c); c = v.charCodeAt(++i)) {
        if (c === ZERO) zeros++;
        else {
          m = m * POW10[zeros + 1]! + (c - ZERO);
          frac += zeros + 1;
          zeros = 0;
        }
      }
      if (intEnd === intStart && i === intEnd + 1) return false; // "." alone
    } else if (intEnd === intStart) return false; // no digit at all
    if (i !== n) return false;
    this.int = int;
    this.frac = frac;
    this.sign = sign;
    this.writtenInt = intEnd - intStart;
    this.writtenFrac = i > intEnd ? i - intEnd - 1 : -1;
    // One correctly rounded division of two exact Numbers: the same Number as `Number(v)`, which rounds the same rational correctly.
    if (int + frac <= EXACT_DIGITS) {
      const x = frac === 0 ? m : m / POW10[frac]!;
      this.value = sign === MINUS ? -x : x;
    }
    return true;
  }
}
