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
import type { WriteResult } from "./write_result.ts";
import type { WrittenField } from "./write_trace.ts";
import { writeUbl } from "./ubl_write.ts";
import { writeCii } from "./cii_write.ts";

export { fieldAt } from "./ubl_cii_write_trace.ts";

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
export interface WrittenInvoice extends WriteResult {
  fields: readonly WrittenField[];
}

/** Writes `invoice` in `format`. */
export function writeInvoice(invoice: Invoice, format: WrittenFormat, options: WriteInvoiceOptions = {}): WrittenInvoice {
  switch (format) {
    case "ksef-fa3":
      return writeKsefFa3(invoice, options);
    case "ubl":
    case "cii": {
      const r = (format === "ubl" ? writeUbl : writeCii)(invoice, { trace: options.trace === true });
      // The UBL and CII writers name fields from the invoice (`lines[2].net_price`); callers see `invoice.…`.
      return {
        xml: r.xml, losses: r.losses.map((l) => ({ ...l, field: rootedField(l.field) })), fields: r.fields.map((f) => ({ path: f.path, field: rootedField(f.field) })),
      };
    }
  }
}

/** `field` as a path from the invoice object (`invoice.lines[2].net_price`). */
export function rootedField(field: string): string {
  return field === "invoice" || field.startsWith("invoice.") ? field : field === "" ? "invoice" : `invoice.${field}`;
}
