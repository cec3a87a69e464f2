/**
 * UNTDID 5189 allowance reason codes (BR-CL-19).
 * Codes as the CEN/TC 434 validation artefacts 1.3.16 carry them (EUPL-1.2; see code_list.ts).
 * @module
 */
import { codeList } from "./code_list.ts";

/** UNTDID 5189 allowance reason code (19 codes). */
export const UNTDID_5189 = codeList(
  "UNTDID 5189 allowance reason code",
  "41 42 60 62 63 64 65 66 67 68 70 71 88 95 100 102 103 104 105",
);
