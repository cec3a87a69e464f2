/**
 * VAT category codes, the EN 16931 subset of UNTDID 5305 (BR-CL-17, BR-CL-18).
 * Codes as the CEN/TC 434 validation artefacts 1.3.16 carry them (EUPL-1.2; see code_list.ts).
 * @module
 */
import { codeList } from "./code_list.ts";

/** UNTDID 5305 VAT category code (EN 16931 subset) (10 codes). */
export const VAT_CATEGORIES = codeList(
  "UNTDID 5305 VAT category code (EN 16931 subset)",
  "AE L M E S Z G O K B",
);
