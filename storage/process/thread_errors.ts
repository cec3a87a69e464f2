/**
 * Errors across the invoice threads (invoice_worker.ts → invoice_workers.ts): a thread posts what it threw as
 * plain data (its class, message, stack and own fields), and the main thread rebuilds an error of the same class
 * with the same fields. So an XmlError or InvoiceError of a thread is the 422 it is in-process, and a bug in a
 * thread (a RangeError, a TypeError) stays that bug, logged with the thread's own stack, not a bare Error whose
 * stack points at the rebuilding. Structured clone alone keeps only the built-in classes, and no fields.
 * @module
 */
import { InvoiceError } from "../../lib/formats/invoice/errors.ts";
import { MultipartError } from "../../lib/formats/multipart/errors.ts";
import { XmlError } from "../../lib/formats/xml/errors.ts";
import { XsdCompileError } from "../../lib/formats/xsd/compile.ts";
import { XsdRegexError } from "../../lib/formats/xsd/regex.ts";
import { ZipError } from "../../lib/formats/zip/read.ts";
import { StorageUnavailableError } from "../../lib/contracts/storage_errors.ts";

/** An error as a thread posts it. */
export interface ThreadError {
  /** The class's name (XmlError, RangeError, …), which `name` need not be. */
  kind: string;
  name: string;
  message: string;
  stack?: string | undefined;
  /** The error's own fields (XmlError's line and column, InvoiceError's field and issue, …). */
  fields: Record<string, unknown>;
}

/** The classes rebuilt as themselves: the formats' errors, the contracts', and JavaScript's own. */
const KINDS: Record<string, { prototype: Error }> = {
  XmlError, InvoiceError, MultipartError, ZipError, XsdRegexError, XsdCompileError, StorageUnavailableError,
  Error, RangeError, TypeError, SyntaxError, ReferenceError, EvalError, URIError,
};

/** What a thread posts for `e`: only data that structured clone carries (a field it cannot is left out). */
export function describeThreadError(e: unknown): ThreadError {
  if (!(e instanceof Error)) return { kind: "Error", name: "Error", message: String(e), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(e)) {
    if (key === "name" || key === "message" || key === "stack") continue;
    try {
      fields[key] = structuredClone(value);
    } catch {
      // A function or a handle: not part of what the error says.
    }
  }
  return { kind: e.constructor.name, name: e.name, message: e.message, stack: e.stack, fields };
}

/**
 * The error a thread described, of its class when it is one of KINDS (made without its constructor, so every
 * field comes back as the thread had it); of a class not known here, an Error with its name and message.
 */
export function rebuildThreadError(d: ThreadError): Error {
  const kind = Object.hasOwn(KINDS, d.kind) ? KINDS[d.kind]! : Error;
  const e = Object.create(kind.prototype) as Error;
  Object.defineProperty(e, "message", { value: d.message, writable: true, configurable: true });
  Object.assign(e, d.fields);
  if (e.name !== d.name) e.name = d.name;
  if (d.stack !== undefined) Object.defineProperty(e, "stack", { value: d.stack, writable: true, configurable: true });
  return e;
}
