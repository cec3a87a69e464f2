/**
 * How stores evaluate document filters and sort keys on compact columns: codes
 * for the closed vocabularies, day numbers for dates. Shared by the file and
 * memory stores so that both agree to the byte.
 * @module
 */
import { DOCUMENT_TYPES, INVOICE_FORMATS } from "../formats/invoice/vocabulary.ts";
import type { DocumentFilter, DocumentRecord } from "./storage.ts";

/** Column code of a document type: its position in DOCUMENT_TYPES plus one (0 is null). */
export const TYPE_CODES = _codes(DOCUMENT_TYPES);
/** Column code of a format: its position in INVOICE_FORMATS plus one (0 is null). */
export const FORMAT_CODES = _codes(INVOICE_FORMATS);

/** A packing of a document's type, format and xml_available codes into one small number, and back. */
export interface PackedCodes {
  /** How many packed codes there are: each is in [0, size). */
  readonly size: number;
  pack(type: number, format: number, xml: number): number;
  unpack(code: number): { type: number; format: number; xml: number };
}

/**
 * The packing for `types` document types and `formats` formats (codes 0 for null, then 1…n):
 * type + (types + 1) × (format + (formats + 1) × xml). Derived from the vocabularies' sizes, so that a new format
 * or type widens the code space instead of colliding with the codes of others.
 */
export function packedCodes(types: number, formats: number): PackedCodes {
  const t = types + 1, f = formats + 1;
  return {
    size: t * f * 2,
    pack: (type, format, xml) => type + t * (format + f * xml),
    unpack: (code) => ({ type: code % t, format: Math.floor(code / t) % f, xml: Math.floor(code / (t * f)) }),
  };
}

/** The packed codes of the vocabularies of formats/invoice/vocabulary.ts (the file store's filter index uses them). */
export const DOCUMENT_CODES: PackedCodes = packedCodes(DOCUMENT_TYPES.length, INVOICE_FORMATS.length);

/** The day number that stands for a missing date. */
export const NULL_DAY = -2147483648;

/** Days since 1970-01-01 of a YYYY-MM-DD date, or NULL_DAY. */
export function dayNumber(date: string | null | undefined): number {
  if (!date) return NULL_DAY;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) ? NULL_DAY : Math.floor(ms / 86_400_000);
}

/** True when a document record passes a filter (the exact check). */
export function matchesFilter(d: DocumentRecord, f: DocumentFilter): boolean {
  if (f.type !== undefined && d.type !== f.type) return false;
  if (f.format !== undefined && d.format !== f.format) return false;
  if (f.xml_available !== undefined && d.xml_available !== f.xml_available) return false;
  if (f.seller_tax_id !== undefined && d.seller?.tax_id !== f.seller_tax_id) return false;
  if (f.buyer_tax_id !== undefined && d.buyer?.tax_id !== f.buyer_tax_id) return false;
  if (f.ksef_number !== undefined && (d.ksef_number ?? null) !== f.ksef_number) return false;
  if (f.issue_date_from !== undefined && (d.issue_date === null || d.issue_date < f.issue_date_from)) return false;
  if (f.issue_date_to !== undefined && (d.issue_date === null || d.issue_date > f.issue_date_to)) return false;
  return true;
}

function _codes<T extends string>(list: readonly T[]): Readonly<Record<T, number>> {
  return Object.fromEntries(list.map((v, i) => [v, i + 1])) as Record<T, number>;
}
