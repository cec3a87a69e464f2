/**
 * Validates a parsed document against a compiled schema in one pass over the tree:
 * each element's attributes, its content model (the particles are matched
 * deterministically through their first sets, as the Unique Particle Attribution
 * constraint of XML Schema Part 1 §3.8.6 allows) and its simple content. Findings are
 * Violations with rule `XSD`, the element's path and its line and column.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import type { Violation } from "../validation/violation.ts";
import { type CompiledSchema, type ComplexType, type ElementDecl, type Particle, qualify, type SequenceTerm, type SimpleType, type Wildcard, wildcardAllows } from "./model.ts";
import { DocumentNames } from "./name_ids.ts";
import { type Attribution, type Matched, MAX_SHAPE_CHILDREN, Shapes } from "./shapes.ts";
import { accepts } from "./accept.ts";
import { checkSimple, normalizeSpace } from "./simple.ts";

const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
/** §5.1 of the README's validation section: an answer lists at most 200 findings. */
export const MAX_XSD_VIOLATIONS = 200;

interface Frame {
  el: XmlElement;
  parent: Frame | null;
}

/** Every way the document breaks the schema, in document order, at most `limit`. */
export function validateXsd(schema: CompiledSchema, root: XmlElement, limit = MAX_XSD_VIOLATIONS): Violation[] {
  const v = new _Validator(schema, limit);
  const decl = schema.elements.get(qualify(root.ns, root.local));
  const frame: Frame = { el: root, parent: null };
  if (!decl) v.report(frame, `The root element ${_name(root)} is not declared in the schema ${schema.name}`);
  else v.element(frame, decl);
  return v.out;
}

const _NOT_SPACE = /[^\t\n\r ]/;

/**
 * Whether `text` holds more than XML's own whitespace (XML 1.0 §2.3 S), which alone may separate elements in
 * element-only content. A native scan: the text of an indented element is its children's indentation, joined
 * piece by piece, and a loop of charCodeAt over such a string costs twice as much.
 */
function _hasText(text: string): boolean {
  return text.length !== 0 && _NOT_SPACE.test(text);
}

function _name(el: { ns: string; local: string }): string {
  return el.ns === "" ? el.local : `{${el.ns}}${el.local}`;
}

/**
 * The steps of violations' paths: an element's name, with its position among its same-named siblings when it has
 * any. The positions of a parent's children are counted once, in one pass, when the first violation under that
 * parent needs them: an element may have hundreds of thousands of siblings, and up to MAX_XSD_VIOLATIONS paths.
 */
class _Paths {
  #positions = new Map<XmlElement, Map<XmlElement, { position: number; of: { count: number } }>>();

  of(frame: Frame): string {
    const parts: string[] = [];
    for (let f: Frame | null = frame; f !== null; f = f.parent) {
      let step = f.el.local;
      if (f.parent) {
        const p = this.#count(f.parent.el).get(f.el)!;
        if (p.of.count > 1) step += `[${p.position}]`;
      }
      parts.push(step);
    }
    return "/" + parts.reverse().join("/");
  }

  #count(parent: XmlElement): Map<XmlElement, { position: number; of: { count: number } }> {
    let known = this.#positions.get(parent);
    if (known) return known;
    known = new Map();
    const byName = new Map<string, { count: number }>();
    for (const c of parent.children) {
      const key = _name(c);
      let of = byName.get(key);
      if (!of) byName.set(key, (of = { count: 0 }));
      known.set(c, { position: ++of.count, of });
    }
    this.#positions.set(parent, known);
    return known;
  }
}

class _Validator {
  out: Violation[] = [];
  #schema: CompiledSchema;
  #limit: number;
  #names = new DocumentNames();
  #shapes = new Shapes();
  #paths = new _Paths();

  constructor(schema: CompiledSchema, limit: number) {
    this.#schema = schema;
    this.#limit = limit;
  }

  report(frame: Frame, message: string, at: XmlElement = frame.el): void {
    if (this.out.length >= this.#limit) return;
    this.out.push({ rule: "XSD", severity: "error", path: this.#paths.of(frame), line: at.line, column: at.column, message });
  }

  element(frame: Frame, decl: ElementDecl): void {
    if (this.out.length >= this.#limit) return;
    const el = frame.el;
    let type = decl.type;
    let nil = false;
    for (const a of el.attrs) {
      if (a.ns !== XSI_NS) continue;
      if (a.local === "nil") nil = a.value.trim() === "true" || a.value.trim() === "1";
      else if (a.local === "type") {
        const t = this.#xsiType(frame, a.value);
        if (t) type = t;
        else return this.report(frame, `xsi:type ${a.value} is not a type of the schema`);
      }
    }
    if (decl.abstract) this.report(frame, `Element ${el.local} is abstract`);
    if (nil) {
      if (!decl.nillable) this.report(frame, `Element ${el.local} is not nillable`);
      else if (el.children.length > 0 || _hasText(el.text)) this.report(frame, `Element ${el.local} is nil and must be empty`);
    }
    if (type.kind === "simple") {
      this.#attributes(frame, null);
      if (el.children.length > 0) return this.report(frame, `Element ${el.local} has a simple type and must not contain elements`);
      if (!nil) this.#value(frame, decl, type);
      return;
    }
    this.#attributes(frame, type);
    if (nil) return;
    this.#content(frame, decl, type);
  }

  #content(frame: Frame, decl: ElementDecl, type: ComplexType): void {
    const el = frame.el;
    switch (type.content) {
      case "simple":
        if (el.children.length > 0) return this.report(frame, `Element ${el.local} has simple content and must not contain elements`);
        return this.#value(frame, decl, type.simple!);
      case "empty":
        if (el.children.length > 0 || _hasText(el.text)) this.report(frame, `Element ${el.local} must be empty`);
        return;
      case "element":
        if (_hasText(el.text)) this.report(frame, `Element ${el.local} must not contain text, only elements`);
        return this.#children(frame, type.particle!);
      case "mixed":
        return this.#children(frame, type.particle!);
    }
  }

  #value(frame: Frame, decl: ElementDecl, type: SimpleType): void {
    let value = frame.el.text;
    if (value === "" && (decl.fixed ?? decl.default) !== null) value = (decl.fixed ?? decl.default)!;
    const err = _check(type, value);
    if (err !== null) return this.report(frame, `Element ${frame.el.local}: ${err}`);
    if (decl.fixed !== null && normalizeSpace(value, type.facets.whiteSpace) !== normalizeSpace(decl.fixed, type.facets.whiteSpace)) {
      this.report(frame, `Element ${frame.el.local} must have the fixed value '${decl.fixed}'`);
    }
  }

  #attributes(frame: Frame, type: ComplexType | null): void {
    const el = frame.el;
    for (const a of el.attrs) {
      if (a.ns === XMLNS_NS || a.ns === XSI_NS) continue;
      const use = type?.attributes.get(qualify(a.ns, a.local));
      if (use) {
        const err = _check(use.type, a.value);
        if (err !== null) this.report(frame, `Attribute ${a.local}: ${err}`);
        else if (use.fixed !== null && normalizeSpace(a.value, use.type.facets.whiteSpace) !== normalizeSpace(use.fixed, use.type.facets.whiteSpace)) this.report(frame, `Attribute ${a.local} must have the fixed value '${use.fixed}'`);
      } else if (!(type?.anyAttribute && wildcardAllows(type.anyAttribute, a.ns))) {
        this.report(frame, `Attribute ${a.ns === "" ? a.local : _name(a)} is not allowed on ${el.local}`);
      }
    }
    if (type) {
      for (const r of type.required) {
        if (!el.attrs.some((a) => a.local === r.local && a.ns === r.ns)) this.report(frame, `Attribute ${r.local} is required on ${el.local}`);
      }
    }
  }

  #children(frame: Frame, particle: Particle): void {
    const kids = frame.el.children;
    const { decls, leaves, accepted } = (kids.length <= MAX_SHAPE_CHILDREN ? this.#shapes.find(particle, kids) : null) ?? this.#match(frame, particle);
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i]!, leaf = leaves[i]!;
      // Most elements are leaves of a simple type without attributes, and valid: such an element is accepted here
      // without a frame or the general checks, which run (and report) whenever this cannot tell. The type's check
      // depends on the text alone: the same text as the last one accepted in this place of the shape is valid too
      // (an invoice's lines repeat their units, rates and quantities).
      if (leaf !== null && kid.attrs.length === 0 && kid.children.length === 0) {
        const text = kid.text;
        if (text === accepted[i]) continue;
        if (accepts(leaf, text)) {
          accepted[i] = text;
          continue;
        }
      }
      const d = decls[i];
      if (d === undefined) continue;
      const child: Frame = { el: kid, parent: frame };
      if (_isWildcard(d)) this.#wild(child, d);
      else this.element(child, d);
    }
  }

  /** Matches an element's children against its content model, reports where they break it, and keeps the shape of a match. */
  #match(frame: Frame, particle: Particle): Matched {
    const kids = frame.el.children;
    const ids = new Array<number>(kids.length);
    let known = kids.length <= MAX_SHAPE_CHILDREN;
    for (let i = 0; i < kids.length; i++) {
      const id = this.#names.id(kids[i]!.ns, kids[i]!.local);
      ids[i] = id;
      if (id < 0) known = false;
    }
    const m = new _Matcher(kids, ids);
    const ok = m.repeat(particle);
    const leaves = new Array<SimpleType | null>(kids.length);
    for (let i = 0; i < kids.length; i++) leaves[i] = _leafType(m.decls[i]);
    const matched: Matched = { decls: m.decls, leaves, accepted: new Array<string | undefined>(kids.length) };
    if (!ok) {
      const at = kids[m.i];
      const expected = _expected(m.failed!);
      if (at) this.report({ el: at, parent: frame }, `Element ${at.local} is not expected here; expected ${expected}`);
      else this.report(frame, `Element ${frame.el.local} is missing child elements; expected ${expected}`);
    } else if (m.i < kids.length) {
      const at = kids[m.i]!;
      this.report({ el: at, parent: frame }, `Element ${at.local} is not expected here (out of order, repeated or unknown)`);
    } else if (known) {
      // Kept only when every name has its id: a name unknown now may get one later in the document, as types compile on first use.
      this.#shapes.keep(particle, kids, matched);
    }
    return matched;
  }

  #wild(frame: Frame, w: Wildcard): void {
    if (w.process === "skip") return;
    const decl = this.#schema.elements.get(qualify(frame.el.ns, frame.el.local));
    if (decl) this.element(frame, decl);
    else if (w.process === "strict") this.report(frame, `Element ${_name(frame.el)} is not declared in the schema`);
  }

  #xsiType(frame: Frame, qname: string): SimpleType | ComplexType | null {
    const colon = qname.indexOf(":");
    const prefix = colon < 0 ? "" : qname.trim().slice(0, colon);
    for (let f: Frame | null = frame; f !== null; f = f.parent) {
      for (const a of f.el.attrs) {
        if (a.ns === XMLNS_NS && (prefix === "" ? a.prefix === "" : a.prefix === "xmlns" && a.local === prefix)) {
          return this.#schema.type(qualify(a.value, qname.trim().slice(colon + 1)));
        }
      }
    }
    return prefix === "" ? this.#schema.type(qname.trim()) : null;
  }
}

/**
 * The simple type that alone judges a child attributed to `d` when it has neither attributes nor children; null for
 * a wildcard, a complex type, and a declaration that is abstract or gives a fixed or default value.
 */
function _leafType(d: ElementDecl | Wildcard | undefined): SimpleType | null {
  if (d === undefined || _isWildcard(d) || d.abstract || d.fixed !== null || d.default !== null) return null;
  const type = d.type;
  return type.kind === "simple" ? type : null;
}

function _isWildcard(d: ElementDecl | Wildcard): d is Wildcard {
  // A property read, not `in`: declarations and wildcards each have one shape, so this stays a cheap load.
  return (d as Partial<Wildcard>).process !== undefined;
}

/** Why `value` is not valid for `type`, or null: the compiled predicate answers most values, checkSimple the rest. */
function _check(type: SimpleType, value: string): string | null {
  return accepts(type, value) ? null : checkSimple(type, value);
}

function _expected(p: Particle): string {
  const names = [...p.first].map((n) => n.slice(n.lastIndexOf("}") + 1));
  if (p.firstAny.length > 0) names.push("any element");
  return names.length === 0 ? "nothing" : names.length === 1 ? names[0]! : `one of ${names.join(", ")}`;
}

/** Deterministic matching of children against a particle; records which declaration each child was attributed to. */
class _Matcher {
  i = 0;
  decls: Attribution;
  failed: Particle | null = null;
  #kids: XmlElement[];
  /** Each child's name id (name_ids.ts), -1 for names no particle mentions. */
  #ids: number[];

  constructor(kids: XmlElement[], ids: number[]) {
    this.#kids = kids;
    this.#ids = ids;
    this.decls = new Array(kids.length);
  }

  #starts(p: Particle): boolean {
    if (this.i >= this.#kids.length) return false;
    // Most particles are single elements: one number comparison instead of a set lookup.
    if (p.kind === "element") return this.#ids[this.i] === p.id;
    if (p.firstIds.has(this.#ids[this.i]!)) return true;
    for (const w of p.firstAny) if (wildcardAllows(w, this.#kids[this.i]!.ns)) return true;
    return false;
  }

  repeat(p: Particle): boolean {
    let count = 0;
    while (count < p.max && this.#starts(p)) {
      const before = this.i;
      if (!this.#term(p)) return false;
      count++;
      if (this.i === before) break;
    }
    if (count < p.min && !p.emptiable) {
      this.failed = p;
      return false;
    }
    return true;
  }

  #sequence(items: Particle[]): boolean {
    for (const item of items) if (!this.repeat(item)) return false;
    return true;
  }

  /**
   * A sequence without wildcards, in time proportional to the children rather than to its items: the next child's
   * name says which item it starts (the first one from here whose first set holds it, as the Unique Particle
   * Attribution constraint makes it unique), and every item skipped on the way must be optional.
   */
  #jumpSequence(seq: SequenceTerm, jump: Map<number, number[]>): boolean {
    const items = seq.items;
    let k = 0;
    while (k < items.length) {
      const j = this.#nextItem(jump, k, items.length);
      const required = seq.required[k]!;
      if (required < j) {
        this.failed = items[required]!;
        return false;
      }
      if (j === items.length) return true;
      if (!this.repeat(items[j]!)) return false;
      k = j + 1;
    }
    return true;
  }

  /** The first item from `k` on that the next child starts, or `end` when none does (or no child is left). */
  #nextItem(jump: Map<number, number[]>, k: number, end: number): number {
    if (this.i >= this.#kids.length) return end;
    const starts = jump.get(this.#ids[this.i]!);
    if (starts) for (const s of starts) if (s >= k) return s;
    return end;
  }

  #term(p: Particle): boolean {
    switch (p.kind) {
      case "element":
        this.decls[this.i++] = p.decl;
        return true;
      case "any":
        this.decls[this.i++] = p.wildcard;
        return true;
      case "sequence":
        return p.jump === null ? this.#sequence(p.items) : this.#jumpSequence(p, p.jump);
      case "choice": {
        for (const item of p.items) if (this.#starts(item)) return this.repeat(item);
        if (p.emptiable) return true;
        this.failed = p;
        return false;
      }
      case "all": {
        const used = new Set<Particle>();
        for (;;) {
          const item = p.items.find((x) => !used.has(x) && this.#starts(x));
          if (!item) break;
          used.add(item);
          if (!this.repeat(item)) return false;
        }
        const missing = p.items.find((x) => !used.has(x) && x.min > 0 && !x.emptiable);
        if (missing) {
          this.failed = missing;
          return false;
        }
        return true;
      }
    }
  }
}
