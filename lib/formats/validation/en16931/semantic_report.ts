/**
 * How the EN 16931 semantic rules report: a violation at an element, with the
 * element's XPath-like location (`/Invoice/cac:InvoiceLine[2]/cbc:ID`, prefixes as
 * written, a position only where siblings share the name) and its line and column.
 * Locations are computed only for the elements that break a rule: a valid
 * document costs nothing here, and one that breaks a rule costs a pass that notes
 * each element's parent, the location steps only along the paths reported.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import type { Severity, Violation } from "../violation.ts";

/** Collects violations for one document. */
export class Report {
  readonly violations: Violation[] = [];
  #paths: _Paths | null = null;
  #root: XmlElement;

  constructor(root: XmlElement) {
    this.#root = root;
  }

  /** Records that `rule` is broken at `el` (the rule's context element). */
  add(rule: string, el: XmlElement, message: string, severity: Severity = "error"): void {
    this.#paths ??= new _Paths(this.#root);
    this.violations.push({ rule, severity, path: this.#paths.of(el), line: el.line, column: el.column, message });
  }

  /** Records `rule` at `el` unless `ok`; a message that costs something to build is passed as a function. */
  check(ok: boolean, rule: string, el: XmlElement, message: string | (() => string), severity: Severity = "error"): void {
    if (!ok) this.add(rule, el, typeof message === "string" ? message : message(), severity);
  }
}

function _name(el: XmlElement): string {
  return el.prefix === "" ? el.local : `${el.prefix}:${el.local}`;
}

/** The XPath-like location of `target` under `root`; the root's own path when it is not found. */
export function elementPath(root: XmlElement, target: XmlElement): string {
  return new _Paths(root).of(target);
}

/**
 * Locations under one root. Each element's parent is noted in one pass (no strings built); location steps are
 * built only for the children of the elements along a reported path, each parent's once. A path then costs its
 * depth, so a document with thousands of violations is not quadratic, and one with a single violation does not
 * build a step for every element.
 */
class _Paths {
  #root: XmlElement;
  #parents = new Map<XmlElement, XmlElement>();
  #steps = new Map<XmlElement, string>();

  constructor(root: XmlElement) {
    this.#root = root;
    const stack: XmlElement[] = [root];
    while (stack.length > 0) {
      const el = stack.pop() as XmlElement;
      for (const c of el.children) {
        this.#parents.set(c, el);
        if (c.children.length > 0) stack.push(c);
      }
    }
  }

  of(target: XmlElement): string {
    const root = this.#root;
    if (target !== root && !this.#parents.has(target)) return `/${_name(root)}`;
    const parts: string[] = [];
    for (let e = target; e !== root; ) {
      const parent = this.#parents.get(e) as XmlElement;
      let step = this.#steps.get(e);
      if (step === undefined) {
        this.#stepChildren(parent);
        step = this.#steps.get(e) as string;
      }
      parts.push(step);
      e = parent;
    }
    parts.push(`/${_name(root)}`);
    return parts.reverse().join("");
  }

  /** The location step of each of `el`'s children ("/cac:InvoiceLine[2]"; no position when the name is unique among its siblings). */
  #stepChildren(el: XmlElement): void {
    const counts = new Map<string, number>();
    for (const c of el.children) {
      const key = `${c.ns}\u0000${c.local}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const seen = new Map<string, number>();
    for (const c of el.children) {
      const key = `${c.ns}\u0000${c.local}`;
      const position = (seen.get(key) ?? 0) + 1;
      seen.set(key, position);
      this.#steps.set(c, (counts.get(key) ?? 1) > 1 ? `/${_name(c)}[${position}]` : `/${_name(c)}`);
    }
  }
}
