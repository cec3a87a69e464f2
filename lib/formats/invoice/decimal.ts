/**
 * Exact decimal arithmetic on strings: parse and normalise, add, sum, negate,
 * multiply, divide, round and compare money amounts without ever going through
 * floating point. Values are an unscaled BigInt plus a scale; rounding is half away
 * from zero, the commercial rule (and the Polish one for VAT: half a grosz and more
 * rounds up), which the invoice computation uses.
 * Accepted syntax is XML Schema `xsd:decimal` plus an optional exponent ("1E3").
 * @module
 */

import type { Decimal } from "./model.ts";

// Character codes for the parser's state machine.
const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const UPPER_E = 69;
const LOWER_E = 101;

/**
 * At most this many digits, after an exponent is applied. Invoice amounts are far
 * shorter (KSeF TKwotowy: 18 digits; UBL/CII amounts are rarely past 20), and the
 * cap keeps "1E999999999" from expanding into a gigabyte string.
 */
const MAX_DIGITS = 100;

/** The largest exponent magnitude accepted ("1E-100" .. "1E100"). */
const MAX_EXPONENT = 100;

// Parser states.
const S_START = 0;
const S_SIGN = 1;
const S_INT = 2;
const S_DOT_NO_INT = 3;
const S_FRAC = 4;
const S_EXP_MARK = 5;
const S_EXP_SIGN = 6;
const S_EXP = 7;

interface _Scaled {
  /** Value × 10^scale. */
  units: bigint;
  scale: number;
}

/** Parses a decimal written in plain or exponent notation; null when it is not a number. */
export function parseDecimal(input: string | null | undefined): Decimal | null {
  if (input === null || input === undefined) return null;
  const trimmed = input.trim();
  // Nearly every amount in an invoice is already plain: no BigInt round trip for those.
  if (_isPlain(trimmed)) return trimmed;
  const s = _parse(trimmed);
  return s === null ? null : _format(s);
}

/** True when `input` is a decimal `parseDecimal` accepts. */
export function isDecimal(input: string): boolean {
  return _parse(input) !== null;
}

/** Exact `a + b`; the result keeps the larger scale ("100.00" + "23.5" = "123.50"). */
export function addDecimals(a: Decimal, b: Decimal): Decimal {
  return _format(_add(_require(a), _require(b)));
}

/** Exact sum of the values at the largest scale among them; null for an empty list. */
export function sumDecimals(values: readonly Decimal[]): Decimal | null {
  if (values.length === 0) return null;
  let acc = _require(values[0] as Decimal);
  for (let i = 1; i < values.length; i++) acc = _add(acc, _require(values[i] as Decimal));
  return _format(acc);
}

/** Exact `-a`, keeping the scale ("1.50" → "-1.50"; zero stays unsigned). */
export function negateDecimal(a: Decimal): Decimal {
  const s = _require(a);
  return _format({ units: -s.units, scale: s.scale });
}

/** Exact `a - b`. */
export function subtractDecimals(a: Decimal, b: Decimal): Decimal {
  const y = _require(b);
  return _format(_add(_require(a), { units: -y.units, scale: y.scale }));
}

/** Exact `a × b` ("2.5" × "1.20" = "3.000"). */
export function multiplyDecimals(a: Decimal, b: Decimal): Decimal {
  const x = _require(a);
  const y = _require(b);
  return _format({ units: x.units * y.units, scale: x.scale + y.scale });
}

/** `a ÷ b` rounded half away from zero to `places` decimals; RangeError for a zero divisor. */
export function divideDecimals(a: Decimal, b: Decimal, places: number): Decimal {
  const x = _require(a);
  const y = _require(b);
  if (y.units === 0n) throw new RangeError("Cannot divide by zero");
  // a/b × 10^places = x.units × 10^(y.scale + places) / (y.units × 10^x.scale); one more digit decides the rounding.
  const num = x.units * 10n ** BigInt(y.scale + places + 1);
  const den = y.units * 10n ** BigInt(x.scale);
  return _format(_roundLastDigit(num / den, places));
}

/** `a` rounded half away from zero to `places` decimals, written with exactly that many ("2.345" → "2.35", "-2.345" → "-2.35", "5" → "5.00"). */
export function roundDecimal(a: Decimal, places: number): Decimal {
  const x = _require(a);
  if (x.scale <= places) return _format({ units: _rescale(x, places), scale: places });
  // Truncated towards zero one digit past `places`: that digit alone decides (…4999 stays below the half).
  return _format(_roundLastDigit(x.units / 10n ** BigInt(x.scale - places - 1), places));
}

/** `units` (with one digit more than `places`) rounded half away from zero on that last digit. */
function _roundLastDigit(units: bigint, places: number): _Scaled {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const rounded = (magnitude + 5n) / 10n;
  return { units: negative ? -rounded : rounded, scale: places };
}

/** Compares by value (-1, 0 or 1); "1.0" equals "1". */
export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const x = _require(a);
  const y = _require(b);
  const scale = Math.max(x.scale, y.scale);
  const u = _rescale(x, scale);
  const v = _rescale(y, scale);
  return u < v ? -1 : u > v ? 1 : 0;
}

/** True for text already in normal form: -?(0|[1-9][0-9]*)(.[0-9]+)?, not a negative zero, not too long. */
function _isPlain(s: string): boolean {
  const n = s.length;
  if (n === 0 || n > MAX_DIGITS) return false;
  let i = s.charCodeAt(0) === MINUS ? 1 : 0;
  const negative = i === 1;
  const intStart = i;
  let nonZero = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) break;
    if (c !== DIGIT_0) nonZero = true;
  }
  const intLength = i - intStart;
  if (intLength === 0 || (intLength > 1 && s.charCodeAt(intStart) === DIGIT_0)) return false;
  if (i < n) {
    if (s.charCodeAt(i) !== DOT || i === n - 1) return false;
    for (i++; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < DIGIT_0 || c > DIGIT_9) return false;
      if (c !== DIGIT_0) nonZero = true;
    }
  }
  return nonZero || !negative;
}

function _require(value: Decimal): _Scaled {
  const s = _parse(value);
  if (s === null) throw new RangeError(`Cannot read decimal: ${JSON.stringify(String(value).slice(0, 40))}`);
  return s;
}

function _rescale(s: _Scaled, scale: number): bigint {
  return scale === s.scale ? s.units : s.units * 10n ** BigInt(scale - s.scale);
}

function _add(a: _Scaled, b: _Scaled): _Scaled {
  const scale = Math.max(a.scale, b.scale);
  return { units: _rescale(a, scale) + _rescale(b, scale), scale };
}

function _format(s: _Scaled): Decimal {
  const negative = s.units < 0n;
  let digits = (negative ? -s.units : s.units).toString();
  if (s.scale > 0) {
    if (digits.length <= s.scale) digits = "0".repeat(s.scale - digits.length + 1) + digits;
    digits = `${digits.slice(0, digits.length - s.scale)}.${digits.slice(digits.length - s.scale)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** The state machine: [sign] digits [. digits] [(e|E) [sign] digits], surrounding XML whitespace allowed. */
function _parse(raw: string): _Scaled | null {
  const input = raw.trim();
  const n = input.length;
  if (n === 0 || n > MAX_DIGITS * 2) return null;
  let state = S_START;
  let negative = false;
  let intStart = -1;
  let intEnd = -1;
  let fracStart = -1;
  let fracEnd = -1;
  let expNegative = false;
  let exp = 0;
  for (let i = 0; i < n; i++) {
    const c = input.charCodeAt(i);
    const isDigit = c >= DIGIT_0 && c <= DIGIT_9;
    switch (state) {
      case S_START:
        if (c === PLUS || c === MINUS) {
          negative = c === MINUS;
          state = S_SIGN;
          break;
        }
      // falls through: no sign
      case S_SIGN:
        if (isDigit) {
          intStart = i;
          intEnd = i + 1;
          state = S_INT;
        } else if (c === DOT) state = S_DOT_NO_INT;
        else return null;
        break;
      case S_INT:
        if (isDigit) intEnd = i + 1;
        else if (c === DOT) {
          fracStart = fracEnd = i + 1;
          state = S_FRAC;
        } else if (c === UPPER_E || c === LOWER_E) state = S_EXP_MARK;
        else return null;
        break;
      case S_DOT_NO_INT:
        if (!isDigit) return null;
        fracStart = i;
        fracEnd = i + 1;
        state = S_FRAC;
        break;
      case S_FRAC:
        if (isDigit) fracEnd = i + 1;
        else if (c === UPPER_E || c === LOWER_E) state = S_EXP_MARK;
        else return null;
        break;
      case S_EXP_MARK:
        if (c === PLUS || c === MINUS) {
          expNegative = c === MINUS;
          state = S_EXP_SIGN;
          break;
        }
      // falls through: exponent without sign
      case S_EXP_SIGN:
      case S_EXP:
        if (!isDigit) return null;
        exp = exp * 10 + (c - DIGIT_0);
        if (exp > MAX_EXPONENT) return null;
        state = S_EXP;
        break;
    }
  }
  // A number ends in its integer digits, its fraction (possibly "5."), or exponent digits.
  if (state !== S_INT && state !== S_FRAC && state !== S_EXP) return null;
  const intDigits = intStart < 0 ? "" : input.slice(intStart, intEnd);
  const fracDigits = fracStart < 0 ? "" : input.slice(fracStart, fracEnd);
  let digits = intDigits + fracDigits;
  let scale = fracDigits.length - (expNegative ? -exp : exp);
  if (scale < 0) {
    digits += "0".repeat(-scale);
    scale = 0;
  }
  if (digits.length > MAX_DIGITS) return null;
  const magnitude = BigInt(digits === "" ? "0" : digits);
  return { units: negative ? -magnitude : magnitude, scale };
}
