/**
 * Polish and English wording of the printed invoice: labels, document titles by KSeF
 * RodzajFaktury or UNCL1001 type code, payment means (KSeF FormaPlatnosci, UNCL4461) and
 * common UN/ECE Recommendation 20 unit codes. Codes without a name are printed as written.
 * @module
 */

import type { Invoice } from "../invoice/model.ts";
import { isKsefFormat } from "../invoice/vocabulary.ts";
import type { Lang } from "./format.ts";

/** Every fixed text on the page. */
export interface Labels {
  issueDate: string; saleDate: string; currency: string; format: string; number: string;
  seller: string; buyer: string; taxId: string; email: string;
  correctedInvoice: string; correctedInvoices: string; ksefNumber: string; dated: string; correctionReason: string;
  lineNo: string; name: string; quantity: string; unit: string; unitPriceNet: string; unitPriceGross: string;
  unitPriceMixed: string; amountNet: string; amountGross: string; amountMixed: string; vatRate: string;
  beforeCorrection: string; afterCorrection: string;
  vatSummary: string; net: string; vat: string; gross: string;
  totalNet: string; totalTax: string; totalGross: string; payable: string;
  payment: string; dueDate: string; means: string; account: string; bank: string; terms: string;
  notes: string; qrTitle: string; qrCaption: string;
}

/** The labels of each language. */
export const LABELS: Record<Lang, Labels> = {
  pl: {
    issueDate: "Data wystawienia", saleDate: "Data sprzedaży", currency: "Waluta", format: "Format", number: "Nr",
    seller: "Sprzedawca", buyer: "Nabywca", taxId: "NIP", email: "E-mail",
    correctedInvoice: "Faktura korygowana", correctedInvoices: "Faktury korygowane", ksefNumber: "Nr KSeF", dated: "z dnia",
    correctionReason: "Przyczyna korekty",
    lineNo: "Lp.", name: "Nazwa towaru lub usługi", quantity: "Ilość", unit: "J.m.", unitPriceNet: "Cena jedn. netto",
    unitPriceGross: "Cena jedn. brutto", unitPriceMixed: "Cena jedn. netto / brutto", amountNet: "Wartość netto", amountGross: "Wartość brutto",
    amountMixed: "Wartość netto / brutto", vatRate: "Stawka VAT",
    beforeCorrection: "przed korektą", afterCorrection: "po korekcie",
    vatSummary: "Podsumowanie VAT", net: "Netto", vat: "VAT", gross: "Brutto",
    totalNet: "Razem netto", totalTax: "Razem VAT", totalGross: "Razem brutto", payable: "Do zapłaty",
    payment: "Płatność", dueDate: "Termin płatności", means: "Forma płatności", account: "Numer rachunku", bank: "Bank",
    terms: "Warunki płatności", notes: "Uwagi",
    qrTitle: "Kod weryfikujący KSeF (KOD I)", qrCaption: "Zeskanuj kod lub otwórz link poniżej, aby zweryfikować fakturę w KSeF.",
  },
  en: {
    issueDate: "Issue date", saleDate: "Date of supply", currency: "Currency", format: "Format", number: "No.",
    seller: "Seller", buyer: "Buyer", taxId: "VAT ID", email: "Email",
    correctedInvoice: "Corrected invoice", correctedInvoices: "Corrected invoices", ksefNumber: "KSeF number", dated: "of",
    correctionReason: "Reason for correction",
    lineNo: "No.", name: "Description", quantity: "Quantity", unit: "Unit", unitPriceNet: "Unit price (net)",
    unitPriceGross: "Unit price (gross)", unitPriceMixed: "Unit price (net / gross)", amountNet: "Net amount", amountGross: "Gross amount",
    amountMixed: "Net / gross amount", vatRate: "VAT rate",
    beforeCorrection: "before correction", afterCorrection: "after correction",
    vatSummary: "VAT summary", net: "Net", vat: "VAT", gross: "Gross",
    totalNet: "Total net", totalTax: "Total VAT", totalGross: "Total gross", payable: "Amount due",
    payment: "Payment", dueDate: "Due date", means: "Payment means", account: "Account", bank: "Bank",
    terms: "Payment terms", notes: "Notes",
    qrTitle: "KSeF verification code (KOD I)", qrCaption: "Scan the code or open the link below to verify the invoice in KSeF.",
  },
};

/** KSeF RodzajFaktury → [Polish, English] title. */
const _KSEF_TITLES: Record<string, readonly [string, string]> = {
  VAT: ["Faktura VAT", "VAT invoice"],
  KOR: ["Faktura korygująca", "Corrected invoice"],
  ZAL: ["Faktura zaliczkowa", "Advance invoice"],
  ROZ: ["Faktura rozliczeniowa", "Settlement invoice"],
  UPR: ["Faktura uproszczona", "Simplified invoice"],
  KOR_ZAL: ["Faktura korygująca fakturę zaliczkową", "Corrected advance invoice"],
  KOR_ROZ: ["Faktura korygująca fakturę rozliczeniową", "Corrected settlement invoice"],
};

/** UNCL1001 document type codes (EN 16931 BT-3) → [Polish, English] title. */
const _UNCL1001_TITLES: Record<string, readonly [string, string]> = {
  "380": ["Faktura", "Invoice"],
  "381": ["Nota kredytowa", "Credit note"],
  "383": ["Nota obciążeniowa", "Debit note"],
  "384": ["Faktura korygująca", "Corrected invoice"],
  "386": ["Faktura zaliczkowa", "Prepayment invoice"],
  "389": ["Faktura (samofakturowanie)", "Self-billed invoice"],
  "326": ["Faktura częściowa", "Partial invoice"],
  "751": ["Faktura (informacja księgowa)", "Invoice information for accounting purposes"],
};

const _TYPE_TITLES: Record<Invoice["type"], readonly [string, string]> = {
  invoice: ["Faktura", "Invoice"],
  credit_note: ["Nota kredytowa", "Credit note"],
  correction: ["Faktura korygująca", "Corrected invoice"],
  other: ["Dokument", "Document"],
};

/** The document title: by KSeF type for KSeF formats, by UNCL1001 code otherwise, else by `type`. */
export function documentTitle(invoice: Invoice, lang: Lang): string {
  const code = invoice.kind?.code ?? "";
  const ksef = isKsefFormat(invoice.format);
  const t = (ksef ? _KSEF_TITLES[code] : _UNCL1001_TITLES[code]) ?? _TYPE_TITLES[invoice.type];
  return t[lang === "pl" ? 0 : 1];
}

/** Printable name of each format. */
export const FORMAT_NAMES: Record<Invoice["format"], string> = {
  "ksef-fa2": "KSeF FA (2)", "ksef-fa3": "KSeF FA (3)", ubl: "UBL 2.1", cii: "UN/CEFACT CII",
};

/** KSeF FormaPlatnosci (TFormaPlatnosci). */
const _KSEF_MEANS: Record<string, readonly [string, string]> = {
  "1": ["gotówka", "cash"], "2": ["karta", "card"], "3": ["bon", "voucher"], "4": ["czek", "cheque"],
  "5": ["kredyt", "credit"], "6": ["przelew", "bank transfer"], "7": ["mobilna", "mobile payment"],
};

/** UNCL4461 payment means codes (EN 16931 BT-81), the ones seen on invoices. */
const _UNCL4461_MEANS: Record<string, readonly [string, string]> = {
  "1": ["nieokreślona", "not defined"], "10": ["gotówka", "cash"], "20": ["czek", "cheque"],
  "30": ["przelew", "credit transfer"], "31": ["polecenie przelewu", "debit transfer"],
  "42": ["wpłata na rachunek bankowy", "payment to bank account"], "48": ["karta płatnicza", "bank card"],
  "49": ["polecenie zapłaty", "direct debit"], "57": ["zlecenie stałe", "standing agreement"],
  "58": ["przelew SEPA", "SEPA credit transfer"], "59": ["polecenie zapłaty SEPA", "SEPA direct debit"],
  "97": ["kompensata", "clearing between partners"], ZZZ: ["uzgodniona przez strony", "mutually defined"],
};

/** Payment means as words, with the code in brackets when it was a code. */
export function paymentMeansName(invoice: Invoice, means: string, lang: Lang): string {
  const ksef = isKsefFormat(invoice.format);
  const t = (ksef ? _KSEF_MEANS : _UNCL4461_MEANS)[means.trim()];
  return t === undefined ? means : `${t[lang === "pl" ? 0 : 1]} (${means.trim()})`;
}

/** UN/ECE Recommendation 20 unit codes → [Polish, English]. */
const _UNITS: Record<string, readonly [string, string]> = {
  C62: ["szt.", "pcs"], H87: ["szt.", "pcs"], EA: ["szt.", "each"], XPP: ["szt.", "piece"], SET: ["kpl.", "set"],
  HUR: ["godz.", "h"], MIN: ["min", "min"], DAY: ["dzień", "day"], WEE: ["tydz.", "week"], MON: ["mies.", "month"],
  ANN: ["rok", "year"], KGM: ["kg", "kg"], GRM: ["g", "g"], TNE: ["t", "t"], MTR: ["m", "m"], KMT: ["km", "km"],
  MTK: ["m²", "m²"], MTQ: ["m³", "m³"], LTR: ["l", "l"], KWH: ["kWh", "kWh"], LS: ["ryczałt", "lump sum"],
  P1: ["%", "%"], XBX: ["karton", "box"], XPK: ["opak.", "pack"], E48: ["usługa", "service"],
};

/** A unit as printed: UN/ECE codes of UBL and CII named, KSeF units (already words) as written. */
export function unitName(invoice: Invoice, unit: string | null, lang: Lang): string {
  if (unit === null) return "";
  if (isKsefFormat(invoice.format)) return unit;
  const t = _UNITS[unit.trim()];
  return t === undefined ? unit : t[lang === "pl" ? 0 : 1];
}
