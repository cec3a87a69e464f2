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

  constructor(root: XmlElement) {
    this.#root = root;
  }

  /** Records that `rule` is broken at `el` (the rule's context element). */
  add(rule: string, el: XmlElement, message: string, severity: Severity = "error"): void {
    this.violations.push({ rule, severity, path: elementPath(this.#root, el), line: el.line, column: el.column, message });
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
  const indices: number[] = [];
  let path = `/${_name(root)}`;
  if (!_find(root, target, indices)) return path;
  let el = root;
  for (const i of indices) {
    path += _step(el.children, i);
    el = el.children[i] as XmlElement;
  }
  return path;
}

function _find(el: XmlElement, target: XmlElement, indices: number[]): boolean {
  if (el === target) return true;
  const kids = el.children;
  for (let i = 0; i < kids.length; i++) {
    indices.push(i);
    if (_find(kids[i] as XmlElement, target, indices)) return true;
    indices.pop();
  }
  return false;
}

function _step(kids: XmlElement[], i: number): string {
  const c = kids[i] as XmlElement;
  let position = 0;
  let count = 0;
  for (let j = 0; j < kids.length; j++) {
    const k = kids[j] as XmlElement;
    if (k.local === c.local && k.ns === c.ns) {
      count++;
      if (j <= i) position++;
    }
  }
  return count > 1 ? `/${_name(c)}[${position}]` : `/${_name(c)}`;
}
