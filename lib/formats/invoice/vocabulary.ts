/**
 * The closed vocabularies of README “Documents and the inbox”, declared once: the formats read and
 * the document types. Types derive from these lists, and so do the list
 * filters, the metadata reader, the OpenAPI enums and the storage codes.
 * @module
 */

/**
 * The XML formats read, in a fixed order (storage codes are positions in it, so a new format is appended):
 * KSeF FA(2), FA(3), UBL 2.1, CII D16B, KSeF FA_RR(1) (VAT RR invoices a buyer of farm produce issues) and
 * KSeF PEF(3)/PEF_KOR(3) (Peppol UBL 2.1 invoices and credit notes with KSeF's Polish extension).
 */
export const INVOICE_FORMATS = ["ksef-fa2", "ksef-fa3", "ubl", "cii", "ksef-fa-rr1", "ksef-pef3"] as const;

/** An XML format read (README “Documents and the inbox”). */
export type InvoiceFormat = (typeof INVOICE_FORMATS)[number];

/** The document types of README “Documents and the inbox”, in a fixed order (storage codes are positions in it). */
export const DOCUMENT_TYPES = ["invoice", "credit_note", "correction", "other"] as const;

/** A document type of README “Documents and the inbox” */
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The KSeF structured forms of the Ministry of Finance's own schemas: FA(2), FA(3) and FA_RR(1). */
export type KsefFormat = "ksef-fa2" | "ksef-fa3" | "ksef-fa-rr1";

/**
 * True for the KSeF forms of the Ministry's own schemas (FA(2), FA(3), FA_RR(1)): KSeF's file rules, Polish PDF
 * labels and KOD I apply, and a sending tenant sends them. PEF(3) is UBL: it reads and prints as UBL does.
 */
export function isKsefFormat(format: InvoiceFormat): format is KsefFormat {
  return format === "ksef-fa2" || format === "ksef-fa3" || format === "ksef-fa-rr1";
}

/** True for the formats read as UBL 2.1: plain UBL and KSeF's PEF(3)/PEF_KOR(3). */
export function isUblFormat(format: InvoiceFormat): format is "ubl" | "ksef-pef3" {
  return format === "ubl" || format === "ksef-pef3";
}

/** True when `value` is one of `list`. */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}
