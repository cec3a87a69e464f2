/**
 * Reading a parsed invoice the way the CIUS rule packs' schematron does: child steps by
 * namespace and local name, `//` descendants, attribute values and XPath string values.
 * It knows nothing of any rule; the EN 16931 neutral view (en16931/semantic_view.ts) is for
 * the EN 16931 rules, while the packs test elements that view does not keep (contacts, notes).
 * @module
 */
import type { XmlElement } from "../xml/tree.ts";
import { hasText, norm } from "./en16931/semantic_view.ts";

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
  if (from === null) return [];
  let current: readonly XmlElement[] = Array.isArray(from) ? from : [from as XmlElement];
  for (let s = 0; s < steps.length; s++) {
    const [ns, local] = _step(steps[s] as string);
    const next: XmlElement[] = [];
    for (let i = 0; i < current.length; i++) {
      const kids = (current[i] as XmlElement).children;
      for (let j = 0; j < kids.length; j++) {
        const c = kids[j] as XmlElement;
        if (c.local === local && c.ns === ns) next.push(c);
      }
    }
    if (next.length === 0) return next;
    current = next;
  }
  return current as XmlElement[];
}

function _first(el: XmlElement, steps: readonly string[], at: number): XmlElement | null {
  if (at === steps.length) return el;
  const [ns, local] = _step(steps[at] as string);
  const kids = el.children;
  for (let j = 0; j < kids.length; j++) {
    const c = kids[j] as XmlElement;
    if (c.local === local && c.ns === ns) {
      const found = _first(c, steps, at + 1);
      if (found !== null) return found;
    }
  }
  return null;
}

/** The first element `select` would give (in document order), or null, without building the list. */
export function first(from: XmlElement | null | readonly XmlElement[], ...steps: string[]): XmlElement | null {
  if (from === null) return null;
  if (!Array.isArray(from)) return _first(from as XmlElement, steps, 0);
  for (const el of from as readonly XmlElement[]) {
    const found = _first(el, steps, 0);
    if (found !== null) return found;
  }
  return null;
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

/** XPath normalize-space (the EN 16931 rules' own, with its fast path for text that needs no rewrite). */
export function normalizeSpace(text: string | null | undefined): string {
  return norm(text);
}

/** `x[boolean(normalize-space(.))]` for some x: an element with something other than white space in it. */
export function anyFilled(els: readonly XmlElement[]): boolean {
  return els.some((e) => hasText(stringValue(e)));
}

export { hasText };

/** XPath general comparison `els = value`: some element's string value equals `value` exactly. */
export function anyEquals(els: readonly XmlElement[], value: string | readonly string[]): boolean {
  if (typeof value === "string") return els.some((e) => stringValue(e) === value);
  return els.some((e) => value.includes(stringValue(e)));
}
