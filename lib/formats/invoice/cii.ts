/**
 * Reads a UN/CEFACT Cross Industry Invoice D16B (EN 16931 CII syntax binding,
 * XRechnung CII, Factur-X / ZUGFeRD 2.x, any profile) into the invoice model.
 * Amounts are copied as written. ZUGFeRD 1.0's CrossIndustryDocument is out of
 * scope. Does not validate business rules: what is missing is null, nothing throws.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { parseDecimal } from "./decimal.ts";
import { documentTypeFromCode } from "./document_type.ts";
import type { Address, Invoice, InvoiceLine, Party, Payment } from "./model.ts";
import { attr, child, childText, compact, descend, parseDate, textOf } from "./query.ts";

/** Root namespace of a CII D16B invoice. */
export const CII_RSM_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
const RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";

/** UN/EDIFACT 2379 date format code CCYYMMDD, the one EN 16931 allows for dates. */
const DATE_FORMAT_102 = "102";

/** Reads a CrossIndustryInvoice root element. */
export function readCii(root: XmlElement): Invoice {
  const ns = root.ns;
  const inv: Invoice = {
    format: "cii", profile: null, type: "other", type_code: null, number: null, issue_date: null,
    sale_date: null, currency: null, seller: _emptyParty(), buyer: _emptyParty(), lines: [],
    vat_breakdown: [], totals: { net: null, tax: null, gross: null, payable: null }, payment: null,
    corrected_invoices: [], correction_reason: null, notes: [],
  };
  for (const c of root.children) {
    if (c.ns !== ns) continue;
    switch (c.local) {
      case "ExchangedDocumentContext":
        inv.profile = childText(child(c, RAM, "GuidelineSpecifiedDocumentContextParameter"), RAM, "ID");
        break;
      case "ExchangedDocument":
        _readDocument(c, inv);
        break;
      case "SupplyChainTradeTransaction":
        _readTransaction(c, inv);
        break;
    }
  }
  inv.type = documentTypeFromCode(inv.type_code, "other");
  return inv;
}

/** rsm:ExchangedDocument: BT-1 number, BT-3 type, BT-2 date, BG-1 notes. */
function _readDocument(doc: XmlElement, inv: Invoice): void {
  for (const c of doc.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "ID": inv.number = textOf(c); break;
      case "TypeCode": inv.type_code = textOf(c); break;
      case "IssueDateTime": inv.issue_date = _date(c); break;
      case "IncludedNote":
        for (const content of c.children) {
          if (content.ns !== RAM || content.local !== "Content") continue;
          const note = textOf(content);
          if (note !== null) inv.notes.push(note);
        }
        break;
    }
  }
}

/** rsm:SupplyChainTradeTransaction: lines, then the header agreement, delivery and settlement. */
function _readTransaction(tx: XmlElement, inv: Invoice): void {
  for (const c of tx.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "IncludedSupplyChainTradeLineItem":
        inv.lines.push(_line(c));
        break;
      case "ApplicableHeaderTradeAgreement":
        inv.seller = _party(child(c, RAM, "SellerTradeParty"));
        inv.buyer = _party(child(c, RAM, "BuyerTradeParty"));
        break;
      case "ApplicableHeaderTradeDelivery":
        // BT-72 actual delivery date.
        inv.sale_date = _date(descend(c, RAM, "ActualDeliverySupplyChainEvent", "OccurrenceDateTime"));
        break;
      case "ApplicableHeaderTradeSettlement":
        _readSettlement(c, inv);
        break;
    }
  }
}

/** ram:ApplicableHeaderTradeSettlement: currency, payment, VAT breakdown, totals, preceding invoices. */
function _readSettlement(s: XmlElement, inv: Invoice): void {
  let summation: XmlElement | null = null;
  let due: string | null = null;
  let means: string | null = null;
  let account: string | null = null;
  let bank: string | null = null;
  const terms: string[] = [];
  for (const c of s.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "InvoiceCurrencyCode":
        inv.currency = textOf(c);
        break;
      case "SpecifiedTradeSettlementPaymentMeans": {
        means ??= childText(c, RAM, "TypeCode");
        const acct = child(c, RAM, "PayeePartyCreditorFinancialAccount");
        if (acct !== null && account === null) {
          account = childText(acct, RAM, "IBANID") ?? childText(acct, RAM, "ProprietaryID");
          bank = childText(child(c, RAM, "PayeeSpecifiedCreditorFinancialInstitution"), RAM, "Name");
        }
        break;
      }
      case "ApplicableTradeTax":
        inv.vat_breakdown.push({
          rate: childText(c, RAM, "RateApplicablePercent"),
          category: childText(c, RAM, "CategoryCode"),
          net: parseDecimal(childText(c, RAM, "BasisAmount")),
          tax: parseDecimal(childText(c, RAM, "CalculatedAmount")),
        });
        break;
      case "SpecifiedTradePaymentTerms": {
        due ??= _date(child(c, RAM, "DueDateDateTime"));
        const text = childText(c, RAM, "Description");
        if (text !== null) terms.push(text);
        break;
      }
      case "SpecifiedTradeSettlementHeaderMonetarySummation":
        summation ??= c;
        break;
      case "InvoiceReferencedDocument":
        // BG-3 preceding invoice reference.
        inv.corrected_invoices.push({
          number: childText(c, RAM, "IssuerAssignedID"),
          issue_date: _date(child(c, RAM, "FormattedIssueDateTime")),
          ksef_number: null,
        });
        break;
    }
  }
  if (summation !== null) _readSummation(summation, inv);
  const termsText = terms.length === 0 ? null : terms.join("\n");
  if (due !== null || means !== null || account !== null || bank !== null || termsText !== null) {
    const payment: Payment = { due_date: due, means, account, bank_name: bank, terms: termsText };
    inv.payment = payment;
  }
}

/**
 * BT-109, BT-110, BT-112, BT-115. BT-110 is the TaxTotalAmount in the invoice
 * currency; a second one may give BT-111 in the VAT accounting currency. Without
 * a currencyID it counts when it is the only one.
 */
function _readSummation(sum: XmlElement, inv: Invoice): void {
  const taxes: XmlElement[] = [];
  for (const c of sum.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "TaxBasisTotalAmount": inv.totals.net = parseDecimal(textOf(c)); break;
      case "TaxTotalAmount": taxes.push(c); break;
      case "GrandTotalAmount": inv.totals.gross = parseDecimal(textOf(c)); break;
      case "DuePayableAmount": inv.totals.payable = parseDecimal(textOf(c)); break;
    }
  }
  let tax: XmlElement | null = null;
  if (inv.currency !== null) {
    for (const t of taxes) {
      if (attr(t, "currencyID") === inv.currency) {
        tax = t;
        break;
      }
    }
  }
  if (tax === null && taxes.length === 1) {
    const only = taxes[0] as XmlElement;
    if (attr(only, "currencyID") === null || inv.currency === null) tax = only;
  }
  inv.totals.tax = tax === null ? null : parseDecimal(textOf(tax));
}

function _emptyParty(): Party {
  return { name: null, tax_id: null, tax_id_prefix: null, address: null, email: null };
}

/**
 * SellerTradeParty / BuyerTradeParty. Tax id: SpecifiedTaxRegistration/ID with
 * schemeID VA (VAT id, BT-31/BT-48), else FC (local tax number, BT-32).
 */
function _party(party: XmlElement | null): Party {
  const p = _emptyParty();
  if (party === null) return p;
  let fiscalId: string | null = null;
  let uriEmail: string | null = null;
  for (const c of party.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "Name":
        p.name ??= textOf(c);
        break;
      case "PostalTradeAddress":
        p.address ??= _address(c);
        break;
      case "SpecifiedTaxRegistration": {
        const id = child(c, RAM, "ID");
        const scheme = attr(id, "schemeID");
        if (scheme === "VA") p.tax_id ??= textOf(id);
        else if (scheme === "FC") fiscalId ??= textOf(id);
        break;
      }
      case "DefinedTradeContact":
        p.email ??= childText(child(c, RAM, "EmailURIUniversalCommunication"), RAM, "URIID");
        break;
      case "URIUniversalCommunication": {
        const uri = child(c, RAM, "URIID");
        if (attr(uri, "schemeID") === "EM") uriEmail ??= textOf(uri);
        break;
      }
    }
  }
  p.tax_id ??= fiscalId;
  p.email ??= uriEmail;
  return p;
}

function _address(el: XmlElement): Address {
  return {
    lines: compact([childText(el, RAM, "LineOne"), childText(el, RAM, "LineTwo"), childText(el, RAM, "LineThree")]),
    city: childText(el, RAM, "CityName"),
    postal_code: childText(el, RAM, "PostcodeCode"),
    country: childText(el, RAM, "CountryID"),
  };
}

/** ram:IncludedSupplyChainTradeLineItem (BG-25). */
function _line(el: XmlElement): InvoiceLine {
  const line: InvoiceLine = {
    number: null, name: null, quantity: null, unit: null, unit_price: null, gross_priced: false,
    amount: null, vat_rate: null, vat_category: null, vat_amount: null, before_correction: false,
  };
  for (const c of el.children) {
    if (c.ns !== RAM) continue;
    switch (c.local) {
      case "AssociatedDocumentLineDocument": line.number = childText(c, RAM, "LineID"); break;
      case "SpecifiedTradeProduct": line.name = childText(c, RAM, "Name"); break;
      case "SpecifiedLineTradeAgreement":
        line.unit_price = parseDecimal(childText(child(c, RAM, "NetPriceProductTradePrice"), RAM, "ChargeAmount"));
        break;
      case "SpecifiedLineTradeDelivery": {
        const qty = child(c, RAM, "BilledQuantity");
        line.quantity = parseDecimal(textOf(qty));
        line.unit = attr(qty, "unitCode");
        break;
      }
      case "SpecifiedLineTradeSettlement": {
        const tax = child(c, RAM, "ApplicableTradeTax");
        line.vat_category = childText(tax, RAM, "CategoryCode");
        line.vat_rate = childText(tax, RAM, "RateApplicablePercent");
        line.amount = parseDecimal(
          childText(child(c, RAM, "SpecifiedTradeSettlementLineMonetarySummation"), RAM, "LineTotalAmount"),
        );
        break;
      }
    }
  }
  return line;
}

/**
 * A date container (IssueDateTime, DueDateDateTime…): its udt:DateTimeString or
 * DateString child (qdt: in some places, so matched by local name), format 102;
 * a string without a format attribute is read as 102 when it fits.
 */
function _date(container: XmlElement | null): string | null {
  if (container === null) return null;
  for (const c of container.children) {
    if (c.local !== "DateTimeString" && c.local !== "DateString") continue;
    const format = attr(c, "format");
    if (format !== null && format !== DATE_FORMAT_102) return null;
    const text = textOf(c);
    return text !== null && text.length === 8 ? parseDate(text) : null;
  }
  return null;
}
