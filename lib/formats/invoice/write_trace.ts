/**
 * The XML builder of the invoice writers (FA(3), UBL, CII; README "Creating invoices"): XmlWriter's elements, plus,
 * when asked, which invoice-object field each written element came from (`/Faktura/Fa/FaWiersz[3]/P_9A` ←
 * `invoice.lines[2].net_price`), so that a finding on the written XML can name the field at fault (fieldAt). Paths
 * are written as the validators write them: names as written, with a position among same-named siblings only where
 * there are several. Recording is off by default and then costs one branch. A value XML cannot carry (a control
 * character) is an InvoiceError naming its field, traced or not.
 * @module
 */

import { type XmlAttributes, XmlWriteError, XmlWriter } from "../xml/write.ts";
import { InvoiceError } from "./errors.ts";

/** One written element and the invoice-object field (or group of fields) it came from. */
export interface WrittenField {
  /** Element path, `/Faktura/Fa/FaWiersz[3]/P_9A` or `/Invoice/cac:InvoiceLine[3]/cbc:ID`. */
  path: string;
  /** Invoice-object path, `invoice.lines[2].net_price`. */
  field: string;
}

/** How many children of one name an element has so far. */
interface _Count {
  n: number;
}

interface _Node {
  name: string;
  parent: _Node | null;
  /** Its 1-based position among its parent's children of its name. */
  index: number;
  /** The count of those children, shared by them: how many there are once the document is written. */
  of: _Count;
  /** The children's counts by name; null until its first child (a leaf never has one). */
  counts: Map<string, _Count> | null;
  /** The field of this element or of its nearest ancestor that has one: what a relative field is relative to. */
  base: string;
  /** The element's path, made once the document is written (fields()). */
  path: string | null;
}

/** The count of the root, which has no siblings. */
const _ROOT: _Count = { n: 1 };

/**
 * Writes elements like XmlWriter; with `trace`, remembers which field each one came from. A field that starts with
 * "." or "[" is relative to the field of the innermost open element that has one (`.net_price` in a FaWiersz opened
 * as `invoice.lines[2]`): a constant the writer passes without building a string that only tracing needs. A field
 * with no open element that has one is relative to `invoice`.
 */
export class TracedWriter {
  #xml = new XmlWriter();
  #trace: boolean;
  #node: _Node | null = null;
  /** The elements written with a field, in document order. */
  #written: _Node[] = [];
  /** The fields of the open elements, innermost last, kept always: an error names its field without tracing. */
  #open: (string | null | undefined)[] = [];

  constructor(trace: boolean) {
    this.#trace = trace;
  }

  /** Opens an element that came from `field` (a group such as `invoice.lines[2]`), if given. */
  open(name: string, field?: string | null, attributes?: XmlAttributes): this {
    try {
      this.#xml.open(name, attributes);
    } catch (e) {
      throw this.#refused(e, field);
    }
    this.#open.push(field);
    if (this.#trace) {
      this.#node = this.#step(name, field);
      if (field) this.#written.push(this.#node);
    }
    return this;
  }

  /** Closes the innermost open element. */
  close(): this {
    this.#xml.close();
    this.#open.pop();
    if (this.#trace) this.#node = this.#node?.parent ?? null;
    return this;
  }

  /** Writes `<name>text</name>` that came from `field`; nothing when `text` is null or undefined. */
  leaf(name: string, text: string | null | undefined, field?: string | null, attributes?: XmlAttributes): this {
    if (text === null || text === undefined) return this;
    try {
      this.#xml.leaf(name, text, attributes);
    } catch (e) {
      throw this.#refused(e, field);
    }
    if (this.#trace) {
      // A leaf without a field is only counted, for its same-named siblings' positions.
      if (field) this.#written.push(this.#step(name, field));
      else this.#count(name);
    }
    return this;
  }

  /** The document; every element opened must have been closed. */
  toString(): string {
    return this.#xml.toString();
  }

  /** The recorded fields in document order (empty when not tracing), once the document is written. */
  fields(): WrittenField[] {
    // A step's position depends on its later siblings, so paths are made only now, each from its parent's.
    return this.#written.map((node) => ({ path: _path(node), field: node.base }));
  }

  /** An XmlWriteError as an InvoiceError naming the field (resolved against the open elements' fields). */
  #refused(e: unknown, field: string | null | undefined): unknown {
    if (!(e instanceof XmlWriteError)) return e;
    let path = field ?? "";
    for (let i = this.#open.length - 1; i >= 0 && _relative(path); i--) {
      const f = this.#open[i];
      if (f) path = f + path;
    }
    if (_relative(path)) path = "invoice" + path;
    return new InvoiceError(path, "invalid character", `Cannot write ${path}: the value holds a control character XML does not allow`);
  }

  #step(name: string, field: string | null | undefined): _Node {
    const parent = this.#node;
    const of = this.#count(name);
    const inherited = parent?.base ?? "invoice";
    const base = !field ? inherited : _relative(field) ? inherited + field : field;
    return { name, parent, index: of.n, of, counts: null, base, path: null };
  }

  /** Counts one more child named `name` of the innermost open element. */
  #count(name: string): _Count {
    const parent = this.#node;
    if (parent === null) return _ROOT;
    const counts = (parent.counts ??= new Map());
    const of = counts.get(name);
    if (of === undefined) {
      const first = { n: 1 };
      counts.set(name, first);
      return first;
    }
    of.n++;
    return of;
  }
}

function _relative(field: string): boolean {
  return field === "" || field[0] === "." || field[0] === "[";
}

function _path(node: _Node): string {
  if (node.path !== null) return node.path;
  const parent = node.parent;
  if (parent === null) return (node.path = `/${node.name}`);
  return (node.path = node.of.n > 1 ? `${_path(parent)}/${node.name}[${node.index}]` : `${_path(parent)}/${node.name}`);
}

/**
 * The invoice-object field written at `path`, a finding's XML path in either of the validators' forms
 * (`/Invoice/cac:InvoiceLine[3]/cbc:ID` or `/Invoice/InvoiceLine[3]/ID`; a step without a position is the first);
 * the nearest written ancestor's field when the element itself carries none; null when nothing matches.
 */
export function fieldAt(fields: readonly WrittenField[], path: string): string | null {
  const want = _normalize(path);
  let best: string | null = null;
  let bestLength = -1;
  for (const f of fields) {
    const have = _normalize(f.path);
    if (have === want) return f.field;
    if (want.startsWith(`${have}/`) && have.length > bestLength) {
      best = f.field;
      bestLength = have.length;
    }
  }
  return best;
}

/** Prefixes dropped and a missing position made [1], except on the root step. */
function _normalize(path: string): string {
  const steps = path.split("/");
  for (let i = 1; i < steps.length; i++) {
    let s = steps[i]!.replace(/^[^:[\]]+:/, "");
    if (i > 1 && !s.endsWith("]")) s = `${s}[1]`;
    steps[i] = s;
  }
  return steps.join("/");
}
