/**
 * VAT point date codes (BR-CL-06): a subset of UNTDID 2005 in UBL, of UNTDID 2475 in CII.
 * Codes as the CEN/TC 434 validation artefacts 1.3.16 carry them (EUPL-1.2; see code_list.ts).
 * @module
 */
import { codeList } from "./code_list.ts";

/** UNTDID 2005 VAT point date code (3, 35 or 432) (3 codes). */
export const DATE_CODE_UBL = codeList(
  "UNTDID 2005 VAT point date code (3, 35 or 432)",
  "3 35 432",
);

/** UNTDID 2475 VAT point date code (5, 29 or 72) (3 codes). */
export const DATE_CODE_CII = codeList(
  "UNTDID 2475 VAT point date code (5, 29 or 72)",
  "5 29 72",
);
