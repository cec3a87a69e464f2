/**
 * The `invoice` object of the document and submission JSON (README “The invoice object”): the
 * invoice model as it is, keys in the model's order. Kept in one place so the
 * document route, the submission route, the list pages and the tests agree.
 * @module
 */
import type { Invoice } from "../../formats/invoice/model.ts";

/**
 * The version of the `invoice` object's shape. Large invoices' JSON is kept as a derived blob named by it and the
 * XML's SHA-256 (lib/api/invoice_expand.ts): change it whenever the model or this function changes what the JSON
 * says, so that kept JSON of the old shape is never served again.
 */
export const INVOICE_JSON_VERSION = 2;

/** The JSON text of the `invoice` object. */
export function invoiceJson(inv: Invoice): string {
  return JSON.stringify(inv);
}
