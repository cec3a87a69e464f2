/**
 * The `invoice` object of the document and submission JSON (README “The invoice object”): the
 * invoice model as it is, keys in the model's order. Kept in one place so the
 * document route, the submission route, the list pages and the tests agree.
 * @module
 */
import type { Invoice } from "../../formats/invoice/model.ts";

/** The JSON text of the `invoice` object. */
export function invoiceJson(inv: Invoice): string {
  return JSON.stringify(inv);
}
