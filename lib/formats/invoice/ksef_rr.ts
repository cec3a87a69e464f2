/**
 * Reads a KSeF FA_RR(1) invoice (schemat_FA_RR(1)_v1-1E.xsd): the VAT RR invoice that a VAT taxpayer buying farm
 * produce or farm services from a flat-rate farmer issues (art. 116 of the VAT act). The farmer is the supplier
 * (Podmiot1, "dostawca"): the model's seller, as on any invoice of a sale; the buyer (Podmiot2, "nabywca") issues
 * the invoice and is the model's buyer. The flat-rate refund (zryczałtowany zwrot podatku, P_9/P_10, P_11_2) takes
 * VAT's places: totals `net` P_11_1, `tax` P_11_2, `gross` P_12_1. Does not validate: what is missing is null.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { blankInvoice, blankLine, blankPayment, deliveryOf } from "./blank.ts";
import { codeOf, KSEF_RR_CORRECTION_TYPES, KSEF_RR_INVOICE_KINDS, KSEF_RR_PAYMENT_FORMS } from "./code_lists.ts";
import { parseDecimal } from "./decimal.ts";
import { readKsefCorrectedInvoice } from "./ksef_corrected.ts";
import { readKsefRootChild } from "./ksef_root.ts";
import { readKsefParty } from "./ksef_party.ts";
import { readKsefAccount, readKsefSettlement } from "./ksef_payment.ts";
import type { Correction, Invoice, InvoiceLine, Payment } from "./model.ts";
import { field, fieldsOf, parseDate, textOf } from "./query.ts";

/** Namespace of KSeF FA_RR(1) (schemat_FA_RR(1)_v1-1E.xsd, targetNamespace). */
export const KSEF_FA_RR1_NS = "http://crd.gov.pl/wzor/2026/03/06/14189/";

/** The rate text of P_9: a flat-rate refund rate, not a VAT rate (art. 115 ust. 2 of the VAT act: 6.5 % or 7 %). */
const _REFUND_RATE_TEXT = "Flat-rate refund rate (art. 115 ust. 2 of the VAT act)";

/** Reads a Faktura root element of FA_RR(1). */
export function readKsefRr(root: XmlElement, lines = true): Invoice {
  const ns = root.ns;
  const inv = blankInvoice("ksef-fa-rr1");
  for (const c of root.children) {
    if (c.ns !== ns || readKsefRootChild(c, ns, inv)) continue;
    switch (c.local) {
      case "FakturaRR": if (inv.kind === null) _readFakturaRr(c, ns, inv, lines); break;
    }
  }
  return inv;
}

function _readFakturaRr(el: XmlElement, ns: string, inv: Invoice, lines: boolean): void {
  const correction: Correction = {
    reason: null, type: null, corrected_number: null, period: null, seller_before: null, buyers_before: [],
    amount_before: null, exchange_rate_before: null,
  };
  let corrects = false;
  let refund: string | null = null;
  let refundPln: string | null = null;
  for (const c of el.children) {
    if (c.ns !== ns || (!lines && c.local === "FakturaRRWiersz")) continue;
    const v = textOf(c);
    switch (c.local) {
      case "KodWaluty": inv.currency = v; break;
      case "P_1M": inv.issue_place = v; break;
      case "P_4A": deliveryOf(inv).date = parseDate(v); break; // the date of purchase, common to all lines
      case "P_4B": inv.issue_date = parseDate(v); break;
      case "P_4C": inv.number = v; break;
      case "P_11_1": inv.totals.net = parseDecimal(v); break;
      case "P_11_1W": inv.totals.net_in_tax_currency = parseDecimal(v); break;
      case "P_11_2": refund = v; inv.totals.tax = parseDecimal(v); break;
      case "P_11_2W": refundPln = v; inv.totals.tax_in_tax_currency = parseDecimal(v); break;
      case "P_12_1": inv.totals.gross = parseDecimal(v); break;
      case "P_12_1W": inv.totals.gross_in_tax_currency = parseDecimal(v); break;
      case "P_12_2": inv.totals.gross_in_words = v; break;
      case "RodzajFaktury": inv.kind = codeOf(KSEF_RR_INVOICE_KINDS, v); break;
      case "DokumentZaplaty": {
        const f = fieldsOf(c, ns);
        _payment(inv).proof_documents.push({ number: field(f, "NrDokumentu"), date: parseDate(field(f, "DataDokumentu")) });
        break;
      }
      case "DodatkowyOpis": {
        const f = fieldsOf(c, ns);
        inv.additional_info.push({ line_number: field(f, "NrWiersza"), key: field(f, "Klucz"), value: field(f, "Wartosc") });
        break;
      }
      case "FakturaRRWiersz": inv.lines.push(_readLine(c, ns)); break;
      case "Rozliczenie": inv.settlement = readKsefSettlement(c, ns); break;
      case "Platnosc": _readPayment(c, ns, _payment(inv)); break;
      default:
        if (_readCorrection(c, v, ns, inv, correction)) corrects = true;
    }
  }
  inv.type = inv.kind?.code === "KOR_VAT_RR" ? "correction" : inv.kind?.code === "VAT_RR" ? "invoice" : "other";
  if (corrects || inv.type === "correction") inv.correction = correction;
  if (inv.currency !== null && inv.currency !== "PLN") inv.tax_currency = "PLN";
  for (const l of inv.lines) {
    if (l.exchange_rate !== null) {
      inv.exchange_rates.push({ applies_to: "line", line_number: l.number, from_currency: inv.currency, to_currency: "PLN", rate: l.exchange_rate, date: null });
    }
  }
  // One summary row: FA_RR has one refund total, whatever rates its lines have.
  if (inv.totals.net !== null || refund !== null) {
    const rates = new Set(inv.lines.map((l) => l.vat_rate).filter((r) => r !== null));
    inv.vat_breakdown.push({
      category: null, rate: rates.size === 1 ? [...rates][0] as string : null, taxable_amount: inv.totals.net,
      tax_amount: parseDecimal(refund), tax_amount_tax_currency: parseDecimal(refundPln), exemption_reason: null,
      exemption_reason_code: null, tax_scheme: null, line_total_basis_amount: null, allowance_charge_basis_amount: null,
      ksef_field: "P_11_1",
    });
  }
  inv.totals.payable = inv.settlement?.to_pay ?? inv.totals.gross;
}

function _payment(inv: Invoice): Payment {
  inv.payment ??= blankPayment();
  return inv.payment;
}

/** FakturaRRWiersz. */
function _readLine(el: XmlElement, ns: string): InvoiceLine {
  const l = blankLine();
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    const v = textOf(c);
    switch (c.local) {
      case "NrWierszaFa": l.number = v; break;
      case "UU_ID": l.uu_id = v; break;
      case "P_4AA": l.delivery_date = parseDate(v); break;
      case "P_5": l.name = v; break;
      case "GTIN": if (v !== null) l.standard_item_id = { value: v, scheme: "GTIN" }; break;
      case "PKWiU":
      case "CN":
        if (v !== null) l.classifications.push({ value: v, scheme: c.local, version: null });
        break;
      case "P_6A": l.unit = v; break;
      case "P_6B": l.quantity = parseDecimal(v); break;
      case "P_6C": l.quality_class = v; break;
      case "P_7": l.net_price = parseDecimal(v); break;
      case "P_8": l.net_amount = parseDecimal(v); break;
      case "P_9":
        l.vat_rate = v;
        l.vat_rate_text = v === null ? null : _REFUND_RATE_TEXT;
        break;
      case "P_10": l.vat_amount = parseDecimal(v); break;
      case "P_11": l.amount_with_vat = parseDecimal(v); break;
      case "StanPrzed": l.before_correction = v === "1"; break;
      case "KursWaluty": l.exchange_rate = parseDecimal(v); break;
    }
  }
  return l;
}

/** Platnosc of FA_RR: one form (1 transfer) or another described, the farmer's and the buyer's accounts, IPKSeF, link. */
function _readPayment(el: XmlElement, ns: string, p: Payment): void {
  for (const c of el.children) {
    if (c.ns !== ns) continue;
    const v = textOf(c);
    switch (c.local) {
      case "FormaPlatnosci": p.means = codeOf(KSEF_RR_PAYMENT_FORMS, v); break;
      case "PlatnoscInna": if (v === "1") p.means ??= { code: "other", text: null }; break;
      case "OpisPlatnosci": p.means_text = v; break;
      case "RachunekBankowy1": p.accounts.push({ ...readKsefAccount(c, ns, false), held_by: "seller" }); break;
      case "RachunekBankowy2": p.accounts.push({ ...readKsefAccount(c, ns, false), held_by: "buyer" }); break;
      case "IPKSeF": p.ksef_payment_id = v; break;
      case "LinkDoPlatnosci": p.link = v; break;
    }
  }
}

/** The fields of a correction (KOR_VAT_RR); false for others. */
function _readCorrection(c: XmlElement, v: string | null, ns: string, inv: Invoice, correction: Correction): boolean {
  switch (c.local) {
    case "PrzyczynaKorekty": correction.reason = v; break;
    case "TypKorekty": correction.type = codeOf(KSEF_RR_CORRECTION_TYPES, v); break;
    case "DaneFaKorygowanej": inv.references.preceding_invoices.push(readKsefCorrectedInvoice(c, ns)); break;
    case "NrFaKorygowany": correction.corrected_number = v; break;
    case "Podmiot1K": correction.seller_before = readKsefParty(c, ns); break;
    case "Podmiot2K": correction.buyers_before.push(readKsefParty(c, ns)); break;
    default: return false;
  }
  return true;
}
