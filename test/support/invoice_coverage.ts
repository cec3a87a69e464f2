/**
 * Counts how many leaf values of an invoice XML appear in its invoice JSON:
 * element text and attribute values, compared as decimals when both read as numbers,
 * as dates in any usual notation, otherwise as whitespace-normalised strings.
 * A value must equal a JSON leaf after normalising; containment does not count.
 * Skipped, as technical rather than invoice data: the elements in SKIPPED_ELEMENTS
 * (header ids, syntax version, embedded file content), namespace declarations,
 * xsi:* attributes, SKIPPED_ATTRIBUTES (date notation) and SKIPPED_METADATA (code-list
 * and scheme agency/version attributes without a business term). JSON booleans stand
 * for flags ("1"/"true" and "2"/"0"/"false"); a KSeF negative flag of NEGATIVE_FLAGS
 * ("1" = no) matches a JSON false.
 * @module
 */

import type { XmlElement } from "../../lib/formats/xml/tree.ts";

/** Technical header elements whose text is not counted (they carry no business term of EN 16931 or KSeF). */
export const SKIPPED_ELEMENTS: ReadonlySet<string> = new Set([
  "KodFormularza", // KSeF Naglowek: form code "FA" with kodSystemowy/wersjaSchemy
  "WariantFormularza", // KSeF Naglowek: form variant "2"/"3"
  "SystemInfo", // KSeF Naglowek: the producing software's name
  "CustomizationID", // UBL BT-24
  "ProfileID", // UBL BT-23
  "GuidelineSpecifiedDocumentContextParameter", // CII BT-24 (its ram:ID child)
  "BusinessProcessSpecifiedDocumentContextParameter", // CII BT-23 (its ram:ID child)
  "UBLVersionID", // UBL syntax version "2.1", like CustomizationID
  // Embedded file content (base64): README “The invoice object” keeps supporting documents by name, not content.
  "EmbeddedDocumentBinaryObject", // UBL (its filename and mimeCode attributes are counted)
  "AttachmentBinaryObject", // CII (likewise)
]);

/**
 * Attributes not counted: `format` of a CII udt/qdt DateTimeString says how the
 * date is written (UNTDID 2379 "102" = CCYYMMDD); the date itself is counted.
 */
export const SKIPPED_ATTRIBUTES: ReadonlySet<string> = new Set(["DateTimeString@format", "DateString@format"]);

/**
 * Code-list and scheme metadata attributes, skipped on every element: they name
 * the list or agency a code comes from and have no EN 16931 business term
 * (listID of an item classification is BT-158-1 and is counted, see below).
 */
export const SKIPPED_METADATA: ReadonlySet<string> = new Set([
  "listID", "listAgencyID", "listVersionID", "listAgencyName", "listName", "schemeAgencyID",
  "schemeVersionID", "schemeName", "schemeAgencyName", "languageID",
]);

/** Where a metadata attribute is a business term and so is counted (BT-158-1, BT-158-2). */
const COUNTED_METADATA: ReadonlySet<string> = new Set([
  "ItemClassificationCode@listID", "ItemClassificationCode@listVersionID", "ClassCode@listID", "ClassCode@listVersionID",
]);

const XSI = "http://www.w3.org/2001/XMLSchema-instance";
const XMLNS = "http://www.w3.org/2000/xmlns/";

/** One leaf value of the XML with where it was found. */
export interface Leaf {
  path: string;
  value: string;
}

/** Every counted leaf value of the tree, in document order. */
export function leafValues(root: XmlElement): Leaf[] {
  const out: Leaf[] = [];
  const walk = (el: XmlElement, path: string): void => {
    if (SKIPPED_ELEMENTS.has(el.local)) return;
    const here = `${path}/${el.local}`;
    for (const a of el.attrs) {
      if (a.ns === XSI || a.ns === XMLNS || a.local === "xmlns" || a.prefix === "xmlns") continue;
      const key = `${el.local}@${a.local}`;
      if (SKIPPED_ATTRIBUTES.has(key)) continue;
      if (SKIPPED_METADATA.has(a.local) && !COUNTED_METADATA.has(key)) continue;
      if (a.value.trim() !== "") out.push({ path: `${here}/@${a.local}`, value: a.value });
    }
    if (el.children.length === 0) {
      if (el.text.trim() !== "") out.push({ path: here, value: el.text });
    } else for (const c of el.children) walk(c, here);
  };
  walk(root, "");
  return out;
}

/** The normalised forms a JSON leaf or an XML value may take. */
function _keys(value: string): string[] {
  const s = value.trim().replace(/\s+/g, " ");
  const keys = [`s:${s}`];
  const d = _decimal(s);
  if (d !== null) keys.push(`d:${d}`);
  const date = _date(s);
  if (date !== null) keys.push(`t:${date}`);
  return keys;
}

function _decimal(s: string): string | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (m === null || (m[2] === "" && (m[3] ?? "") === "")) return null;
  const int = (m[2] ?? "").replace(/^0+/, "") || "0";
  const frac = (m[3] ?? "").replace(/0+$/, "");
  const sign = m[1] === "-" && (int !== "0" || frac !== "") ? "-" : "";
  return frac === "" ? `${sign}${int}` : `${sign}${int}.${frac}`;
}

function _date(s: string): string | null {
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*|Z|[+-]\d{2}:\d{2})?$/.exec(s);
  if (m !== null) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 12) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{2})[.\/-](\d{2})[.\/-](\d{4})$/.exec(s);
  if (m !== null) return `${m[3]}-${m[2]}-${m[1]}`;
  return null;
}

/**
 * JSON booleans stand for flags: KSeF TWybor1 / TWybor1_2 ("1" yes, "2" no) and
 * xsd:boolean ("true"/"false", "1"/"0") compare equal to them.
 */
const TRUE_KEYS = ["s:true", "d:1", "b:true"];
const FALSE_KEYS = ["s:false", "d:0", "d:2", "b:false"];

/**
 * KSeF's negative branches of a choice: "1" in one of these says no (no exemption,
 * no new means of transport, no margin scheme, no KSeF number), the JSON's false.
 */
export const NEGATIVE_FLAGS: ReadonlySet<string> = new Set(["P_19N", "P_22N", "P_PMarzyN", "NrKSeFN", "NrKSeFZN"]);

/** Every normalised key of the JSON's string and number leaves. */
export function jsonKeys(json: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") for (const k of _keys(v)) out.add(k);
    else if (typeof v === "number") for (const k of _keys(String(v))) out.add(k);
    else if (typeof v === "boolean") for (const k of v ? TRUE_KEYS : FALSE_KEYS) out.add(k);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk(json);
  return out;
}

/** Result of one file: counted, found, and the leaves not found. */
export interface Coverage {
  total: number;
  found: number;
  missing: Leaf[];
}

/** How many of the XML's leaves appear in the JSON. */
export function coverage(root: XmlElement, json: unknown): Coverage {
  const keys = jsonKeys(json);
  const leaves = leafValues(root);
  const missing: Leaf[] = [];
  for (const leaf of leaves) {
    const negative = leaf.value.trim() === "1" && NEGATIVE_FLAGS.has(leaf.path.slice(leaf.path.lastIndexOf("/") + 1));
    const wanted = negative ? ["b:false"] : _keys(leaf.value);
    if (!wanted.some((k) => keys.has(k))) missing.push(leaf);
  }
  return { total: leaves.length, found: leaves.length - missing.length, missing };
}
