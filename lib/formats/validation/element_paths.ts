/**
 * Reading a parsed invoice the way the CIUS rule packs' schematron does: child steps by
 * namespace and local name, `//` descendants, attribute values and XPath string values.
 * It knows nothing of any rule; the EN 16931 neutral view (en16931/semantic_view.ts) is for
 * the EN 16931 rules, while the packs test elements that view does not keep (contacts, notes).
 * @module
 */
import type { XmlElement } from "../xml/tree.ts";

/** UBL's and CII's namespaces the packs name. */
export const NS = {
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  inv: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  cn: "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
  rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
} as const;

const _steps = new Map<string, [string, string]>();

/** A step "cac:Party" as its namespace and local name (the prefixes of NS). */
function _step(step: string): [string, string] {
  let s = _steps.get(step);
  if (s === undefined) {
    const colon = step.indexOf(":");
    const ns = (NS as Record<string, string>)[step.slice(0, colon)];
    if (ns === undefined) throw new TypeError(`Cannot resolve the step ${step}`);
    s = [ns, step.slice(colon + 1)];
    _steps.set(step, s);
  }
  return s;
}

/** Every element reached from `from` by the child steps, each "prefix:local" with a prefix of NS (XPath `a/b/c`). */
export function select(from: XmlElement | null | readonly XmlElement[], ...steps: string[]): XmlElement[] {
  let current: readonly XmlElement[] = from === null ? [] : Array.isArray(from) ? from : [from as XmlElement];
  for (const step of steps) {
    const [ns, local] = _step(step);
    const next: XmlElement[] = [];
    for (const el of current) for (const c of el.children) if (c.local === local && c.ns === ns) next.push(c);
    current = next;
    if (current.length === 0) return [];
  }
  return current as XmlElement[];
}

/** The first element `select` would give, or null. */
export function first(from: XmlElement | null | readonly XmlElement[], ...steps: string[]): XmlElement | null {
  return select(from, ...steps)[0] ?? null;
}

/** Every descendant of `root` (itself excluded) with this namespace and local name, in document order (XPath `//x`). */
export function descendants(root: XmlElement, ns: string, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  const visit = (el: XmlElement): void => {
    for (const c of el.children) {
      if (c.local === local && c.ns === ns) out.push(c);
      visit(c);
    }
  };
  visit(root);
  return out;
}

/** An unprefixed attribute's value, or null. */
export function attribute(el: XmlElement | null, local: string): string | null {
  if (el === null) return null;
  for (const a of el.attrs) if (a.local === local && a.ns === "") return a.value;
  return null;
}

/** XPath string value of an element: its own text and that of every descendant, in document order. */
export function stringValue(el: XmlElement | null): string {
  if (el === null) return "";
  if (el.children.length === 0) return el.text;
  // The tree keeps an element's own text apart from its children's: for the packs' leaf tests this is exact;
  // for an element with children it is the text below it, which is what `normalize-space(.)` tests for emptiness.
  let s = el.text;
  for (const c of el.children) s += stringValue(c);
  return s;
}

/** XPath normalize-space. */
export function normalizeSpace(text: string | null | undefined): string {
  return text ? text.replace(/[ \t\r\n]+/g, " ").trim() : "";
}

/** `x[boolean(normalize-space(.))]` for some x: an element with something other than white space in it. */
export function anyFilled(els: readonly XmlElement[]): boolean {
  return els.some((e) => normalizeSpace(stringValue(e)) !== "");
}

/** XPath general comparison `els = value`: some element's string value equals `value` exactly. */
export function anyEquals(els: readonly XmlElement[], value: string | readonly string[]): boolean {
  if (typeof value === "string") return els.some((e) => stringValue(e) === value);
  return els.some((e) => value.includes(stringValue(e)));
}
