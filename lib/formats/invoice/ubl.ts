/**
 * Reads a UBL 2.1 Invoice or CreditNote (EN 16931 UBL syntax binding, Peppol BIS
 * Billing 3.0, XRechnung UBL) into the invoice model. Amounts are copied as
 * written, never recomputed. Does not validate business rules: what is missing
 * is null, nothing here throws.
 * @module
 */

import type { XmlElement } from "../xml/tree.ts";
import { parseDecimal } from "./decimal.ts";
import { documentTypeFromCode } from "./document_type.ts";
import type { Address, Invoice, InvoiceLine, Party, Payment, VatBreakdown } from "./model.ts";
import { attr, child, childText, compact, parseDate, textOf } from "./query.ts";

/** Root namespace of a UBL 2.1 Invoice. */
export const UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
/** Root namespace of a UBL 2.1 CreditNote. */
export const UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const CAC = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

/** Reads an Invoice or CreditNote root element. */
export function readUbl(root: XmlElement): Invoice {
  const creditNote = root.local === "CreditNote";
  const inv: Invoice = {
    format: "ubl", profile: null, type: "other", type_code: null, number: null, issue_date: null,
    sale_date: null, currency: null, seller: _emptyParty(), buyer: _emptyParty(), lines: [],
    vat_breakdown: [], totals: { net: null, tax: null, gross: null, payable: null }, payment: null,
    corrected_invoices: [], correction_reason: null, notes: [],
  };
  let dueDate: string | null = null;
  const paymentMeans: XmlElement[] = [];
  const terms: string[] = [];
  const taxTotals: XmlElement[] = [];
  for (const c of root.children) {
    if (c.ns === CBC) {
      switch (c.local) {
        case "CustomizationID": inv.profile = textOf(c); break;
        case "ID": inv.number = textOf(c); break;
        case "IssueDate": inv.issue_date = parseDate(textOf(c)); break;
        case "DueDate": dueDate = parseDate(textOf(c)); break;
        case "InvoiceTypeCode":
        case "CreditNoteTypeCode":
          inv.type_code = textOf(c);
          break;
        case "Note": {
          const note = textOf(c);
          if (note !== null) inv.notes.push(note);
          break;
        }
        case "DocumentCurrencyCode": inv.currency = textOf(c); break;
      }
    } else if (c.ns === CAC) {
      switch (c.local) {
        case "BillingReference": {
          const ref = child(c, CAC, "InvoiceDocumentReference");
          if (ref !== null) {
            inv.corrected_invoices.push({
              number: childText(ref, CBC, "ID"),
              issue_date: parseDate(childText(ref, CBC, "IssueDate")),
              ksef_number: null,
            });
          }
          break;
        }
        case "AccountingSupplierParty":
          inv.seller = _party(child(c, CAC, "Party"));
          break;
        case "AccountingCustomerParty":
          inv.buyer = _party(child(c, CAC, "Party"));
          break;
        case "Delivery":
          inv.sale_date ??= parseDate(childText(c, CBC, "ActualDeliveryDate"));
          break;
        case "PaymentMeans": paymentMeans.push(c); break;
        case "PaymentTerms": {
          const note = childText(c, CBC, "Note");
          if (note !== null) terms.push(note);
          break;
        }
        case "TaxTotal": taxTotals.push(c); break;
        case "LegalMonetaryTotal":
          inv.totals.net = parseDecimal(childText(c, CBC, "TaxExclusiveAmount"));
          inv.totals.gross = parseDecimal(childText(c, CBC, "TaxInclusiveAmount"));
          inv.totals.payable = parseDecimal(childText(c, CBC, "PayableAmount"));
          break;
        case "InvoiceLine":
        case "CreditNoteLine":
          inv.lines.push(_line(c));
          break;
      }
    }
  }
  // An Invoice root without a type code is still an invoice; a CreditNote root is a credit note.
  inv.type = creditNote ? "credit_note" : documentTypeFromCode(inv.type_code, "invoice");
  _readTaxTotals(taxTotals, inv);
  inv.payment = _payment(dueDate, paymentMeans, terms);
  return inv;
}

/**
 * BT-110 is the TaxTotal/TaxAmount in the document currency (a second TaxTotal
 * may give the tax in the VAT accounting currency, BT-111); with no currencyID
 * it counts when it is the only one. The breakdown comes from that TaxTotal.
 */
function _readTaxTotals(taxTotals: readonly XmlElement[], inv: Invoice): void {
  let chosen: XmlElement | null = null;
  for (const t of taxTotals) {
    const amount = child(t, CBC, "TaxAmount");
    if (amount !== null && inv.currency !== null && attr(amount, "currencyID") === inv.currency) {
      chosen = t;
      break;
    }
  }
  if (chosen === null && taxTotals.length === 1) {
    const only = taxTotals[0] as XmlElement;
    const currency = attr(child(only, CBC, "TaxAmount"), "currencyID");
    if (currency === null || inv.currency === null) chosen = only;
  }
  if (chosen === null) return;
  inv.totals.tax = parseDecimal(childText(chosen, CBC, "TaxAmount"));
  for (const sub of chosen.children) {
    if (sub.ns !== CAC || sub.local !== "TaxSubtotal") continue;
    const category = child(sub, CAC, "TaxCategory");
    const row: VatBreakdown = {
      rate: childText(category, CBC, "Percent"),
      category: childText(category, CBC, "ID"),
      net: parseDecimal(childText(sub, CBC, "TaxableAmount")),
      tax: parseDecimal(childText(sub, CBC, "TaxAmount")),
    };
    inv.vat_breakdown.push(row);
  }
}

function _emptyParty(): Party {
  return { name: null, tax_id: null, tax_id_prefix: null, address: null, email: null };
}

/**
 * cac:Party. Name: BT-27 RegistrationName, else PartyName/Name (BT-28). Tax id:
 * the PartyTaxScheme whose TaxScheme is VAT (BT-31), else the first other one
 * (BT-32, the local tax number, TaxScheme "FC" in XRechnung). PartyLegalEntity/
 * CompanyID is a company register number (BT-30), not a tax id: never used.
 */
function _party(party: XmlElement | null): Party {
  const p = _emptyParty();
  if (party === null) return p;
  let tradingName: string | null = null;
  let otherTaxId: string | null = null;
  let endpointEmail: string | null = null;
  for (const c of party.children) {
    if (c.ns === CBC) {
      if (c.local === "EndpointID" && attr(c, "schemeID") === "EM") endpointEmail = textOf(c);
      continue;
    }
    if (c.ns !== CAC) continue;
    switch (c.local) {
      case "PartyName":
        tradingName ??= childText(c, CBC, "Name");
        break;
      case "PostalAddress":
        p.address = _address(c);
        break;
      case "PartyTaxScheme": {
        const id = childText(c, CBC, "CompanyID");
        if (id === null) break;
        const scheme = childText(child(c, CAC, "TaxScheme"), CBC, "ID");
        if (scheme === "VAT") p.tax_id ??= id;
        else otherTaxId ??= id;
        break;
      }
      case "PartyLegalEntity":
        p.name ??= childText(c, CBC, "RegistrationName");
        break;
      case "Contact":
        p.email ??= childText(c, CBC, "ElectronicMail");
        break;
    }
  }
  p.name ??= tradingName;
  p.tax_id ??= otherTaxId;
  p.email ??= endpointEmail;
  return p;
}

function _address(el: XmlElement): Address {
  const lines: (string | null)[] = [];
  let city: string | null = null;
  let postal: string | null = null;
  let country: string | null = null;
  for (const c of el.children) {
    if (c.ns === CBC) {
      switch (c.local) {
        case "StreetName":
        case "AdditionalStreetName":
          lines.push(textOf(c));
          break;
        case "CityName": city = textOf(c); break;
        case "PostalZone": postal = textOf(c); break;
      }
    } else if (c.ns === CAC) {
      if (c.local === "AddressLine") lines.push(childText(c, CBC, "Line"));
      else if (c.local === "Country") country = childText(c, CBC, "IdentificationCode");
    }
  }
  return { lines: compact(lines), city, postal_code: postal, country };
}

/** InvoiceLine / CreditNoteLine (BG-25). The unit price is per cbc:BaseQuantity, as written. */
function _line(el: XmlElement): InvoiceLine {
  const line: InvoiceLine = {
    number: null, name: null, quantity: null, unit: null, unit_price: null, gross_priced: false,
    amount: null, vat_rate: null, vat_category: null, vat_amount: null, before_correction: false,
  };
  for (const c of el.children) {
    if (c.ns === CBC) {
      switch (c.local) {
        case "ID": line.number = textOf(c); break;
        case "InvoicedQuantity":
        case "CreditedQuantity":
          line.quantity = parseDecimal(textOf(c));
          line.unit = attr(c, "unitCode");
          break;
        case "LineExtensionAmount": line.amount = parseDecimal(textOf(c)); break;
      }
    } else if (c.ns === CAC) {
      switch (c.local) {
        case "Item": {
          line.name = childText(c, CBC, "Name");
          const category = child(c, CAC, "ClassifiedTaxCategory");
          line.vat_category = childText(category, CBC, "ID");
          line.vat_rate = childText(category, CBC, "Percent");
          break;
        }
        case "Price": line.unit_price = parseDecimal(childText(c, CBC, "PriceAmount")); break;
        // UBL 2.1 allows a line TaxTotal (Peppol forbids it); read it when present.
        case "TaxTotal": line.vat_amount = parseDecimal(childText(c, CBC, "TaxAmount")); break;
      }
    }
  }
  return line;
}

/** BT-9 due date (CreditNote: PaymentMeans/PaymentDueDate), BT-81 means code, BT-84 account, BT-20 terms. */
function _payment(dueDate: string | null, means: readonly XmlElement[], terms: readonly string[]): Payment | null {
  let due = dueDate;
  let code: string | null = null;
  let account: string | null = null;
  let bank: string | null = null;
  for (const m of means) {
    due ??= parseDate(childText(m, CBC, "PaymentDueDate"));
    code ??= childText(m, CBC, "PaymentMeansCode");
    const acct = child(m, CAC, "PayeeFinancialAccount");
    if (acct !== null && account === null) {
      account = childText(acct, CBC, "ID");
      const branch = child(acct, CAC, "FinancialInstitutionBranch");
      bank = childText(branch, CBC, "Name") ?? childText(child(branch, CAC, "FinancialInstitution"), CBC, "Name");
    }
  }
  const termsText: string | null = terms.length === 0 ? null : terms.join("\n");
  if (due === null && code === null && account === null && bank === null && termsText === null) return null;
  return { due_date: due, means: code, account, bank_name: bank, terms: termsText };
}
