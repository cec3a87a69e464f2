/**
 * From invoice XML bytes to the invoice model. Failures are the formats' own
 * errors: XmlError (with line and column) when the bytes are not well-formed,
 * InvoiceError when the root is not a supported format. Shared by sync,
 * submissions and the PDF rendering.
 * @module
 */
import type { Invoice } from "./model.ts";
import { readInvoice, type ReadOptions } from "./read.ts";
import { parseXml } from "../xml/parse.ts";

/** The invoice in `xml`; throws XmlError or InvoiceError when it cannot be read. */
export function readInvoiceXml(xml: Uint8Array, options: ReadOptions = {}): Invoice {
  return readInvoice(parseXml(xml), options);
}
