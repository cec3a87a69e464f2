/**
 * Small namespace-aware lookups over the parsed XML tree, for the invoice readers:
 * first child, children, text, attributes, calendar dates. Names are matched by
 * namespace URI and local name, never by prefix (Namespaces in XML 1.0 §6).
 * No XPath and no descendant search: each call looks at one element's children.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";

/** The first child element with this namespace and local name, or null. */
export function child(el: XmlElement | null, ns: string, local: string): XmlElement | null {
  if (el === null) return null;
  for (const c of el.children) if (c.local === local && c.ns === ns) return c;
  return null;
}

/** Every child element with this namespace and local name, in document order. */
export function children(el: XmlElement | null, ns: string, local: string): XmlElement[] {
  if (el === null) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (c.local === local && c.ns === ns) out.push(c);
  return out;
}

/** Follows first children down a path of local names, all in one namespace. */
export function descend(el: XmlElement | null, ns: string, ...locals: string[]): XmlElement | null {
  let cur = el;
  for (const local of locals) {
    if (cur === null) return null;
    cur = child(cur, ns, local);
  }
  return cur;
}

/**
 * An element's own text, trimmed; null when the element is absent or the text is
 * empty. Line breaks are kept but the indentation around them is dropped: it is
 * the pretty-printing of the XML file, not part of a name or a note.
 */
export function textOf(el: XmlElement | null): string | null {
  if (el === null) return null;
  const t = el.text.trim();
  if (t === "") return null;
  if (!t.includes("\n")) return t;
  // Line by line, not /[ \t]*\n[ \t]*/g: that pattern retries a long run of spaces from each of its characters.
  const lines = t.split("\n");
  for (let i = 0; i < lines.length; i++) lines[i] = _trimBlanks(lines[i]!);
  return lines.join("\n");
}

/** The line without the spaces and tabs around it. */
function _trimBlanks(line: string): string {
  let from = 0, to = line.length;
  while (from < to && (line.charCodeAt(from) === 32 || line.charCodeAt(from) === 9)) from++;
  while (to > from && (line.charCodeAt(to - 1) === 32 || line.charCodeAt(to - 1) === 9)) to--;
  return from === 0 && to === line.length ? line : line.slice(from, to);
}

/** The trimmed text of the first matching child, or null. */
export function childText(el: XmlElement | null, ns: string, local: string): string | null {
  return textOf(child(el, ns, local));
}

/** An attribute's value (unprefixed attributes have namespace ""), or null. */
export function attr(el: XmlElement | null, local: string, ns = ""): string | null {
  if (el === null) return null;
  for (const a of el.attrs) if (a.local === local && a.ns === ns) return a.value;
  return null;
}

/** Collects the non-null strings, in order. */
export function compact(values: readonly (string | null)[]): string[] {
  const out: string[] = [];
  for (const v of values) if (v !== null) out.push(v);
  return out;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A calendar date as YYYY-MM-DD from `xsd:date` ("2024-03-01", optionally with a
 * time zone or a time part, both dropped) or from UN/EDIFACT format 102
 * ("20240301"); null for anything else or an impossible date.
 */
export function parseDate(input: string | null): string | null {
  if (input === null) return null;
  const s = input.trim();
  let y: string;
  let m: string;
  let d: string;
  if (s.length >= 10 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45) {
    y = s.slice(0, 4);
    m = s.slice(5, 7);
    d = s.slice(8, 10);
    // Anything after the date must be a zone ("Z", "+01:00") or a time ("T…").
    if (s.length > 10 && !/^(?:Z|[+-]\d{2}:\d{2}|T.*)$/.test(s.slice(10))) return null;
  } else if (s.length === 8) {
    y = s.slice(0, 4);
    m = s.slice(4, 6);
    d = s.slice(6, 8);
  } else return null;
  if (!/^\d{4}$/.test(y) || !/^\d{2}$/.test(m) || !/^\d{2}$/.test(d)) return null;
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > (DAYS_IN_MONTH[month - 1] as number)) return null;
  if (month === 2 && day === 29 && !_isLeapYear(Number(y))) return null;
  return `${y}-${m}-${d}`;
}

function _isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** The first child of each local name in `ns`, for flat KSeF structures read field by field. */
export function fieldsOf(el: XmlElement | null, ns: string): Map<string, XmlElement> {
  const out = new Map<string, XmlElement>();
  if (el === null) return out;
  for (const c of el.children) if (c.ns === ns && !out.has(c.local)) out.set(c.local, c);
  return out;
}

/** The trimmed text of a field from `fieldsOf`, or null. */
export function field(fields: ReadonlyMap<string, XmlElement>, local: string): string | null {
  return textOf(fields.get(local) ?? null);
}

/** True when a KSeF TWybor1/TWybor1_2 field is "1". */
export function flag(fields: ReadonlyMap<string, XmlElement>, local: string): boolean {
  return field(fields, local) === "1";
}

/** An identifier element's text with its `schemeID` attribute (EN 16931 identifiers), or null. */
export function identifierOf(el: XmlElement | null): { value: string; scheme: string | null } | null {
  const value = textOf(el);
  return value === null ? null : { value, scheme: attr(el, "schemeID") };
}
