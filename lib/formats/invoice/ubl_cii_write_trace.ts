/**
 * The XML builder of the UBL and CII writers (README "Creating invoices"): XmlWriter's elements, plus, when asked,
 * a record of which invoice-object field each written element came from, so that a finding on the written XML
 * (an XML path from the schema or EN 16931 checks) can name the field of the invoice object (`lines[2].net_price`).
 * Without tracing it only forwards to XmlWriter: the field names are constant strings, joined only when traced.
 * @module
 */

import { type XmlAttributes, XmlWriteError, XmlWriter } from "../xml/write.ts";
import type { WriteResult } from "./write_result.ts";

/** Options of the UBL and CII writers. */
export interface WriteOptions {
  /** Record which invoice-object field each written element came from (`fields` of the result). */
  trace?: boolean;
}

/** A written document with, when traced, the field of each element. */
export interface TracedWriteResult extends WriteResult {
  /** Empty unless `trace` was asked. */
  fields: WrittenField[];
}

/** A value XML cannot carry (a control character), with the invoice-object field it is in. */
export class FieldWriteError extends XmlWriteError {
  /** Invoice-object path of the value, as `lines[2].name`. */
  readonly field: string;

  constructor(message: string, field: string) {
    super(`${message} (${field})`);
    this.name = "FieldWriteError";
    this.field = field;
  }
}

/** One written element and the invoice-object field its value came from. */
export interface WrittenField {
  /** The element's path, every step after the root with its 1-based position among same-named siblings: `/Invoice/cac:InvoiceLine[3]/cac:Price[1]/cbc:PriceAmount[1]`. */
  path: string;
  /** Invoice-object path, as `lines[2].net_price`. */
  field: string;
}

interface _Frame {
  path: string;
  counts: Map<string, number> | null;
}

/** An XmlWriter that can record, for each element written with a field name, the element's path and that field. */
export class TracingWriter {
  #w = new XmlWriter();
  #fields: WrittenField[] | null;
  #stack: _Frame[] = [];
  /** Prefix of the field names given to the next calls (`lines[2].`); set with `scope`. */
  #scope = "";

  constructor(trace: boolean) {
    this.#fields = trace ? [] : null;
  }

  /** The fields recorded so far; empty when not tracing. */
  get fields(): WrittenField[] {
    return this.#fields ?? [];
  }

  /** Sets the prefix of later field names and returns the previous one, for the caller to restore. */
  scope(prefix: string): string {
    const old = this.#scope;
    this.#scope = prefix;
    return old;
  }

  /** The current prefix of field names. */
  get prefix(): string {
    return this.#scope;
  }

  /** Opens an element; `field` names the invoice-object value (an object or list) it holds, "" the current scope. */
  open(name: string, attributes?: XmlAttributes, field?: string | null): this {
    this.#w.open(name, attributes);
    if (this.#fields !== null) {
      const path = this.#push(name);
      // An empty field names the scope itself (a line element, `lines[2]`).
      if (field !== undefined && field !== null) this.#fields.push({ path, field: field === "" ? this.#scope.slice(0, -1) : this.#scope + field });
    }
    return this;
  }

  close(): this {
    this.#w.close();
    if (this.#fields !== null) this.#stack.pop();
    return this;
  }

  /** Writes `<name>text</name>` unless `text` is null; `field` names where the text came from. */
  leaf(name: string, text: string | null | undefined, field: string | null, attributes?: XmlAttributes): this {
    if (text === null || text === undefined) return this;
    try {
      this.#w.leaf(name, text, attributes);
    } catch (e) {
      if (e instanceof XmlWriteError) throw new FieldWriteError(e.message, field === null ? `${this.#scope}${name}` : this.#scope + field);
      throw e;
    }
    if (this.#fields !== null) {
      const path = this.#push(name);
      this.#stack.pop();
      if (field !== null) this.#fields.push({ path, field: this.#scope + field });
    }
    return this;
  }

  toString(): string {
    return this.#w.toString();
  }

  #push(name: string): string {
    const parent = this.#stack[this.#stack.length - 1];
    let path: string;
    if (parent === undefined) path = `/${name}`;
    else {
      parent.counts ??= new Map();
      const n = (parent.counts.get(name) ?? 0) + 1;
      parent.counts.set(name, n);
      path = `${parent.path}/${name}[${n}]`;
    }
    this.#stack.push({ path, counts: null });
    return path;
  }
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
