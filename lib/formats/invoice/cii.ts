/**
 * Reads a UN/CEFACT Cross Industry Invoice D16B (EN 16931 CII syntax binding,
 * XRechnung CII, Factur-X / ZUGFeRD 2.x, any profile) into the whole invoice model
 * (README “The invoice object”). Amounts are copied as written. ZUGFeRD 1.0's CrossIndustryDocument
 * is out of scope. Does not validate business rules: what is missing is null,
 * nothing throws. Parties and lines: cii_party, cii_line.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { readTotals, readVatBreakdown, type TotalsNames, type VatBreakdownNames } from "./binding.ts";
import { blankInvoice, blankPayment, deliveryOf } from "./blank.ts";
import { readCiiLine } from "./cii_line.ts";
import { ciiDate, RAM, readCiiAddress, readCiiAllowanceCharge, readCiiParty, readCiiPeriod } from "./cii_party.ts";
import { codeOf, UNCL_4461, UNCL_5305, UNTDID_1001 } from "./code_lists.ts";
import { parseDecimal } from "./decimal.ts";
import { documentTypeFromCode } from "./document_type.ts";
import type { Invoice, Payment } from "./model.ts";
import { attr, child, childText, identifierOf, textOf } from "./query.ts";

/** Root namespace of a CII D16B invoice. */
export const CII_RSM_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";

/** UNTDID 1001 document codes of ram:AdditionalReferencedDocument/TypeCode with a business term. */
const DOC_INVOICED_OBJECT = "130"; // BT-18
const DOC_TENDER = "50"; // BT-17

/** ram:SpecifiedTradeSettlementHeaderMonetarySummation's amounts (BT-106, BT-108, BT-107, BT-109, BT-114, BT-112, BT-113, BT-115), in schema order (TaxTotalAmount, BT-110/111, goes before RoundingAmount): the writer uses it too. */
export const CII_TOTALS_NAMES: TotalsNames = {
  line_net: "LineTotalAmount", charges: "ChargeTotalAmount", allowances: "AllowanceTotalAmount", net: "TaxBasisTotalAmount",
  rounding: "RoundingAmount", gross: "GrandTotalAmount", prepaid: "TotalPrepaidAmount", payable: "DuePayableAmount",
};

/** The header ram:ApplicableTradeTax's parts: amounts and category in the one element. */
const VAT_BREAKDOWN_NAMES: VatBreakdownNames = {
  ns: RAM, taxable: "BasisAmount", tax: "CalculatedAmount", lineBasis: "LineTotalBasisAmount",
  allowanceChargeBasis: "AllowanceChargeBasisAmount", category: "CategoryCode", rate: "RateApplicablePercent",
  exemption: "ExemptionReason", exemptionCode: "ExemptionReasonCode",
};

/** Reads a CrossIndustryInvoice root element. */
export function readCii(root: XmlElement, lines = true): Invoice {
  const ns = root.ns;
  const inv = blankInvoice("cii");
  for (const c of root.children) {
    if (c.ns !== ns) continue;
    switch (c.local) {
      case "ExchangedDocumentContext":
        inv.profile = childText(child(c, RAM, "GuidelineSpecifiedDocumentContextParameter"), RAM, "ID");
        inv.business_process = childText(child(c, RAM, "BusinessProcessSpecifiedDocumentContextParameter"), RAM, "ID");
        break;
      case "ExchangedDocument": _document(c, inv); break;
      case "SupplyChainTradeTransaction":
        for (const t of c.children) {
          if (t.ns !== RAM) continue;
          if (t.local === "IncludedSupplyChainTradeLineItem") {
            if (lines) inv.lines.push(readCiiLine(t));
          } else if (t.local === "ApplicableHeaderTradeAgreement") _agreement(t, inv);
          else if (t.local === "ApplicableHeaderTradeDelivery") _delivery(t, inv);
          else if (t.local === "ApplicableHeaderTradeSettlement") _settlement(t, inv);
        }
        break;
    }
  }
  // Unlike a UBL Invoice root, the CII root says nothing about the type: no code is "other".
  inv.type = documentTypeFromCode(inv.kind?.code ?? null, "other");
  return inv;
}

/** rsm:ExchangedDocument: BT-1, BT-3, BT-2, BG-1. */
function _document(el: XmlElement, inv: Invoice): void {
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "ID": inv.number = textOf(c); break;
      case "TypeCode": inv.kind = codeOf(UNTDID_1001, textOf(c)); break;
      case "IssueDateTime": inv.issue_date = ciiDate(c); break;
      case "IncludedNote": {
        const text = childText(c, RAM, "Content");
        if (text !== null) inv.notes.push({ subject_code: childText(c, RAM, "SubjectCode"), text });
        break;
      }
    }
  }
}

/** ram:ApplicableHeaderTradeAgreement: parties and references. */
function _agreement(el: XmlElement, inv: Invoice): void {
  const r = inv.references;
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "BuyerReference": r.buyer_reference = textOf(c); break;
      case "SellerTradeParty": inv.seller = readCiiParty(c); break;
      case "BuyerTradeParty": inv.buyer = readCiiParty(c); break;
      case "SellerTaxRepresentativeTradeParty": inv.tax_representative = readCiiParty(c); break;
      case "SellerOrderReferencedDocument": r.sales_order = childText(c, RAM, "IssuerAssignedID"); break;
      case "BuyerOrderReferencedDocument": r.order = childText(c, RAM, "IssuerAssignedID"); break;
      case "ContractReferencedDocument": r.contract = childText(c, RAM, "IssuerAssignedID"); break;
      case "SpecifiedProcuringProject": r.project = childText(c, RAM, "ID"); break;
      case "AdditionalReferencedDocument": _additionalDocument(c, inv); break;
    }
  }
}

/** ram:AdditionalReferencedDocument: BT-18 (130), BT-17 (50), else a supporting document (BG-24, 916). */
function _additionalDocument(el: XmlElement, inv: Invoice): void {
  const id = childText(el, RAM, "IssuerAssignedID");
  const type = childText(el, RAM, "TypeCode");
  if (type === DOC_INVOICED_OBJECT) {
    inv.references.invoiced_object = id === null ? null : { value: id, scheme: childText(el, RAM, "ReferenceTypeCode") };
    return;
  }
  if (type === DOC_TENDER) {
    inv.references.tender = id;
    return;
  }
  const bin = child(el, RAM, "AttachmentBinaryObject");
  inv.attachments.push({
    id, description: childText(el, RAM, "Name"), url: childText(el, RAM, "URIID"),
    filename: attr(bin, "filename"), mime_code: attr(bin, "mimeCode"), meta: [], paragraphs: [], tables: [],
  });
}

/** ram:ApplicableHeaderTradeDelivery: BG-13, BT-15, BT-16, delivery notes. */
function _delivery(el: XmlElement, inv: Invoice): void {
  const d = deliveryOf(inv);
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "ShipToTradeParty": {
        d.party_name = childText(c, RAM, "Name");
        d.location_id = identifierOf(child(c, RAM, "GlobalID")) ?? identifierOf(child(c, RAM, "ID"));
        const a = child(c, RAM, "PostalTradeAddress");
        if (a !== null) d.address = readCiiAddress(a);
        break;
      }
      case "ActualDeliverySupplyChainEvent": d.date = ciiDate(child(c, RAM, "OccurrenceDateTime")); break;
      case "DespatchAdviceReferencedDocument": inv.references.despatch_advice = childText(c, RAM, "IssuerAssignedID"); break;
      case "ReceivingAdviceReferencedDocument": inv.references.receiving_advice = childText(c, RAM, "IssuerAssignedID"); break;
      case "DeliveryNoteReferencedDocument": {
        const n = childText(c, RAM, "IssuerAssignedID");
        if (n !== null) inv.references.delivery_notes.push(n);
        break;
      }
    }
  }
}

/** ram:ApplicableHeaderTradeSettlement: currencies, payee, payment, VAT, allowances, totals, preceding invoices. */
function _settlement(el: XmlElement, inv: Invoice): void {
  const p = blankPayment();
  let paymentSeen = false;
  const taxTotals: XmlElement[] = [];
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    const v = textOf(c);
    switch (c.local) {
      case "CreditorReferenceID": (p.direct_debit ??= _debit()).creditor_id = v; paymentSeen = true; break;
      case "PaymentReference": p.remittance_info = v; paymentSeen = true; break;
      case "TaxCurrencyCode": inv.tax_currency = v; break;
      case "InvoiceCurrencyCode": inv.currency = v; break;
      case "InvoiceeTradeParty":
        inv.third_parties.push({
          ...readCiiParty(c), role: { code: "invoicee", text: "Invoicee (CII InvoiceeTradeParty)" },
          role_description: null, share: null,
        });
        break;
      case "PayeeTradeParty": inv.payee = readCiiParty(c); break;
      case "SpecifiedTradeSettlementPaymentMeans": _means(c, p); paymentSeen = true; break;
      case "ApplicableTradeTax": _tax(c, inv); break;
      case "BillingSpecifiedPeriod":
        deliveryOf(inv).period = readCiiPeriod(c);
        break;
      case "SpecifiedTradeAllowanceCharge": inv.allowances_charges.push(readCiiAllowanceCharge(c)); break;
      case "SpecifiedLogisticsServiceCharge": {
        // A ZUGFeRD/Factur-X Extended logistics charge is a document-level charge (BG-21).
        const tax = child(c, RAM, "AppliedTradeTax");
        inv.allowances_charges.push({
          charge: true, amount: parseDecimal(childText(c, RAM, "AppliedAmount")), base_amount: null, percentage: null,
          vat_category: codeOf(UNCL_5305, childText(tax, RAM, "CategoryCode")),
          vat_rate: parseDecimal(childText(tax, RAM, "RateApplicablePercent")),
          reason: childText(c, RAM, "Description"), reason_code: null,
        });
        break;
      }
      case "SpecifiedTradePaymentTerms": _terms(c, p); paymentSeen = true; break;
      case "SpecifiedTradeSettlementHeaderMonetarySummation": _totals(c, inv, taxTotals); break;
      case "InvoiceReferencedDocument":
        inv.references.preceding_invoices.push({
          number: childText(c, RAM, "IssuerAssignedID"), issue_date: ciiDate(child(c, RAM, "FormattedIssueDateTime")),
          ksef_number: null, in_ksef: null,
        });
        break;
      case "ReceivableSpecifiedTradeAccountingAccount": inv.references.accounting_reference = childText(c, RAM, "ID"); break;
      case "TaxApplicableTradeCurrencyExchange": {
        const rate = parseDecimal(childText(c, RAM, "ConversionRate"));
        if (rate !== null) {
          inv.exchange_rates.push({
            applies_to: "invoice", line_number: null, from_currency: childText(c, RAM, "SourceCurrencyCode"),
            to_currency: childText(c, RAM, "TargetCurrencyCode"), rate, date: ciiDate(child(c, RAM, "ConversionRateDateTime")),
          });
        }
        break;
      }
    }
  }
  // BT-110 is the TaxTotalAmount in the document currency, BT-111 the one in the tax currency.
  for (const t of taxTotals) {
    const currency = attr(t, "currencyID");
    const amount = parseDecimal(textOf(t));
    if (currency !== null && currency !== inv.currency && currency === inv.tax_currency) inv.totals.tax_in_tax_currency = amount;
    else inv.totals.tax ??= amount;
  }
  if (paymentSeen) inv.payment = p;
}

function _debit(): NonNullable<Payment["direct_debit"]> {
  return { mandate: null, creditor_id: null, debited_account: null };
}

/** ram:SpecifiedTradeSettlementPaymentMeans (BG-16…BG-19). */
function _means(el: XmlElement, p: Payment): void {
  p.means ??= codeOf(UNCL_4461, childText(el, RAM, "TypeCode"));
  p.means_text ??= childText(el, RAM, "Information");
  const card = child(el, RAM, "ApplicableTradeSettlementFinancialCard");
  if (card !== null) p.card = { pan: childText(card, RAM, "ID"), holder: childText(card, RAM, "CardholderName") };
  const debtor = childText(child(el, RAM, "PayerPartyDebtorFinancialAccount"), RAM, "IBANID");
  if (debtor !== null) (p.direct_debit ??= _debit()).debited_account = debtor;
  const acct = child(el, RAM, "PayeePartyCreditorFinancialAccount");
  if (acct !== null) {
    p.accounts.push({
      number: childText(acct, RAM, "IBANID") ?? childText(acct, RAM, "ProprietaryID"),
      name: childText(acct, RAM, "AccountName"),
      bic: childText(child(el, RAM, "PayeeSpecifiedCreditorFinancialInstitution"), RAM, "BICID"),
      bank_name: null, description: null, bank_own_account: null, factor: false, held_by: null,
    });
  }
}

/** ram:SpecifiedTradePaymentTerms: BT-20, BT-9, BT-89, and a payment discount (Extended). */
function _terms(el: XmlElement, p: Payment): void {
  const text = childText(el, RAM, "Description");
  if (text !== null) p.terms = p.terms === null ? text : `${p.terms}\n${text}`;
  const due = ciiDate(child(el, RAM, "DueDateDateTime"));
  if (due !== null) p.due_dates.push({ date: due, description: null, quantity: null, unit: null, start_event: null });
  const mandate = childText(el, RAM, "DirectDebitMandateID");
  if (mandate !== null) (p.direct_debit ??= _debit()).mandate = mandate;
  const discount = child(el, RAM, "ApplicableTradePaymentDiscountTerms");
  if (discount !== null) {
    const period = child(discount, RAM, "BasisPeriodMeasure");
    const unit = attr(period, "unitCode");
    const conditions = textOf(period);
    p.discount = {
      conditions: conditions === null ? null : unit === null ? conditions : `${conditions} ${unit}`,
      amount: childText(discount, RAM, "CalculationPercent"),
    };
  }
}

/** ram:ApplicableTradeTax of the header (BG-23; BT-7, BT-8). */
function _tax(el: XmlElement, inv: Invoice): void {
  inv.tax_point_date ??= ciiDate(child(el, RAM, "TaxPointDate"));
  inv.tax_point_date_code ??= childText(el, RAM, "DueDateTypeCode");
  inv.vat_breakdown.push(readVatBreakdown(el, el, childText(el, RAM, "TypeCode"), VAT_BREAKDOWN_NAMES));
}

/** ram:SpecifiedTradeSettlementHeaderMonetarySummation (BG-22); TaxTotalAmount elements are sorted by the caller. */
function _totals(el: XmlElement, inv: Invoice, taxTotals: XmlElement[]): void {
  readTotals(el, RAM, CII_TOTALS_NAMES, inv.totals);
  for (const c of el.children) if (c.ns === RAM && c.local === "TaxTotalAmount") taxTotals.push(c);
}
