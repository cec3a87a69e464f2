/**
 * UNTDID 1001 document type codes (BR-CL-01): UBL splits them by document, CII has one list.
 * Codes as the CEN/TC 434 validation artefacts 1.3.16 carry them (EUPL-1.2; see code_list.ts).
 * @module
 */
import { codeList } from "./code_list.ts";

/** UNTDID 1001 invoice type code (50 codes). */
export const UNTDID_1001_INVOICE_UBL = codeList(
  "UNTDID 1001 invoice type code",
  "71 80 81 82 84 102 130 202 203 204 211 218 219 295 325 326 331 380 382 383 384 385 386 387 388 389 390 393 394 " +
    "395 456 457 471 472 473 500 501 527 553 575 623 633 751 780 817 870 875 876 877 935",
);

/** UNTDID 1001 credit note type code (13 codes). */
export const UNTDID_1001_CREDIT_NOTE_UBL = codeList(
  "UNTDID 1001 credit note type code",
  "81 83 261 262 296 308 381 396 420 458 502 503 532",
);

/** UNTDID 1001 document type code (62 codes). */
export const UNTDID_1001_CII = codeList(
  "UNTDID 1001 document type code",
  "71 80 81 82 83 84 102 130 202 203 204 211 218 219 261 262 295 296 308 325 326 331 380 381 382 383 384 385 386 " +
    "387 388 389 390 393 394 395 396 420 456 457 458 471 472 473 500 501 502 503 527 532 553 575 623 633 751 780 " +
    "817 870 875 876 877 935",
);
