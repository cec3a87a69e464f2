/**
 * The closed vocabularies of README “Documents and the inbox”, declared once: the formats read and
 * the document types. Types derive from these lists, and so do the list
 * filters, the metadata reader, the OpenAPI enums and the storage codes.
 * @module
 */

/** The XML formats read, in a fixed order (storage codes are positions in it). */
export const INVOICE_FORMATS = ["ksef-fa2", "ksef-fa3", "ubl", "cii"] as const;

/** An XML format read (README “Documents and the inbox”). */
export type InvoiceFormat = (typeof INVOICE_FORMATS)[number];

/** The document types of README “Documents and the inbox”, in a fixed order (storage codes are positions in it). */
export const DOCUMENT_TYPES = ["invoice", "credit_note", "correction", "other"] as const;

/** A document type of README “Documents and the inbox” */
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** True for the KSeF formats FA(2) and FA(3). */
export function isKsefFormat(format: InvoiceFormat): format is "ksef-fa2" | "ksef-fa3" {
  return format === "ksef-fa2" || format === "ksef-fa3";
}

/** True when `value` is one of `list`. */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}
