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
 * How many locations are found by searching the tree from the root (nothing built, nothing kept) before the
 * parents of every element are noted instead: a few violations cost a search each, thousands do not cost thousands.
 */
const _SEARCHES = 8;

/**
 * Locations under one root. The first few are found by a search from the root, with each step counted among its
 * siblings; past them each element's parent is noted in one pass, and location steps are built for the children of
 * the elements along a reported path, each parent's once. A path then costs its depth, so a document with thousands
 * of violations is not quadratic, and one with a single violation does not build a step for every element.
 */
class _Paths {
  #root: XmlElement;
  #searches = 0;
  #parents: Map<XmlElement, XmlElement> | null = null;
  #steps = new Map<XmlElement, string>();

  constructor(root: XmlElement) {
    this.#root = root;
  }

  of(target: XmlElement): string {
    const root = this.#root;
    const parts = [`/${_name(root)}`];
    if (target === root) return parts[0]!;
    if (this.#searches < _SEARCHES) {
      this.#searches++;
      const trail: XmlElement[] = [];
      if (!_search(root, target, trail)) return parts[0]!;
      for (let i = trail.length - 1; i >= 0; i--) parts.push(_step(i === trail.length - 1 ? root : trail[i + 1]!, trail[i]!));
      return parts.join("");
    }
    const parents = (this.#parents ??= _parentsOf(root));
    if (!parents.has(target)) return parts[0]!;
    const up: string[] = [];
    for (let e = target; e !== root; ) {
      const parent = parents.get(e) as XmlElement;
      let step = this.#steps.get(e);
      if (step === undefined) {
        this.#stepChildren(parent);
        step = this.#steps.get(e) as string;
      }
      up.push(step);
      e = parent;
    }
    for (let i = up.length - 1; i >= 0; i--) parts.push(up[i]!);
    return parts.join("");
  }

  /** The location step of each of `el`'s children, kept. */
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

/** Whether `target` is below `el`; if so `trail` holds it and its ancestors up to a child of `el`, deepest first. */
function _search(el: XmlElement, target: XmlElement, trail: XmlElement[]): boolean {
  for (const c of el.children) {
    if (c === target || (c.children.length > 0 && _search(c, target, trail))) {
      trail.push(c);
      return true;
    }
  }
  return false;
}

/** Every element's parent, in one pass (no strings built). */
function _parentsOf(root: XmlElement): Map<XmlElement, XmlElement> {
  const out = new Map<XmlElement, XmlElement>();
  const stack: XmlElement[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as XmlElement;
    for (const c of el.children) {
      out.set(c, el);
      if (c.children.length > 0) stack.push(c);
    }
  }
  return out;
}

/** `el`'s location step under `parent` ("/cac:InvoiceLine[2]"; no position when the name is unique among its siblings). */
function _step(parent: XmlElement, el: XmlElement): string {
  let position = 0;
  let count = 0;
  for (const c of parent.children) {
    if (c.local !== el.local || c.ns !== el.ns) continue;
    count++;
    if (c === el) position = count;
  }
  return count > 1 ? `/${_name(el)}[${position}]` : `/${_name(el)}`;
}
