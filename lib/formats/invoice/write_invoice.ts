/**
 * One entry to the invoice writers (README "Creating invoices"): the invoice object written as FA(3), UBL or CII,
 * with the values the format has no place for and, traced, the invoice-object field of each written element. The
 * object is written as it is: computing what follows from its values (compute.ts) and mapping another format's
 * terms (convert.ts) come first.
 * @module
 */
import type { WrittenFormat } from "./compute.ts";
import { writeKsefFa3 } from "./ksef_write.ts";
import type { Invoice } from "./model.ts";
import type { TracedWriteResult } from "./write_result.ts";
import { writeUbl } from "./ubl_write.ts";
import { writeCii } from "./cii_write.ts";

export { fieldAt } from "./write_trace.ts";

/** The formats written, in the order the API lists them. */
export const WRITTEN_FORMATS = ["ksef-fa3", "ubl", "cii"] as const satisfies readonly WrittenFormat[];

/** Options of writeInvoice. */
export interface WriteInvoiceOptions {
  /** When the XML is made: FA(3)'s DataWytworzeniaFa (formats/ never read a clock). */
  now?: Date;
  /** Record the invoice-object field of each written element. */
  trace?: boolean;
}

/** The written XML, what did not fit, and (traced) where each value went. */
export type WrittenInvoice = TracedWriteResult;

/** Writes `invoice` in `format`; every writer names fields from the invoice object (`invoice.lines[2].net_price`). */
export function writeInvoice(invoice: Invoice, format: WrittenFormat, options: WriteInvoiceOptions = {}): WrittenInvoice {
  switch (format) {
    case "ksef-fa3":
      return writeKsefFa3(invoice, options);
    case "ubl":
      return writeUbl(invoice, { trace: options.trace === true });
    case "cii":
      return writeCii(invoice, { trace: options.trace === true });
  }
}
