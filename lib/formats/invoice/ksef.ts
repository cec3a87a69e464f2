/**
 * Reads a KSeF structured invoice, FA(2) or FA(3) (schemat_FA(2)_v1-0E.xsd,
 * schemat_FA(3)_v1-0E.xsd), into the whole invoice model (README “The invoice object”). Net and
 * tax totals are the exact sums of the P_13_* and P_14_* fields (README “The PDF”). Does
 * not validate against the XSD: what is missing is null, nothing here throws.
 * Parties, lines, payment and annexes are read by the ksef_* modules.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { blankInvoice, deliveryOf } from "./blank.ts";
import { codeOf, KSEF_CORRECTION_TYPES, KSEF_INVOICE_KINDS } from "./code_lists.ts";
import { parseDecimal, sumDecimals } from "./decimal.ts";
import { documentTypeFromKsef } from "./document_type.ts";
import { readKsefAnnotations, readKsefAttachments } from "./ksef_annex.ts";
import { readKsefCorrectedInvoice } from "./ksef_corrected.ts";
import { readKsefRootChild } from "./ksef_root.ts";
import { ksefVatCategory, readKsefLine } from "./ksef_line.ts";
import { readKsefParty, readKsefThirdParty } from "./ksef_party.ts";
import { readKsefPayment, readKsefSettlement, readKsefTransactionTerms } from "./ksef_payment.ts";
import type { Correction, Decimal, ExchangeRate, Invoice, InvoiceLine } from "./model.ts";
import { children, field, fieldsOf, parseDate, textOf } from "./query.ts";

/** Namespace of KSeF FA(2) (FIELDS.md). */
export const KSEF_FA2_NS = "http://crd.gov.pl/wzor/2023/06/29/12648/";
/** Namespace of KSeF FA(3) (FIELDS.md). */
export const KSEF_FA3_NS = "http://crd.gov.pl/wzor/2025/06/25/13775/";

/**
 * The VAT summary fields of Fa, in schema order, with the rate each one stands
 * for (XSD documentation of P_13_x). `alt` is the other rate the same field may
 * carry (23 or 22, 8 or 7, 4 or 3); the line rates decide between them. The PLN
 * amount of a tax field is the same name with "W" (P_14_1W). The FA(3) writer reads it the other way.
 */
export const KSEF_VAT_FIELDS: readonly { net: string; tax: string | null; rate: string; alt: string | null }[] = [
  { net: "P_13_1", tax: "P_14_1", rate: "23", alt: "22" },
  { net: "P_13_2", tax: "P_14_2", rate: "8", alt: "7" },
  { net: "P_13_3", tax: "P_14_3", rate: "5", alt: null },
  // Flat-rate tax for passenger taxis (ryczałt dla taksówek osobowych).
  { net: "P_13_4", tax: "P_14_4", rate: "4", alt: "3" },
  // Special procedure of dział XII rozdział 6a (OSS): the rates are other member states'.
  { net: "P_13_5", tax: "P_14_5", rate: "OSS", alt: null },
  // FA(2) has one 0 % field before FA(3) split it by kind of supply.
  { net: "P_13_6", tax: null, rate: "0", alt: null },
  { net: "P_13_6_1", tax: null, rate: "0 KR", alt: null },
  { net: "P_13_6_2", tax: null, rate: "0 WDT", alt: null },
  { net: "P_13_6_3", tax: null, rate: "0 EX", alt: null },
  { net: "P_13_7", tax: null, rate: "zw", alt: null },
  // Supplies outside the country, except P_13_5 and P_13_9.
  { net: "P_13_8", tax: null, rate: "np I", alt: null },
  // Services of art. 100 ust. 1 pkt 4 (EU reverse charge services).
  { net: "P_13_9", tax: null, rate: "np II", alt: null },
  { net: "P_13_10", tax: null, rate: "oo", alt: null },
  { net: "P_13_11", tax: null, rate: "marża", alt: null },
];

/** Reads a Faktura root element in FA(2) or FA(3). */
export function readKsef(root: XmlElement, format: "ksef-fa2" | "ksef-fa3", lines = true): Invoice {
  const ns = root.ns;
  const inv = blankInvoice(format);
  for (const c of root.children) {
    if (c.ns !== ns || readKsefRootChild(c, ns, inv)) continue;
    switch (c.local) {
      case "PodmiotUpowazniony": inv.authorized_party = readKsefThirdParty(c, ns); break;
      case "Fa": if (inv.kind === null) _readFa(c, ns, inv, lines); break;
      case "Zalacznik": for (const x of readKsefAttachments(c, ns)) inv.attachments.push(x); break;
    }
  }
  return inv;
}

/** One pass over Fa's children: each section reader takes the fields it knows, the rest are VAT sums. */
function _readFa(fa: XmlElement, ns: string, inv: Invoice, lines: boolean): void {
  const sums = new Map<string, string>();
  const correction: Correction = {
    reason: null, type: null, corrected_number: null, period: null, seller_before: null, buyers_before: [],
    amount_before: null, exchange_rate_before: null,
  };
  let corrects = false;
  for (const c of fa.children) {
    if (c.ns !== ns || (!lines && c.local === "FaWiersz")) continue;
    const v = textOf(c);
    if (_readFaDocument(c, v, ns, inv) || _readFaContent(c, v, ns, inv)) continue;
    if (_readFaCorrection(c, v, ns, inv, correction)) corrects = true;
    // P_13_x, P_14_x and P_14_xW. An empty element counts as absent.
    else if ((c.local.startsWith("P_13_") || c.local.startsWith("P_14_")) && v !== null && !sums.has(c.local)) sums.set(c.local, v);
  }
  inv.type = documentTypeFromKsef(inv.kind?.code ?? null);
  if (corrects || inv.type === "correction") inv.correction = correction;
  if (inv.currency !== null && inv.currency !== "PLN") inv.tax_currency = "PLN";
  for (const r of inv.exchange_rates) r.from_currency ??= inv.currency;
  _readVatSummary(sums, inv);
  inv.totals.payable = inv.settlement?.to_pay ?? inv.totals.gross;
}

/** The document's own fields: currency, kind, number, dates and places, markers, annotations, references; false for others. */
function _readFaDocument(c: XmlElement, v: string | null, ns: string, inv: Invoice): boolean {
  switch (c.local) {
    case "KodWaluty": inv.currency = v; break;
    case "P_1": inv.issue_date = parseDate(v); break;
    case "P_1M": inv.issue_place = v; break;
    case "P_2": inv.number = v; break;
    case "WZ": if (v !== null) inv.references.delivery_notes.push(v); break;
    case "P_6": deliveryOf(inv).date = parseDate(v); break;
    case "OkresFa": {
      const f = fieldsOf(c, ns);
      deliveryOf(inv).period = { start: parseDate(field(f, "P_6_Od")), end: parseDate(field(f, "P_6_Do")), description: null };
      break;
    }
    case "P_15": inv.totals.gross = parseDecimal(v); break;
    case "Adnotacje": inv.annotations = readKsefAnnotations(c, ns); break;
    case "RodzajFaktury": inv.kind = codeOf(KSEF_INVOICE_KINDS, v); break;
    case "FP":
    case "TP":
    case "ZwrotAkcyzy": {
      inv.markers ??= { receipt_invoice: false, related_parties: false, excise_refund: false };
      const key = c.local === "FP" ? "receipt_invoice" : c.local === "TP" ? "related_parties" : "excise_refund";
      inv.markers[key] = v === "1";
      break;
    }
    case "DodatkowyOpis": {
      const f = fieldsOf(c, ns);
      inv.additional_info.push({ line_number: field(f, "NrWiersza"), key: field(f, "Klucz"), value: field(f, "Wartosc") });
      break;
    }
    case "FakturaZaliczkowa": {
      const f = fieldsOf(c, ns);
      inv.references.advance_invoices.push({ number: field(f, "NrFaZaliczkowej"), ksef_number: field(f, "NrKSeFFaZaliczkowej") });
      break;
    }
    default: return false;
  }
  return true;
}

/** What was sold and how it is paid: lines, orders, advances, exchange rates, payment, settlement, terms; false for others. */
function _readFaContent(c: XmlElement, v: string | null, ns: string, inv: Invoice): boolean {
  switch (c.local) {
    case "KursWalutyZ": _addRate(inv, "advance", v); break;
    case "ZaliczkaCzesciowa": {
      const f = fieldsOf(c, ns);
      inv.advance_payments.push({
        amount: parseDecimal(field(f, "P_15Z")), date: parseDate(field(f, "P_6Z")), means: null,
        exchange_rate: parseDecimal(field(f, "KursWalutyZW")),
      });
      break;
    }
    case "FaWiersz": {
      const line = readKsefLine(c, ns);
      inv.lines.push(line);
      if (line.exchange_rate !== null) _addRate(inv, "line", line.exchange_rate, line.number);
      break;
    }
    case "Rozliczenie": inv.settlement = readKsefSettlement(c, ns); break;
    case "Platnosc": inv.payment ??= readKsefPayment(c, ns); break;
    case "WarunkiTransakcji": {
      const t = readKsefTransactionTerms(c, ns);
      inv.transaction_terms = t;
      if (t.contract_rate !== null) {
        inv.exchange_rates.push({
          applies_to: "contract", line_number: null, from_currency: t.contract_currency, to_currency: "PLN",
          rate: t.contract_rate, date: null,
        });
      }
      break;
    }
    case "Zamowienie": {
      const f = fieldsOf(c, ns);
      inv.orders.push({
        value: parseDecimal(field(f, "WartoscZamowienia")),
        lines: children(c, ns, "ZamowienieWiersz").map((z) => readKsefLine(z, ns, true)),
      });
      break;
    }
    default: return false;
  }
  return true;
}

/** The fields of a correcting invoice (the invoice corrected, the reason, the values before); false for others. */
function _readFaCorrection(c: XmlElement, v: string | null, ns: string, inv: Invoice, correction: Correction): boolean {
  switch (c.local) {
    case "PrzyczynaKorekty": correction.reason = v; break;
    case "TypKorekty": correction.type = codeOf(KSEF_CORRECTION_TYPES, v); break;
    case "DaneFaKorygowanej": inv.references.preceding_invoices.push(readKsefCorrectedInvoice(c, ns)); break;
    case "OkresFaKorygowanej": correction.period = v; break;
    case "NrFaKorygowany": correction.corrected_number = v; break;
    case "Podmiot1K": correction.seller_before = readKsefParty(c, ns); break;
    case "Podmiot2K": correction.buyers_before.push(readKsefParty(c, ns)); break;
    case "P_15ZK": correction.amount_before = parseDecimal(v); break;
    case "KursWalutyZK":
      correction.exchange_rate_before = parseDecimal(v);
      _addRate(inv, "before_correction", v);
      break;
    default: return false;
  }
  return true;
}

/** Adds the exchange rate `value` to PLN (from the invoice currency as read so far) when it is a number. */
function _addRate(inv: Invoice, applies_to: ExchangeRate["applies_to"], value: string | null, line: string | null = null): void {
  const r = parseDecimal(value);
  if (r !== null) {
    inv.exchange_rates.push({ applies_to, line_number: line, from_currency: inv.currency, to_currency: "PLN", rate: r, date: null });
  }
}

/** Totals and the VAT breakdown from the P_13_x / P_14_x / P_14_xW fields. */
function _readVatSummary(sums: ReadonlyMap<string, string>, inv: Invoice): void {
  const nets: Decimal[] = [];
  const taxes: Decimal[] = [];
  const plnTaxes: Decimal[] = [];
  // A field that is present but not a number makes its total unknown, not smaller.
  let netUnknown = false;
  let taxUnknown = false;
  for (const f of KSEF_VAT_FIELDS) {
    const netText = sums.get(f.net);
    const taxText = f.tax === null ? undefined : sums.get(f.tax);
    const plnText = f.tax === null ? undefined : sums.get(`${f.tax}W`);
    if (netText === undefined && taxText === undefined && plnText === undefined) continue;
    const net = netText === undefined ? null : parseDecimal(netText);
    const tax = taxText === undefined ? null : parseDecimal(taxText);
    const pln = plnText === undefined ? null : parseDecimal(plnText);
    if (netText !== undefined) {
      if (net === null) netUnknown = true;
      else nets.push(net);
    }
    if (taxText !== undefined) {
      if (tax === null) taxUnknown = true;
      else taxes.push(tax);
    }
    if (pln !== null) plnTaxes.push(pln);
    const rate = f.alt !== null && _linesUseOnly(inv.lines, f.alt, f.rate) ? f.alt : f.rate;
    inv.vat_breakdown.push({
      category: ksefVatCategory(rate), rate, taxable_amount: net, tax_amount: tax, tax_amount_tax_currency: pln,
      exemption_reason: rate === "zw" ? _exemptionBasis(inv) : null, exemption_reason_code: null, tax_scheme: null,
      line_total_basis_amount: null, allowance_charge_basis_amount: null, ksef_field: f.net,
    });
  }
  inv.totals.net = netUnknown ? null : sumDecimals(nets);
  inv.totals.tax = taxUnknown ? null : sumDecimals(taxes);
  inv.totals.tax_in_tax_currency = sumDecimals(plnTaxes);
}

/** The exemption basis of Adnotacje/Zwolnienie (P_19A, P_19B or P_19C). */
function _exemptionBasis(inv: Invoice): string | null {
  const e = inv.annotations?.exemption;
  return e === undefined ? null : (e.act ?? e.directive ?? e.other);
}

/** True when some line has rate `alt` and none has `rate` (only asked for P_13_1, P_13_2, P_13_4). */
function _linesUseOnly(lines: readonly InvoiceLine[], alt: string, rate: string): boolean {
  let seen = false;
  for (const l of lines) {
    if (l.vat_rate === rate) return false;
    if (l.vat_rate === alt) seen = true;
  }
  return seen;
}
