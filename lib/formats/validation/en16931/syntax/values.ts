/**
 * The few XPath value operations the EN 16931 syntax rules use, over the element tree:
 * string values, `normalize-space`, child and attribute lookup by namespace-resolved name.
 * @module
 */
import type { XmlElement } from "../../../xml/tree.ts";

/** Namespace URIs of the prefixes the artefacts use. */
export const NS = {
  ubl: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  cn: "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  ext: "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
  rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
  qdt: "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
} as const;

/** Resolves `cac:Party` to its namespace and local name; throws on an unknown prefix (a table bug). */
export function resolveQName(qname: string): readonly [ns: string, local: string] {
  const colon = qname.indexOf(":");
  const prefix = qname.slice(0, colon) as keyof typeof NS;
  const ns = NS[prefix];
  if (colon < 0 || ns === undefined) throw new TypeError(`Cannot resolve prefix of ${qname}`);
  return [ns, qname.slice(colon + 1)];
}

/** XPath string value: the element's text and its descendants' text. */
export function stringValue(el: XmlElement): string {
  if (el.children.length === 0) return el.text;
  let out = el.text;
  for (const kid of el.children) out += stringValue(kid);
  return out;
}

/** XPath `normalize-space`: XML whitespace runs collapsed to one space, trimmed. */
export function normalizeSpace(s: string): string {
  return _isNormalized(s) ? s : s.replace(/[\t\n\r ]+/g, " ").replace(/^ | $/g, "");
}

/** True when `normalize-space` leaves the value as it is (most codes and indicators): no rewrite to pay for. */
function _isNormalized(s: string): boolean {
  const n = s.length;
  if (n === 0) return true;
  if (s.charCodeAt(0) === 32 || s.charCodeAt(n - 1) === 32) return false;
  let space = false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (space) return false;
      space = true;
    } else if (c === 9 || c === 10 || c === 13) {
      return false;
    } else {
      space = false;
    }
  }
  return true;
}

/**
 * The value without the XML whitespace (tab, LF, CR, space) around it. A loop: `/[\t\n\r ]+$/` tries every run of
 * spaces to the end, quadratic in a long run that does not end the value.
 */
export function trimXmlSpace(s: string): string {
  let from = 0, to = s.length;
  while (from < to && _isXmlSpace(s.charCodeAt(from))) from++;
  while (to > from && _isXmlSpace(s.charCodeAt(to - 1))) to--;
  return from === 0 && to === s.length ? s : s.slice(from, to);
}

function _isXmlSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** The value of an attribute in no namespace, `undefined` when absent. */
export function attr(el: XmlElement, local: string): string | undefined {
  for (const a of el.attrs) if (a.ns === "" && a.local === local) return a.value;
  return undefined;
}

/** Child elements with this name. */
export function children(el: XmlElement, ns: string, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const kid of el.children) if (kid.local === local && kid.ns === ns) out.push(kid);
  return out;
}

/** The first child element with this name. */
export function child(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  for (const kid of el.children) if (kid.local === local && kid.ns === ns) return kid;
  return undefined;
}

/** True when the element has this name. */
export function isNamed(el: XmlElement, ns: string, local: string): boolean {
  return el.local === local && el.ns === ns;
}

/** XPath boolean cast of an untyped value (`cbc:ChargeIndicator = true()`): `undefined` when not a boolean. */
export function xsBoolean(s: string): boolean | undefined {
  const v = normalizeSpace(s);
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  return undefined;
}
