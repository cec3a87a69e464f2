/**
 * Reads KSeF FaWiersz (invoice lines) and ZamowienieWiersz (order lines of an
 * advance invoice) into the model's InvoiceLine, and maps a KSeF rate (P_12,
 * TStawkaPodatku) to its UNCL5305 category. Amounts are copied, never computed.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { blankLine } from "./blank.ts";
import { codeOf, KSEF_VAT_RATE_TEXTS, UNCL_5305 } from "./code_lists.ts";
import { parseDecimal } from "./decimal.ts";
import type { Code, InvoiceLine } from "./model.ts";
import { parseDate, textOf } from "./query.ts";

/** ZamowienieWiersz's element names and the FaWiersz names they stand for. */
const ORDER_NAMES: Readonly<Record<string, string>> = {
  NrWierszaZam: "NrWierszaFa", UU_IDZ: "UU_ID", P_7Z: "P_7", IndeksZ: "Indeks", GTINZ: "GTIN",
  PKWiUZ: "PKWiU", CNZ: "CN", PKOBZ: "PKOB", P_8AZ: "P_8A", P_8BZ: "P_8B", P_9AZ: "P_9A",
  P_11NettoZ: "P_11", P_11VatZ: "P_11Vat", P_12Z: "P_12", P_12Z_XII: "P_12_XII",
  P_12Z_Zal_15: "P_12_Zal_15", GTUZ: "GTU", ProceduraZ: "Procedura", KwotaAkcyzyZ: "KwotaAkcyzy",
  StanPrzedZ: "StanPrzed",
};

/** KSeF rates (P_12, FA(2) and FA(3)) and their UNCL5305 categories. */
const RATE_CATEGORIES: Readonly<Record<string, keyof typeof UNCL_5305>> = {
  "23": "S", "22": "S", "8": "S", "7": "S", "5": "S", "4": "S", "3": "S",
  "0": "Z", "0 KR": "Z", "0 WDT": "K", "0 EX": "G", zw: "E", oo: "AE", np: "O", "np I": "O", "np II": "O",
};

/** The UNCL5305 category of a KSeF rate; null when the rate is not on the list. */
export function ksefVatCategory(rate: string | null): Code | null {
  if (rate === null || !Object.hasOwn(RATE_CATEGORIES, rate)) return null;
  return codeOf(UNCL_5305, RATE_CATEGORIES[rate] as string);
}

/** Readable text of a KSeF rate that is not a number. */
export function ksefRateText(rate: string | null): string | null {
  return rate !== null && Object.hasOwn(KSEF_VAT_RATE_TEXTS, rate)
    ? KSEF_VAT_RATE_TEXTS[rate as keyof typeof KSEF_VAT_RATE_TEXTS]
    : null;
}

/** One FaWiersz, or one ZamowienieWiersz when `order` is true. */
export function readKsefLine(el: XmlElement, ns: string, order = false): InvoiceLine {
  const l = blankLine();
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    const name = order ? (ORDER_NAMES[c.local] ?? c.local) : c.local;
    const v = textOf(c);
    switch (name) {
      case "NrWierszaFa": l.number = v; break;
      case "UU_ID": l.uu_id = v; break;
      case "P_6A": l.delivery_date = parseDate(v); break;
      case "P_7": l.name = v; break;
      case "Indeks": l.seller_item_id = v; break;
      case "GTIN": l.standard_item_id = v === null ? null : { value: v, scheme: "GTIN" }; break;
      case "PKWiU":
      case "CN":
      case "PKOB":
        if (v !== null) l.classifications.push({ value: v, scheme: name, version: null });
        break;
      case "P_8A": l.unit = v; break;
      case "P_8B": l.quantity = parseDecimal(v); break;
      case "P_9A": l.net_price = parseDecimal(v); break;
      case "P_9B": l.price_with_vat = parseDecimal(v); break;
      case "P_10": l.discount = parseDecimal(v); break;
      case "P_11": l.net_amount = parseDecimal(v); break;
      case "P_11A": l.amount_with_vat = parseDecimal(v); break;
      case "P_11Vat": l.vat_amount = parseDecimal(v); break;
      case "P_12":
        l.vat_rate = v;
        l.vat_category = ksefVatCategory(v);
        l.vat_rate_text = ksefRateText(v);
        break;
      case "P_12_XII": l.vat_rate_oss = parseDecimal(v); break;
      case "P_12_Zal_15": l.annex_15 = v === "1"; break;
      case "KwotaAkcyzy": l.excise_amount = parseDecimal(v); break;
      case "GTU": l.gtu = v; break;
      case "Procedura": l.procedure = v; break;
      case "KursWaluty": l.exchange_rate = parseDecimal(v); break;
      case "StanPrzed": l.before_correction = v === "1"; break;
    }
  }
  return l;
}
