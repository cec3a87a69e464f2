/**
 * Writes invoice lines as KSeF FA(3) FaWiersz and order lines as ZamowienieWiersz, the inverse of ksef_line.ts, in
 * the sequences of schemat_FA(3)_v1-0E.xsd, and maps a rate of the invoice object to FA(3)'s TStawkaPodatku (FA(2)'s
 * "0" and "np", EN 16931 categories and numeric rates such as "23.00"). Amounts are written as given, never computed.
 * @module
 */

import type { Code, InvoiceLine } from "./model.ts";
import { NO_FA3_PLACE } from "./ksef_write_party.ts";
import { lose, loseFields } from "./write_losses.ts";
import type { WriteLoss } from "./write_result.ts";
import type { TracedWriter } from "./write_trace.ts";
import { ksefRate, ksefRateOf } from "./vat_rates.ts";


/** FA(2) rates that FA(3) split, and the one written for each (FA(3)'s documentation of P_13_6_1 and P_13_8). */
const FA2_RATES: Readonly<Record<string, string>> = { "0": "0 KR", np: "np I" };

/** The FA(3) rate for `rate` and `category`, and whether it differs from `rate` as written; null when FA(3) has none. */
export function fa3Rate(rate: string | null, category: Code | null): { rate: string; changed: boolean } | null {
  if (rate !== null && ksefRate(rate) !== undefined) return { rate, changed: false };
  // The category first: an exempt or export line of UBL/CII has the percentage 0 too.
  const cat = category?.code ?? null;
  const byCategory = cat !== null && cat !== "S" ? ksefRateOf(cat, null) : null;
  if (byCategory !== null) return { rate: byCategory, changed: rate !== byCategory };
  if (rate !== null && Object.hasOwn(FA2_RATES, rate)) return { rate: FA2_RATES[rate]!, changed: true };
  const standard = rate !== null && /^\d+(\.0*)?$/.test(rate) ? ksefRateOf("S", rate) : null;
  return standard === null ? null : { rate: standard, changed: standard !== rate };
}

/** Why a changed rate is reported. */
const RATE_CHANGED = "FA(3) writes this rate with its own code";

/** Line fields FA(3) has no element for. */
const LINE_NEVER: readonly (keyof InvoiceLine & string)[] = [
  "notes", "object_id", "order_line_reference", "accounting_reference", "period", "description", "buyer_item_id",
  "origin_country", "attributes", "price_discount", "list_price", "price_base_quantity", "price_base_unit",
  "quality_class", "parent_number", "status_reason", "vat_exemption_reason", "item_seller", "allowances_charges",
];
/** True when one of LINE_NEVER holds a value: plain property reads, as a KSeF line (the usual case) has none. */
function _hasForeignValues(l: InvoiceLine): boolean {
  return l.notes.length > 0 || l.object_id !== null || l.order_line_reference !== null || l.accounting_reference !== null ||
    l.period !== null || l.description !== null || l.buyer_item_id !== null || l.origin_country !== null ||
    l.attributes.length > 0 || l.price_discount !== null || l.list_price !== null || l.price_base_quantity !== null ||
    l.price_base_unit !== null || l.quality_class !== null || l.parent_number !== null || l.status_reason !== null ||
    l.vat_exemption_reason !== null || l.item_seller !== null || l.allowances_charges.length > 0;
}

/** Fields FaWiersz has that ZamowienieWiersz has not. */
const ORDER_NEVER: readonly (keyof InvoiceLine & string)[] = ["delivery_date", "price_with_vat", "discount", "amount_with_vat", "exchange_rate"];

/** Element names of FaWiersz, and of ZamowienieWiersz where they differ. */
const NAMES = {
  line: {
    el: "FaWiersz", number: "NrWierszaFa", uu: "UU_ID", name: "P_7", index: "Indeks", gtin: "GTIN", PKWiU: "PKWiU", CN: "CN",
    PKOB: "PKOB", unit: "P_8A", qty: "P_8B", price: "P_9A", net: "P_11", vat: "P_11Vat", rate: "P_12", oss: "P_12_XII",
    annex: "P_12_Zal_15", gtu: "GTU", proc: "Procedura", excise: "KwotaAkcyzy", before: "StanPrzed",
  },
  order: {
    el: "ZamowienieWiersz", number: "NrWierszaZam", uu: "UU_IDZ", name: "P_7Z", index: "IndeksZ", gtin: "GTINZ", PKWiU: "PKWiUZ",
    CN: "CNZ", PKOB: "PKOBZ", unit: "P_8AZ", qty: "P_8BZ", price: "P_9AZ", net: "P_11NettoZ", vat: "P_11VatZ", rate: "P_12Z",
    oss: "P_12Z_XII", annex: "P_12Z_Zal_15", gtu: "GTUZ", proc: "ProceduraZ", excise: "KwotaAkcyzyZ", before: "StanPrzedZ",
  },
} as const;

/** One FaWiersz (or a ZamowienieWiersz when `order`), from field `f` (`invoice.lines[2]`). */
export function writeKsefLine(w: TracedWriter, l: InvoiceLine, f: string, order: boolean, losses: WriteLoss[]): void {
  const n = order ? NAMES.order : NAMES.line;
  if (_hasForeignValues(l)) loseFields(losses, l, LINE_NEVER, f, NO_FA3_PLACE);
  if (order) loseFields(losses, l, ORDER_NEVER, f, "FA(3) order lines have no element for this value");
  w.open(n.el, f);
  w.leaf(n.number, l.number, ".number");
  w.leaf(n.uu, l.uu_id, ".uu_id");
  if (!order) w.leaf("P_6A", l.delivery_date, ".delivery_date");
  w.leaf(n.name, l.name, ".name");
  w.leaf(n.index, l.seller_item_id, ".seller_item_id");
  w.leaf(n.gtin, l.standard_item_id?.value, ".standard_item_id");
  if (l.classifications.length > 0) _classifications(w, l, f, n, losses);
  w.leaf(n.unit, l.unit, ".unit");
  w.leaf(n.qty, l.quantity, ".quantity");
  w.leaf(n.price, l.net_price, ".net_price");
  if (!order) {
    w.leaf("P_9B", l.price_with_vat, ".price_with_vat");
    w.leaf("P_10", l.discount, ".discount");
  }
  w.leaf(n.net, l.net_amount, ".net_amount");
  if (!order) w.leaf("P_11A", l.amount_with_vat, ".amount_with_vat");
  w.leaf(n.vat, l.vat_amount, ".vat_amount");
  const rate = l.vat_rate === null && l.vat_category === null ? null : fa3Rate(l.vat_rate, l.vat_category);
  if (rate !== null) {
    w.leaf(n.rate, rate.rate, ".vat_rate");
    if (rate.changed) lose(losses, `${f}.vat_rate`, l.vat_rate, `${RATE_CHANGED}: ${rate.rate}`);
  } else if (l.vat_rate !== null && l.vat_rate_oss === null) {
    lose(losses, `${f}.vat_rate`, l.vat_rate, "FA(3) has no rate for this value");
  }
  w.leaf(n.oss, l.vat_rate_oss, ".vat_rate_oss");
  if (l.annex_15) w.leaf(n.annex, "1", `${f}.annex_15`);
  // GTU, Procedura and KwotaAkcyzy come in this order in ZamowienieWiersz, KwotaAkcyzy first in FaWiersz.
  if (!order) w.leaf(n.excise, l.excise_amount, ".excise_amount");
  w.leaf(n.gtu, l.gtu, ".gtu");
  w.leaf(n.proc, l.procedure, ".procedure");
  if (order) w.leaf(n.excise, l.excise_amount, ".excise_amount");
  if (!order) w.leaf("KursWaluty", l.exchange_rate, ".exchange_rate");
  if (l.before_correction) w.leaf(n.before, "1", ".before_correction");
  w.close();
}

/** One classification per KSeF scheme (PKWiU, CN, PKOB), in the schema's order; others are losses. */
function _classifications(w: TracedWriter, l: InvoiceLine, f: string, n: (typeof NAMES)["line" | "order"], losses: WriteLoss[]): void {
  const written = new Set<number>();
  for (const scheme of ["PKWiU", "CN", "PKOB"] as const) {
    const i = l.classifications.findIndex((c) => c.scheme === scheme);
    if (i < 0) continue;
    written.add(i);
    w.leaf(n[scheme], l.classifications[i]!.value, `${f}.classifications[${i}]`);
  }
  for (let i = 0; i < l.classifications.length; i++) {
    if (!written.has(i)) lose(losses, `${f}.classifications[${i}]`, l.classifications[i], NO_FA3_PLACE);
  }
}
