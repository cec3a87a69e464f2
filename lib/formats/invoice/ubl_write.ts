/**
 * Writes the invoice object as a UBL 2.1 Invoice or CreditNote (EN 16931-3-2 UBL syntax binding; README
 * "Creating invoices"): the inverse of ubl.ts, so that reading what it writes gives the same object. Elements in
 * the order of the UBL 2.1 maindoc schemas, the document's namespace as default and cac:/cbc: prefixes as in the
 * CEN examples; amounts as given, never recomputed. Values UBL has no place for come back as losses.
 * @module
 */

import { VAT_POINT_CII_TO_UBL } from "./code_lists.ts";
import { documentTypeFromCode } from "./document_type.ts";
import { isUblFormat } from "./vocabulary.ts";
import type { Invoice, Payment } from "./model.ts";
import { UBL_CREDIT_NOTE_NS, UBL_INVOICE_NS, UBL_TOTALS_NAMES } from "./ubl.ts";
import { CAC, CBC } from "./ubl_party.ts";
import { writeUblAllowanceCharge, writeUblLine, writeUblPeriod } from "./ubl_write_line.ts";
import { writeUblAddress, writeUblParty } from "./ubl_write_party.ts";
import { UBL_COVERED } from "./ubl_write_fields.ts";
import { collectLosses, lose, percentOrLose } from "./write_losses.ts";
import type { TracedWriteResult, WriteLoss, WriteOptions } from "./write_result.ts";
import { TracedWriter } from "./write_trace.ts";

/** UNTDID 1001 130 "Invoicing data sheet": the type code of the invoiced object identifier (BT-18). */
const INVOICED_OBJECT_CODE = "130";
/** A sales order reference (BT-14) needs cbc:ID beside it; Peppol BIS Billing 3.0 writes "NA" when there is no order (BT-13). */
const NO_ORDER = "NA";
/** The tax scheme of EN 16931's VAT breakdown. */
const VAT = "VAT";
/** UNCL4461 1 "Instrument not defined": the code of payment means that the object gives accounts but no code for. */
const MEANS_NOT_DEFINED = "1";
/** The card network written when there is none to write: "NA", not applicable. */
const CARD_NETWORK_UNKNOWN = "NA";
const LOSS = "UBL 2.1 (EN 16931 binding) has no element for this value";

/**
 * Writes `inv` as UBL: a CreditNote for a credit note (by type or UNTDID 1001 code, as the reader tells them), else
 * an Invoice. Throws InvoiceError, naming the field, for a value with a character XML cannot carry.
 */
export function writeUbl(inv: Invoice, options: WriteOptions = {}): TracedWriteResult {
  const creditNote = inv.type === "credit_note" || documentTypeFromCode(inv.kind?.code ?? null, "invoice") === "credit_note";
  const losses: WriteLoss[] = [];
  collectLosses(inv, UBL_COVERED, LOSS, losses, "invoice");
  const w = new TracedWriter(options.trace === true);
  const root = creditNote ? "CreditNote" : "Invoice";
  w.open(root, null, { xmlns: creditNote ? UBL_CREDIT_NOTE_NS : UBL_INVOICE_NS, "xmlns:cac": CAC, "xmlns:cbc": CBC });
  _header(w, inv, creditNote, losses);
  _references(w, inv, creditNote, losses);
  w.open("cac:AccountingSupplierParty");
  writeUblParty(w, "cac:Party", inv.payee === null ? _withCreditor(inv, inv.seller) : inv.seller, "legal", "invoice.seller", losses);
  w.close().open("cac:AccountingCustomerParty");
  writeUblParty(w, "cac:Party", inv.buyer, "legal", "invoice.buyer", losses);
  w.close();
  if (inv.payee !== null) writeUblParty(w, "cac:PayeeParty", _withCreditor(inv, inv.payee), "party", "invoice.payee", losses);
  if (inv.tax_representative !== null) writeUblParty(w, "cac:TaxRepresentativeParty", inv.tax_representative, "party", "invoice.tax_representative", losses);
  _delivery(w, inv);
  if (inv.payment !== null) _payment(w, inv.payment, creditNote);
  for (let i = 0; i < inv.allowances_charges.length; i++) writeUblAllowanceCharge(w, inv.allowances_charges[i]!, inv.currency, `invoice.allowances_charges[${i}]`);
  _taxTotals(w, inv, losses);
  _totals(w, inv);
  for (let i = 0; i < inv.lines.length; i++) writeUblLine(w, inv.lines[i]!, i, creditNote, inv.currency, losses);
  w.close();
  return { xml: w.toString(), losses, fields: w.fields() };
}

/** The basic components of the root, BT-24 to BT-19; TaxPointDate comes earlier in a CreditNote. */
function _header(w: TracedWriter, inv: Invoice, creditNote: boolean, losses: WriteLoss[]): void {
  w.leaf("cbc:CustomizationID", inv.profile, "invoice.profile");
  w.leaf("cbc:ProfileID", inv.business_process, "invoice.business_process");
  w.leaf("cbc:ID", inv.number, "invoice.number");
  w.leaf("cbc:IssueDate", inv.issue_date, "invoice.issue_date");
  const due = inv.payment?.due_dates[0]?.date ?? null;
  if (creditNote) w.leaf("cbc:TaxPointDate", inv.tax_point_date, "invoice.tax_point_date");
  else w.leaf("cbc:DueDate", due, "invoice.payment.due_dates[0].date");
  w.leaf(creditNote ? "cbc:CreditNoteTypeCode" : "cbc:InvoiceTypeCode", inv.kind?.code, "invoice.kind");
  for (let i = 0; i < inv.notes.length; i++) {
    const n = inv.notes[i]!;
    // The subject code (BT-21) has no element of its own in UBL: EN 16931 users (XRechnung, Peppol) write "#code#text".
    const text = n.subject_code === null || n.text.startsWith(`#${n.subject_code}#`) ? n.text : `#${n.subject_code}#${n.text}`;
    w.leaf("cbc:Note", text, `invoice.notes[${i}]`);
  }
  if (!creditNote) w.leaf("cbc:TaxPointDate", inv.tax_point_date, "invoice.tax_point_date");
  w.leaf("cbc:DocumentCurrencyCode", inv.currency, "invoice.currency");
  w.leaf("cbc:TaxCurrencyCode", inv.tax_currency, "invoice.tax_currency");
  w.leaf("cbc:AccountingCost", inv.references.accounting_reference, "invoice.references.accounting_reference");
  w.leaf("cbc:BuyerReference", inv.references.buyer_reference, "invoice.references.buyer_reference");
  // BT-8 is the period's DescriptionCode in UBL, which the UBL reader keeps as the period's description (it never
  // sets tax_point_date_code). The object's tax point date code (CII's DueDateTypeCode) goes there, as UNTDID 2005,
  // unless the period of a UBL invoice already has a description of its own.
  let period = inv.delivery?.period ?? null;
  const code = inv.tax_point_date_code;
  if (code !== null) {
    const ublCode = VAT_POINT_CII_TO_UBL[code] ?? code;
    const own = period?.description ?? null;
    if (own === null || !isUblFormat(inv.format)) {
      if (own !== ublCode) lose(losses, "invoice.delivery.period.description", own, LOSS);
      period = { start: period?.start ?? null, end: period?.end ?? null, description: ublCode };
    } else if (own !== ublCode) lose(losses, "invoice.tax_point_date_code", code, LOSS);
  }
  if (period !== null) writeUblPeriod(w, period, "invoice.delivery.period");
}

/** The document references, BT-11…BT-18, BG-3, BG-24, in the order of the root's schema. */
function _references(w: TracedWriter, inv: Invoice, creditNote: boolean, losses: WriteLoss[]): void {
  const r = inv.references;
  if (r.order !== null || r.sales_order !== null) {
    w.open("cac:OrderReference").leaf("cbc:ID", r.order ?? NO_ORDER, "invoice.references.order");
    w.leaf("cbc:SalesOrderID", r.sales_order, "invoice.references.sales_order").close();
  }
  for (let i = 0; i < r.preceding_invoices.length; i++) {
    const p = r.preceding_invoices[i]!;
    w.open("cac:BillingReference").open("cac:InvoiceDocumentReference");
    w.leaf("cbc:ID", p.number ?? "", `invoice.references.preceding_invoices[${i}].number`);
    w.leaf("cbc:IssueDate", p.issue_date, `invoice.references.preceding_invoices[${i}].issue_date`);
    w.close().close();
  }
  _idReference(w, "cac:DespatchDocumentReference", r.despatch_advice, "invoice.references.despatch_advice");
  _idReference(w, "cac:ReceiptDocumentReference", r.receiving_advice, "invoice.references.receiving_advice");
  if (!creditNote) _idReference(w, "cac:OriginatorDocumentReference", r.tender, "invoice.references.tender");
  _idReference(w, "cac:ContractDocumentReference", r.contract, "invoice.references.contract");
  for (let i = 0; i < inv.attachments.length; i++) {
    const a = inv.attachments[i]!;
    const field = `invoice.attachments[${i}]`;
    w.open("cac:AdditionalDocumentReference").leaf("cbc:ID", a.id ?? "", `${field}.id`);
    w.leaf("cbc:DocumentDescription", a.description, `${field}.description`);
    if (a.url !== null) w.open("cac:Attachment").open("cac:ExternalReference").leaf("cbc:URI", a.url, `${field}.url`).close().close();
    w.close();
    // The object keeps an embedded document's name and type, not its content: a name without content is not written.
    lose(losses, `${field}.filename`, a.filename, "The invoice object does not carry the attached document's content");
    lose(losses, `${field}.mime_code`, a.mime_code, "The invoice object does not carry the attached document's content");
  }
  const obj = r.invoiced_object;
  if (obj !== null) {
    w.open("cac:AdditionalDocumentReference").leaf("cbc:ID", obj.value, "invoice.references.invoiced_object", { schemeID: obj.scheme });
    w.leaf("cbc:DocumentTypeCode", INVOICED_OBJECT_CODE, null).close();
  }
  if (creditNote) _idReference(w, "cac:OriginatorDocumentReference", r.tender, "invoice.references.tender");
  // UBL 2.1's CreditNote has no ProjectReference (EN 16931 writes BT-11 there as a document reference of type 50).
  if (!creditNote) _idReference(w, "cac:ProjectReference", r.project, "invoice.references.project");
  else lose(losses, "invoice.references.project", r.project, "A UBL 2.1 CreditNote has no ProjectReference");
}

function _idReference(w: TracedWriter, element: string, id: string | null, field: string): void {
  if (id !== null) w.open(element).leaf("cbc:ID", id, field).close();
}

/**
 * The payee (or, without one, the seller) with the SEPA creditor id (BT-90), which UBL writes as that party's
 * identifier with scheme "SEPA" and the reader takes from there; added when the object has it only in the direct debit.
 */
function _withCreditor(inv: Invoice, party: Invoice["seller"]): Invoice["seller"] {
  const creditor = inv.payment?.direct_debit?.creditor_id ?? null;
  if (creditor === null || party.identifiers.some((i) => i.scheme === "SEPA" && i.value === creditor)) return party;
  return { ...party, identifiers: [...party.identifiers, { value: creditor, scheme: "SEPA" }] };
}

/**
 * cac:Delivery (BG-13). A delivery with nothing but the period is left out (cac:InvoicePeriod gives it back); one
 * with nothing at all is written empty, so that it reads back as a delivery.
 */
function _delivery(w: TracedWriter, inv: Invoice): void {
  const d = inv.delivery;
  if (d === null) return;
  const any = d.date !== null || d.location_id !== null || d.address !== null || d.party_name !== null;
  if (!any && d.period !== null) return;
  w.open("cac:Delivery", "invoice.delivery");
  w.leaf("cbc:ActualDeliveryDate", d.date, "invoice.delivery.date");
  if (d.location_id !== null || d.address !== null) {
    w.open("cac:DeliveryLocation");
    if (d.location_id !== null) w.leaf("cbc:ID", d.location_id.value, "invoice.delivery.location_id", { schemeID: d.location_id.scheme });
    if (d.address !== null) writeUblAddress(w, "cac:Address", d.address, "invoice.delivery.address");
    w.close();
  }
  if (d.party_name !== null) w.open("cac:DeliveryParty").open("cac:PartyName").leaf("cbc:Name", d.party_name, "invoice.delivery.party_name").close().close();
  w.close();
}

/**
 * cac:PaymentMeans and cac:PaymentTerms (BG-16…BG-19, BT-9, BT-20). One PaymentMeans per account (at least one
 * when the means say anything); the first carries the code, its text, the remittance information, card and
 * mandate, as the reader takes them from the first. Due dates after the one of cbc:DueDate go to PaymentDueDate.
 */
function _payment(w: TracedWriter, p: Payment, creditNote: boolean): void {
  const firstDueInMeans = creditNote ? 0 : 1;
  const dues = Math.max(0, p.due_dates.length - firstDueInMeans);
  const meansData = p.means !== null || p.means_text !== null || p.remittance_info !== null || p.card !== null || p.direct_debit !== null;
  const count = Math.max(p.accounts.length, dues, meansData ? 1 : 0);
  for (let i = 0; i < count; i++) {
    w.open("cac:PaymentMeans");
    const first = i === 0;
    w.leaf("cbc:PaymentMeansCode", p.means?.code ?? MEANS_NOT_DEFINED, "invoice.payment.means", { name: first ? p.means_text : null });
    const due = p.due_dates[i + firstDueInMeans];
    if (due !== undefined) w.leaf("cbc:PaymentDueDate", due.date, `invoice.payment.due_dates[${i + firstDueInMeans}].date`);
    if (first) w.leaf("cbc:PaymentID", p.remittance_info, "invoice.payment.remittance_info");
    if (first && p.card !== null) {
      // cbc:NetworkID is required by the schema; EN 16931 has no term for the card network, nor the object a field.
      w.open("cac:CardAccount").leaf("cbc:PrimaryAccountNumberID", p.card.pan ?? "", "invoice.payment.card.pan");
      w.leaf("cbc:NetworkID", CARD_NETWORK_UNKNOWN, null).leaf("cbc:HolderName", p.card.holder, "invoice.payment.card.holder").close();
    }
    const a = p.accounts[i];
    if (a !== undefined) {
      w.open("cac:PayeeFinancialAccount").leaf("cbc:ID", a.number ?? "", `invoice.payment.accounts[${i}].number`);
      w.leaf("cbc:Name", a.name, `invoice.payment.accounts[${i}].name`);
      if (a.bic !== null || a.bank_name !== null) {
        w.open("cac:FinancialInstitutionBranch").leaf("cbc:ID", a.bic, `invoice.payment.accounts[${i}].bic`);
        w.leaf("cbc:Name", a.bank_name, `invoice.payment.accounts[${i}].bank_name`).close();
      }
      w.close();
    }
    const dd = p.direct_debit;
    if (first && dd !== null && (dd.mandate !== null || dd.debited_account !== null)) {
      w.open("cac:PaymentMandate").leaf("cbc:ID", dd.mandate, "invoice.payment.direct_debit.mandate");
      if (dd.debited_account !== null) w.open("cac:PayerFinancialAccount").leaf("cbc:ID", dd.debited_account, "invoice.payment.direct_debit.debited_account").close();
      w.close();
    }
    w.close();
  }
  if (p.terms !== null) w.open("cac:PaymentTerms").leaf("cbc:Note", p.terms, "invoice.payment.terms").close();
}

/** cac:TaxTotal in the document currency (BT-110, BG-23), then the one in the tax currency (BT-111). */
function _taxTotals(w: TracedWriter, inv: Invoice, losses: WriteLoss[]): void {
  const money = { currencyID: inv.currency };
  if (inv.totals.tax !== null) {
    w.open("cac:TaxTotal").leaf("cbc:TaxAmount", inv.totals.tax, "invoice.totals.tax", money);
    for (let i = 0; i < inv.vat_breakdown.length; i++) {
      const v = inv.vat_breakdown[i]!;
      const f = `invoice.vat_breakdown[${i}]`;
      w.open("cac:TaxSubtotal", f);
      w.leaf("cbc:TaxableAmount", v.taxable_amount, `${f}.taxable_amount`, money);
      w.leaf("cbc:TaxAmount", v.tax_amount, `${f}.tax_amount`, money);
      w.open("cac:TaxCategory");
      w.leaf("cbc:ID", v.category?.code, `${f}.category`);
      w.leaf("cbc:Percent", percentOrLose(losses, `${f}.rate`, v.rate), `${f}.rate`);
      w.leaf("cbc:TaxExemptionReasonCode", v.exemption_reason_code, `${f}.exemption_reason_code`);
      w.leaf("cbc:TaxExemptionReason", v.exemption_reason, `${f}.exemption_reason`);
      w.open("cac:TaxScheme").leaf("cbc:ID", v.tax_scheme ?? VAT, `${f}.tax_scheme`).close();
      w.close().close();
    }
    w.close();
  }
  if (inv.totals.tax_in_tax_currency !== null) {
    w.open("cac:TaxTotal").leaf("cbc:TaxAmount", inv.totals.tax_in_tax_currency, "invoice.totals.tax_in_tax_currency", { currencyID: inv.tax_currency }).close();
  }
}

const _TOTALS = Object.keys(UBL_TOTALS_NAMES) as (keyof typeof UBL_TOTALS_NAMES)[];
const _TOTALS_FIELDS = Object.fromEntries(_TOTALS.map((k) => [k, `invoice.totals.${k}`])) as Record<keyof typeof UBL_TOTALS_NAMES, string>;

/** cac:LegalMonetaryTotal (BG-22). */
function _totals(w: TracedWriter, inv: Invoice): void {
  const t = inv.totals;
  if (t.line_net === null && t.net === null && t.gross === null && t.allowances === null && t.charges === null &&
    t.prepaid === null && t.rounding === null && t.payable === null) return;
  const money = { currencyID: inv.currency };
  w.open("cac:LegalMonetaryTotal");
  // The reader's table of element names, in schema order.
  for (const key of _TOTALS) w.leaf(`cbc:${UBL_TOTALS_NAMES[key]}`, t[key], _TOTALS_FIELDS[key], money);
  w.close();
}
