/**
 * Expands references in character data and attribute values: character
 * references (XML 1.0 5th ed. §4.1, which must name a legal Char) and the five
 * predefined entities (§4.6). Any other entity is an error: there is no DTD to
 * declare one. In attribute values it also applies §3.3.3 normalisation.
 * @module
 */

import { isXmlChar } from "./chars.ts";
import { quoteXml, xmlErrorAt } from "./errors.ts";
import { NameReader } from "./names.ts";

const TAB = 9;
const LF = 10;
const CR = 13;
const HASH = 35;
const AMP = 38;
const SEMI = 59;
const LOWER_X = 120;

/**
 * The text of `s[a, b)` with references expanded; with `attribute`, literal TAB,
 * LF and CR become spaces (§3.3.3, CDATA-type attributes) while referenced ones stay.
 * `start` is where line 1 starts, for error positions.
 */
export function expandReferences(s: string, a: number, b: number, attribute: boolean, start: number): string {
  let out = "";
  let seg = a;
  let p = a;
  while (p < b) {
    const c = s.charCodeAt(p);
    if (c === AMP) {
      if (p > seg) out += s.slice(seg, p);
      const q = _reference(s, p, start);
      out += _value;
      p = seg = q;
    } else if (attribute && (c === LF || c === TAB || c === CR)) {
      if (p > seg) out += s.slice(seg, p);
      out += " ";
      p = seg = p + 1;
    } else {
      p++;
    }
  }
  return seg < b ? out + s.slice(seg, b) : out;
}

/** The replacement text of the last reference read by `_reference`. */
let _value = "";

/** Reads the reference at `amp` into `_value`; returns the offset after its ';'. */
function _reference(s: string, amp: number, start: number): number {
  let q = amp + 1;
  if (s.charCodeAt(q) === HASH) {
    q++;
    const hex = s.charCodeAt(q) === LOWER_X;
    if (hex) q++;
    const digitsAt = q;
    let value = 0;
    for (;;) {
      const c = s.charCodeAt(q);
      let d: number;
      if (c >= 48 && c <= 57) d = c - 48;
      else if (hex && c >= 97 && c <= 102) d = c - 87;
      else if (hex && c >= 65 && c <= 70) d = c - 55;
      else break;
      // Past the last Char the value only has to stay out of range: no precision loss on long digit runs.
      if (value <= 0x10ffff) value = value * (hex ? 16 : 10) + d;
      q++;
    }
    if (q === digitsAt) throw xmlErrorAt(s, q, `Expected ${hex ? "hexadecimal " : ""}digits in a character reference`, start);
    if (s.charCodeAt(q) !== SEMI) throw xmlErrorAt(s, q, "Expected ';' to end a character reference", start);
    if (!isXmlChar(value)) throw xmlErrorAt(s, amp, "Character reference to a character that XML does not allow", start);
    _value = String.fromCodePoint(value);
    return q + 1;
  }
  if (s.startsWith("lt;", q)) { _value = "<"; return q + 3; }
  if (s.startsWith("gt;", q)) { _value = ">"; return q + 3; }
  if (s.startsWith("amp;", q)) { _value = "&"; return q + 4; }
  if (s.startsWith("quot;", q)) { _value = '"'; return q + 5; }
  if (s.startsWith("apos;", q)) { _value = "'"; return q + 5; }
  const reader = new NameReader(Number.MAX_SAFE_INTEGER);
  const name = reader.read(s, q);
  if (name !== null && s.charCodeAt(reader.end) === SEMI) {
    throw xmlErrorAt(s, amp, `Unknown entity ${quoteXml(name.qname)}: only &lt; &gt; &amp; &apos; &quot; and character references are allowed`, start);
  }
  throw xmlErrorAt(s, amp, "Invalid reference: a literal '&' must be written as &amp;", start);
}
