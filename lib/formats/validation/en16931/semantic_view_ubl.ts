/**
 * Reads the EN 16931 semantic view from a UBL 2.1 Invoice or CreditNote, following
 * the element paths of the CEN/TC 434 UBL binding (EN16931-UBL-validation.sch, 1.3.16).
 * What the rules look for anywhere (`//`) is collected by one walk over the tree
 * (walkView in semantic_view.ts, shared with CII) with this syntax's table of names.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { attr, child, children, field, mapped, norm, walkTable, walkView, xsBoolean } from "./semantic_view.ts";
import type { AllowanceCharge, Breakdown, Field, Line, Party, Period, SemanticView, VatCategory } from "./semantic_view.ts";

const CAC_URI = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const CBC_URI = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

/**
 * The namespace names as the document's own string objects (set by readUblView):
 * comparing an element's namespace with the very string the parser gave it is a
 * pointer comparison, not a 70-character one. Reads are synchronous, so one
 * module-level pair is safe.
 */
let CAC = CAC_URI;
let CBC = CBC_URI;

function _docString(el: XmlElement, uri: string): string | null {
  for (const c of el.children) if (c.ns === uri) return c.ns;
  return null;
}

function a(el: XmlElement | null | undefined, local: string): XmlElement | null {
  return child(el, CAC, local);
}

function b(el: XmlElement | null | undefined, local: string): XmlElement | null {
  return child(el, CBC, local);
}

function fb(el: XmlElement | null | undefined, local: string): Field | null {
  return field(child(el, CBC, local));
}

/** True when the element's cac:TaxScheme/cbc:ID is VAT (upper-cased, spaces normalised). */
function _isVatScheme(el: XmlElement): boolean {
  const id = b(a(el, "TaxScheme"), "ID")?.text;
  return id === "VAT" || norm(id).toUpperCase() === "VAT";
}

/** Categories already read, so the walk reuses those the lines, allowances and breakdowns read. */
let _seen = new Map<XmlElement, VatCategory>();

function _category(el: XmlElement, kind: VatCategory["kind"]): VatCategory {
  const known = _seen.get(el);
  if (known !== undefined) return known;
  const code = fb(el, "ID");
  const c: VatCategory = {
    el,
    kind,
    code,
    key: code === null ? "" : norm(code.text),
    vat: _isVatScheme(el),
    percent: fb(el, "Percent"),
    exemptionReason: fb(el, "TaxExemptionReason"),
    exemptionCode: fb(el, "TaxExemptionReasonCode"),
  };
  _seen.set(el, c);
  return c;
}

function _allowanceCharge(el: XmlElement): AllowanceCharge {
  const charge = xsBoolean(b(el, "ChargeIndicator")?.text);
  const kind = charge === true ? "charge" : "allowance";
  return {
    el,
    charge,
    amount: fb(el, "Amount"),
    base: fb(el, "BaseAmount"),
    reason: fb(el, "AllowanceChargeReason"),
    reasonCode: fb(el, "AllowanceChargeReasonCode"),
    categories: mapped(children(el, CAC, "TaxCategory"), (c) => _category(c, kind)),
  };
}

function _period(el: XmlElement): Period {
  const start = fb(el, "StartDate");
  const end = fb(el, "EndDate");
  return { el, start, end, startValue: start?.text ?? null, endValue: end?.text ?? null, descriptionCode: fb(el, "DescriptionCode") };
}

function _party(el: XmlElement | null): Party | null {
  if (el === null) return null;
  const postal = a(el, "PostalAddress");
  const endpoint = b(el, "EndpointID");
  const vatIds: Field[] = [];
  const taxIds: Field[] = [];
  for (const pts of children(el, CAC, "PartyTaxScheme")) {
    const id = fb(pts, "CompanyID");
    if (id === null) continue;
    taxIds.push(id);
    if (_isVatScheme(pts)) vatIds.push(id);
  }
  return {
    el,
    legalName: fb(a(el, "PartyLegalEntity"), "RegistrationName"),
    names: mapped(children(el, CAC, "PartyName").flatMap((n) => children(n, CBC, "Name")), (n) => ({ el: n, text: n.text })),
    postal,
    country: fb(a(postal, "Country"), "IdentificationCode"),
    endpoint: endpoint === null ? null : { el: endpoint, scheme: attr(endpoint, "schemeID") },
    ids: mapped(children(el, CAC, "PartyIdentification").flatMap((p) => children(p, CBC, "ID")), (i) => ({ text: i.text, scheme: attr(i, "schemeID") })),
    globalIds: [],
    legalIds: mapped(children(el, CAC, "PartyLegalEntity").flatMap((p) => children(p, CBC, "CompanyID")), (i) => i.text),
    vatIds,
    taxIds,
  };
}

function _line(el: XmlElement): Line {
  const quantity = b(el, "InvoicedQuantity") ?? b(el, "CreditedQuantity");
  const item = a(el, "Item");
  const price = a(el, "Price");
  const period = a(el, "InvoicePeriod");
  return {
    el,
    id: fb(el, "ID"),
    quantity: field(quantity),
    hasUnitCode: attr(quantity, "unitCode") !== null,
    net: fb(el, "LineExtensionAmount"),
    name: fb(item, "Name"),
    netPrice: fb(price, "PriceAmount"),
    grossPrice: fb(a(price, "AllowanceCharge"), "BaseAmount"),
    categories: mapped(children(item, CAC, "ClassifiedTaxCategory"), (c) => _category(c, "line")),
    allowances: mapped(children(el, CAC, "AllowanceCharge"), _allowanceCharge),
    period: period === null ? null : _period(period),
  };
}

/** Reads the view from the root element of a UBL Invoice or CreditNote. */
export function readUblView(root: XmlElement): SemanticView {
  CAC = _docString(root, CAC_URI) ?? CAC_URI;
  CBC = _docString(root, CBC_URI) ?? CBC_URI;
  _seen = new Map();
  const supplier = a(root, "AccountingSupplierParty");
  const delivery = a(root, "Delivery");
  const v: SemanticView = {
    syntax: "ubl",
    root,
    specId: fb(root, "CustomizationID"),
    number: fb(root, "ID"),
    issueDate: fb(root, "IssueDate"),
    typeCode: fb(root, "InvoiceTypeCode") ?? fb(root, "CreditNoteTypeCode"),
    currency: fb(root, "DocumentCurrencyCode"),
    taxCurrency: fb(root, "TaxCurrencyCode"),
    seller: _party(a(supplier, "Party")),
    sellerContext: supplier,
    buyer: _party(a(a(root, "AccountingCustomerParty"), "Party")),
    payee: _party(a(root, "PayeeParty")),
    taxRepresentative: _party(a(root, "TaxRepresentativeParty")),
    totals: null,
    taxTotals: [],
    breakdownsByTotal: new Map(),
    breakdowns: [],
    allowances: mapped(children(root, CAC, "AllowanceCharge"), _allowanceCharge),
    lines: [],
    periods: mapped(children(root, CAC, "InvoicePeriod"), _period),
    hasTaxPointDate: b(root, "TaxPointDate") !== null,
    hasDateCode: children(root, CAC, "InvoicePeriod").some((p) => b(p, "DescriptionCode") !== null),
    deliveryAddresses: [],
    hasDeliveryDateOrPeriod:
      (b(delivery, "ActualDeliveryDate")?.text.length ?? 0) > 1 ||
      children(root, CAC, "InvoicePeriod").some((p) => p.children.length > 0),
    deliveryCountry: b(a(a(a(delivery, "DeliveryLocation"), "Address"), "Country"), "IdentificationCode")?.text ?? null,
    additionalDocuments: [],
    itemAttributes: [],
    classifications: [],
    standardIds: [],
    precedingInvoices: [],
    paymentMeans: [],
    cardNumbers: [],
    vatIdentifiers: [],
    categories: [],
    countryCodes: [],
  };
  const totals = a(root, "LegalMonetaryTotal");
  if (totals !== null) {
    v.totals = {
      el: totals,
      lineNet: fb(totals, "LineExtensionAmount"),
      allowances: fb(totals, "AllowanceTotalAmount"),
      charges: fb(totals, "ChargeTotalAmount"),
      taxExclusive: fb(totals, "TaxExclusiveAmount"),
      taxInclusive: fb(totals, "TaxInclusiveAmount"),
      prepaid: fb(totals, "PrepaidAmount"),
      rounding: fb(totals, "PayableRoundingAmount"),
      payable: fb(totals, "PayableAmount"),
    };
  }
  for (const tt of children(root, CAC, "TaxTotal")) {
    const amount = fb(tt, "TaxAmount");
    v.taxTotals.push({ el: tt, amount, currency: attr(amount?.el ?? null, "currencyID") });
    const list: Breakdown[] = [];
    for (const st of children(tt, CAC, "TaxSubtotal")) {
      const x: Breakdown = { el: st, taxable: fb(st, "TaxableAmount"), tax: fb(st, "TaxAmount"), categories: mapped(children(st, CAC, "TaxCategory"), (c) => _category(c, "breakdown")) };
      list.push(x);
      v.breakdowns.push(x);
    }
    v.breakdownsByTotal.set(tt, list);
  }
  for (const c of root.children) if (c.ns === CAC && (c.local === "InvoiceLine" || c.local === "CreditNoteLine")) v.lines.push(_line(c));
  walkView(root, null, v, WALK);
  // Hold on to nothing of this document once it is read.
  _seen.clear();
  CAC = CAC_URI;
  CBC = CBC_URI;
  return v;
}

/** What the UBL rules' contexts match anywhere in the document, by element name. */
const WALK = walkTable({
  [CAC_URI]: {
    AdditionalDocumentReference: (el, _, v) => v.additionalDocuments.push({ el, id: fb(el, "ID") }),
    AdditionalItemProperty: (el, _, v) => v.itemAttributes.push({ el, hasName: b(el, "Name") !== null, hasValue: b(el, "Value") !== null }),
    BillingReference: (el, _, v) => v.precedingInvoices.push({ el, id: fb(a(el, "InvoiceDocumentReference"), "ID") }),
    PaymentMeans: (el, _, v) => {
      v.paymentMeans.push({
        el,
        code: fb(el, "PaymentMeansCode"),
        accounts: mapped(children(el, CAC, "PayeeFinancialAccount"), (acc) => ({ el: acc, ids: mapped(children(acc, CBC, "ID"), (i) => ({ el: i, text: i.text })) })),
      });
      for (const pan of children(a(el, "CardAccount"), CBC, "PrimaryAccountNumberID")) v.cardNumbers.push({ el: pan, text: pan.text });
    },
    Address: (el, parent, v) => {
      if (parent?.local === "DeliveryLocation") v.deliveryAddresses.push({ el, country: fb(a(el, "Country"), "IdentificationCode") });
    },
    PartyTaxScheme: (el, _, v) => {
      if (_isVatScheme(el)) for (const id of children(el, CBC, "CompanyID")) v.vatIdentifiers.push({ el: id, text: id.text });
    },
    TaxCategory: (el, parent, v) => v.categories.push(_categoryIn(el, parent)),
    ClassifiedTaxCategory: (el, parent, v) => v.categories.push(_categoryIn(el, parent)),
    CommodityClassification: (el, _, v) => {
      for (const code of children(el, CBC, "ItemClassificationCode")) v.classifications.push({ el: code, listId: attr(code, "listID") });
    },
    StandardItemIdentification: (el, _, v) => {
      for (const id of children(el, CBC, "ID")) v.standardIds.push({ el: id, scheme: attr(id, "schemeID") });
    },
  },
  [CBC_URI]: {
    IdentificationCode: (el, _, v) => v.countryCodes.push(el.text),
  },
});

function _categoryIn(el: XmlElement, parent: XmlElement | null): VatCategory {
  if (el.local === "ClassifiedTaxCategory") return _category(el, "line");
  if (parent?.local === "TaxSubtotal") return _category(el, "breakdown");
  if (parent?.local === "AllowanceCharge") return _category(el, xsBoolean(b(parent, "ChargeIndicator")?.text) === true ? "charge" : "allowance");
  return _category(el, "other");
}
