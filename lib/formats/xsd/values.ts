/**
 * Value spaces of the XML Schema built-in types the invoice schemas use (XML Schema Part 2 §3):
 * lexical checks, exact decimal comparison and digit counts (no floating point), and ordering of
 * dates and times, for the `totalDigits`, `fractionDigits` and bound facets. Each check is one pass over
 * the value, whatever its length: a base64 attachment of megabytes, a number of millions of digits.
 * @module
 */

import { compareDateTimes, hasTimezone, hasValidDateTimeFields } from "./date_time.ts";
import { compileXsdPattern, type XsdPattern } from "./regex.ts";

/** How a built-in type orders its values, for the bound facets. */
export type Order = "decimal" | "float" | "datetime" | "none";

export interface Builtin {
  /** The built-in it is derived from, up to anySimpleType. */
  base: string | null;
  /** The whiteSpace facet it fixes. */
  ws: "preserve" | "replace" | "collapse";
  order: Order;
  /** Lexical check of the whitespace-normalised value; null when any string is allowed. */
  lexical: XsdPattern | null;
  /** Integer range, inclusive, for the integer types: decimal literals, compared exactly. */
  range?: [string | null, string | null];
}

// The lexical spaces as XSD patterns (XML Schema Part 2 §3.2–§3.3; duration as XML Schema 1.1 Part 2 §3.3.6.2
// writes it without lookahead), so that a value of any length is checked in linear time (regex.ts).
const NAME_CHARS = "\\p{L}\\p{Nd}\\p{Mn}\\p{Mc}_.\\-\u00b7";
const NCNAME = `[\\p{L}_][${NAME_CHARS}]*`;
const NMTOKEN = `[${NAME_CHARS}:]+`;
const TZ = "(Z|[+\\-][0-9]{2}:[0-9]{2})?";
const YEAR = "-?([1-9][0-9]{4,}|[0-9]{4})";
const DECIMAL = "[+\\-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)";
const INTEGER = compileXsdPattern("[+\\-]?[0-9]+");
const FLOAT = compileXsdPattern(`${DECIMAL}([eE][+\\-]?[0-9]+)?|-?INF|NaN`);
const DU_TIME = "T([0-9]+H([0-9]+M)?([0-9]+(\\.[0-9]+)?S)?|[0-9]+M([0-9]+(\\.[0-9]+)?S)?|[0-9]+(\\.[0-9]+)?S)";
const DU_DATE = "([0-9]+Y([0-9]+M)?([0-9]+D)?|[0-9]+M([0-9]+D)?|[0-9]+D)";
const TIME = "[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?";
const _p = compileXsdPattern;
const R = (lo: string | null, hi: string | null): [string | null, string | null] => [lo, hi];

/** The built-in simple types, by local name in the XML Schema namespace. */
export const BUILTINS: Record<string, Builtin> = {
  anySimpleType: { base: null, ws: "preserve", order: "none", lexical: null },
  string: { base: "anySimpleType", ws: "preserve", order: "none", lexical: null },
  normalizedString: { base: "string", ws: "replace", order: "none", lexical: null },
  token: { base: "normalizedString", ws: "collapse", order: "none", lexical: null },
  language: { base: "token", ws: "collapse", order: "none", lexical: _p("[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*") },
  NMTOKEN: { base: "token", ws: "collapse", order: "none", lexical: _p(NMTOKEN) },
  NMTOKENS: { base: "token", ws: "collapse", order: "none", lexical: _p(`${NMTOKEN}( ${NMTOKEN})*`) },
  Name: { base: "token", ws: "collapse", order: "none", lexical: _p(`[\\p{L}_:][${NAME_CHARS}:]*`) },
  NCName: { base: "Name", ws: "collapse", order: "none", lexical: _p(NCNAME) },
  ID: { base: "NCName", ws: "collapse", order: "none", lexical: _p(NCNAME) },
  IDREF: { base: "NCName", ws: "collapse", order: "none", lexical: _p(NCNAME) },
  IDREFS: { base: "token", ws: "collapse", order: "none", lexical: _p(`${NCNAME}( ${NCNAME})*`) },
  ENTITY: { base: "NCName", ws: "collapse", order: "none", lexical: _p(NCNAME) },
  QName: { base: "anySimpleType", ws: "collapse", order: "none", lexical: _p(`(${NCNAME}:)?${NCNAME}`) },
  anyURI: { base: "anySimpleType", ws: "collapse", order: "none", lexical: null },
  boolean: { base: "anySimpleType", ws: "collapse", order: "none", lexical: _p("true|false|1|0") },
  base64Binary: { base: "anySimpleType", ws: "collapse", order: "none", lexical: { test: isBase64Binary } },
  hexBinary: { base: "anySimpleType", ws: "collapse", order: "none", lexical: _p("([0-9a-fA-F]{2})*") },
  decimal: { base: "anySimpleType", ws: "collapse", order: "decimal", lexical: _p(DECIMAL) },
  integer: { base: "decimal", ws: "collapse", order: "decimal", lexical: INTEGER, range: R(null, null) },
  nonPositiveInteger: { base: "integer", ws: "collapse", order: "decimal", lexical: INTEGER, range: R(null, "0") },
  negativeInteger: { base: "nonPositiveInteger", ws: "collapse", order: "decimal", lexical: INTEGER, range: R(null, "-1") },
  long: { base: "integer", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("-9223372036854775808", "9223372036854775807") },
  int: { base: "long", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("-2147483648", "2147483647") },
  short: { base: "int", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("-32768", "32767") },
  byte: { base: "short", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("-128", "127") },
  nonNegativeInteger: { base: "integer", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("0", null) },
  unsignedLong: { base: "nonNegativeInteger", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("0", "18446744073709551615") },
  unsignedInt: { base: "unsignedLong", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("0", "4294967295") },
  unsignedShort: { base: "unsignedInt", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("0", "65535") },
  unsignedByte: { base: "unsignedShort", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("0", "255") },
  positiveInteger: { base: "nonNegativeInteger", ws: "collapse", order: "decimal", lexical: INTEGER, range: R("1", null) },
  float: { base: "anySimpleType", ws: "collapse", order: "float", lexical: FLOAT },
  double: { base: "anySimpleType", ws: "collapse", order: "float", lexical: FLOAT },
  duration: { base: "anySimpleType", ws: "collapse", order: "none", lexical: _p(`-?P(${DU_DATE}(${DU_TIME})?|${DU_TIME})`) },
  dateTime: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _p(`${YEAR}-[0-9]{2}-[0-9]{2}T${TIME}${TZ}`) },
  date: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _p(`${YEAR}-[0-9]{2}-[0-9]{2}${TZ}`) },
  time: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _p(`${TIME}${TZ}`) },
  gYear: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _p(`${YEAR}${TZ}`) },
  gYearMonth: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _p(`${YEAR}-[0-9]{2}${TZ}`) },
  gMonth: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _p(`--[0-9]{2}${TZ}`) },
  gMonthDay: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _p(`--[0-9]{2}-[0-9]{2}${TZ}`) },
  gDay: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _p(`---[0-9]{2}${TZ}`) },
};

/** True when `name` is `ancestor` or derived from it among the built-ins. */
export function builtinDerives(name: string, ancestor: string): boolean {
  for (let n: string | null = name; n !== null; n = BUILTINS[n]?.base ?? null) if (n === ancestor) return true;
  return false;
}

/** Why a whitespace-normalised value is not in the built-in's lexical space, or null. */
export function checkBuiltin(name: string, value: string): string | null {
  const b = BUILTINS[name]!;
  if (b.lexical !== null && !b.lexical.test(value)) return `'${shortValue(value)}' is not a valid ${name}`;
  if (b.range) {
    const [lo, hi] = b.range;
    if ((lo !== null && compareDecimal(value, lo) < 0) || (hi !== null && compareDecimal(value, hi) > 0)) return `'${shortValue(value)}' is out of the range of ${name}`;
  }
  if (b.order === "datetime" && !hasValidDateTimeFields(value)) return `'${shortValue(value)}' is not a valid ${name}`;
  return null;
}

/**
 * Whether a value is in xs:base64Binary's lexical space (XML Schema Part 2 §3.2.16, as corrected in its second
 * edition): groups of four of `A-Za-z0-9+/`, the last perhaps padded with `=` or `==` after a letter that leaves
 * no bits over, a single space allowed after any character (after the last only when there is no padding). A scan,
 * not a regular expression: an attachment of megabytes is checked in one pass.
 */
export function isBase64Binary(value: string): boolean {
  let chars = 0; // characters other than spaces
  let padding = 0;
  let beforePadding = -1; // the character before the first '='
  let previous = -1;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 32) {
      if (i === 0 || previous === 32) return false;
    } else if (c === 61) {
      if (padding === 0) beforePadding = previous === 32 ? value.charCodeAt(i - 2) : previous;
      padding++;
      chars++;
    } else {
      if (padding > 0 || !_isBase64Char(c)) return false;
      chars++;
    }
    previous = c;
  }
  if (chars % 4 !== 0 || padding > 2) return false;
  if (padding === 0) return true;
  if (previous === 32) return false;
  return padding === 1 ? _B16.includes(String.fromCharCode(beforePadding)) : _B04.includes(String.fromCharCode(beforePadding));
}

const _B16 = "AEIMQUYcgkosw048";
const _B04 = "AQgw";
const _BASE64_CHARS = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") _BASE64_CHARS[c.charCodeAt(0)] = 1;

function _isBase64Char(c: number): boolean {
  return c < 128 && _BASE64_CHARS[c] === 1;
}

/** A value as messages quote it: cut short, so that a value of megabytes does not make a message of megabytes. */
export function shortValue(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}...` : value;
}

/** A decimal as sign, integer digits (no leading zeros) and fraction digits (no trailing zeros). */
interface Dec {
  neg: boolean;
  int: string;
  frac: string;
}

// Bounds are the schemas' own literals, few and compared with every value: parsed once.
const _bounds = new Map<string, Dec>();
function _bound(v: string): Dec {
  let d = _bounds.get(v);
  if (!d) {
    d = _dec(v);
    if (_bounds.size < 10_000) _bounds.set(v, d);
  }
  return d;
}

function _dec(v: string): Dec {
  let s = v;
  let neg = false;
  if (s[0] === "+" || s[0] === "-") {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  const dot = s.indexOf(".");
  let int = dot < 0 ? s : s.slice(0, dot);
  let frac = dot < 0 ? "" : s.slice(dot + 1);
  // Loops, not /^0+/ and /0+$/: the latter backtracks quadratically over a long run of zeros.
  let from = 0, to = frac.length;
  while (from < int.length && int.charCodeAt(from) === 48) from++;
  while (to > 0 && frac.charCodeAt(to - 1) === 48) to--;
  int = int.slice(from);
  frac = frac.slice(0, to);
  if (int === "" && frac === "") neg = false;
  return { neg, int, frac };
}

/** Compares two decimal literals exactly: negative, 0 or positive. */
export function compareDecimal(a: string, b: string): number {
  const x = _dec(a), y = _bound(b);
  if (x.neg !== y.neg) return x.neg ? -1 : 1;
  const sign = x.neg ? -1 : 1;
  if (x.int.length !== y.int.length) return sign * (x.int.length - y.int.length);
  if (x.int !== y.int) return sign * (x.int < y.int ? -1 : 1);
  const n = Math.max(x.frac.length, y.frac.length);
  const fx = x.frac.padEnd(n, "0"), fy = y.frac.padEnd(n, "0");
  return fx === fy ? 0 : sign * (fx < fy ? -1 : 1);
}

/** Total significant digits and fraction digits of a decimal literal (totalDigits, fractionDigits). */
export function decimalDigits(v: string): { total: number; fraction: number } {
  const d = _dec(v);
  return { total: Math.max(d.int.length + d.frac.length, 1), fraction: d.frac.length };
}

/** Canonical form of a decimal, for enumerations compared in the value space. */
export function canonicalDecimal(v: string): string {
  const d = _dec(v);
  return `${d.neg ? "-" : ""}${d.int || "0"}${d.frac ? "." + d.frac : ""}`;
}

/**
 * Orders two date/time literals of the same type (date_time.ts). Values of the same shape without timezones (e.g.
 * KSeF's dates) compare as text.
 */
export function compareDateTime(a: string, b: string): number {
  if (a.length === b.length && a[0] !== "-" && b[0] !== "-" && !hasTimezone(a) && !hasTimezone(b)) return a < b ? -1 : a > b ? 1 : 0;
  return compareDateTimes(a, b);
}
