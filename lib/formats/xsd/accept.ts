/**
 * A fast yes for the common case: each simple type is compiled, on first use, into a predicate that says
 * whether a value is certainly valid, doing only the checks its facets call for and building no strings.
 * When it says no (or cannot tell cheaply: whitespace to normalise, a list, a number of more than 15 digits),
 * simple.ts's `checkSimple` decides and says why. The predicate must never accept what `checkSimple` refuses.
 * @module
 */

import type { Facets, SimpleType } from "./model.ts";
import type { XsdPattern } from "./regex.ts";
import { boundsError, isNormalized, lengthOf, lengthsError } from "./simple.ts";
import { DecimalScan, EXACT_DIGITS } from "./decimal_scan.ts";
import { amountPattern } from "./amount_pattern.ts";
import { hasPlainDateShape, isPlainDate } from "./plain_date.ts";
import { BUILTINS, type Builtin, checkBuiltin, compareDateTime, compareDecimal } from "./values.ts";

type Accept = (value: string) => boolean;

/** Whether `value` is certainly valid for `type`; false means "let checkSimple decide". */
export function accepts(type: SimpleType, value: string): boolean {
  return (type.accept ??= _compile(type))(value);
}

function _compile(type: SimpleType): Accept {
  const f = type.facets;
  if (type.variety === "list") return () => false;
  if (type.variety === "union") {
    const members = type.members;
    return (v) => isNormalized(v, f.whiteSpace) && _matches(f.patterns, v) && members.some((m) => accepts(m, v)) && (f.enumeration === null || f.enumeration.has(v));
  }
  const b = BUILTINS[type.builtin]!;
  // A decimal's amount patterns are read from its scan (amount_pattern.ts); the others run as regular expressions.
  const amounts = b.order === "decimal" ? f.patternSources.map(amountPattern) : [];
  const patterns = f.patterns.filter((_, i) => !amounts[i]);
  // Only the checks the facets call for, cheapest first: the order of a conjunction of predicates changes no answer.
  const checks: Accept[] = [];
  if (!_onlyNormalized(type, b)) checks.push((v) => isNormalized(v, f.whiteSpace));
  const enumeration = f.enumeration;
  // Enumerations of decimals hold canonical forms: a value found there is canonical already; one not found may not be, and checkSimple canonicalises it.
  if (enumeration !== null) checks.push((v) => enumeration.has(v));
  const lengths = _lengths(type);
  if (lengths !== null) checks.push(lengths);
  if (patterns.length > 0) checks.push((v) => _matches(patterns, v));
  const lexicalAndBounds = b.order === "decimal" ? _decimal(type, b, amounts.filter((a) => a !== null)) : _other(type, b);
  if (lexicalAndBounds !== null) checks.push(lexicalAndBounds);
  return _every(checks);
}

/**
 * Whether every value the other checks accept is left as it is by the whiteSpace facet, so that it need not be
 * scanned for white space: the lexical spaces of decimals and of plain dates hold none, and an enumeration of
 * normalised values holds only normalised ones.
 */
function _onlyNormalized(type: SimpleType, b: Builtin): boolean {
  const f = type.facets;
  if (f.whiteSpace === "preserve" || b.order === "decimal" || type.builtin === "date") return true;
  return f.enumeration !== null && [...f.enumeration].every((x) => isNormalized(x, f.whiteSpace));
}

function _every(checks: Accept[]): Accept {
  const [a, b, c] = checks;
  switch (checks.length) {
    case 0: return () => true;
    case 1: return a!;
    case 2: return (v) => a!(v) && b!(v);
    case 3: return (v) => a!(v) && b!(v) && c!(v);
    default: return (v) => checks.every((check) => check(v));
  }
}

/**
 * The length facets, or null when there are none. lengthOf counts the UTF-16 units that are not high surrogates,
 * so a value no longer than maxLength in units is within it, and one that starts with another unit has at least
 * one character: the usual bounds (minLength 0 or 1, a maxLength) need no count.
 */
function _lengths(type: SimpleType): Accept | null {
  const f = type.facets;
  if (f.length === null && f.minLength === null && f.maxLength === null) return null;
  const exact = (v: string): boolean => lengthsError(type, lengthOf(type.builtin, v), v) === null;
  if (f.length !== null || (f.minLength ?? 0) > 1 || type.builtin === "hexBinary" || type.builtin === "base64Binary") return exact;
  const min = f.minLength ?? 0, max = f.maxLength ?? Infinity;
  return (v) => (v.length <= max && (min === 0 || (v.length > 0 && !_isHighSurrogate(v.charCodeAt(0))))) || exact(v);
}

function _isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function _matches(patterns: XsdPattern[], v: string): boolean {
  for (let i = 0; i < patterns.length; i++) if (!patterns[i]!.test(v)) return false;
  return true;
}

/** The lexical space of a built-in that does not order values as decimals, and its date/time or float bounds; null when any value is in it. */
function _other(type: SimpleType, b: Builtin): Accept | null {
  const f = type.facets;
  const hasBounds = f.minInclusive !== null || f.maxInclusive !== null || f.minExclusive !== null || f.maxExclusive !== null;
  if (type.builtin === "date") return _date(type, hasBounds);
  if (b.order === "datetime") return (v) => checkBuiltin(type.builtin, v) === null && (!hasBounds || boundsError(type, v, compareDateTime) === null);
  const re = b.lexical;
  if (b.order === "float") return (v) => (re === null || re.test(v)) && (!hasBounds || boundsError(type, v, (x, y) => Number(x) - Number(y)) === null);
  return re === null ? null : (v) => re.test(v);
}

/**
 * xs:date: a plain `YYYY-MM-DD` is checked by its characters and, when the bounds are plain dates too, compared
 * with them as text (what compareDateTime does for such values); any other form goes to checkBuiltin.
 */
function _date(type: SimpleType, hasBounds: boolean): Accept {
  const f = type.facets;
  const general = (v: string): boolean => checkBuiltin(type.builtin, v) === null && (!hasBounds || boundsError(type, v, compareDateTime) === null);
  const { minInclusive: minI, maxInclusive: maxI, minExclusive: minE, maxExclusive: maxE } = f;
  if (![minI, maxI, minE, maxE].every((x) => x === null || hasPlainDateShape(x))) return (v) => isPlainDate(v) && general(v);
  return (v) => isPlainDate(v) && (minI === null || v >= minI) && (maxI === null || v <= maxI) && (minE === null || v > minE) && (maxE === null || v < maxE);
}

/**
 * xs:decimal and the integer types: the lexical space, the built-in's range, totalDigits, fractionDigits, the
 * amount patterns and the bounds, from one scan; values and bounds of at most 15 significant digits compare as Numbers, exactly.
 * Longer ones go to the exact comparisons of digit strings (values.ts).
 */
function _decimal(type: SimpleType, b: Builtin, amounts: ((scan: DecimalScan) => boolean)[]): Accept {
  const f = type.facets;
  const scan = new DecimalScan();
  // Every decimal built-in but xs:decimal itself is an integer type with a range (values.ts).
  const integer = b.range !== undefined;
  const lo = b.range?.[0] == null ? -Infinity : Number(b.range[0]);
  const hi = b.range?.[1] == null ? Infinity : Number(b.range[1]);
  const hasBounds = f.minInclusive !== null || f.maxInclusive !== null || f.minExclusive !== null || f.maxExclusive !== null;
  const numeric = _numericBounds(f);
  const totalDigits = f.totalDigits ?? Infinity, fractionDigits = f.fractionDigits ?? Infinity;
  return (v) => {
    if (!scan.read(v, integer)) return false;
    for (let i = 0; i < amounts.length; i++) if (!amounts[i]!(scan)) return false;
    if (Math.max(scan.int + scan.frac, 1) > totalDigits || scan.frac > fractionDigits) return false;
    const exact = scan.int + scan.frac <= EXACT_DIGITS;
    // Every built-in range bound is exact as a Number or beyond 10^18, so an exact value compares correctly with it.
    if (integer && !(exact ? scan.value >= lo && scan.value <= hi : checkBuiltin(type.builtin, v) === null)) return false;
    if (!hasBounds) return true;
    return exact && numeric !== null ? numeric(scan.value) : boundsError(type, v, compareDecimal) === null;
  };
}

/** The decimal bounds as Numbers, when each has at most 15 significant digits; null otherwise (or when there are none). */
function _numericBounds(f: Facets): ((n: number) => boolean) | null {
  const bounds = [f.minInclusive, f.maxInclusive, f.minExclusive, f.maxExclusive];
  if (bounds.every((x) => x === null)) return null;
  const scan = new DecimalScan();
  if (bounds.some((x) => x !== null && !(scan.read(x, false) && scan.int + scan.frac <= EXACT_DIGITS))) return null;
  const [minI, maxI, minE, maxE] = bounds.map((x) => (x === null ? null : Number(x)));
  return (n) => (minI === null || n >= minI!) && (maxI === null || n <= maxI!) && (minE === null || n > minE!) && (maxE === null || n < maxE!);
}
