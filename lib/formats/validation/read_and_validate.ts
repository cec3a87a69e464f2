/**
 * An upload read and validated from one parse (README "Validation"): the invoice model and the verdict on it come
 * from the same tree, so an upload costs one parse, not two. A worker thread runs it whole and hands both back.
 * The verdict alone (verdictOf) is given also for an invoice the reader refuses, as long as its format is supported.
 * @module
 */
import type { Invoice } from "../invoice/model.ts";
import { readInvoice } from "../invoice/read.ts";
import { parseXml } from "../xml/parse.ts";
import { formatOf, type ValidationReport, validateInvoice } from "./invoice_validation.ts";
import type { SchemaSet } from "./schema_set.ts";

/** The invoice of an upload, without its lines, and the verdict on it. */
export interface CheckedInvoice {
  /**
   * Read without the lines: an upload needs its fields, and the verdict is on the tree. A thread hands back a few
   * hundred bytes instead of every line (a long invoice's model costs the main thread more to receive than to use).
   */
  invoice: Invoice;
  report: ValidationReport;
}

/** Reads and validates `xml`; throws XmlError or InvoiceError when it is not a readable invoice of a supported format. */
export function readAndValidate(xml: Uint8Array, schemas: SchemaSet | null): CheckedInvoice {
  const doc = parseXml(xml);
  const invoice = readInvoice(doc, { lines: false });
  return { invoice, report: validateInvoice(xml, doc, formatOf(doc.root) ?? invoice.format, schemas) };
}

/** The verdict on `xml`; throws XmlError when it is not well-formed, the reader's InvoiceError when its format is not supported. */
export function verdictOf(xml: Uint8Array, schemas: SchemaSet | null): ValidationReport {
  const doc = parseXml(xml);
  const format = formatOf(doc.root) ?? readInvoice(doc).format; // the reader throws its own "unsupported format" error
  return validateInvoice(xml, doc, format, schemas);
}
