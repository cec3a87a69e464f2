/**
 * Maps a format's document type code to the API's document type (README “Documents and the inbox”):
 * KSeF RodzajFaktury, and UNTDID 1001 codes as used by UBL and CII. The codes
 * are the EN 16931 / Peppol BIS 3 code list subsets; an unknown code is "other".
 * @module
 */

import type { DocumentType } from "./model.ts";

/** UNTDID 1001 commercial invoice codes (EN 16931 code list, Peppol BIS 3 invoice type codes). */
const INVOICE_CODES: ReadonlySet<string> = new Set([
  "71", "80", "82", "84", "102", "218", "219", "326", "331", "380", "382", "383", "386", "388", "389",
  "390", "393", "394", "395", "456", "527", "553", "575", "623", "633", "751", "780", "817", "870",
  "875", "876", "877", "935",
]);

/** UNTDID 1001 credit note codes (EN 16931 code list; Peppol BIS 3 allows 81, 83, 381, 396, 532). */
const CREDIT_NOTE_CODES: ReadonlySet<string> = new Set([
  "81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532",
]);

/** UNTDID 1001 384 "Corrected invoice". */
const CORRECTION_CODE = "384";

/** The document type for a UNTDID 1001 code; null (no code) gives `fallback`. */
export function documentTypeFromCode(code: string | null, fallback: DocumentType): DocumentType {
  if (code === null) return fallback;
  if (INVOICE_CODES.has(code)) return "invoice";
  if (CREDIT_NOTE_CODES.has(code)) return "credit_note";
  if (code === CORRECTION_CODE) return "correction";
  return "other";
}

/** The document type for a KSeF RodzajFaktury (FA(2) and FA(3) share the list). */
export function documentTypeFromKsef(rodzaj: string | null): DocumentType {
  switch (rodzaj) {
    case "VAT":
    case "ZAL":
    case "ROZ":
    case "UPR":
      return "invoice";
    case "KOR":
    case "KOR_ZAL":
    case "KOR_ROZ":
      return "correction";
    default:
      return "other";
  }
}
