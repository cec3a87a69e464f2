/**
 * Exact xs:decimal arithmetic for the EN 16931 rules: the artefacts compute with
 * XPath 2.0 decimals (Saxon's BigDecimal), so sums, products, `abs` and `round`
 * here work on an unscaled BigInt and a scale and never touch floating point.
 * Values are written as `xs:decimal` allows (no exponent), like the artefacts' casts.
 * @module
 */

/** A decimal: `units` × 10^-`scale`. */
export interface Dec {
  units: bigint;
  scale: number;
}

/**
 * Longest digit string read; amounts are far shorter, and the cap keeps a hostile
 * 100,000-digit "amount" from costing BigInt time.
 */
const MAX_DIGITS = 60;

export const ZERO: Dec = { units: 0n, scale: 0 };
export const ONE: Dec = { units: 1n, scale: 0 };

/** 10^0 .. 10^(2 × MAX_DIGITS): scales never go past a product of two read values. */
const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= 2 * MAX_DIGITS + 4; i++, p *= 10n) POW10.push(p);

function _pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

// Character codes for the fast path.
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** Digits a double holds exactly (2^53 > 10^15). */
const EXACT_DIGITS = 15;

/** Reads a decimal as the artefacts' `xs:decimal(...)` cast does; null when it is not one. */
export function dec(text: string | null | undefined): Dec | null {
  if (text === null || text === undefined) return null;
  const fast = _plain(text);
  if (fast !== null) return fast;
  // The xs:decimal lexical space, surrounding whitespace allowed (XML Schema Part 2 §3.2.3), in one scan: the
  // pattern /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/ backtracks quadratically over a long run of spaces.
  let from = 0, to = text.length;
  while (from < to && _isSpace(text.charCodeAt(from))) from++;
  while (to > from && _isSpace(text.charCodeAt(to - 1))) to--;
  const sign = text.charCodeAt(from);
  if (sign === MINUS || sign === PLUS) from++;
  const dot = text.indexOf(".", from);
  const intEnd = dot < 0 || dot >= to ? to : dot;
  const fracFrom = intEnd === to ? to : intEnd + 1;
  if (intEnd - from + (to - fracFrom) === 0 || !_allDigits(text, from, intEnd) || !_allDigits(text, fracFrom, to)) return null;
  if (intEnd - from + (to - fracFrom) > MAX_DIGITS) return null;
  const frac = text.slice(fracFrom, to);
  const magnitude = BigInt(text.slice(from, intEnd) + frac || "0");
  return { units: sign === MINUS ? -magnitude : magnitude, scale: frac.length };
}

function _allDigits(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) return false;
  }
  return true;
}

/** JavaScript's `\s`: what the artefacts' casts were read with here before, kept as it was. */
function _isSpace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The usual amount, "-123.45" with at most 15 digits, read without a regular expression. */
function _plain(text: string): Dec | null {
  const n = text.length;
  if (n === 0 || n > EXACT_DIGITS + 2) return null;
  let i = text.charCodeAt(0) === MINUS ? 1 : 0;
  const negative = i === 1;
  let acc = 0;
  let digits = 0;
  let scale = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      acc = acc * 10 + (c - DIGIT_0);
      digits++;
      if (scale >= 0) scale++;
    } else if (c === DOT && scale < 0) scale = 0;
    else return null;
  }
  if (digits === 0 || digits > EXACT_DIGITS) return null;
  const units = BigInt(acc);
  return { units: negative ? -units : units, scale: scale < 0 ? 0 : scale };
}

function _at(a: Dec, scale: number): bigint {
  return scale === a.scale ? a.units : a.units * _pow10(scale - a.scale);
}

export function add(a: Dec, b: Dec): Dec {
  const scale = Math.max(a.scale, b.scale);
  return { units: _at(a, scale) + _at(b, scale), scale };
}

export function sub(a: Dec, b: Dec): Dec {
  const scale = Math.max(a.scale, b.scale);
  return { units: _at(a, scale) - _at(b, scale), scale };
}

export function mul(a: Dec, b: Dec): Dec {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

export function abs(a: Dec): Dec {
  return a.units < 0n ? { units: -a.units, scale: a.scale } : a;
}

/** Exact sum; 0 for none (XPath `sum(())`). */
export function sum(values: Iterable<Dec>): Dec {
  let acc = ZERO;
  for (const v of values) acc = add(acc, v);
  return acc;
}

/** -1, 0 or 1 by value. */
export function cmp(a: Dec, b: Dec): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = _at(a, scale);
  const y = _at(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function eq(a: Dec, b: Dec): boolean {
  return cmp(a, b) === 0;
}

/**
 * XPath `round(x)`: the nearest integer, halves rounded towards positive infinity
 * (XPath and XQuery Functions 3.1 §4.4.4, so round(-2.5) = -2).
 */
export function round(a: Dec): Dec {
  if (a.scale <= 0) return a;
  const p = _pow10(a.scale);
  // Floor division, then compare the remainder with a half.
  let q = a.units / p;
  let r = a.units % p;
  if (r < 0n) {
    q -= 1n;
    r += p;
  }
  return { units: 2n * r >= p ? q + 1n : q, scale: 0 };
}

/** The artefacts' `round(x * 10 * 10) div 100`: x rounded to two decimals, halves up. */
export function round2(a: Dec): Dec {
  if (a.scale <= 2) return a;
  const r = round({ units: a.units, scale: a.scale - 2 });
  return { units: r.units, scale: 2 };
}

/** x div 100 (exact: a shift of the scale). */
export function percentOf(a: Dec): Dec {
  return { units: a.units, scale: a.scale + 2 };
}
