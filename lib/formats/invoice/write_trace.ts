/**
 * An XmlWriter that can also record, for each element it writes, the invoice-object field the element came from
 * (`/Faktura/Fa/FaWiersz[3]/P_9A` ← `invoice.lines[2].net_price`), so that a violation found in the written XML can
 * name the field at fault. Paths are written as the XML Schema validator writes them: local names, with a position
 * among same-named siblings only where there are several. Recording is off by default and then costs one branch.
 * A value XML cannot carry (a control character) is an InvoiceError naming its field, traced or not.
 * @module
 */

import { type XmlAttributes, XmlWriteError, XmlWriter } from "../xml/write.ts";
import { InvoiceError } from "./errors.ts";

/** One written element and the invoice-object field (or group of fields) it came from. */
export interface WrittenField {
  /** Element path, `/Faktura/Fa/FaWiersz[3]/P_9A`. */
  path: string;
  /** Invoice-object path, `invoice.lines[2].net_price`. */
  field: string;
}

interface _Node {
  name: string;
  parent: _Node | null;
  index: number;
  /** How many children of each name it has so far; null until its first child (a leaf never has one). */
  counts: Map<string, number> | null;
  /** The field of this element or of its nearest ancestor that has one: what a relative field is relative to. */
  base: string;
}

/**
 * Writes elements like XmlWriter; with `trace`, remembers which field each one came from. A field that starts with
 * "." or "[" is relative to the field of the innermost open element that has one (`.net_price` in a FaWiersz opened
 * as `invoice.lines[2]`): a constant the writer passes without building a string that only tracing needs.
 */
export class TracedWriter {
  #xml: XmlWriter;
  #trace: boolean;
  #node: _Node | null = null;
  #fields: { node: _Node; field: string }[] = [];
  /** The fields of the open elements, innermost last, kept always: an error names its field without tracing. */
  #open: (string | null | undefined)[] = [];

  constructor(trace: boolean) {
    this.#xml = new XmlWriter();
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
      if (field) this.#fields.push({ node: this.#node, field: this.#node.base });
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
      const node = this.#step(name, field);
      if (field) this.#fields.push({ node, field: node.base });
    }
    return this;
  }

  /** The document; every element opened must have been closed. */
  toString(): string {
    return this.#xml.toString();
  }

  /** The recorded fields in document order (empty when not tracing). */
  fields(): WrittenField[] {
    return this.#fields.map(({ node, field }) => ({ path: _path(node), field }));
  }

  /** An XmlWriteError as an InvoiceError naming the field (resolved against the open elements' fields). */
  #refused(e: unknown, field: string | null | undefined): unknown {
    if (!(e instanceof XmlWriteError)) return e;
    let path = field ?? "";
    for (let i = this.#open.length - 1; i >= 0 && (path === "" || path[0] === "." || path[0] === "["); i--) {
      const f = this.#open[i];
      if (f) path = f + path;
    }
    if (path === "" || path[0] === "." || path[0] === "[") path = "invoice" + path;
    return new InvoiceError(path, "invalid character", `Cannot write ${path}: the value holds a control character XML does not allow`);
  }

  #step(name: string, field: string | null | undefined): _Node {
    const parent = this.#node;
    let index = 1;
    if (parent !== null) {
      parent.counts ??= new Map();
      index = (parent.counts.get(name) ?? 0) + 1;
      parent.counts.set(name, index);
    }
    const inherited = parent?.base ?? "invoice";
    const base = !field ? inherited : field[0] === "." || field[0] === "[" ? inherited + field : field;
    return { name, parent, index, counts: null, base };
  }
}

function _path(node: _Node): string {
  const steps: string[] = [];
  for (let n: _Node | null = node; n !== null; n = n.parent) {
    const several = n.parent !== null && (n.parent.counts?.get(n.name) ?? 0) > 1;
    steps.push(several ? `${n.name}[${n.index}]` : n.name);
  }
  return "/" + steps.reverse().join("/");
}
