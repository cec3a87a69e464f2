/**
 * Reads a UBL 2.1 Invoice or CreditNote (EN 16931 UBL syntax binding, Peppol BIS
 * Billing 3.0, XRechnung UBL) into the whole invoice model (README “The invoice object”). Amounts
 * are copied as written, never recomputed. Does not validate business rules: what
 * is missing is null, nothing here throws. Parties and lines: ubl_party, ubl_line.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { readTotals, readVatBreakdown, type TotalsNames, type VatBreakdownNames } from "./binding.ts";
import { blankInvoice, blankPayment, deliveryOf } from "./blank.ts";
import { codeOf, UNCL_4461, UNTDID_1001 } from "./code_lists.ts";
import { parseDecimal } from "./decimal.ts";
import { documentTypeFromCode } from "./document_type.ts";
import type { Invoice, Payment } from "./model.ts";
import { attr, child, childText, identifierOf, parseDate, textOf } from "./query.ts";
import { readUblAllowanceCharge, readUblLine, readUblPeriod } from "./ubl_line.ts";
import { CAC, CBC, readUblAddress, readUblParty } from "./ubl_party.ts";

/** Root namespace of a UBL 2.1 Invoice. */
export const UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
/** Root namespace of a UBL 2.1 CreditNote. */
export const UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";

/** UNTDID 1001 code 130 "Invoicing data sheet": an AdditionalDocumentReference that is BT-18. */
const INVOICED_OBJECT_CODE = "130";

/** cac:LegalMonetaryTotal's amounts (BT-106, BT-109, BT-112, BT-107, BT-108, BT-113, BT-114, BT-115), in schema order: the writer uses it too. */
export const UBL_TOTALS_NAMES: TotalsNames = {
  line_net: "LineExtensionAmount", net: "TaxExclusiveAmount", gross: "TaxInclusiveAmount", allowances: "AllowanceTotalAmount",
  charges: "ChargeTotalAmount", prepaid: "PrepaidAmount", rounding: "PayableRoundingAmount", payable: "PayableAmount",
};

/** cac:TaxSubtotal's parts, all cbc: (the category's under cac:TaxCategory); UBL has no basis amounts. */
const VAT_BREAKDOWN_NAMES: VatBreakdownNames = {
  ns: CBC, taxable: "TaxableAmount", tax: "TaxAmount", lineBasis: null, allowanceChargeBasis: null,
  category: "ID", rate: "Percent", exemption: "TaxExemptionReason", exemptionCode: "TaxExemptionReasonCode",
};

/** Reads an Invoice or CreditNote root element; `format` is "ksef-pef3" for KSeF's PEF(3)/PEF_KOR(3) (pef.ts). */
export function readUbl(root: XmlElement, lines = true, format: "ubl" | "ksef-pef3" = "ubl"): Invoice {
  const creditNote = root.local === "CreditNote";
  const inv = blankInvoice(format);
  const payment = blankPayment();
  let paymentSeen = false;
  const taxTotals: XmlElement[] = [];
  for (const c of root.children) {
    if (c.ns === CBC) {
      if (_readBasic(c, inv, payment)) paymentSeen = true;
    } else if (c.ns === CAC) {
      if (!lines && (c.local === "InvoiceLine" || c.local === "CreditNoteLine")) continue;
      if (_readAggregate(c, inv, payment, taxTotals)) paymentSeen = true;
    }
  }
  // An Invoice root without a type code is still an invoice; a CreditNote root is a credit note.
  inv.type = creditNote ? "credit_note" : documentTypeFromCode(inv.kind?.code ?? null, "invoice");
  _readTaxTotals(taxTotals, inv);
  // BT-90, the SEPA creditor id, is a party identifier of the payee or the seller (scheme "SEPA").
  if (payment.direct_debit !== null) {
    const party = inv.payee ?? inv.seller;
    payment.direct_debit.creditor_id = party.identifiers.find((i) => i.scheme === "SEPA")?.value ?? null;
  }
  if (paymentSeen) inv.payment = payment;
  return inv;
}

/** A cbc: child of the root (BT-1…BT-10, BT-19, BT-22…BT-24); true when it belongs to the payment (BT-9). */
function _readBasic(c: XmlElement, inv: Invoice, payment: Payment): boolean {
  const v = textOf(c);
  switch (c.local) {
    case "CustomizationID": inv.profile = v; break;
    case "ProfileID": inv.business_process = v; break;
    case "ID": inv.number = v; break;
    case "IssueDate": inv.issue_date = parseDate(v); break;
    case "DueDate": payment.due_dates.push(_due(v)); return true;
    case "InvoiceTypeCode":
    case "CreditNoteTypeCode":
      inv.kind = codeOf(UNTDID_1001, v);
      break;
    case "Note": if (v !== null) inv.notes.push(_note(v)); break;
    case "TaxPointDate": inv.tax_point_date = parseDate(v); break;
    case "DocumentCurrencyCode": inv.currency = v; break;
    case "TaxCurrencyCode": inv.tax_currency = v; break;
    case "AccountingCost": inv.references.accounting_reference = v; break;
    case "BuyerReference": inv.references.buyer_reference = v; break;
  }
  return false;
}

/** A cac: child of the root; TaxTotal elements are collected for later. True when it belongs to the payment (BG-16…BG-19, BT-20). */
function _readAggregate(c: XmlElement, inv: Invoice, payment: Payment, taxTotals: XmlElement[]): boolean {
  switch (c.local) {
    case "InvoicePeriod": deliveryOf(inv).period = readUblPeriod(c); break;
    case "AccountingSupplierParty": inv.seller = readUblParty(child(c, CAC, "Party")); break;
    case "AccountingCustomerParty": inv.buyer = readUblParty(child(c, CAC, "Party")); break;
    case "PayeeParty": inv.payee = readUblParty(c); break;
    case "TaxRepresentativeParty": inv.tax_representative = readUblParty(c); break;
    case "Delivery": _readDelivery(c, inv); break;
    case "PaymentMeans": _paymentMeans(c, payment); return true;
    case "PaymentTerms": {
      const note = childText(c, CBC, "Note");
      if (note !== null) payment.terms = payment.terms === null ? note : `${payment.terms}\n${note}`;
      return true;
    }
    case "AllowanceCharge": inv.allowances_charges.push(readUblAllowanceCharge(c)); break;
    case "TaxTotal": taxTotals.push(c); break;
    case "LegalMonetaryTotal": readTotals(c, CBC, UBL_TOTALS_NAMES, inv.totals); break;
    case "InvoiceLine":
    case "CreditNoteLine":
      inv.lines.push(readUblLine(c));
      break;
    default: _readReference(c, inv);
  }
  return false;
}

/** The document references of the root (BT-11…BT-18, BT-25/26, BG-24). */
function _readReference(c: XmlElement, inv: Invoice): void {
  switch (c.local) {
    case "OrderReference":
      inv.references.order = childText(c, CBC, "ID");
      inv.references.sales_order = childText(c, CBC, "SalesOrderID");
      break;
    case "BillingReference": {
      const ref = child(c, CAC, "InvoiceDocumentReference");
      if (ref !== null) {
        inv.references.preceding_invoices.push({
          number: childText(ref, CBC, "ID"), issue_date: parseDate(childText(ref, CBC, "IssueDate")),
          ksef_number: null, in_ksef: null,
        });
      }
      break;
    }
    case "DespatchDocumentReference": inv.references.despatch_advice = childText(c, CBC, "ID"); break;
    case "ReceiptDocumentReference": inv.references.receiving_advice = childText(c, CBC, "ID"); break;
    case "OriginatorDocumentReference": inv.references.tender = childText(c, CBC, "ID"); break;
    case "ContractDocumentReference": inv.references.contract = childText(c, CBC, "ID"); break;
    case "ProjectReference": inv.references.project = childText(c, CBC, "ID"); break;
    case "AdditionalDocumentReference": _additionalDocument(c, inv); break;
  }
}

function _due(v: string | null): Payment["due_dates"][number] {
  return { date: parseDate(v), description: null, quantity: null, unit: null, start_event: null };
}

/** BT-21/BT-22: XRechnung and Peppol may write the subject code as "#AAI#text"; the text stays as written. */
function _note(text: string): Invoice["notes"][number] {
  const m = /^#([A-Z]{3})#/.exec(text);
  return { subject_code: m === null ? null : (m[1] as string), text };
}

/** cac:Delivery (BG-13): BT-72 date, BT-71 location id, BG-15 address, BT-70 party name. */
function _readDelivery(el: XmlElement, inv: Invoice): void {
  const d = deliveryOf(inv);
  d.date ??= parseDate(childText(el, CBC, "ActualDeliveryDate"));
  const loc = child(el, CAC, "DeliveryLocation");
  d.location_id ??= identifierOf(child(loc, CBC, "ID"));
  const address = child(loc, CAC, "Address");
  if (address !== null) d.address ??= readUblAddress(address);
  d.party_name ??= childText(child(child(el, CAC, "DeliveryParty"), CAC, "PartyName"), CBC, "Name");
}

/** cac:AdditionalDocumentReference: BT-18 when its type code is 130, else a supporting document (BG-24). */
function _additionalDocument(el: XmlElement, inv: Invoice): void {
  const id = child(el, CBC, "ID");
  if (childText(el, CBC, "DocumentTypeCode") === INVOICED_OBJECT_CODE) {
    inv.references.invoiced_object = identifierOf(id);
    return;
  }
  const att = child(el, CAC, "Attachment");
  const bin = child(att, CBC, "EmbeddedDocumentBinaryObject");
  inv.attachments.push({
    id: textOf(id),
    description: childText(el, CBC, "DocumentDescription") ?? childText(el, CBC, "DocumentType"),
    url: childText(child(att, CAC, "ExternalReference"), CBC, "URI"),
    filename: attr(bin, "filename"),
    mime_code: attr(bin, "mimeCode"),
    meta: [], paragraphs: [], tables: [],
  });
}

/** cac:PaymentMeans (BG-16…BG-19). The first means code is BT-81; every account is kept. */
function _paymentMeans(el: XmlElement, p: Payment): void {
  const code = child(el, CBC, "PaymentMeansCode");
  p.means ??= codeOf(UNCL_4461, textOf(code));
  p.means_text ??= attr(code, "name");
  p.remittance_info ??= childText(el, CBC, "PaymentID");
  const due = parseDate(childText(el, CBC, "PaymentDueDate"));
  if (due !== null) p.due_dates.push(_due(due));
  const acct = child(el, CAC, "PayeeFinancialAccount");
  if (acct !== null) {
    const branch = child(acct, CAC, "FinancialInstitutionBranch");
    p.accounts.push({
      number: childText(acct, CBC, "ID"),
      name: childText(acct, CBC, "Name"),
      bic: childText(branch, CBC, "ID"),
      bank_name: childText(branch, CBC, "Name") ?? childText(child(branch, CAC, "FinancialInstitution"), CBC, "Name"),
      description: null,
      bank_own_account: null,
      factor: false,
      held_by: null,
    });
  }
  const card = child(el, CAC, "CardAccount");
  if (card !== null) p.card = { pan: childText(card, CBC, "PrimaryAccountNumberID"), holder: childText(card, CBC, "HolderName") };
  const mandate = child(el, CAC, "PaymentMandate");
  if (mandate !== null) {
    p.direct_debit = {
      mandate: childText(mandate, CBC, "ID"),
      creditor_id: null,
      debited_account: childText(child(mandate, CAC, "PayerFinancialAccount"), CBC, "ID"),
    };
  }
}


/**
 * BT-110 is the TaxTotal/TaxAmount in the document currency, BT-111 the one in
 * the tax currency (BT-6); with no currencyID the only TaxTotal is BT-110. The
 * breakdown comes from the document-currency TaxTotal.
 */
function _readTaxTotals(taxTotals: readonly XmlElement[], inv: Invoice): void {
  let chosen: XmlElement | null = null;
  for (const t of taxTotals) {
    const currency = attr(child(t, CBC, "TaxAmount"), "currencyID");
    if (currency !== null && currency === inv.currency) {
      chosen = t;
      break;
    }
  }
  if (chosen === null && taxTotals.length === 1) {
    const only = taxTotals[0] as XmlElement;
    const currency = attr(child(only, CBC, "TaxAmount"), "currencyID");
    if (currency === null || inv.currency === null) chosen = only;
  }
  for (const t of taxTotals) {
    const amount = child(t, CBC, "TaxAmount");
    const currency = attr(amount, "currencyID");
    if (t !== chosen && currency !== null && currency === inv.tax_currency) {
      inv.totals.tax_in_tax_currency = parseDecimal(textOf(amount));
    }
  }
  if (chosen === null) return;
  inv.totals.tax = parseDecimal(childText(chosen, CBC, "TaxAmount"));
  for (const sub of chosen.children) {
    if (sub.ns !== CAC || sub.local !== "TaxSubtotal") continue;
    const category = child(sub, CAC, "TaxCategory");
    const scheme = childText(child(category, CAC, "TaxScheme"), CBC, "ID");
    inv.vat_breakdown.push(readVatBreakdown(sub, category, scheme, VAT_BREAKDOWN_NAMES));
  }
}
