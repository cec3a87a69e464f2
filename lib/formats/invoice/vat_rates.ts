/**
 * One table for the two ways invoices say a VAT rate: KSeF's `P_12` codes (FA(3) TStawkaPodatku: "23", "0 KR",
 * "zw", "oo", "np I"…) and EN 16931's category (UNCL5305, BT-151/BT-118) with a percentage (BT-152/BT-119). Read
 * both ways: creating an invoice and converting between formats use it, so the mapping is written once. The
 * FA(3) schema's documentation of `P_12` and of the `P_13_x` fields is the source; README "Creating invoices"
 * has the table.
 * @module
 */

/** A KSeF rate with its EN 16931 category, percentage and the FA(3) summary fields it is added into. */
export interface KsefRate {
  /** FA(3) `P_12` as written. */
  code: string;
  /** UNCL5305 category. */
  category: string;
  /** EN 16931 percentage; null where EN 16931 gives none (category O). */
  percent: string | null;
  /** The FA(3) net field (`P_13_1`); the tax field is `P_14_1` where `tax` is set, its PLN amount `P_14_1W`. */
  net: string;
  tax: string | null;
}

/** FA(3) `P_12` values in the schema's order. */
export const KSEF_RATES: readonly KsefRate[] = [
  { code: "23", category: "S", percent: "23", net: "P_13_1", tax: "P_14_1" },
  { code: "22", category: "S", percent: "22", net: "P_13_1", tax: "P_14_1" },
  { code: "8", category: "S", percent: "8", net: "P_13_2", tax: "P_14_2" },
  { code: "7", category: "S", percent: "7", net: "P_13_2", tax: "P_14_2" },
  { code: "5", category: "S", percent: "5", net: "P_13_3", tax: "P_14_3" },
  // The flat rate for passenger taxis (ryczałt dla taksówek osobowych).
  { code: "4", category: "S", percent: "4", net: "P_13_4", tax: "P_14_4" },
  { code: "3", category: "S", percent: "3", net: "P_13_4", tax: "P_14_4" },
  // 0 % at home, on intra-community supplies (WDT) and on exports: EN 16931's Z, K and G.
  { code: "0 KR", category: "Z", percent: "0", net: "P_13_6_1", tax: null },
  { code: "0 WDT", category: "K", percent: "0", net: "P_13_6_2", tax: null },
  { code: "0 EX", category: "G", percent: "0", net: "P_13_6_3", tax: null },
  { code: "zw", category: "E", percent: "0", net: "P_13_7", tax: null },
  // Reverse charge: the buyer accounts for the VAT.
  { code: "oo", category: "AE", percent: "0", net: "P_13_10", tax: null },
  // Not taxable in Poland: supplies abroad, and the services of art. 100 ust. 1 pkt 4.
  { code: "np I", category: "O", percent: null, net: "P_13_8", tax: null },
  { code: "np II", category: "O", percent: null, net: "P_13_9", tax: null },
];

const _BY_CODE = new Map(KSEF_RATES.map((r) => [r.code, r]));
/** The KSeF code an EN 16931 category other than S stands for (O: "np I", the general case). */
const _CODE_OF_CATEGORY: Readonly<Record<string, string>> = { Z: "0 KR", K: "0 WDT", G: "0 EX", E: "zw", AE: "oo", O: "np I" };

/** The row of a FA(3) `P_12` value; undefined for a value FA(3) does not have. */
export function ksefRate(code: string): KsefRate | undefined {
  return _BY_CODE.get(code);
}

/**
 * The FA(3) `P_12` for an EN 16931 category and percentage: S with 23, 22, 8, 7, 5, 4 or 3 %; Z, K, G, E, AE and O
 * by their category. Null when FA(3) cannot express it (another standard rate, categories L, M, B).
 */
export function ksefRateOf(category: string, percent: string | null): string | null {
  if (category === "S") {
    if (percent === null) return null;
    const row = _BY_CODE.get(_plainPercent(percent));
    return row?.category === "S" ? row.code : null;
  }
  return _CODE_OF_CATEGORY[category] ?? null;
}

/** "23.00" → "23", "8.0" → "8": EN 16931 writes percentages with decimals, KSeF without. */
function _plainPercent(p: string): string {
  return p.includes(".") ? p.replace(/\.?0+$/, "") : p;
}
