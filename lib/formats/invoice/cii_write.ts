/**
 * Writes the invoice object as a UN/CEFACT Cross Industry Invoice D16B (EN 16931-3-3 CII syntax binding; README
 * "Creating invoices"): the inverse of cii.ts, so that reading what it writes gives the same object. Elements in
 * the order of the CII D16B schema with the rsm:, ram:, udt: and qdt: prefixes of the CEN examples; amounts as
 * given, never recomputed. Values CII has no place for come back as losses.
 * @module
 */

import { CII_RSM_NS, CII_TOTALS_NAMES } from "./cii.ts";
import { VAT_POINT_UBL_TO_CII } from "./code_lists.ts";
import { writeCiiLine } from "./cii_write_line.ts";
import { ciiDateText, writeCiiAddress, writeCiiAllowanceCharge, writeCiiDate, writeCiiParty, writeCiiPeriod } from "./cii_write_party.ts";
import { CII_COVERED, CII_PARTY_COVERED } from "./cii_write_fields.ts";
import { RAM } from "./cii_party.ts";
import type { Invoice, Payment } from "./model.ts";
import { collectLosses, coveredFields, lose, percentOrLose } from "./write_losses.ts";
import type { TracedWriteResult, WriteLoss, WriteOptions } from "./write_result.ts";
import { isUblFormat } from "./vocabulary.ts";
import { TracedWriter } from "./write_trace.ts";

const UDT = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100";
const QDT = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100";

/** UNTDID 1001 codes of ram:AdditionalReferencedDocument/TypeCode: BT-18, BT-17, and a supporting document (BG-24). */
const DOC_INVOICED_OBJECT = "130";
const DOC_TENDER = "50";
const DOC_SUPPORTING = "916";
/** ram:SpecifiedProcuringProject requires a name; EN 16931 has only the project reference (BT-11). */
const PROJECT_NAME = "Project reference";
/** The tax type code of EN 16931's VAT. */
const VAT = "VAT";
/** UNCL4461 1 "Instrument not defined": the code of payment means that the object gives accounts but no code for. */
const MEANS_NOT_DEFINED = "1";
/** The role the CII reader gives ram:InvoiceeTradeParty among the third parties. */
const INVOICEE = "invoicee";
const LOSS = "CII D16B (EN 16931 binding) has no element for this value";

/** Writes `inv` as a CrossIndustryInvoice; throws InvoiceError, naming the field, for a value with a character XML cannot carry. */
export function writeCii(inv: Invoice, options: WriteOptions = {}): TracedWriteResult {
  const losses: WriteLoss[] = [];
  collectLosses(inv, CII_COVERED, LOSS, losses, "invoice");
  const w = new TracedWriter(options.trace === true);
  w.open("rsm:CrossIndustryInvoice", null, { "xmlns:rsm": CII_RSM_NS, "xmlns:qdt": QDT, "xmlns:ram": RAM, "xmlns:udt": UDT });
  w.open("rsm:ExchangedDocumentContext");
  if (inv.business_process !== null) {
    w.open("ram:BusinessProcessSpecifiedDocumentContextParameter").leaf("ram:ID", inv.business_process, "invoice.business_process").close();
  }
  if (inv.profile !== null) w.open("ram:GuidelineSpecifiedDocumentContextParameter").leaf("ram:ID", inv.profile, "invoice.profile").close();
  w.close();
  _document(w, inv);
  w.open("rsm:SupplyChainTradeTransaction");
  for (let i = 0; i < inv.lines.length; i++) writeCiiLine(w, inv.lines[i]!, i, losses);
  _agreement(w, inv, losses);
  _delivery(w, inv, losses);
  _settlement(w, inv, losses);
  w.close().close();
  return { xml: w.toString(), losses, fields: w.fields() };
}

/** rsm:ExchangedDocument: BT-1, BT-3, BT-2, BG-1. */
function _document(w: TracedWriter, inv: Invoice): void {
  w.open("rsm:ExchangedDocument");
  w.leaf("ram:ID", inv.number, "invoice.number");
  w.leaf("ram:TypeCode", inv.kind?.code, "invoice.kind");
  writeCiiDate(w, "ram:IssueDateTime", inv.issue_date, "invoice.issue_date");
  const fromUbl = isUblFormat(inv.format);
  for (let i = 0; i < inv.notes.length; i++) {
    const n = inv.notes[i]!;
    // UBL carries the subject code (BT-21) as a "#code#" prefix of the text; CII has ram:SubjectCode for it.
    const prefix = fromUbl && n.subject_code !== null ? `#${n.subject_code}#` : null;
    const text = prefix !== null && n.text.startsWith(prefix) ? n.text.slice(prefix.length) : n.text;
    w.open("ram:IncludedNote").leaf("ram:Content", text, `invoice.notes[${i}].text`);
    w.leaf("ram:SubjectCode", n.subject_code, `invoice.notes[${i}].subject_code`).close();
  }
  w.close();
}

/** ram:ApplicableHeaderTradeAgreement: BT-10, the parties, BT-11…BT-18, BG-24. */
function _agreement(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  const r = inv.references;
  w.open("ram:ApplicableHeaderTradeAgreement");
  w.leaf("ram:BuyerReference", r.buyer_reference, "invoice.references.buyer_reference");
  writeCiiParty(w, "ram:SellerTradeParty", inv.seller, "invoice.seller", losses, _ublCreditorId(inv));
  writeCiiParty(w, "ram:BuyerTradeParty", inv.buyer, "invoice.buyer", losses);
  if (inv.tax_representative !== null) writeCiiParty(w, "ram:SellerTaxRepresentativeTradeParty", inv.tax_representative, "invoice.tax_representative", losses);
  _issuerId(w, "ram:SellerOrderReferencedDocument", r.sales_order, "invoice.references.sales_order");
  _issuerId(w, "ram:BuyerOrderReferencedDocument", r.order, "invoice.references.order");
  _issuerId(w, "ram:ContractReferencedDocument", r.contract, "invoice.references.contract");
  for (let i = 0; i < inv.attachments.length; i++) {
    const a = inv.attachments[i]!;
    const f = `invoice.attachments[${i}]`;
    w.open("ram:AdditionalReferencedDocument").leaf("ram:IssuerAssignedID", a.id ?? "", `${f}.id`);
    w.leaf("ram:URIID", a.url, `${f}.url`).leaf("ram:TypeCode", DOC_SUPPORTING, null).leaf("ram:Name", a.description, `${f}.description`);
    w.close();
    lose(losses, `${f}.filename`, a.filename, "The invoice object does not carry the attached document's content");
    lose(losses, `${f}.mime_code`, a.mime_code, "The invoice object does not carry the attached document's content");
  }
  if (r.tender !== null) {
    w.open("ram:AdditionalReferencedDocument").leaf("ram:IssuerAssignedID", r.tender, "invoice.references.tender");
    w.leaf("ram:TypeCode", DOC_TENDER, null).close();
  }
  const obj = r.invoiced_object;
  if (obj !== null) {
    w.open("ram:AdditionalReferencedDocument").leaf("ram:IssuerAssignedID", obj.value, "invoice.references.invoiced_object");
    w.leaf("ram:TypeCode", DOC_INVOICED_OBJECT, null).leaf("ram:ReferenceTypeCode", obj.scheme, "invoice.references.invoiced_object").close();
  }
  if (r.project !== null) {
    w.open("ram:SpecifiedProcuringProject").leaf("ram:ID", r.project, "invoice.references.project").leaf("ram:Name", PROJECT_NAME, null).close();
  }
  w.close();
}

/** The SEPA creditor id (BT-90) of an invoice read from UBL, which has it among the seller's or payee's identifiers. */
function _ublCreditorId(inv: Invoice): string | null {
  return isUblFormat(inv.format) ? inv.payment?.direct_debit?.creditor_id ?? null : null;
}

function _issuerId(w: TracedWriter, element: string, id: string | null, field: string): void {
  if (id !== null) w.open(element).leaf("ram:IssuerAssignedID", id, field).close();
}

/** ram:ApplicableHeaderTradeDelivery (required): BG-13, BT-15, BT-16, the first delivery note. */
function _delivery(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  const d = inv.delivery;
  const r = inv.references;
  w.open("ram:ApplicableHeaderTradeDelivery");
  if (d !== null && (d.party_name !== null || d.location_id !== null || d.address !== null)) {
    w.open("ram:ShipToTradeParty");
    const loc = d.location_id;
    if (loc !== null) {
      if (loc.scheme === null) w.leaf("ram:ID", loc.value, "invoice.delivery.location_id");
      else w.leaf("ram:GlobalID", loc.value, "invoice.delivery.location_id", { schemeID: loc.scheme });
    }
    w.leaf("ram:Name", d.party_name, "invoice.delivery.party_name");
    if (d.address !== null) writeCiiAddress(w, d.address, "invoice.delivery.address", losses);
    w.close();
  }
  if (d !== null && d.date !== null) {
    w.open("ram:ActualDeliverySupplyChainEvent");
    writeCiiDate(w, "ram:OccurrenceDateTime", d.date, "invoice.delivery.date");
    w.close();
  }
  _issuerId(w, "ram:DespatchAdviceReferencedDocument", r.despatch_advice, "invoice.references.despatch_advice");
  _issuerId(w, "ram:ReceivingAdviceReferencedDocument", r.receiving_advice, "invoice.references.receiving_advice");
  _issuerId(w, "ram:DeliveryNoteReferencedDocument", r.delivery_notes[0] ?? null, "invoice.references.delivery_notes[0]");
  for (let i = 1; i < r.delivery_notes.length; i++) lose(losses, `invoice.references.delivery_notes[${i}]`, r.delivery_notes[i], "CII D16B has one delivery note reference");
  w.close();
}

/** ram:ApplicableHeaderTradeSettlement: payment, currencies, payee, VAT breakdown, allowances, totals, BG-3, BT-19. */
function _settlement(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  const p = inv.payment;
  const r = inv.references;
  w.open("ram:ApplicableHeaderTradeSettlement");
  w.leaf("ram:CreditorReferenceID", p?.direct_debit?.creditor_id, "invoice.payment.direct_debit.creditor_id");
  w.leaf("ram:PaymentReference", p?.remittance_info, "invoice.payment.remittance_info");
  w.leaf("ram:TaxCurrencyCode", inv.tax_currency, "invoice.tax_currency");
  w.leaf("ram:InvoiceCurrencyCode", inv.currency, "invoice.currency");
  _invoicee(w, inv, losses);
  if (inv.payee !== null) writeCiiParty(w, "ram:PayeeTradeParty", inv.payee, "invoice.payee", losses, _ublCreditorId(inv));
  _exchangeRate(w, inv, losses);
  if (p !== null) _means(w, p);
  _vatBreakdown(w, inv, losses);
  let period = inv.delivery?.period ?? null;
  // From UBL the period's description is BT-8 (its DescriptionCode), which CII writes as the VAT row's DueDateTypeCode.
  if (period !== null && isUblFormat(inv.format)) period = { ...period, description: null };
  if (period !== null) writeCiiPeriod(w, period, "invoice.delivery.period");
  for (let i = 0; i < inv.allowances_charges.length; i++) writeCiiAllowanceCharge(w, inv.allowances_charges[i]!, `invoice.allowances_charges[${i}]`);
  if (p !== null) _terms(w, p, losses);
  _totals(w, inv);
  const pre = r.preceding_invoices[0];
  if (pre !== undefined) {
    w.open("ram:InvoiceReferencedDocument").leaf("ram:IssuerAssignedID", pre.number ?? "", "invoice.references.preceding_invoices[0].number");
    writeCiiDate(w, "ram:FormattedIssueDateTime", pre.issue_date, "invoice.references.preceding_invoices[0].issue_date", true);
    w.close();
  }
  for (let i = 1; i < r.preceding_invoices.length; i++) {
    const x = r.preceding_invoices[i]!;
    lose(losses, `invoice.references.preceding_invoices[${i}].number`, x.number, "CII D16B has one preceding invoice reference");
    lose(losses, `invoice.references.preceding_invoices[${i}].issue_date`, x.issue_date, "CII D16B has one preceding invoice reference");
  }
  if (r.accounting_reference !== null) {
    w.open("ram:ReceivableSpecifiedTradeAccountingAccount").leaf("ram:ID", r.accounting_reference, "invoice.references.accounting_reference").close();
  }
  w.close();
}

/** ram:InvoiceeTradeParty: the first third party with the invoicee role; every other third party is a loss. */
function _invoicee(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  let written = false;
  for (let i = 0; i < inv.third_parties.length; i++) {
    const t = inv.third_parties[i]!;
    const field = `invoice.third_parties[${i}]`;
    if (!written && t.role?.code === INVOICEE) {
      written = true;
      writeCiiParty(w, "ram:InvoiceeTradeParty", t, field, losses);
      collectLosses(t, CII_PARTY_COVERED, LOSS, losses, field);
    } else collectLosses(t, coveredFields([]), "CII has no place for this party", losses, field);
  }
}

/** What of an exchange rate CII does not write is not a loss by itself: where it applies. */
const _RATE_COVERED = coveredFields(["applies_to"]);

/** ram:TaxApplicableTradeCurrencyExchange: the document's rate (BT-6 context); any other rate is a loss. */
function _exchangeRate(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  let written = false;
  for (let i = 0; i < inv.exchange_rates.length; i++) {
    const x = inv.exchange_rates[i]!;
    const f = `invoice.exchange_rates[${i}]`;
    if (!written && x.applies_to === "invoice" && x.line_number === null) {
      written = true;
      w.open("ram:TaxApplicableTradeCurrencyExchange");
      w.leaf("ram:SourceCurrencyCode", x.from_currency ?? inv.currency ?? "", `${f}.from_currency`);
      w.leaf("ram:TargetCurrencyCode", x.to_currency ?? inv.tax_currency ?? "", `${f}.to_currency`);
      w.leaf("ram:ConversionRate", x.rate, `${f}.rate`);
      writeCiiDate(w, "ram:ConversionRateDateTime", x.date, `${f}.date`);
      w.close();
    } else collectLosses(x, _RATE_COVERED, "CII has one exchange rate, the document's", losses, f);
  }
}

/** ram:SpecifiedTradeSettlementPaymentMeans, one per account (at least one when the means say anything). */
function _means(w: TracedWriter, p: Payment): void {
  const debited = p.direct_debit?.debited_account ?? null;
  const meansData = p.means !== null || p.means_text !== null || p.card !== null || debited !== null;
  const count = Math.max(p.accounts.length, meansData ? 1 : 0);
  for (let i = 0; i < count; i++) {
    const first = i === 0;
    w.open("ram:SpecifiedTradeSettlementPaymentMeans");
    w.leaf("ram:TypeCode", p.means?.code ?? MEANS_NOT_DEFINED, "invoice.payment.means");
    if (first) {
      w.leaf("ram:Information", p.means_text, "invoice.payment.means_text");
      if (p.card !== null) {
        w.open("ram:ApplicableTradeSettlementFinancialCard").leaf("ram:ID", p.card.pan, "invoice.payment.card.pan");
        w.leaf("ram:CardholderName", p.card.holder, "invoice.payment.card.holder").close();
      }
      if (debited !== null) w.open("ram:PayerPartyDebtorFinancialAccount").leaf("ram:IBANID", debited, "invoice.payment.direct_debit.debited_account").close();
    }
    const a = p.accounts[i];
    if (a !== undefined) {
      const f = `invoice.payment.accounts[${i}]`;
      w.open("ram:PayeePartyCreditorFinancialAccount").leaf("ram:IBANID", a.number, `${f}.number`).leaf("ram:AccountName", a.name, `${f}.name`).close();
      if (a.bic !== null) w.open("ram:PayeeSpecifiedCreditorFinancialInstitution").leaf("ram:BICID", a.bic, `${f}.bic`).close();
    }
    w.close();
  }
}

/** A payment discount's conditions as the CII reader gives them: "30 DAY", the period measure and its unit. */
const _DISCOUNT_PERIOD = /^(-?\d+(?:\.\d+)?)(?: ([A-Z0-9]{1,3}))?$/;

/**
 * ram:SpecifiedTradePaymentTerms, one per due date (at least one when there are terms, a mandate or a discount);
 * the first carries the text (BT-20), the mandate (BT-89) and the discount.
 */
function _terms(w: TracedWriter, p: Payment, losses: WriteLoss[]): void {
  const mandate = p.direct_debit?.mandate ?? null;
  const discount = p.discount;
  const period = discount?.conditions == null ? null : _DISCOUNT_PERIOD.exec(discount.conditions);
  if (discount !== null && discount.conditions !== null && period === null) {
    lose(losses, "invoice.payment.discount.conditions", discount.conditions, "CII gives a payment discount as a period measure");
  }
  const hasDiscount = discount !== null && (period !== null || discount.amount !== null);
  const count = Math.max(p.due_dates.length, p.terms !== null || mandate !== null || hasDiscount ? 1 : 0);
  for (let i = 0; i < count; i++) {
    const first = i === 0;
    w.open("ram:SpecifiedTradePaymentTerms");
    if (first) w.leaf("ram:Description", p.terms, "invoice.payment.terms");
    const due = p.due_dates[i];
    if (due !== undefined) writeCiiDate(w, "ram:DueDateDateTime", due.date, `invoice.payment.due_dates[${i}].date`);
    if (first) w.leaf("ram:DirectDebitMandateID", mandate, "invoice.payment.direct_debit.mandate");
    if (first && hasDiscount) {
      w.open("ram:ApplicableTradePaymentDiscountTerms");
      if (period !== null) w.leaf("ram:BasisPeriodMeasure", period[1], "invoice.payment.discount.conditions", { unitCode: period[2] });
      w.leaf("ram:CalculationPercent", discount!.amount, "invoice.payment.discount.amount");
      w.close();
    }
    w.close();
  }
}

/**
 * ram:ApplicableTradeTax per VAT breakdown row (BG-23); the first carries BT-7 and BT-8, which CII gives per row.
 */
function _vatBreakdown(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  const fromUbl = isUblFormat(inv.format) && inv.tax_point_date_code === null;
  const ublCode = inv.delivery?.period?.description ?? null;
  const code = fromUbl ? (ublCode === null ? null : VAT_POINT_UBL_TO_CII[ublCode] ?? ublCode) : inv.tax_point_date_code;
  const codeField = fromUbl ? "invoice.delivery.period.description" : "invoice.tax_point_date_code";
  for (let i = 0; i < inv.vat_breakdown.length; i++) {
    const v = inv.vat_breakdown[i]!;
    const f = `invoice.vat_breakdown[${i}]`;
    const first = i === 0;
    w.open("ram:ApplicableTradeTax", f);
    w.leaf("ram:CalculatedAmount", v.tax_amount, `${f}.tax_amount`);
    w.leaf("ram:TypeCode", v.tax_scheme ?? VAT, `${f}.tax_scheme`);
    w.leaf("ram:ExemptionReason", v.exemption_reason, `${f}.exemption_reason`);
    w.leaf("ram:BasisAmount", v.taxable_amount, `${f}.taxable_amount`);
    w.leaf("ram:LineTotalBasisAmount", v.line_total_basis_amount, `${f}.line_total_basis_amount`);
    w.leaf("ram:AllowanceChargeBasisAmount", v.allowance_charge_basis_amount, `${f}.allowance_charge_basis_amount`);
    w.leaf("ram:CategoryCode", v.category?.code, `${f}.category`);
    w.leaf("ram:ExemptionReasonCode", v.exemption_reason_code, `${f}.exemption_reason_code`);
    if (first && inv.tax_point_date !== null) {
      w.open("ram:TaxPointDate").leaf("udt:DateString", ciiDateText(inv.tax_point_date), "invoice.tax_point_date", { format: "102" }).close();
    }
    if (first) w.leaf("ram:DueDateTypeCode", code, codeField);
    w.leaf("ram:RateApplicablePercent", percentOrLose(losses, `${f}.rate`, v.rate), `${f}.rate`);
    w.close();
  }
  if (inv.vat_breakdown.length === 0) {
    lose(losses, "invoice.tax_point_date", inv.tax_point_date, "CII gives the VAT point date in a VAT breakdown row, and there is none");
    lose(losses, codeField, code, "CII gives the VAT point date code in a VAT breakdown row, and there is none");
  }
}

const _TOTALS = Object.keys(CII_TOTALS_NAMES) as (keyof typeof CII_TOTALS_NAMES)[];
const _TOTALS_FIELDS = Object.fromEntries(_TOTALS.map((k) => [k, `invoice.totals.${k}`])) as Record<keyof typeof CII_TOTALS_NAMES, string>;

/** ram:SpecifiedTradeSettlementHeaderMonetarySummation (BG-22): BT-110 in the document currency, BT-111 in the tax currency. */
function _totals(w: TracedWriter, inv: Invoice): void {
  const t = inv.totals;
  if (t.line_net === null && t.charges === null && t.allowances === null && t.net === null && t.tax === null &&
    t.tax_in_tax_currency === null && t.rounding === null && t.gross === null && t.prepaid === null && t.payable === null) return;
  w.open("ram:SpecifiedTradeSettlementHeaderMonetarySummation");
  // The reader's table of element names, in schema order; BT-110 and BT-111 go before the rounding amount.
  for (const key of _TOTALS) {
    if (key === "rounding") {
      w.leaf("ram:TaxTotalAmount", t.tax, "invoice.totals.tax", { currencyID: inv.currency });
      w.leaf("ram:TaxTotalAmount", t.tax_in_tax_currency, "invoice.totals.tax_in_tax_currency", { currencyID: inv.tax_currency });
    }
    w.leaf(`ram:${CII_TOTALS_NAMES[key]}`, t[key], _TOTALS_FIELDS[key]);
  }
  w.close();
}
