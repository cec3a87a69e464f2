/**
 * Code lists as printed words: document titles by KSeF RodzajFaktury or UNCL1001 type code,
 * payment means (KSeF FormaPlatnosci, UNCL4461), common UN/ECE Recommendation 20 unit codes,
 * and Polish names of the KSeF codes whose English text the invoice model already carries
 * (Podmiot3 roles, taxpayer status, correction types, transport, cargo, margin schemes…).
 * A code without a name is printed as written, with the model's text when it has one.
 * @module
 */

import type { Code, Invoice } from "../invoice/model.ts";
import { isKsefFormat } from "../invoice/vocabulary.ts";
import type { Lang } from "./format.ts";

/** True for the KSeF forms of the Ministry's schemas (FA(2), FA(3), FA_RR(1)). */
export function isKsef(invoice: Invoice): boolean {
  return isKsefFormat(invoice.format);
}

/** KSeF RodzajFaktury → [Polish, English] title. */
const _KSEF_TITLES: Record<string, readonly [string, string]> = {
  VAT: ["Faktura VAT", "VAT invoice"],
  KOR: ["Faktura korygująca", "Corrected invoice"],
  ZAL: ["Faktura zaliczkowa", "Advance invoice"],
  ROZ: ["Faktura rozliczeniowa", "Settlement invoice"],
  UPR: ["Faktura uproszczona", "Simplified invoice"],
  KOR_ZAL: ["Faktura korygująca fakturę zaliczkową", "Corrected advance invoice"],
  KOR_ROZ: ["Faktura korygująca fakturę rozliczeniową", "Corrected settlement invoice"],
  // FA_RR(1) RodzajFaktury: the names art. 116 of the VAT act gives them.
  VAT_RR: ["Faktura VAT RR", "VAT RR invoice"],
  KOR_VAT_RR: ["Faktura VAT RR KOREKTA", "Corrected VAT RR invoice"],
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
  const ksef = isKsef(invoice);
  // The code comes from the invoice: only the tables' own keys count ("constructor" is not a title).
  const table = ksef ? _KSEF_TITLES : _UNCL1001_TITLES;
  const t = (Object.hasOwn(table, code) ? table[code] : undefined) ?? _TYPE_TITLES[invoice.type];
  return t[lang === "pl" ? 0 : 1];
}

/** Printable name of each format. */
export const FORMAT_NAMES: Record<Invoice["format"], string> = {
  "ksef-fa2": "KSeF FA (2)", "ksef-fa3": "KSeF FA (3)", ubl: "UBL 2.1", cii: "UN/CEFACT CII",
  "ksef-fa-rr1": "KSeF FA_RR (1)", "ksef-pef3": "KSeF PEF (3)",
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

/** FA_RR(1) FormaPlatnosci: its one code means a transfer (art. 116 ust. 6 of the VAT act), not FA's cash. */
const _KSEF_RR_MEANS: Record<string, readonly [string, string]> = { "1": ["przelew", "bank transfer"] };

/** Payment means as words, with the code in brackets when it was a code. */
export function paymentMeansName(invoice: Invoice, means: string, lang: Lang): string {
  const ksef = isKsef(invoice);
  const table = invoice.format === "ksef-fa-rr1" ? _KSEF_RR_MEANS : ksef ? _KSEF_MEANS : _UNCL4461_MEANS;
  const t = table[means.trim()];
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

/** A unit as printed: UN/ECE codes of UBL and CII named with the code after ("pcs (C62)"), KSeF units (already words) as written. */
export function unitName(invoice: Invoice, unit: string | null, lang: Lang): string {
  if (unit === null) return "";
  if (isKsef(invoice)) return unit;
  const t = _UNITS[unit.trim()];
  return t === undefined ? unit : `${t[lang === "pl" ? 0 : 1]} (${unit.trim()})`;
}

/** Polish names of KSeF codes, by the model's field; English comes from the model's Code.text. */
const _KSEF_POLISH: Record<string, Record<string, string>> = {
  role: {
    "1": "Faktor", "2": "Odbiorca", "3": "Podmiot pierwotny", "4": "Dodatkowy nabywca", "5": "Wystawca faktury",
    "6": "Dokonujący płatności", "7": "Jednostka samorządu terytorialnego – wystawca", "8": "Jednostka samorządu terytorialnego – odbiorca",
    "9": "Członek grupy VAT – wystawca", "10": "Członek grupy VAT – odbiorca", "11": "Pracownik",
  },
  authorized: { "1": "Organ egzekucyjny", "2": "Komornik sądowy", "3": "Przedstawiciel podatkowy" },
  status: { "1": "Stan likwidacji", "2": "Postępowanie restrukturyzacyjne", "3": "Stan upadłości", "4": "Przedsiębiorstwo w spadku" },
  correction: {
    "1": "Korekta skutkująca w dacie ujęcia faktury pierwotnej", "2": "Korekta skutkująca w dacie wystawienia faktury korygującej",
    "3": "Korekta skutkująca w dacie innej, w tym gdy dla różnych pozycji faktury korygującej daty te są różne",
    "4": "Korekta skutkująca w dacie dokonania zwrotu całości lub części należności", // FA_RR(1) only
  },
  ownAccount: {
    "1": "Rachunek banku lub SKOK do rozliczeń nabytych wierzytelności", "2": "Rachunek banku lub SKOK pobierający należność od nabywcy",
    "3": "Rachunek własny banku lub SKOK, niebędący rachunkiem rozliczeniowym",
  },
  partial: { "1": "Zapłacono w części", "2": "Zapłacono w całości w częściach" },
  transport: {
    "1": "Transport morski", "2": "Transport kolejowy", "3": "Transport drogowy", "4": "Transport lotniczy", "5": "Przesyłka pocztowa",
    "7": "Stałe instalacje przesyłowe", "8": "Żegluga śródlądowa",
  },
  cargo: {
    "1": "Bańka", "2": "Beczka", "3": "Butla", "4": "Karton", "5": "Kanister", "6": "Klatka", "7": "Kontener", "8": "Kosz",
    "9": "Łubianka", "10": "Opakowanie zbiorcze", "11": "Paczka", "12": "Pakiet", "13": "Paleta", "14": "Pojemnik",
    "15": "Pojemnik do ładunków masowych stałych", "16": "Pojemnik do ładunków masowych w postaci płynnej", "17": "Pudełko", "18": "Puszka",
    "19": "Skrzynia", "20": "Worek",
  },
  margin: {
    P_PMarzy_2: "Procedura marży dla biur podróży", P_PMarzy_3_1: "Procedura marży – towary używane",
    P_PMarzy_3_2: "Procedura marży – dzieła sztuki", P_PMarzy_3_3: "Procedura marży – przedmioty kolekcjonerskie i antyki",
  },
};

/** Which list a code belongs to, for its Polish name. */
export type KsefCodeList = "role" | "authorized" | "status" | "correction" | "ownAccount" | "partial" | "transport" | "cargo" | "margin";

/** A code as words: the Polish name for Polish KSeF output, else the model's text; with the code in brackets. */
export function codeWords(code: Code | null, lang: Lang, list: KsefCodeList | null = null): string | null {
  if (code === null) return null;
  const pl = list === null ? undefined : _KSEF_POLISH[list]?.[code.code];
  const text = lang === "pl" && pl !== undefined ? pl : code.text;
  return text === null ? code.code : `${text} (${code.code})`;
}
