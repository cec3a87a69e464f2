/**
 * UNTDID 4461 payment means codes (BR-CL-16).
 * Codes as the CEN/TC 434 validation artefacts 1.3.16 carry them (EUPL-1.2; see code_list.ts).
 * @module
 */
import { codeList } from "./code_list.ts";

/** UNTDID 4461 payment means code (84 codes). */
export const UNTDID_4461 = codeList(
  "UNTDID 4461 payment means code",
  "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 " +
    "41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 74 75 76 77 78 91 92 " +
    "93 94 95 96 97 98 ZZZ",
);
