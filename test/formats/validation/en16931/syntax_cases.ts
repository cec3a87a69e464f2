/**
 * Builds test documents for the EN 16931 syntax rules by mutating parsed samples: find (or create)
 * an element a rule context matches, add what a test path selects, set a code. Shared by the
 * table-driven tests of both syntaxes and the hand-written rule tests.
 * @module
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../../../lib/formats/xml/tree.ts";
import type { Violation } from "../../../../lib/formats/validation/violation.ts";
import { buildDocView } from "../../../../lib/formats/validation/en16931/syntax/doc_view.ts";
import { compileContext, contextNamesFit, contextPredsHold, splitTop } from "../../../../lib/formats/validation/en16931/syntax/paths.ts";
import { resolveQName } from "../../../../lib/formats/validation/en16931/syntax/values.ts";

const SAMPLES = fileURLToPath(new URL("../../../fixtures/samples/", import.meta.url));

/** A sample's bytes, read once. */
const cache = new Map<string, Uint8Array>();
export function sampleBytes(syntax: "ubl" | "cii", name: string): Uint8Array {
  const key = `${syntax}/${name}`;
  let bytes = cache.get(key);
  if (bytes === undefined) cache.set(key, (bytes = readFileSync(SAMPLES + key)));
  return bytes;
}

/** A fresh parse of a sample (tests mutate it). */
export function loadSample(syntax: "ubl" | "cii", name: string): XmlElement {
  return parseXml(sampleBytes(syntax, name)).root;
}

/** The base documents the generated cases mutate: valid, rich in the elements the rules name. */
export const BASE = { ubl: "en16931_ubl-tc434-example1.xml", cii: "en16931_CII_example1.xml" } as const;

/** A new element `cac:Name` (prefix as in the artefacts). */
export function newEl(qname: string, text = "", attrs: Record<string, string> = {}): XmlElement {
  const [ns, local] = resolveQName(qname);
  return {
    ns,
    local,
    prefix: qname.slice(0, qname.indexOf(":")),
    attrs: Object.entries(attrs).map(([name, value]) => ({ ns: "", local: name, prefix: "", value })),
    children: [],
    text,
    line: 1,
    column: 1,
  };
}

/** Appends a child and returns it. */
export function append(parent: XmlElement, child: XmlElement): XmlElement {
  parent.children.push(child);
  return child;
}

export function setAttr(el: XmlElement, name: string, value: string): void {
  const a = el.attrs.find((x) => x.ns === "" && x.local === name);
  if (a === undefined) el.attrs.push({ ns: "", local: name, prefix: "", value });
  else a.value = value;
}

interface StepText {
  name: string;
  preds: string[];
}

function parseStep(text: string): StepText {
  const open = text.indexOf("[");
  const preds: string[] = [];
  if (open >= 0) {
    let depth = 0;
    let start = open;
    for (let i = open; i < text.length; i++) {
      if (text[i] === "[") {
        if (depth === 0) start = i + 1;
        depth++;
      } else if (text[i] === "]" && --depth === 0) preds.push(text.slice(start, i));
    }
  }
  let name = (open < 0 ? text : text.slice(0, open)).trim();
  if (name.startsWith("(")) name = name.slice(1, -1).split("|")[0]!.trim();
  return { name, preds };
}

/** Concrete names for wildcard steps, by the predicate that constrains them. */
const WILDCARD_NAMES: Record<string, string> = {
  "ends-with(name(), 'BinaryObject')": "cbc:EmbeddedDocumentBinaryObject",
  "ends-with(name(), 'Amount') and not(ends-with(name(),'PriceAmount')) and not(ancestor::cac:Price/cac:AllowanceCharge)": "cbc:LineExtensionAmount",
  "ends-with(name(), 'DocumentContextParameter')": "ram:BusinessProcessSpecifiedDocumentContextParameter",
  "ends-with(name(), 'ID')": "ram:GlobalID",
  "ends-with(name(), 'Quantity')": "ram:BilledQuantity",
  "ends-with(name(), 'ReferencedDocument')": "ram:BuyerOrderReferencedDocument",
  "ends-with(name(), 'TradeTax')": "ram:CategoryTradeTax",
  "ends-with(name(), 'Amount') and not (self::ram:TaxTotalAmount)": "ram:LineTotalAmount",
};

/** Makes a new element satisfy a predicate (those that can be satisfied by adding content). */
function satisfy(el: XmlElement, pred: string): void {
  const quoted = /'([^']*)'/.exec(pred)?.[1];
  if (pred.startsWith("@format")) return setAttr(el, "format", "102");
  if (pred.startsWith("@")) return setAttr(el, pred.slice(1), "0088");
  if (pred === "upper-case(@schemeID) = 'SEPA'") return setAttr(el, "schemeID", "SEPA");
  if (pred === "cbc:ChargeIndicator = false()" || pred === "cbc:ChargeIndicator = true()") {
    append(el, newEl("cbc:ChargeIndicator", pred.includes("false") ? "false" : "true"));
    return;
  }
  if (pred.startsWith("ram:ChargeIndicator/udt:Indicator")) {
    const ind = append(el, newEl("ram:ChargeIndicator"));
    append(ind, newEl("udt:Indicator", pred.includes("false") ? "false" : "true"));
    return;
  }
  if (pred.startsWith("cbc:DocumentTypeCode =") || pred.startsWith("cbc:DocumentTypeCode=")) {
    append(el, newEl("cbc:DocumentTypeCode", quoted));
    return;
  }
  if (pred.startsWith("cac:TaxScheme/")) {
    const scheme = append(el, newEl("cac:TaxScheme"));
    append(scheme, newEl("cbc:ID", pred.includes("!=") ? "GST" : "VAT"));
    return;
  }
  if (pred.startsWith("ram:TypeCode=") || pred.startsWith("normalize-space(ram:TypeCode) =")) {
    append(el, newEl("ram:TypeCode", quoted));
    return;
  }
  if (pred.startsWith("(normalize-space(ram:TypeCode) = '30'")) {
    append(el, newEl("ram:TypeCode", "30"));
    return;
  }
  if (pred.startsWith("normalize-space(.) !=")) {
    el.text = `a value of its own ${++counter}`;
    return;
  }
  // The rest hold for a new element as it is (no such ancestors, no earlier equal value).
}

function buildStep(step: StepText, uniq: string): XmlElement {
  const name = step.name === "*" || step.name.endsWith(":*") ? WILDCARD_NAMES[step.preds[0]!] : step.name;
  if (name === undefined) throw new Error(`No concrete name for ${step.name}[${step.preds.join("][")}]`);
  const el = newEl(name, uniq);
  for (const pred of step.preds) if (!pred.startsWith("ends-with")) satisfy(el, pred);
  return el;
}

/** The first element (document order) a context matches, ignoring the other contexts of its pattern. */
export function findContext(root: XmlElement, context: string): XmlElement | undefined {
  const alts = compileContext(context);
  const doc = buildDocView(root);
  const stack: XmlElement[] = [];
  let found: XmlElement | undefined;
  const visit = (el: XmlElement): void => {
    if (found !== undefined) return;
    stack.push(el);
    if (alts.some((alt) => contextNamesFit(alt, stack) && contextPredsHold(alt, stack, doc))) found = el;
    for (const kid of el.children) visit(kid);
    stack.pop();
  };
  visit(root);
  return found;
}

let counter = 0;

/** A new element matched by the context, created under the root (absolute contexts: along their path). */
export function createContext(root: XmlElement, context: string): XmlElement {
  const alts = splitTop(context, "|").map((s) => s.trim());
  const alt =
    alts.find((a) => a.startsWith("/") && !a.startsWith("//") && resolveQName(parseStep(splitTop(a.slice(1), "/")[0]!).name)[1] === root.local) ??
    alts.find((a) => !a.startsWith("/") || a.startsWith("//")) ??
    alts[0]!;
  if (alt.startsWith("/") && !alt.startsWith("//")) {
    const steps = splitTop(alt.slice(1), "/").map(parseStep);
    let cur = root;
    for (const step of steps.slice(1, -1)) {
      const [ns, local] = resolveQName(step.name);
      cur = cur.children.find((c) => c.ns === ns && c.local === local) ?? append(cur, buildStep(step, ""));
    }
    return steps.length === 1 ? root : append(cur, buildStep(steps[steps.length - 1]!, `v${++counter}`));
  }
  const steps = splitTop(alt.replace(/^\/\//, ""), "/").map(parseStep);
  let cur = root;
  for (const step of steps) cur = append(cur, buildStep(step, `v${++counter}`));
  return cur;
}

/** An element the context matches: an existing one, else a new one. */
export function ensureContext(root: XmlElement, context: string): XmlElement {
  return findContext(root, context) ?? createContext(root, context);
}

/** Adds `copies` separate chains for a test path under `ctx`; returns the elements at their ends. */
export function addPath(ctx: XmlElement, path: string, copies: number): XmlElement[] {
  const parts = splitTop(path.replace(/^\/\//, ""), "/");
  const attr = parts[parts.length - 1]!.startsWith("@") ? parts.pop()!.slice(1) : null;
  const ends: XmlElement[] = [];
  for (let i = 0; i < copies; i++) {
    let cur = ctx;
    for (const part of parts) cur = append(cur, buildStep(parseStep(part), `v${++counter}`));
    if (attr !== null) setAttr(cur, attr, "x");
    ends.push(cur);
  }
  return ends;
}

/** The violations of one rule. */
export function only(violations: Violation[], rule: string): Violation[] {
  return violations.filter((v) => v.rule === rule);
}

/** The element at a child path of simple names (`cac:A/cbc:B`), created where missing. */
export function descend(from: XmlElement, path: string): XmlElement {
  let cur = from;
  for (const qname of path.split("/")) {
    const [ns, local] = resolveQName(qname);
    cur = cur.children.find((c) => c.ns === ns && c.local === local) ?? append(cur, newEl(qname));
  }
  return cur;
}

/** A chain of new elements (`cac:A/cbc:B`) under `parent`, the last with `text`; returns the last. */
export function chain(parent: XmlElement, path: string, text = "", attrs: Record<string, string> = {}): XmlElement {
  const names = path.split("/");
  let cur = parent;
  names.forEach((qname, i) => {
    cur = append(cur, newEl(qname, i === names.length - 1 ? text : "", i === names.length - 1 ? attrs : {}));
  });
  return cur;
}
