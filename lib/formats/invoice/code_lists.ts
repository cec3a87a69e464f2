/**
 * The code lists the invoice model maps to readable English text: UNTDID 1001
 * (document types, EN 16931 subset), UNCL4461 (payment means), UNCL5305 (VAT
 * categories), and KSeF FA(2)/FA(3) lists (RodzajFaktury, FormaPlatnosci, Podmiot3
 * Rola, TypKorekty…, from the XSD's enumerations). A code outside a list keeps
 * its value with `text: null`; nothing here rejects a code.
 * @module
 */

import type { Code } from "./model.ts";

/** UNTDID 1001 document name codes used by EN 16931 (invoice and credit note subsets). */
export const UNTDID_1001 = {
  "71": "Request for payment",
  "80": "Debit note related to goods or services",
  "81": "Credit note related to goods or services",
  "82": "Metered services invoice",
  "83": "Credit note related to financial adjustments",
  "84": "Debit note related to financial adjustments",
  "102": "Tax notification",
  "130": "Invoicing data sheet",
  "202": "Direct payment valuation",
  "203": "Provisional payment valuation",
  "204": "Payment valuation",
  "211": "Interim application for payment",
  "218": "Final payment request based on completion of work",
  "219": "Payment request for completed units",
  "261": "Self billed credit note",
  "262": "Consolidated credit note - goods and services",
  "295": "Price variation invoice",
  "296": "Credit note for price variation",
  "308": "Delcredere credit note",
  "325": "Proforma invoice",
  "326": "Partial invoice",
  "331": "Commercial invoice which includes a packing list",
  "380": "Commercial invoice",
  "381": "Credit note",
  "382": "Commission note",
  "383": "Debit note",
  "384": "Corrected invoice",
  "385": "Consolidated invoice",
  "386": "Prepayment invoice",
  "387": "Hire invoice",
  "388": "Tax invoice",
  "389": "Self-billed invoice",
  "390": "Delcredere invoice",
  "393": "Factored invoice",
  "394": "Lease invoice",
  "395": "Consignment invoice",
  "396": "Factored credit note",
  "420": "Optical Character Reading (OCR) payment credit note",
  "456": "Debit advice",
  "457": "Reversal of debit",
  "458": "Reversal of credit",
  "527": "Self billed debit note",
  "532": "Forwarder's credit note",
  "553": "Forwarder's invoice discrepancy report",
  "575": "Insurer's invoice",
  "623": "Forwarder's invoice",
  "633": "Port charges documents",
  "751": "Invoice information for accounting purposes",
  "780": "Freight invoice",
  "817": "Claim notification",
  "870": "Consular invoice",
  "875": "Partial construction invoice",
  "876": "Partial final construction invoice",
  "877": "Final construction invoice",
  "935": "Customs invoice",
} as const;

/** UNCL4461 payment means codes (EN 16931 subset). */
export const UNCL_4461 = {
  "1": "Instrument not defined",
  "10": "In cash",
  "20": "Cheque",
  "30": "Credit transfer",
  "31": "Debit transfer",
  "42": "Payment to bank account",
  "48": "Bank card",
  "49": "Direct debit",
  "57": "Standing agreement",
  "58": "SEPA credit transfer",
  "59": "SEPA direct debit",
  "68": "Online payment service",
  "97": "Clearing between partners",
  "ZZZ": "Mutually defined",
} as const;

/** UNCL5305 duty or tax category codes (EN 16931 subset). */
export const UNCL_5305 = {
  S: "Standard rate",
  Z: "Zero rated goods",
  E: "Exempt from tax",
  AE: "VAT Reverse Charge",
  K: "VAT exempt for EEA intra-community supply of goods and services",
  G: "Free export item, tax not charged",
  O: "Services outside scope of tax",
  L: "Canary Islands general indirect tax",
  M: "Tax for production, services and importation in Ceuta and Melilla",
  B: "Transferred (VAT), Italy",
} as const;

/** UNCL5189 allowance reason codes (EN 16931 subset). */
export const UNCL_5189 = {
  "41": "Bonus for works ahead of schedule",
  "42": "Other bonus",
  "60": "Manufacturer's consumer discount",
  "62": "Due to military status",
  "63": "Due to work accident",
  "64": "Special agreement",
  "65": "Production error discount",
  "66": "New outlet discount",
  "67": "Sample discount",
  "68": "End-of-range discount",
  "70": "Incoterm discount",
  "71": "Point of sales threshold allowance",
  "88": "Material surcharge/deduction",
  "95": "Discount",
  "100": "Special rebate",
  "102": "Fixed long term",
  "103": "Temporary",
  "104": "Standard",
  "105": "Yearly turnover",
} as const;

/** KSeF RodzajFaktury (TRodzajFaktury, FA(2) and FA(3)). */
export const KSEF_INVOICE_KINDS = {
  VAT: "VAT invoice",
  KOR: "Correction invoice",
  ZAL: "Advance payment invoice",
  ROZ: "Settlement invoice (after advance payments)",
  UPR: "Simplified invoice",
  KOR_ZAL: "Correction of an advance payment invoice",
  KOR_ROZ: "Correction of a settlement invoice",
} as const;

/** KSeF FormaPlatnosci (TFormaPlatnosci). */
export const KSEF_PAYMENT_FORMS = {
  "1": "Cash",
  "2": "Card",
  "3": "Voucher",
  "4": "Cheque",
  "5": "Credit",
  "6": "Bank transfer",
  "7": "Mobile payment",
} as const;

/** KSeF Podmiot3 Rola (TRolaPodmiotu3; 11 is FA(3) only). */
export const KSEF_THIRD_PARTY_ROLES = {
  "1": "Factor",
  "2": "Recipient (internal unit of the buyer)",
  "3": "Original entity (taken over or transformed)",
  "4": "Additional buyer",
  "5": "Invoice issuer on behalf of the taxpayer",
  "6": "Payer (pays instead of the buyer)",
  "7": "Local government unit - issuer",
  "8": "Local government unit - recipient",
  "9": "VAT group member - issuer",
  "10": "VAT group member - recipient",
  "11": "Employee",
} as const;

/** KSeF RolaPU of PodmiotUpowazniony (TRolaPodmiotuUpowaznionego). */
export const KSEF_AUTHORIZED_ROLES = {
  "1": "Enforcement authority (art. 106c pkt 1)",
  "2": "Court bailiff (art. 106c pkt 2)",
  "3": "Tax representative (art. 18a-18d)",
} as const;

/** KSeF StatusInfoPodatnika (TStatusInfoPodatnika). */
export const KSEF_TAXPAYER_STATUS = {
  "1": "In liquidation",
  "2": "In restructuring proceedings",
  "3": "In bankruptcy",
  "4": "Enterprise in inheritance",
} as const;

/** KSeF TypKorekty (TTypKorekty). */
export const KSEF_CORRECTION_TYPES = {
  "1": "Effective on the date of the original invoice",
  "2": "Effective on the date of the correction invoice",
  "3": "Effective on another date",
} as const;

/** KSeF FA_RR(1) RodzajFaktury (TRodzajFaktury of schemat_FA_RR(1)_v1-1E.xsd). */
export const KSEF_RR_INVOICE_KINDS = {
  VAT_RR: "VAT RR invoice (farm produce bought from a flat-rate farmer)",
  KOR_VAT_RR: "Correction of a VAT RR invoice",
} as const;

/** KSeF FA_RR(1) FormaPlatnosci (its TFormaPlatnosci has one entry: art. 116 ust. 6 requires payment by transfer). */
export const KSEF_RR_PAYMENT_FORMS = {
  "1": "Bank transfer",
} as const;

/** KSeF FA_RR(1) TypKorekty (TTypKorekty: FA's three and a fourth). */
export const KSEF_RR_CORRECTION_TYPES = {
  ...KSEF_CORRECTION_TYPES,
  "4": "Effective on the date the amount due is refunded in whole or in part",
} as const;

/** KSeF RachunekWlasnyBanku (TRachunekWlasnyBanku). */
export const KSEF_BANK_OWN_ACCOUNTS = {
  "1": "Bank account for settling receivables acquired by the bank",
  "2": "Bank account collecting the buyer's payment for the supplier",
  "3": "Bank's own account, not a settlement account",
} as const;

/** KSeF ZnacznikZaplatyCzesciowej. */
export const KSEF_PARTIAL_PAYMENT_MARKS = {
  "1": "Paid in part",
  "2": "Paid in full in two or more parts",
} as const;

/** KSeF RodzajTransportu (TRodzajTransportu). */
export const KSEF_TRANSPORT_KINDS = {
  "1": "Maritime transport",
  "2": "Rail transport",
  "3": "Road transport",
  "4": "Air transport",
  "5": "Postal consignment",
  "7": "Fixed transport installations",
  "8": "Inland waterway transport",
} as const;

/** KSeF OpisLadunku (TLadunek). */
export const KSEF_CARGO_KINDS = {
  "1": "Can", "2": "Barrel", "3": "Cylinder", "4": "Carton", "5": "Canister", "6": "Cage",
  "7": "Container", "8": "Basket", "9": "Chip basket", "10": "Multipack", "11": "Parcel",
  "12": "Package", "13": "Pallet", "14": "Receptacle", "15": "Bulk container, solid",
  "16": "Bulk container, liquid", "17": "Box", "18": "Tin", "19": "Crate", "20": "Sack",
} as const;

/** KSeF margin schemes of PMarzy (the element that is 1 names the scheme). */
export const KSEF_MARGIN_SCHEMES = {
  P_PMarzy_2: "Travel agencies",
  P_PMarzy_3_1: "Second-hand goods",
  P_PMarzy_3_2: "Works of art",
  P_PMarzy_3_3: "Collectors' items and antiques",
} as const;

/** KSeF P_12 rates that are not numbers (TStawkaPodatku). */
export const KSEF_VAT_RATE_TEXTS = {
  "0 KR": "0 % domestic supply",
  "0 WDT": "0 % intra-Community supply of goods",
  "0 EX": "0 % export of goods",
  zw: "Exempt",
  oo: "Domestic reverse charge",
  "np I": "Not taxable in Poland: supply outside the country",
  "np II": "Not taxable in Poland: services of art. 100 ust. 1 pkt 4",
  OSS: "Special procedure OSS (rates of other member states)",
  "marża": "Margin scheme",
} as const;

/** A code with the text `list` gives it; null for a null code. */
export function codeOf(list: Readonly<Record<string, string>>, code: string | null): Code | null {
  if (code === null) return null;
  return { code, text: Object.hasOwn(list, code) ? (list[code] as string) : null };
}

/**
 * BT-8, the VAT point date code, as UBL writes it (UNTDID 2005: 3 invoice date, 35 delivery date, 432 payment
 * date) and as CII writes it (UNTDID 2475: 5, 29, 72), per EN 16931-3-2 and -3-3: one table, read both ways.
 */
export const VAT_POINT_UBL_TO_CII: Readonly<Record<string, string>> = { "3": "5", "35": "29", "432": "72" };
/** The same table from CII's code to UBL's. */
export const VAT_POINT_CII_TO_UBL: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(VAT_POINT_UBL_TO_CII).map(([ubl, cii]) => [cii, ubl]),
);
