/**
 * From invoice XML bytes to the invoice model, with every failure as a 422
 * VALIDATION_ERROR: well-formedness errors name the line and column, an
 * unsupported root names its namespace. Shared by sync and submissions.
 * @module
 */
import type { Invoice } from "./model.ts";
import { readInvoice } from "./read.ts";
import { XmlError, xmlErrorToApiError } from "../xml/errors.ts";
import { parseXml } from "../xml/parse.ts";

/** The invoice in `xml`; throws ApiError 422 when it cannot be read. */
export function readInvoiceXml(xml: Uint8Array): Invoice {
  let doc;
  try {
    doc = parseXml(xml);
  } catch (e) {
    if (e instanceof XmlError) throw xmlErrorToApiError(e);
    throw e;
  }
  return readInvoice(doc);
}
