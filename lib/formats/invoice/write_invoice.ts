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
    case "cii":
      throw new RangeError(`writeInvoice(): ${format} is not written yet`);
  }
}

/**
 * The invoice-object field written at `path` (an XML path as the validators report it, `/Faktura/Fa/FaWiersz[3]/P_9A`
 * or with prefixes and every position), or that of its nearest written ancestor; null when none matches.
 */
export function fieldAt(fields: readonly WrittenField[], path: string): string | null {
  const want = _normalize(path);
  let best: string | null = null;
  let bestLength = -1;
  for (const f of fields) {
    const p = _normalize(f.path);
    if ((want === p || want.startsWith(`${p}/`)) && p.length > bestLength) {
      best = f.field;
      bestLength = p.length;
    }
  }
  return best;
}

/** A path with prefixes dropped and `[1]` positions left out, so that both validators' forms compare equal. */
function _normalize(path: string): string {
  return path.split("/").map((step) => step.replace(/^[^:[]*:/, "").replace(/\[1\]$/, "")).join("/");
}
