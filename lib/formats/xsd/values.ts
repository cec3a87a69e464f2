/**
 * Value spaces of the XML Schema built-in types the invoice schemas use (XML Schema Part 2 §3):
 * lexical checks, exact decimal comparison and digit counts (no floating point), and ordering of
 * dates and times, for the `totalDigits`, `fractionDigits` and bound facets.
 * @module
 */

/** How a built-in type orders its values, for the bound facets. */
export type Order = "decimal" | "float" | "datetime" | "none";

export interface Builtin {
  /** The built-in it is derived from, up to anySimpleType. */
  base: string | null;
  /** The whiteSpace facet it fixes. */
  ws: "preserve" | "replace" | "collapse";
  order: Order;
  /** Lexical check of the whitespace-normalised value; null when any string is allowed. */
  lexical: RegExp | null;
  /** Integer range, inclusive, for the integer types. */
  range?: [bigint | null, bigint | null];
}

const NCNAME = "[\\p{L}_][\\p{L}\\p{Nd}\\p{Mn}\\p{Mc}_.\\-\\u{B7}]*";
const TZ = "(Z|[+-]\\d\\d:\\d\\d)?";
const YEAR = "-?(?:[1-9]\\d{4,}|\\d{4})";
const _re = (s: string) => new RegExp(`^(?:${s})$`, "u");

const DECIMAL = _re("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");
const INTEGER = _re("[+-]?\\d+");
const B = (lo: string | null, hi: string | null): [bigint | null, bigint | null] => [lo === null ? null : BigInt(lo), hi === null ? null : BigInt(hi)];

/** The built-in simple types, by local name in the XML Schema namespace. */
export const BUILTINS: Record<string, Builtin> = {
  anySimpleType: { base: null, ws: "preserve", order: "none", lexical: null },
  string: { base: "anySimpleType", ws: "preserve", order: "none", lexical: null },
  normalizedString: { base: "string", ws: "replace", order: "none", lexical: null },
  token: { base: "normalizedString", ws: "collapse", order: "none", lexical: null },
  language: { base: "token", ws: "collapse", order: "none", lexical: /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/ },
  NMTOKEN: { base: "token", ws: "collapse", order: "none", lexical: _re("[\\p{L}\\p{Nd}\\p{Mn}\\p{Mc}_.:\\-\\u{B7}]+") },
  NMTOKENS: { base: "token", ws: "collapse", order: "none", lexical: _re("[\\p{L}\\p{Nd}\\p{Mn}\\p{Mc}_.:\\-\\u{B7}]+( [\\p{L}\\p{Nd}\\p{Mn}\\p{Mc}_.:\\-\\u{B7}]+)*") },
  Name: { base: "token", ws: "collapse", order: "none", lexical: _re("[\\p{L}_:][\\p{L}\\p{Nd}\\p{Mn}\\p{Mc}_.:\\-\\u{B7}]*") },
  NCName: { base: "Name", ws: "collapse", order: "none", lexical: _re(NCNAME) },
  ID: { base: "NCName", ws: "collapse", order: "none", lexical: _re(NCNAME) },
  IDREF: { base: "NCName", ws: "collapse", order: "none", lexical: _re(NCNAME) },
  IDREFS: { base: "token", ws: "collapse", order: "none", lexical: _re(`${NCNAME}( ${NCNAME})*`) },
  ENTITY: { base: "NCName", ws: "collapse", order: "none", lexical: _re(NCNAME) },
  QName: { base: "anySimpleType", ws: "collapse", order: "none", lexical: _re(`(${NCNAME}:)?${NCNAME}`) },
  anyURI: { base: "anySimpleType", ws: "collapse", order: "none", lexical: null },
  boolean: { base: "anySimpleType", ws: "collapse", order: "none", lexical: /^(true|false|1|0)$/ },
  base64Binary: { base: "anySimpleType", ws: "collapse", order: "none", lexical: /^(([A-Za-z0-9+/] ?){4})*(([A-Za-z0-9+/] ?){3}[A-Za-z0-9+/]|([A-Za-z0-9+/] ?){2}[AEIMQUYcgkosw048] ?=|[A-Za-z0-9+/] ?[AQgw] ?= ?=)?$/ },
  hexBinary: { base: "anySimpleType", ws: "collapse", order: "none", lexical: /^([0-9a-fA-F]{2})*$/ },
  decimal: { base: "anySimpleType", ws: "collapse", order: "decimal", lexical: DECIMAL },
  integer: { base: "decimal", ws: "collapse", order: "decimal", lexical: INTEGER, range: B(null, null) },
  nonPositiveInteger: { base: "integer", ws: "collapse", order: "decimal", lexical: INTEGER, range: B(null, "0") },
  negativeInteger: { base: "nonPositiveInteger", ws: "collapse", order: "decimal", lexical: INTEGER, range: B(null, "-1") },
  long: { base: "integer", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("-9223372036854775808", "9223372036854775807") },
  int: { base: "long", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("-2147483648", "2147483647") },
  short: { base: "int", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("-32768", "32767") },
  byte: { base: "short", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("-128", "127") },
  nonNegativeInteger: { base: "integer", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("0", null) },
  unsignedLong: { base: "nonNegativeInteger", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("0", "18446744073709551615") },
  unsignedInt: { base: "unsignedLong", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("0", "4294967295") },
  unsignedShort: { base: "unsignedInt", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("0", "65535") },
  unsignedByte: { base: "unsignedShort", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("0", "255") },
  positiveInteger: { base: "nonNegativeInteger", ws: "collapse", order: "decimal", lexical: INTEGER, range: B("1", null) },
  float: { base: "anySimpleType", ws: "collapse", order: "float", lexical: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|-?INF|NaN)$/ },
  double: { base: "anySimpleType", ws: "collapse", order: "float", lexical: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|-?INF|NaN)$/ },
  duration: { base: "anySimpleType", ws: "collapse", order: "none", lexical: /^-?P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/ },
  dateTime: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _re(`${YEAR}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?${TZ}`) },
  date: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _re(`${YEAR}-\\d\\d-\\d\\d${TZ}`) },
  time: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _re(`\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?${TZ}`) },
  gYear: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _re(`${YEAR}${TZ}`) },
  gYearMonth: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _re(`${YEAR}-\\d\\d${TZ}`) },
  gMonth: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _re(`--\\d\\d${TZ}`) },
  gMonthDay: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _re(`--\\d\\d-\\d\\d${TZ}`) },
  gDay: { base: "anySimpleType", ws: "collapse", order: "datetime", lexical: _re(`---\\d\\d${TZ}`) },
};

/** True when `name` is `ancestor` or derived from it among the built-ins. */
export function builtinDerives(name: string, ancestor: string): boolean {
  for (let n: string | null = name; n !== null; n = BUILTINS[n]?.base ?? null) if (n === ancestor) return true;
  return false;
}

/** Why a whitespace-normalised value is not in the built-in's lexical space, or null. */
export function checkBuiltin(name: string, value: string): string | null {
  const b = BUILTINS[name]!;
  if (b.lexical !== null && !b.lexical.test(value)) return `'${value}' is not a valid ${name}`;
  if (b.range) {
    const n = BigInt(value);
    if ((b.range[0] !== null && n < b.range[0]) || (b.range[1] !== null && n > b.range[1])) return `'${value}' is out of the range of ${name}`;
  }
  if (b.order === "datetime" && !_fieldsValid(value)) return `'${value}' is not a valid ${name}`;
  return null;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Month, day, hour, minute, second and timezone ranges of a date/time value that passed its lexical pattern. */
function _fieldsValid(v: string): boolean {
  const tz = /(Z|([+-])(\d\d):(\d\d))$/.exec(v);
  if (tz && tz[3] !== undefined && (Number(tz[3]) > 14 || Number(tz[4]) > 59 || (Number(tz[3]) === 14 && tz[4] !== "00"))) return false;
  const date = /^-?(\d{4,})-(\d\d)-(\d\d)/.exec(v);
  if (date) {
    const y = Number(date[1]), m = Number(date[2]), d = Number(date[3]);
    if (y === 0 && !/^-/.test(v) && date[1] === "0000") return false; // XSD 1.0: no year 0000
    if (m < 1 || m > 12 || d < 1 || d > DAYS[m - 1]!) return false;
    if (m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return false;
  } else {
    const ym = /^-?\d{4,}-(\d\d)(?!\d)/.exec(v) ?? /^--(\d\d)(?!-\d\d-)/.exec(v);
    if (ym && !/^---/.test(v) && (Number(ym[1]) < 1 || Number(ym[1]) > 12)) return false;
  }
  const time = /(\d\d):(\d\d):(\d\d)(\.\d+)?/.exec(v.includes("T") ? v.slice(v.indexOf("T") + 1) : /^\d\d:/.test(v) ? v : "");
  if (time) {
    const h = Number(time[1]), mi = Number(time[2]), s = Number(time[3]);
    if (mi > 59 || s > 59) return false;
    if (h > 24 || (h === 24 && (mi !== 0 || s !== 0 || /[1-9]/.test(time[4] ?? "")))) return false;
  }
  return true;
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
  int = int.replace(/^0+/, "");
  frac = frac.replace(/0+$/, "");
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
 * Orders two date/time literals of the same type. Values in the same timezone (or both without) compare field
 * by field; values with different timezones are normalised to UTC (XML Schema Part 2 §3.2.7.4, simplified:
 * a value without a timezone is taken as UTC).
 */
export function compareDateTime(a: string, b: string): number {
  // The common case: same shape, four-digit years, no timezone on either (e.g. KSeF's dates): compare as text.
  if (a.length === b.length && !_TZ.test(a) && !_TZ.test(b) && a[0] !== "-" && b[0] !== "-") return a < b ? -1 : a > b ? 1 : 0;
  const x = _instant(a), y = _instant(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const _TZ = /(Z|[+-]\d\d:\d\d)$/;

function _instant(v: string): string {
  const tz = /(Z|([+-])(\d\d):(\d\d))$/.exec(v);
  let body = tz ? v.slice(0, v.length - tz[0].length) : v;
  const minutes = tz && tz[2] !== undefined ? (tz[2] === "-" ? -1 : 1) * (Number(tz[3]) * 60 + Number(tz[4])) : 0;
  const full = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d+)?$/.exec(body);
  if (full && minutes !== 0) {
    const t = Date.UTC(Number(full[1]), Number(full[2]) - 1, Number(full[3]), Number(full[4]), Number(full[5]) - minutes, Number(full[6]));
    body = new Date(t).toISOString().slice(0, 19) + (full[7] ?? "");
  }
  // Fixed-width year, so that keys compare as strings.
  const y = /^(-?)(\d{4,})/.exec(body);
  return y ? (y[1] ? "-" : "+") + y[2]!.padStart(12, "0") + body.slice(y[0].length) : body;
}
