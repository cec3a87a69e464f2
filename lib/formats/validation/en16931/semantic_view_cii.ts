/**
 * Reads the EN 16931 semantic view from a UN/CEFACT CII D16B CrossIndustryInvoice,
 * following the element paths of the CEN/TC 434 CII binding
 * (EN16931-CII-validation.sch, 1.3.16). What the rules look for anywhere (`//`) is
 * collected by one walk (walkView in semantic_view.ts, shared with UBL) with this
 * syntax's table of names.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { attr, child, children, field, mapped, norm, walkTable, walkView, xsBoolean } from "./semantic_view.ts";
import type { AllowanceCharge, Breakdown, Field, Line, Party, Period, SemanticView, VatCategory } from "./semantic_view.ts";

const RSM = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
const RAM_URI = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";
const UDT_URI = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100";

/**
 * The namespace names as the document's own string objects (set by readCiiView):
 * comparing an element's namespace with the very string the parser gave it is a
 * pointer comparison, not an 80-character one. Reads are synchronous, so one
 * module-level pair is safe.
 */
let RAM = RAM_URI;
let UDT = UDT_URI;

/** The document's own string for `uri`, found on the first element that uses it. */
function _docString(el: XmlElement, uri: string): string | null {
  if (el.ns === uri) return el.ns;
  for (const c of el.children) {
    const s = _docString(c, uri);
    if (s !== null) return s;
  }
  return null;
}

function r(el: XmlElement | null | undefined, local: string): XmlElement | null {
  return child(el, RAM, local);
}

function fr(el: XmlElement | null | undefined, local: string): Field | null {
  return field(child(el, RAM, local));
}

/** The udt:DateTimeString of a date element when its format is 102 (CCYYMMDD), as the rules read it. */
function _date102(el: XmlElement | null): string | null {
  const s = child(el, UDT, "DateTimeString");
  return s !== null && attr(s, "format") === "102" ? s.text : null;
}

function _category(el: XmlElement, kind: VatCategory["kind"]): VatCategory {
  const code = fr(el, "CategoryCode");
  const type = r(el, "TypeCode")?.text;
  return {
    el,
    kind,
    code,
    key: code === null ? "" : code.text,
    vat: type === "VAT" || norm(type).toUpperCase() === "VAT",
    percent: fr(el, "RateApplicablePercent"),
    exemptionReason: fr(el, "ExemptionReason"),
    exemptionCode: fr(el, "ExemptionReasonCode"),
  };
}

function _allowanceCharge(el: XmlElement): AllowanceCharge {
  const charge = xsBoolean(child(r(el, "ChargeIndicator"), UDT, "Indicator")?.text);
  const kind = charge === true ? "charge" : "allowance";
  return {
    el,
    charge,
    amount: fr(el, "ActualAmount"),
    base: fr(el, "BasisAmount"),
    reason: fr(el, "Reason"),
    reasonCode: fr(el, "ReasonCode"),
    categories: mapped(children(el, RAM, "CategoryTradeTax"), (c) => _category(c, kind)),
  };
}

function _period(el: XmlElement): Period {
  const start = r(el, "StartDateTime");
  const end = r(el, "EndDateTime");
  return { el, start: field(start), end: field(end), startValue: _date102(start), endValue: _date102(end), descriptionCode: null };
}

function _party(el: XmlElement | null): Party | null {
  if (el === null) return null;
  const postal = r(el, "PostalTradeAddress");
  const uri = r(r(el, "URIUniversalCommunication"), "URIID");
  const vatIds: Field[] = [];
  const taxIds: Field[] = [];
  for (const reg of children(el, RAM, "SpecifiedTaxRegistration")) {
    for (const id of children(reg, RAM, "ID")) {
      const scheme = attr(id, "schemeID");
      if (scheme === "VA") vatIds.push({ el: id, text: id.text });
      if (scheme === "VA" || scheme === "FC") taxIds.push({ el: id, text: id.text });
    }
  }
  const name = fr(el, "Name");
  return {
    el,
    legalName: name,
    names: name === null ? [] : [name],
    postal,
    country: fr(postal, "CountryID"),
    // BR-62/BR-63 look at the first electronic address only.
    endpoint: r(el, "URIUniversalCommunication") === null ? null : { el: uri ?? el, scheme: attr(uri, "schemeID") },
    ids: mapped(children(el, RAM, "ID"), (i) => ({ text: i.text, scheme: attr(i, "schemeID") })),
    globalIds: mapped(children(el, RAM, "GlobalID"), (i) => i.text),
    legalIds: mapped(children(r(el, "SpecifiedLegalOrganization"), RAM, "ID"), (i) => i.text),
    vatIds,
    taxIds,
  };
}

function _line(el: XmlElement): Line {
  const agreement = r(el, "SpecifiedLineTradeAgreement");
  const quantity = r(r(el, "SpecifiedLineTradeDelivery"), "BilledQuantity");
  const settlement = r(el, "SpecifiedLineTradeSettlement");
  const period = r(settlement, "BillingSpecifiedPeriod");
  return {
    el,
    id: fr(r(el, "AssociatedDocumentLineDocument"), "LineID"),
    quantity: field(quantity),
    hasUnitCode: attr(quantity, "unitCode") !== null,
    net: fr(r(settlement, "SpecifiedTradeSettlementLineMonetarySummation"), "LineTotalAmount"),
    name: fr(r(el, "SpecifiedTradeProduct"), "Name"),
    netPrice: fr(r(agreement, "NetPriceProductTradePrice"), "ChargeAmount"),
    grossPrice: fr(r(agreement, "GrossPriceProductTradePrice"), "ChargeAmount"),
    categories: mapped(children(settlement, RAM, "ApplicableTradeTax"), (c) => _category(c, "line")),
    allowances: mapped(children(settlement, RAM, "SpecifiedTradeAllowanceCharge"), _allowanceCharge),
    period: period === null ? null : _period(period),
  };
}

/** Reads the view from the root element of a CrossIndustryInvoice. */
export function readCiiView(root: XmlElement): SemanticView {
  RAM = _docString(root, RAM_URI) ?? RAM_URI;
  UDT = _docString(root, UDT_URI) ?? UDT_URI;
  const doc = child(root, RSM, "ExchangedDocument");
  const tx = child(root, RSM, "SupplyChainTradeTransaction");
  const agreement = r(tx, "ApplicableHeaderTradeAgreement");
  const delivery = r(tx, "ApplicableHeaderTradeDelivery");
  const settlement = r(tx, "ApplicableHeaderTradeSettlement");
  const seller = r(agreement, "SellerTradeParty");
  const period = r(settlement, "BillingSpecifiedPeriod");
  const shipTo = r(delivery, "ShipToTradeParty");
  const issue = r(doc, "IssueDateTime");
  const issueDate = child(issue, UDT, "DateTimeString");
  const v: SemanticView = {
    syntax: "cii",
    root,
    specId: fr(r(child(root, RSM, "ExchangedDocumentContext"), "GuidelineSpecifiedDocumentContextParameter"), "ID"),
    number: fr(doc, "ID"),
    issueDate: issueDate !== null && attr(issueDate, "format") === "102" ? field(issueDate) : null,
    typeCode: fr(doc, "TypeCode"),
    currency: fr(settlement, "InvoiceCurrencyCode"),
    taxCurrency: fr(settlement, "TaxCurrencyCode"),
    seller: _party(seller),
    sellerContext: seller,
    buyer: _party(r(agreement, "BuyerTradeParty")),
    payee: _party(r(settlement, "PayeeTradeParty")),
    taxRepresentative: _party(r(agreement, "SellerTaxRepresentativeTradeParty")),
    totals: null,
    taxTotals: [],
    breakdownsByTotal: new Map(),
    breakdowns: [],
    allowances: mapped(children(settlement, RAM, "SpecifiedTradeAllowanceCharge"), _allowanceCharge),
    lines: mapped(children(tx, RAM, "IncludedSupplyChainTradeLineItem"), _line),
    periods: period === null ? [] : [_period(period)],
    hasTaxPointDate: false,
    hasDateCode: false,
    deliveryAddresses: [],
    hasDeliveryDateOrPeriod:
      _date102Any(r(r(delivery, "ActualDeliverySupplyChainEvent"), "OccurrenceDateTime")) ||
      r(period, "StartDateTime") !== null ||
      r(period, "EndDateTime") !== null,
    deliveryCountry: r(r(shipTo, "PostalTradeAddress"), "CountryID")?.text ?? null,
    additionalDocuments: [],
    itemAttributes: [],
    classifications: [],
    standardIds: [],
    precedingInvoices: mapped(children(settlement, RAM, "InvoiceReferencedDocument"), (d) => ({ el: d, id: fr(d, "IssuerAssignedID") })),
    paymentMeans: [],
    cardNumbers: [],
    vatIdentifiers: [],
    categories: [],
    countryCodes: [],
  };
  const postal = r(shipTo, "PostalTradeAddress");
  if (postal !== null) v.deliveryAddresses.push({ el: delivery ?? postal, country: fr(postal, "CountryID") });
  const sums = r(settlement, "SpecifiedTradeSettlementHeaderMonetarySummation");
  if (sums !== null) {
    v.totals = {
      el: sums,
      lineNet: fr(sums, "LineTotalAmount"),
      allowances: fr(sums, "AllowanceTotalAmount"),
      charges: fr(sums, "ChargeTotalAmount"),
      taxExclusive: fr(sums, "TaxBasisTotalAmount"),
      taxInclusive: fr(sums, "GrandTotalAmount"),
      prepaid: fr(sums, "TotalPrepaidAmount"),
      rounding: fr(sums, "RoundingAmount"),
      payable: fr(sums, "DuePayableAmount"),
    };
    for (const t of children(sums, RAM, "TaxTotalAmount")) v.taxTotals.push({ el: t, amount: field(t), currency: attr(t, "currencyID") });
  }
  for (const t of children(settlement, RAM, "ApplicableTradeTax")) {
    const b: Breakdown = { el: t, taxable: fr(t, "BasisAmount"), tax: fr(t, "CalculatedAmount"), categories: [_category(t, "breakdown")] };
    v.breakdowns.push(b);
  }
  walkView(root, null, v, WALK);
  // Hold on to nothing of this document once it is read.
  RAM = RAM_URI;
  UDT = UDT_URI;
  return v;
}

function _date102Any(el: XmlElement | null): boolean {
  return child(el, UDT, "DateTimeString") !== null;
}

/** What the CII rules' contexts match anywhere in the document, by element name. */
const WALK = walkTable({
  [RAM_URI]: {
    AdditionalReferencedDocument: (el, _, v) => v.additionalDocuments.push({ el, id: fr(el, "IssuerAssignedID") }),
    ApplicableProductCharacteristic: (el, _, v) => v.itemAttributes.push({ el, hasName: r(el, "Description") !== null, hasValue: r(el, "Value") !== null }),
    DesignatedProductClassification: (el, _, v) => {
      const code = r(el, "ClassCode");
      if (code !== null) v.classifications.push({ el, listId: attr(code, "listID") });
    },
    SpecifiedTradeProduct: (el, _, v) => {
      const id = r(el, "GlobalID");
      if (id !== null) v.standardIds.push({ el: id, scheme: attr(id, "schemeID") });
    },
    SpecifiedTradeSettlementPaymentMeans: (el, _, v) =>
      v.paymentMeans.push({
        el,
        code: fr(el, "TypeCode"),
        accounts: mapped(children(el, RAM, "PayeePartyCreditorFinancialAccount"), (acc) => ({
          el: acc,
          ids: mapped([...children(acc, RAM, "IBANID"), ...children(acc, RAM, "ProprietaryID")], (i) => ({ el: i, text: i.text })),
        })),
      }),
    ApplicableTradeSettlementFinancialCard: (el, _, v) => v.cardNumbers.push({ el, text: r(el, "ID")?.text ?? "" }),
    SpecifiedTaxRegistration: (el, _, v) => {
      for (const id of children(el, RAM, "ID")) if (attr(id, "schemeID") === "VA") v.vatIdentifiers.push({ el: id, text: id.text });
    },
    ApplicableTradeTax: (el, parent, v) =>
      v.categories.push(_category(el, parent?.local === "SpecifiedLineTradeSettlement" ? "line" : parent?.local === "ApplicableHeaderTradeSettlement" ? "breakdown" : "other")),
    CategoryTradeTax: (el, parent, v) => {
      const charge = xsBoolean(child(r(parent, "ChargeIndicator"), UDT, "Indicator")?.text);
      v.categories.push(_category(el, charge === true ? "charge" : "allowance"));
    },
    CountryID: (el, _, v) => v.countryCodes.push(el.text),
    TaxPointDate: (_el, _, v) => (v.hasTaxPointDate = true),
    DueDateTypeCode: (_el, _, v) => (v.hasDateCode = true),
  },
});
