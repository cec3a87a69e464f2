/**
 * Writes an invoice object as KSeF FA(3) (schemat_FA(3)_v1-0E.xsd, README "Creating invoices"), the inverse of
 * ksef.ts: reading the written XML gives the same object. UTF-8 with an XML declaration, the root's namespaces as
 * KSeF's official examples declare them, every element in the schema's sequence, values as given (amounts are never
 * computed here). Where FA(3) requires a value the object may lack, the writer puts the schema's "no": each
 * annotation of Adnotacje, Podmiot2's JST and GV (2), and RodzajFaktury VAT (KOR for a correction); other required
 * values that are missing are left out, for the schema validator to name. Values FA(3) has no place for are returned
 * as losses, never dropped silently; with `trace`, each written element's invoice-object field is returned too.
 * No clock is read: DataWytworzeniaFa is the object's `created_at` (of an FA(3) invoice) or the `now` option.
 * @module
 */

import { KSEF_INVOICE_KINDS } from "./code_lists.ts";
import { KSEF_FA3_NS, KSEF_VAT_FIELDS } from "./ksef.ts";
import { writeKsefAnnotations, writeKsefAttachments, writeKsefFooter } from "./ksef_write_annex.ts";
import { fa3Rate, writeKsefLine } from "./ksef_write_line.ts";
import { NO_FA3_PLACE, writeKsefParty } from "./ksef_write_party.ts";
import { writeKsefPayment, writeKsefSettlement, writeKsefTransactionTerms } from "./ksef_write_payment.ts";
import type { Invoice, VatBreakdown } from "./model.ts";
import { lose, loseFields } from "./write_losses.ts";
import type { TracedWriteResult, WriteLoss, WriteOptions } from "./write_result.ts";
import { TracedWriter } from "./write_trace.ts";

/** The namespace of KSeF's base types, declared as `etd` by the official FA(3) examples. */
const ETD_NS = "http://crd.gov.pl/xml/schematy/dziedzinowe/mf/2022/01/05/eD/DefinicjeTypy/";
const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";

/** Options of writeKsefFa3. */
export interface KsefFa3WriteOptions extends WriteOptions {
  /** When the XML is made (DataWytworzeniaFa) unless the object is an FA(3) invoice that says so itself. */
  now?: Date;
}

/** The FA(3) XML, the values it has no place for and, with `trace`, where each written value came from. */
export type KsefFa3WriteResult = TracedWriteResult;

/** Writes `invoice` as an FA(3) (1-0E) invoice. */
export function writeKsefFa3(invoice: Invoice, options: KsefFa3WriteOptions = {}): KsefFa3WriteResult {
  const w = new TracedWriter(options.trace === true);
  const losses: WriteLoss[] = [];
  w.open("Faktura", null, { "xmlns:etd": ETD_NS, "xmlns:xsi": XSI_NS, xmlns: KSEF_FA3_NS });
  _header(w, invoice, options, losses);
  writeKsefParty(w, "Podmiot1", invoice.seller, "invoice.seller", losses);
  writeKsefParty(w, "Podmiot2", invoice.buyer, "invoice.buyer", losses);
  for (let i = 0; i < invoice.third_parties.length; i++) {
    writeKsefParty(w, "Podmiot3", invoice.third_parties[i]!, `invoice.third_parties[${i}]`, losses);
  }
  if (invoice.authorized_party !== null) writeKsefParty(w, "PodmiotUpowazniony", invoice.authorized_party, "invoice.authorized_party", losses);
  _fa(w, invoice, losses);
  writeKsefFooter(w, invoice, losses);
  writeKsefAttachments(w, invoice.attachments, losses);
  w.close();
  _invoiceLosses(invoice, losses);
  return { xml: w.toString(), losses, fields: w.fields() };
}

/** Naglowek: the form code and variant, when the XML was made, the issuing system. */
function _header(w: TracedWriter, inv: Invoice, options: KsefFa3WriteOptions, losses: WriteLoss[]): void {
  w.open("Naglowek");
  w.leaf("KodFormularza", "FA", null, { kodSystemowy: "FA (3)", wersjaSchemy: "1-0E" });
  w.leaf("WariantFormularza", "3");
  let created = inv.created_at;
  if (options.now !== undefined && (inv.format !== "ksef-fa3" || created === null)) {
    // Another form's creation time is not this XML's: FA(3) records when its own XML was made.
    lose(losses, "invoice.created_at", created, "DataWytworzeniaFa is when the FA(3) XML was made: written as now");
    created = options.now.toISOString();
  }
  w.leaf("DataWytworzeniaFa", created, "invoice.created_at");
  w.leaf("SystemInfo", inv.system_info, "invoice.system_info");
  w.close();
}

/** Fa, in the schema's sequence. */
function _fa(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  w.open("Fa", "invoice");
  w.leaf("KodWaluty", inv.currency, "invoice.currency");
  w.leaf("P_1", inv.issue_date, "invoice.issue_date");
  w.leaf("P_1M", inv.issue_place, "invoice.issue_place");
  w.leaf("P_2", inv.number, "invoice.number");
  const notes = inv.references.delivery_notes;
  for (let i = 0; i < notes.length; i++) w.leaf("WZ", notes[i], `invoice.references.delivery_notes[${i}]`);
  _delivery(w, inv, losses);
  _vatSums(w, inv, losses);
  w.leaf("P_15", inv.totals.gross, "invoice.totals.gross");
  w.leaf("KursWalutyZ", _rate(inv, "advance"), "invoice.exchange_rates");
  writeKsefAnnotations(w, inv.annotations, losses);
  w.leaf("RodzajFaktury", _kind(inv, losses), "invoice.kind");
  _correction(w, inv, losses);
  for (let i = 0; i < inv.advance_payments.length; i++) {
    const a = inv.advance_payments[i]!;
    const f = `invoice.advance_payments[${i}]`;
    w.open("ZaliczkaCzesciowa", f).leaf("P_6Z", a.date, `${f}.date`).leaf("P_15Z", a.amount, `${f}.amount`)
      .leaf("KursWalutyZW", a.exchange_rate, `${f}.exchange_rate`).close();
    lose(losses, `${f}.means`, a.means, NO_FA3_PLACE);
  }
  if (inv.markers?.receipt_invoice) w.leaf("FP", "1", "invoice.markers.receipt_invoice");
  if (inv.markers?.related_parties) w.leaf("TP", "1", "invoice.markers.related_parties");
  for (let i = 0; i < inv.additional_info.length; i++) {
    const d = inv.additional_info[i]!;
    const f = `invoice.additional_info[${i}]`;
    w.open("DodatkowyOpis", f).leaf("NrWiersza", d.line_number, `${f}.line_number`).leaf("Klucz", d.key, `${f}.key`)
      .leaf("Wartosc", d.value, `${f}.value`).close();
  }
  for (let i = 0; i < inv.references.advance_invoices.length; i++) {
    const a = inv.references.advance_invoices[i]!;
    const f = `invoice.references.advance_invoices[${i}]`;
    w.open("FakturaZaliczkowa", f);
    if (a.ksef_number !== null) {
      w.leaf("NrKSeFFaZaliczkowej", a.ksef_number, `${f}.ksef_number`);
      lose(losses, `${f}.number`, a.number, "FA(3) names an advance invoice by its KSeF number when it has one");
    } else w.leaf("NrKSeFZN", "1", `${f}.ksef_number`).leaf("NrFaZaliczkowej", a.number, `${f}.number`);
    w.close();
  }
  if (inv.markers?.excise_refund) w.leaf("ZwrotAkcyzy", "1", "invoice.markers.excise_refund");
  for (let i = 0; i < inv.lines.length; i++) writeKsefLine(w, inv.lines[i]!, `invoice.lines[${i}]`, false, losses);
  if (inv.settlement !== null) writeKsefSettlement(w, inv.settlement, losses);
  if (inv.payment !== null) writeKsefPayment(w, inv.payment, losses);
  if (inv.transaction_terms !== null) writeKsefTransactionTerms(w, inv.transaction_terms, losses);
  for (let i = 0; i < inv.orders.length; i++) {
    const o = inv.orders[i]!;
    const f = `invoice.orders[${i}]`;
    if (i > 0) {
      lose(losses, f, o, "FA(3) takes one order (Zamowienie)");
      continue;
    }
    w.open("Zamowienie", f).leaf("WartoscZamowienia", o.value, `${f}.value`);
    for (let j = 0; j < o.lines.length; j++) writeKsefLine(w, o.lines[j]!, `${f}.lines[${j}]`, true, losses);
    w.close();
  }
  w.close();
}

/** P_6 (date of supply) or OkresFa (P_6_Od, P_6_Do): a choice, so a date wins over a period. */
function _delivery(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  const d = inv.delivery;
  if (d === null) return;
  const f = "invoice.delivery";
  loseFields(losses, d, ["party_name", "location_id", "address"], f, NO_FA3_PLACE);
  if (d.date !== null) {
    w.leaf("P_6", d.date, `${f}.date`);
    lose(losses, `${f}.period`, d.period, "FA(3) takes either the date of supply or a period");
  } else if (d.period !== null) {
    w.open("OkresFa", `${f}.period`).leaf("P_6_Od", d.period.start, `${f}.period.start`).leaf("P_6_Do", d.period.end, `${f}.period.end`).close();
    lose(losses, `${f}.period.description`, d.period.description, NO_FA3_PLACE);
  }
}

/** The FA(3) summary fields (P_13_1 … P_13_11), in the schema's order. */
const FA3_VAT_FIELDS = KSEF_VAT_FIELDS.filter((f) => f.net !== "P_13_6");
const FIELD_ORDER = new Map(FA3_VAT_FIELDS.map((f, i) => [f.net, i]));

/** The P_13 field a VAT breakdown row belongs in: its own (read from KSeF), else the one of its rate; -1 for none. */
function _vatField(row: VatBreakdown): number {
  const own = row.ksef_field === null ? undefined : FIELD_ORDER.get(row.ksef_field);
  if (own !== undefined) return own;
  const rate = row.rate === "OSS" || row.rate === "marża" ? row.rate : fa3Rate(row.rate, row.category)?.rate;
  if (rate === undefined || rate === null) return -1;
  return FA3_VAT_FIELDS.findIndex((f) => f.rate === rate || f.alt === rate);
}

/** P_13_x, P_14_x, P_14_xW per VAT breakdown row; one row per field (a second is a loss). */
function _vatSums(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  const rows = inv.vat_breakdown;
  const at: number[] = new Array(FA3_VAT_FIELDS.length).fill(-1);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const f = `invoice.vat_breakdown[${i}]`;
    const k = _vatField(row);
    if (k < 0) lose(losses, f, row, "FA(3) has no summary field for this VAT rate");
    else if (at[k]! >= 0) lose(losses, f, row, `FA(3) has one summary field per rate: ${FA3_VAT_FIELDS[k]!.net} holds another row`);
    else at[k] = i;
    loseFields(losses, row, ["exemption_reason_code", "line_total_basis_amount", "allowance_charge_basis_amount"], f, NO_FA3_PLACE);
    if (row.tax_scheme !== null && row.tax_scheme !== "VAT") lose(losses, `${f}.tax_scheme`, row.tax_scheme, NO_FA3_PLACE);
  }
  for (let k = 0; k < at.length; k++) {
    const i = at[k]!;
    if (i < 0) continue;
    const row = rows[i]!;
    const field = FA3_VAT_FIELDS[k]!;
    const f = `invoice.vat_breakdown[${i}]`;
    // FA(2)'s P_13_6 (rate 0) and numeric or category-only rates read back with the rate of the FA(3) field.
    if (row.rate !== null && row.rate !== field.rate && row.rate !== field.alt) {
      lose(losses, `${f}.rate`, row.rate, `FA(3) writes this rate with its own code: ${field.net} (${field.rate})`);
    }
    w.leaf(field.net, row.taxable_amount, `${f}.taxable_amount`);
    if (field.tax !== null) {
      w.leaf(field.tax, row.tax_amount, `${f}.tax_amount`);
      // P_13_5 (OSS) has no PLN amount.
      if (field.net !== "P_13_5") w.leaf(`${field.tax}W`, row.tax_amount_tax_currency, `${f}.tax_amount_tax_currency`);
      else lose(losses, `${f}.tax_amount_tax_currency`, row.tax_amount_tax_currency, NO_FA3_PLACE);
    } else {
      if (row.tax_amount !== null && !/^-?0*(\.0*)?$/.test(row.tax_amount)) lose(losses, `${f}.tax_amount`, row.tax_amount, `FA(3) has no tax amount for ${field.net}`);
      lose(losses, `${f}.tax_amount_tax_currency`, row.tax_amount_tax_currency, `FA(3) has no tax amount for ${field.net}`);
    }
    // The reader derives an exempt row's reason from Adnotacje/Zwolnienie; any other reason has no place.
    const basis = inv.annotations?.exemption;
    const derived = field.rate === "zw" && basis ? (basis.act ?? basis.directive ?? basis.other) : null;
    if (row.exemption_reason !== derived) lose(losses, `${f}.exemption_reason`, row.exemption_reason, NO_FA3_PLACE);
  }
}

/** The rate that applies to `applies_to`, as the reader lists it. */
function _rate(inv: Invoice, appliesTo: "advance"): string | null {
  for (const r of inv.exchange_rates) if (r.applies_to === appliesTo) return r.rate;
  return null;
}

/** RodzajFaktury: the object's KSeF kind, else VAT (KOR for a correction or credit note). */
function _kind(inv: Invoice, losses: WriteLoss[]): string {
  const code = inv.kind?.code ?? null;
  if (code !== null && Object.hasOwn(KSEF_INVOICE_KINDS, code)) return code;
  const kind = inv.type === "correction" || inv.type === "credit_note" ? "KOR" : "VAT";
  lose(losses, "invoice.kind", code, `FA(3) has its own invoice kinds: written as ${kind}`);
  return kind;
}

/** The correction block: reason, type, the corrected invoices, the data before the correction. */
function _correction(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  const c = inv.correction;
  const refs = inv.references.preceding_invoices;
  if (c === null && refs.length === 0) return;
  const f = "invoice.correction";
  w.leaf("PrzyczynaKorekty", c?.reason, `${f}.reason`);
  w.leaf("TypKorekty", c?.type?.code, `${f}.type`);
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i]!;
    const rf = `invoice.references.preceding_invoices[${i}]`;
    w.open("DaneFaKorygowanej", rf);
    w.leaf("DataWystFaKorygowanej", r.issue_date, `${rf}.issue_date`);
    w.leaf("NrFaKorygowanej", r.number, `${rf}.number`);
    if (r.ksef_number !== null) w.leaf("NrKSeF", "1", `${rf}.in_ksef`).leaf("NrKSeFFaKorygowanej", r.ksef_number, `${rf}.ksef_number`);
    else w.leaf("NrKSeFN", "1", `${rf}.in_ksef`);
    w.close();
  }
  if (c === null) return;
  w.leaf("OkresFaKorygowanej", c.period, `${f}.period`);
  w.leaf("NrFaKorygowany", c.corrected_number, `${f}.corrected_number`);
  if (c.seller_before !== null) writeKsefParty(w, "Podmiot1K", c.seller_before, `${f}.seller_before`, losses);
  for (let i = 0; i < c.buyers_before.length; i++) writeKsefParty(w, "Podmiot2K", c.buyers_before[i]!, `${f}.buyers_before[${i}]`, losses);
  if (c.amount_before !== null) {
    w.leaf("P_15ZK", c.amount_before, `${f}.amount_before`);
    w.leaf("KursWalutyZK", c.exchange_rate_before, `${f}.exchange_rate_before`);
  } else lose(losses, `${f}.exchange_rate_before`, c.exchange_rate_before, "FA(3) takes the rate before the correction only with P_15ZK");
}

/** The invoice-level values FA(3) has no element for, and those it derives from others that would read back otherwise. */
function _invoiceLosses(inv: Invoice, losses: WriteLoss[]): void {
  loseFields(losses, inv, ["business_process", "tax_point_date", "tax_point_date_code", "payee", "tax_representative", "allowances_charges", "notes"], "invoice", NO_FA3_PLACE);
  if (inv.profile !== null && !inv.profile.startsWith("FA (")) lose(losses, "invoice.profile", inv.profile, NO_FA3_PLACE);
  const r = inv.references;
  loseFields(losses, r, [
    "buyer_reference", "project", "contract", "order", "sales_order", "receiving_advice", "despatch_advice", "tender",
    "invoiced_object", "accounting_reference",
  ], "invoice.references", NO_FA3_PLACE);
  if (inv.tax_currency !== null && inv.tax_currency !== "PLN") lose(losses, "invoice.tax_currency", inv.tax_currency, "FA(3) converts VAT to PLN only");
  for (let i = 0; i < inv.exchange_rates.length; i++) {
    const x = inv.exchange_rates[i]!;
    const f = `invoice.exchange_rates[${i}]`;
    if (x.applies_to === "invoice") lose(losses, f, x, "FA(3) gives exchange rates per line, advance, correction or contract only");
    else lose(losses, `${f}.date`, x.date, NO_FA3_PLACE);
  }
  const t = inv.totals;
  loseFields(losses, t, ["line_net", "allowances", "charges", "net_in_tax_currency", "gross_in_tax_currency", "gross_in_words", "prepaid", "rounding"], "invoice.totals", NO_FA3_PLACE);
  if (t.payable !== null && t.payable !== (inv.settlement?.to_pay ?? t.gross)) {
    lose(losses, "invoice.totals.payable", t.payable, "FA(3) has the amount due only as P_15 or Rozliczenie/DoZaplaty");
  }
}
