/**
 * Checks a character value against a compiled simple type (XML Schema Part 2 §4):
 * whiteSpace normalisation, then patterns on the normalised literal, the built-in's
 * lexical space, enumeration and the remaining facets; lists item by item, unions
 * member by member.
 * @module
 */

import type { Facets, SimpleType } from "./model.ts";
import { BUILTINS, canonicalDecimal, checkBuiltin, compareDateTime, compareDecimal, decimalDigits, shortValue } from "./values.ts";

/** Whether applying the whiteSpace facet leaves `value` as it is (no tab, CR or LF; when collapsing, no leading, trailing or double space). */
export function isNormalized(value: string, ws: Facets["whiteSpace"]): boolean {
  if (ws === "preserve") return true;
  const collapse = ws === "collapse";
  const last = value.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = value.charCodeAt(i);
    if (c > 32) continue; // most characters: one comparison
    if (c === 9 || c === 10 || c === 13) return false;
    if (c === 32 && collapse && (i === 0 || i === last || value.charCodeAt(i - 1) === 32)) return false;
  }
  return true;
}

/** Applies a whiteSpace facet. */
export function normalizeSpace(value: string, ws: Facets["whiteSpace"]): string {
  // Most values need no change: one scan, no regular expression and no copy.
  if (isNormalized(value, ws)) return value;
  const replaced = /[\t\n\r]/.test(value) ? value.replace(/[\t\n\r]/g, " ") : value;
  if (ws === "replace") return replaced;
  return replaced.includes("  ") || replaced.startsWith(" ") || replaced.endsWith(" ") ? replaced.replace(/ +/g, " ").trim() : replaced;
}

/** Why `value` is not valid for the type, or null when it is. */
export function checkSimple(type: SimpleType, raw: string): string | null {
  const f = type.facets;
  const value = normalizeSpace(raw, f.whiteSpace);
  for (let i = 0; i < f.patterns.length; i++) {
    if (!f.patterns[i]!.test(value)) return `'${shortValue(value)}' does not match the pattern ${f.patternSources[i]} of ${type.name}`;
  }
  if (type.variety === "list") return _checkList(type, value);
  if (type.variety === "union") {
    for (const m of type.members) if (checkSimple(m, value) === null) return _enumAndFacets(type, value, value);
    return `'${shortValue(value)}' is valid for none of the member types of ${type.name}`;
  }
  const lexical = checkBuiltin(type.builtin, value);
  if (lexical !== null) return `${lexical} (${type.name})`;
  const order = BUILTINS[type.builtin]!.order;
  const key = order === "decimal" && type.facets.enumeration !== null ? canonicalDecimal(value) : value;
  return _enumAndFacets(type, value, key);
}

function _checkList(type: SimpleType, value: string): string | null {
  const items = value === "" ? [] : value.split(" ");
  for (const item of items) {
    const e = checkSimple(type.item!, item);
    if (e !== null) return e;
  }
  const f = type.facets;
  if (f.enumeration !== null && !f.enumeration.has(value)) return `'${shortValue(value)}' is not one of the values allowed for ${type.name}`;
  return lengthsError(type, items.length, value);
}

function _enumAndFacets(type: SimpleType, value: string, key: string): string | null {
  const f = type.facets;
  if (f.enumeration !== null && !f.enumeration.has(key)) return `'${shortValue(value)}' is not one of the values allowed for ${type.name}`;
  if (type.variety === "union") return null;
  const b = type.builtin;
  const order = BUILTINS[b]!.order;
  if (f.length !== null || f.minLength !== null || f.maxLength !== null) {
    const e = lengthsError(type, lengthOf(b, value), value);
    if (e !== null) return e;
  }
  if (order === "decimal") {
    if (f.totalDigits !== null || f.fractionDigits !== null) {
      const d = decimalDigits(value);
      if (f.totalDigits !== null && d.total > f.totalDigits) return `'${shortValue(value)}' has more than ${f.totalDigits} digits (${type.name})`;
      if (f.fractionDigits !== null && d.fraction > f.fractionDigits) return `'${shortValue(value)}' has more than ${f.fractionDigits} fraction digits (${type.name})`;
    }
    return boundsError(type, value, compareDecimal);
  }
  if (order === "datetime") return boundsError(type, value, compareDateTime);
  if (order === "float") return boundsError(type, value, (a, c) => Number(a) - Number(c));
  return null;
}

/** Why `value` is outside the type's bound facets, or null. */
export function boundsError(type: SimpleType, value: string, cmp: (a: string, b: string) => number): string | null {
  const f = type.facets;
  if (f.minInclusive !== null && cmp(value, f.minInclusive) < 0) return `'${shortValue(value)}' is less than the minimum ${f.minInclusive} of ${type.name}`;
  if (f.maxInclusive !== null && cmp(value, f.maxInclusive) > 0) return `'${shortValue(value)}' is greater than the maximum ${f.maxInclusive} of ${type.name}`;
  if (f.minExclusive !== null && cmp(value, f.minExclusive) <= 0) return `'${shortValue(value)}' must be greater than ${f.minExclusive} (${type.name})`;
  if (f.maxExclusive !== null && cmp(value, f.maxExclusive) >= 0) return `'${shortValue(value)}' must be less than ${f.maxExclusive} (${type.name})`;
  return null;
}

/** Why a length of `n` breaks the type's length facets, or null. */
export function lengthsError(type: SimpleType, n: number, value: string): string | null {
  const f = type.facets;
  if (f.length !== null && n !== f.length) return `'${shortValue(value)}' has length ${n}, ${type.name} requires ${f.length}`;
  if (f.minLength !== null && n < f.minLength) return `'${shortValue(value)}' is shorter than ${f.minLength} (${type.name})`;
  if (f.maxLength !== null && n > f.maxLength) return `'${shortValue(value)}' is longer than ${f.maxLength} characters (${type.name}: ${n})`;
  return null;
}

/** Length in the type's units: octets for binary types, characters (code points) otherwise. */
export function lengthOf(builtin: string, value: string): number {
  if (builtin === "hexBinary") return value.length / 2;
  if (builtin === "base64Binary") {
    const s = value.replace(/ /g, "");
    return (s.length / 4) * 3 - (s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0);
  }
  let n = value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--; // a surrogate pair is one character
  }
  return n;
}
