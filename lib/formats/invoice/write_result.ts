/**
 * What an invoice writer takes and returns (README "Creating invoices"): the XML it wrote, the values of the invoice
 * object it found no place for in the target format, so that a conversion lists them instead of dropping them
 * silently, and, traced, the invoice-object field of each written element (write_trace.ts).
 * @module
 */

import type { WrittenField } from "./write_trace.ts";

/** A value of the invoice object that the target format has no place for. */
export interface WriteLoss {
  /** The invoice-object path of the value (`invoice.lines[2].description`). */
  field: string;
  value: string;
  reason: string;
}

/** The written XML and what did not fit in it. */
export interface WriteResult {
  xml: string;
  losses: WriteLoss[];
}

/** Options every invoice writer takes. */
export interface WriteOptions {
  /** Record which invoice-object field each written element came from (`fields` of the result). */
  trace?: boolean;
}

/** The written XML, what did not fit in it and, traced, where each written value came from. */
export interface TracedWriteResult extends WriteResult {
  /** Empty unless `trace` was asked. */
  fields: WrittenField[];
}
