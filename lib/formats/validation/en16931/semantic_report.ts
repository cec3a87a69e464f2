/**
 * How the EN 16931 semantic rules report: a violation at an element, with the
 * element's XPath-like location (`/Invoice/cac:InvoiceLine[2]/cbc:ID`, prefixes as
 * written, a position only where siblings share the name) and its line and column.
 * Locations are computed only for the elements that break a rule: a valid
 * document costs nothing here.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Severity, Violation } from "../violation.ts";

/** Collects violations for one document. */
export class Report {
  readonly violations: Violation[] = [];
  #root: XmlElement;
  /** Each element's parent and location step, built on the first violation (one pass over the tree). */
  #steps: Map<XmlElement, { parent: XmlElement | null; step: string }> | null = null;

  constructor(root: XmlElement) {
    this.#root = root;
  }

  /** Records that `rule` is broken at `el` (the rule's context element). */
  add(rule: string, el: XmlElement, message: string, severity: Severity = "error"): void {
    this.violations.push({ rule, severity, path: this.#path(el), line: el.line, column: el.column, message });
  }

  /** Records `rule` at `el` unless `ok`; a message that costs something to build is passed as a function. */
  check(ok: boolean, rule: string, el: XmlElement, message: string | (() => string), severity: Severity = "error"): void {
    if (!ok) this.add(rule, el, typeof message === "string" ? message : message(), severity);
  }

  #path(el: XmlElement): string {
    if (this.#steps === null) this.#steps = indexSteps(this.#root);
    const parts: string[] = [];
    for (let e: XmlElement | null = el; e !== null; ) {
      const s = this.#steps.get(e);
      if (s === undefined) break;
      parts.push(s.step);
      e = s.parent;
    }
    return parts.length === 0 ? `/${_name(this.#root)}` : parts.reverse().join("");
  }
}

function _name(el: XmlElement): string {
  return el.prefix === "" ? el.local : `${el.prefix}:${el.local}`;
}

/** The XPath-like location of `target` under `root`; the root's own path when it is not found. */
export function elementPath(root: XmlElement, target: XmlElement): string {
  const steps = indexSteps(root);
  const parts: string[] = [];
  for (let e: XmlElement | null = target; e !== null; ) {
    const s = steps.get(e);
    if (s === undefined) break;
    parts.push(s.step);
    e = s.parent;
  }
  return parts.length === 0 ? `/${_name(root)}` : parts.reverse().join("");
}

/**
 * Every element's location step ("/cac:InvoiceLine[2]"; no position when the name
 * is unique among its siblings) and parent, in one pass: paths then cost their depth,
 * so a document with thousands of violations is not quadratic.
 */
function indexSteps(root: XmlElement): Map<XmlElement, { parent: XmlElement | null; step: string }> {
  const out = new Map<XmlElement, { parent: XmlElement | null; step: string }>();
  out.set(root, { parent: null, step: `/${_name(root)}` });
  const stack: XmlElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as XmlElement;
    const kids = el.children;
    if (kids.length === 0) continue;
    const counts = new Map<string, number>();
    for (const c of kids) {
      const key = `${c.ns}\u0000${c.local}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const seen = new Map<string, number>();
    for (const c of kids) {
      const key = `${c.ns}\u0000${c.local}`;
      const position = (seen.get(key) ?? 0) + 1;
      seen.set(key, position);
      out.set(c, { parent: el, step: (counts.get(key) ?? 1) > 1 ? `/${_name(c)}[${position}]` : `/${_name(c)}` });
      stack.push(c);
    }
  }
  return out;
}
