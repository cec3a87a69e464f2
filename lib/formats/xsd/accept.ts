/**
 * A fast yes for the common case: each simple type is compiled, on first use, into a predicate that says
 * whether a value is certainly valid, doing only the checks its facets call for and building no strings.
 * When it says no (or cannot tell cheaply: whitespace to normalise, a list, a number of more than 15 digits),
 * simple.ts's `checkSimple` decides and says why. The predicate must never accept what `checkSimple` refuses.
 * @module
 */

import type { Facets, SimpleType } from "./model.ts";
import { boundsError, isNormalized, lengthOf, lengthsError } from "./simple.ts";
import { BUILTINS, type Builtin, checkBuiltin, compareDateTime, compareDecimal, fractionDigits, integerDigits } from "./values.ts";

type Accept = (value: string) => boolean;

// A decimal of at most 15 significant digits converts to a distinct double, in order (IEEE 754 binary64
// holds 15 decimal digits exactly), so comparing Numbers orders such decimals exactly.
const EXACT_DIGITS = 15;

/** Whether `value` is certainly valid for `type`; false means "let checkSimple decide". */
export function accepts(type: SimpleType, value: string): boolean {
  return (type.accept ??= _compile(type))(value);
}

function _compile(type: SimpleType): Accept {
  const f = type.facets;
  if (type.variety === "list") return () => false;
  if (type.variety === "union") {
    const members = type.members;
    return (v) => isNormalized(v, f.whiteSpace) && _patterns(f, v) && members.some((m) => accepts(m, v)) && (f.enumeration === null || f.enumeration.has(v));
  }
  const b = BUILTINS[type.builtin]!;
  const lexical = _lexical(type.builtin, b);
  const lengths = _lengths(type);
  const bounds = _bounds(type, b);
  return (v) => {
    if (!isNormalized(v, f.whiteSpace) || !_patterns(f, v) || !lexical(v)) return false;
    // Enumerations of decimals hold canonical forms: a value found there is canonical already; one not found may not be, and checkSimple canonicalises it.
    if (f.enumeration !== null && !f.enumeration.has(v)) return false;
    if (!lengths(v)) return false;
    return bounds(v);
  };
}

/**
 * The length facets. lengthOf counts the UTF-16 units that are not high surrogates, so a value no longer than
 * maxLength in units is within it, and one that starts with another unit has at least one character: the usual
 * bounds (minLength 0 or 1, a maxLength) need no count.
 */
function _lengths(type: SimpleType): Accept {
  const f = type.facets;
  if (f.length === null && f.minLength === null && f.maxLength === null) return () => true;
  const exact = (v: string): boolean => lengthsError(type, lengthOf(type.builtin, v), v) === null;
  if (f.length !== null || (f.minLength ?? 0) > 1 || type.builtin === "hexBinary" || type.builtin === "base64Binary") return exact;
  const min = f.minLength ?? 0, max = f.maxLength ?? Infinity;
  return (v) => (v.length <= max && (min === 0 || (v.length > 0 && !_isHighSurrogate(v.charCodeAt(0))))) || exact(v);
}

function _isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function _patterns(f: Facets, v: string): boolean {
  for (let i = 0; i < f.patterns.length; i++) if (!f.patterns[i]!.test(v)) return false;
  return true;
}

/** The built-in's lexical space, with integer ranges compared as Numbers while the value has at most 15 digits. */
function _lexical(name: string, b: Builtin): Accept {
  if (b.order === "datetime") return (v) => checkBuiltin(name, v) === null;
  const re = b.lexical;
  if (!b.range) return re === null ? () => true : (v) => re.test(v);
  const lo = b.range[0] === null ? -Infinity : Number(b.range[0]);
  const hi = b.range[1] === null ? Infinity : Number(b.range[1]);
  return (v) => {
    if (!re!.test(v)) return false;
    // Up to 15 characters (sign included) is below 10^15 in magnitude: exact as a Number, and every built-in
    // bound is either exact too or beyond 10^18. Longer values go to checkBuiltin's BigInt comparison.
    if (v.length > EXACT_DIGITS) return checkBuiltin(name, v) === null;
    const n = Number(v);
    return n >= lo && n <= hi;
  };
}

/** The digit and bound facets, as far as the built-in orders values. */
function _bounds(type: SimpleType, b: Builtin): Accept {
  const f = type.facets;
  const hasBounds = f.minInclusive !== null || f.maxInclusive !== null || f.minExclusive !== null || f.maxExclusive !== null;
  if (b.order === "datetime") return hasBounds ? (v) => boundsError(type, v, compareDateTime) === null : () => true;
  if (b.order === "float") return hasBounds ? (v) => boundsError(type, v, (x, y) => Number(x) - Number(y)) === null : () => true;
  if (b.order !== "decimal") return () => true;
  const digits = f.totalDigits !== null || f.fractionDigits !== null;
  const numeric = _numericBounds(f);
  return (v) => {
    if (digits || numeric !== null) {
      const int = integerDigits(v), frac = fractionDigits(v);
      if (f.totalDigits !== null && Math.max(int + frac, 1) > f.totalDigits) return false;
      if (f.fractionDigits !== null && frac > f.fractionDigits) return false;
      if (hasBounds && numeric !== null && int + frac <= EXACT_DIGITS) return numeric(Number(v));
    }
    return !hasBounds || boundsError(type, v, compareDecimal) === null;
  };
}

/** The decimal bounds as Numbers, when each has at most 15 significant digits; null otherwise (or when there are none). */
function _numericBounds(f: Facets): ((n: number) => boolean) | null {
  const bounds = [f.minInclusive, f.maxInclusive, f.minExclusive, f.maxExclusive];
  if (bounds.every((x) => x === null)) return null;
  if (bounds.some((x) => x !== null && integerDigits(x) + fractionDigits(x) > EXACT_DIGITS)) return null;
  const [minI, maxI, minE, maxE] = bounds.map((x) => (x === null ? null : Number(x)));
  return (n) => (minI === null || n >= minI!) && (maxI === null || n <= maxI!) && (minE === null || n > minE!) && (maxE === null || n < maxE!);
}
