/**
 * Peppol BIS Billing 3.0's transaction rules over CII (OpenPeppol's PEPPOL-EN16931-CII.sch, release 3.0.13):
 * PEPPOL-EN16931-R*, the PEPPOL-COMMON identifier rules, the code lists (CL*), P0100 and F001, with the
 * schematron's severities. KoSIT's reading for XRechnung (its CII test instances) differs in a few places,
 * followed when asked: R043 split into R043-1 (allowances and charges) and R043-2 (price discounts);
 * R008 (no empty element but the header delivery), R044 (no price-level charge) and R046 (net price = gross
 * price - discount) added; R053 allows no BT-110, and R055 compares signs only when both amounts are there.
 * The national rules are in cii_national.ts.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { attribute, first, hasText, normalizeSpace, NS, select, stringValue } from "../element_paths.ts";
import { abs, add, cmp, dec, eq, mul, percentOf, round2, sub, sum, type Dec, ONE, ZERO } from "../en16931/semantic_decimal.ts";
import type { Report } from "../en16931/semantic_report.ts";
import { EAS, ISO_4217, MIME_CODES, UNCL_5189, UNCL_7161 } from "./code_lists.ts";
import { ENDPOINT_9907, SCHEME_RULES_CII } from "./identifiers.ts";

const { ram, udt } = NS;
const SLACK: Dec = { units: 2n, scale: 2 };
const HUF_SLACK: Dec = { units: 5n, scale: 1 };
const TYPE_CODES = new Set("71 102 218 219 331 382 553 817 870 875 876 877 380 383 386 388 393 82 80 84 395 575 623 780 381 396 81 83 532".split(" "));

/** How a pack reads Peppol's CII rules: OpenPeppol's as written, or KoSIT's for XRechnung. */
export interface PeppolCiiReading {
  hufSlack: boolean;
  xrechnung: boolean;
}

const TX = "rsm:SupplyChainTradeTransaction";

/** The business process ($profile): the two digits of `urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0`, or "Unknown". */
function _profile(root: XmlElement): string {
  const id = normalizeSpace(stringValue(first(root, "rsm:ExchangedDocumentContext", "ram:BusinessProcessSpecifiedDocumentContextParameter", "ram:ID")));
  return /urn:fdc:peppol\.eu:2017:poacc:billing:([0-9]{2}):1\.0/.test(id) ? (id.split(":")[6] ?? "Unknown") : "Unknown";
}

/** Every Peppol transaction rule (not the national ones) the CII document breaks. */
export function checkPeppolCii(root: XmlElement, r: Report, reading: PeppolCiiReading = { hufSlack: false, xrechnung: false }): void {
  const settlementEl = first(root, TX, "ram:ApplicableHeaderTradeSettlement");
  const currency = normalizeSpace(stringValue(first(settlementEl === null ? [] : [settlementEl], "ram:InvoiceCurrencyCode")));
  const taxCurrency = first(settlementEl === null ? [] : [settlementEl], "ram:TaxCurrencyCode");
  const slack = reading.hufSlack && currency === "HUF" ? HUF_SLACK : SLACK;
  const profile = _profile(root);
  for (const ctx of select(root, "rsm:ExchangedDocumentContext")) {
    r.check(first(ctx, "ram:BusinessProcessSpecifiedDocumentContextParameter", "ram:ID") !== null, "PEPPOL-EN16931-R001", ctx, "Business process MUST be provided");
    r.check(profile !== "Unknown", "PEPPOL-EN16931-R007", ctx, "Business process MUST be in the format 'urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0' where NN indicates the process number");
    const spec = normalizeSpace(select(ctx, "ram:GuidelineSpecifiedDocumentContextParameter", "ram:ID").map((i) => i.text).join(""));
    r.check(spec.startsWith("urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"), "PEPPOL-EN16931-R004", ctx, "Specification identifier MUST have the value 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'");
  }
  for (const doc of select(root, "rsm:ExchangedDocument")) {
    const notes = select(doc, "ram:IncludedNote");
    r.check(notes.length <= 1 && select(notes, "ram:SubjectCode").length === 0, "PEPPOL-EN16931-R002", doc, "No more than one note is allowed on document level");
  }
  // The header period once, not per line: a lookup among the transaction's children per line would be quadratic.
  const headerPeriod = select(root, TX, "ram:ApplicableHeaderTradeSettlement", "ram:BillingSpecifiedPeriod");
  const d: _Doc = { root, currency, taxCurrency, slack, reading, profile, headerStart: select(headerPeriod, "ram:StartDateTime"), headerEnd: select(headerPeriod, "ram:EndDateTime") };
  const walk = (el: XmlElement, parent: XmlElement | null, grand: XmlElement | null): void => {
    _element(el, parent, grand, r, d);
    for (const c of el.children) walk(c, el, parent);
  };
  walk(root, null, null);
}

interface _Doc {
  root: XmlElement;
  currency: string;
  taxCurrency: XmlElement | null;
  slack: Dec;
  reading: PeppolCiiReading;
  profile: string;
  headerStart: XmlElement[];
  headerEnd: XmlElement[];
}

function _decOr(el: XmlElement | null, fallback: Dec): Dec | null {
  return el === null ? fallback : dec(stringValue(el));
}

function _indicator(ac: XmlElement): string {
  return normalizeSpace(select(ac, "ram:ChargeIndicator", "udt:Indicator").map((i) => i.text).join(""));
}

function _element(el: XmlElement, parent: XmlElement | null, grand: XmlElement | null, r: Report, d: _Doc): void {
  // KoSIT allows the header delivery empty: CII requires the element, EN 16931 may have nothing to put in it.
  if (d.reading.xrechnung && el.children.length === 0 && !hasText(el.text) && !(el.local === "ApplicableHeaderTradeDelivery" && el.ns === ram)) r.add("PEPPOL-EN16931-R008", el, "Document MUST not contain empty elements");
  if (el.ns === udt && el.local === "DateTimeString") {
    r.check(normalizeSpace(attribute(el, "format")) === "102" && el.text.length === 8 && /20[0-9]{6}/.test(normalizeSpace(el.text)), "PEPPOL-EN16931-F001", el, "A date MUST be formatted YYYYMMDD");
    return;
  }
  if (el.ns !== ram) return;
  switch (el.local) {
    case "ApplicableHeaderTradeAgreement": {
      r.check(first(el, "ram:BuyerReference") !== null || first(el, "ram:BuyerOrderReferencedDocument", "ram:IssuerAssignedID") !== null, "PEPPOL-EN16931-R003", el, "A buyer reference or purchase order reference MUST be provided");
      const docs = select(el, "ram:AdditionalReferencedDocument");
      const typed = (code: string) => docs.filter((x) => select(x, "ram:TypeCode").some((t) => stringValue(t) === code)).length;
      r.check(typed("130") <= 1, "PEPPOL-EN16931-R006", el, "Only one invoiced object is allowed on document level");
      r.check(typed("50") <= 1, "PEPPOL-EN16931-R080", el, "Only one project reference is allowed on document level");
      return;
    }
    case "ApplicableHeaderTradeSettlement": {
      const tax = first(el, "ram:TaxCurrencyCode");
      r.check(tax === null || normalizeSpace(tax.text) !== normalizeSpace(first(el, "ram:InvoiceCurrencyCode")?.text), "PEPPOL-EN16931-R005", el, "VAT accounting currency code MUST be different from invoice currency code when provided");
      const totals = select(el, "ram:SpecifiedTradeSettlementHeaderMonetarySummation", "ram:TaxTotalAmount");
      const inDoc = totals.filter((t) => attribute(t, "currencyID") === d.currency);
      const notDoc = totals.filter((t) => { const c = attribute(t, "currencyID"); return c !== null && c !== d.currency; });
      // KoSIT: BT-110 at most once (an invoice without it is valid); OpenPeppol: exactly once.
      r.check(d.reading.xrechnung ? inDoc.length <= 1 : inDoc.length === 1, "PEPPOL-EN16931-R053", el, "Only one tax total with tax subtotals MUST be provided");
      r.check(notDoc.length === (tax !== null ? 1 : 0), "PEPPOL-EN16931-R054", el, "Only one tax total without tax subtotals MUST be provided when tax currency code is provided");
      if (d.taxCurrency !== null) {
        const taxCode = stringValue(d.taxCurrency);
        const inTax = totals.filter((t) => attribute(t, "currencyID") === taxCode).map((t) => dec(stringValue(t)));
        const docs = inDoc.map((t) => dec(stringValue(t)));
        const some = (xs: (Dec | null)[], test: (c: number) => boolean) => xs.some((x) => x !== null && test(cmp(x, ZERO)));
        const sameSign = (some(inTax, (c) => c < 0) && some(docs, (c) => c < 0)) || (some(inTax, (c) => c >= 0) && some(docs, (c) => c >= 0));
        // KoSIT compares the signs only when both amounts are there.
        const ok = sameSign || (d.reading.xrechnung && (inTax.length === 0 || docs.length === 0));
        r.check(ok, "PEPPOL-EN16931-R055", el, "Invoice total VAT amount and Invoice total VAT amount in accounting currency MUST have the same operational sign");
      }
      return;
    }
    case "BuyerTradeParty":
      r.check(first(el, "ram:URIUniversalCommunication", "ram:URIID") !== null, "PEPPOL-EN16931-R010", el, "Buyer electronic address MUST be provided");
      return;
    case "SellerTradeParty":
      r.check(first(el, "ram:URIUniversalCommunication", "ram:URIID") !== null, "PEPPOL-EN16931-R020", el, "Seller electronic address MUST be provided");
      return;
    case "SpecifiedTradeAllowanceCharge":
      return _allowanceCharge(el, r, d);
    case "AppliedTradeAllowanceCharge":
      r.check(_indicator(el) === "true" || _indicator(el) === "false", d.reading.xrechnung ? "PEPPOL-EN16931-R043-2" : "PEPPOL-EN16931-R043", el, "Allowance/charge ChargeIndicator value MUST equal 'true' or 'false'");
      if (d.reading.xrechnung) _priceDiscount(el, parent, grand, r);
      return;
    case "SpecifiedTradeSettlementPaymentMeans": {
      const code = normalizeSpace(stringValue(first(el, "ram:TypeCode")));
      if (code === "49" || code === "59") r.check(parent !== null && first(parent, "ram:SpecifiedTradePaymentTerms", "ram:DirectDebitMandateID") !== null, "PEPPOL-EN16931-R061", el, "Mandate reference MUST be provided for direct debit");
      return;
    }
    case "IncludedSupplyChainTradeLineItem":
      _line(el, r, d);
      return;
    case "NetPriceProductTradePrice":
    case "GrossPriceProductTradePrice": {
      const bq = first(el, "ram:BasisQuantity");
      const v = bq === null ? null : dec(stringValue(bq));
      r.check(bq === null || (v !== null && cmp(v, ZERO) > 0), "PEPPOL-EN16931-R121", el, "Base quantity MUST be a positive number above zero");
      for (const q of select(el, "ram:BasisQuantity")) {
        const unit = attribute(q, "unitCode");
        if (unit === null) continue;
        const billed = grand === null ? [] : select(grand, "ram:SpecifiedLineTradeDelivery", "ram:BilledQuantity");
        r.check(billed.some((b) => attribute(b, "unitCode") === unit), "PEPPOL-EN16931-R130", q, "Unit code of price base quantity MUST be same as invoiced quantity");
      }
      return;
    }
    case "AttachmentBinaryObject": {
      const mime = attribute(el, "mimeCode");
      if (mime !== null) r.check(MIME_CODES.has(mime), "PEPPOL-EN16931-CL001", el, "Mime code must be according to subset of IANA code list");
      return;
    }
    case "ReasonCode":
      if (parent !== null && parent.local === "SpecifiedTradeAllowanceCharge") {
        const indicator = _indicator(parent);
        if (indicator === "false") r.check(UNCL_5189.has(normalizeSpace(el.text)), "PEPPOL-EN16931-CL002", el, "Reason code MUST be according to subset of UNCL 5189 D.16B");
        else if (indicator === "true") r.check(UNCL_7161.has(normalizeSpace(el.text)), "PEPPOL-EN16931-CL003", el, "Reason code MUST be according to UNCL 7161 D.16B");
      }
      return;
    case "TaxTotalAmount": {
      const c = attribute(el, "currencyID");
      if (c !== null) r.check(ISO_4217.has(c), "PEPPOL-EN16931-CL007", el, "Currency code must be according to ISO 4217:2005");
      return;
    }
    case "TypeCode":
      if (parent !== null && parent.local === "ExchangedDocument") r.check(d.profile !== "01" || TYPE_CODES.has(normalizeSpace(el.text)), "PEPPOL-EN16931-P0100", el, "Invoice type code MUST be set according to the profile");
      return;
    case "URIID":
    case "ID":
    case "GlobalID":
      return _identifier(el, parent, grand, r);
  }
}

function _identifier(el: XmlElement, parent: XmlElement | null, grand: XmlElement | null, r: Report): void {
  const scheme = attribute(el, "schemeID");
  if (scheme === null) return;
  const value = normalizeSpace(stringValue(el));
  const rule = SCHEME_RULES_CII.find((x) => x.scheme === scheme) ?? (el.local === "URIID" && (scheme === "9907" || scheme === "9906") ? (scheme === "9907" ? ENDPOINT_9907 : SCHEME_RULES_CII.find((x) => x.rule === "PEPPOL-COMMON-R048")) : undefined);
  if (rule !== undefined && (rule.rule !== "PEPPOL-COMMON-R048" || el.local === "URIID")) r.check(rule.test(value, el.text), rule.rule, el, rule.message, rule.severity);
  if (el.local === "URIID" && parent?.local === "URIUniversalCommunication" && (grand?.local === "BuyerTradeParty" || grand?.local === "SellerTradeParty")) {
    r.check(EAS.has(scheme), "PEPPOL-EN16931-CL008", el, `Electronic address identifier scheme must be from the codelist "Electronic Address Identifier Scheme", not "${scheme.slice(0, 20)}"`);
  }
}

/** R041, R042, or R040 and R043: the first rule whose context takes the allowance or charge. */
function _allowanceCharge(ac: XmlElement, r: Report, d: _Doc): void {
  const percent = first(ac, "ram:CalculationPercent");
  const basis = first(ac, "ram:BasisAmount");
  if (percent !== null && basis === null) return r.add("PEPPOL-EN16931-R041", ac, "Allowance/charge base amount MUST be provided when allowance/charge percentage is provided");
  if (percent === null && basis !== null) return r.add("PEPPOL-EN16931-R042", ac, "Allowance/charge percentage MUST be provided when allowance/charge base amount is provided");
  if (percent !== null && basis !== null) {
    const amount = _decOr(first(ac, "ram:ActualAmount"), ZERO);
    const b = dec(stringValue(basis));
    const p = dec(stringValue(percent));
    const ok = amount !== null && b !== null && p !== null && cmp(abs(sub(amount, percentOf(mul(b, p)))), d.slack) <= 0;
    r.check(ok, "PEPPOL-EN16931-R040", ac, "Allowance/charge amount must equal base amount * percentage/100 if base amount and percentage exists");
  }
  const indicator = _indicator(ac);
  r.check(indicator === "true" || indicator === "false", d.reading.xrechnung ? "PEPPOL-EN16931-R043-1" : "PEPPOL-EN16931-R043", ac, "Allowance/charge ChargeIndicator value MUST equal 'true' or 'false'");
}

/** KoSIT's R044 and R046 for CII: a price discount is never a charge, and the net price is the gross price less it. */
function _priceDiscount(ac: XmlElement, gross: XmlElement | null, agreement: XmlElement | null, r: Report): void {
  r.check(_indicator(ac) === "false", "PEPPOL-EN16931-R044", ac, "Charge on price level is NOT allowed. Only value 'false' allowed");
  if (gross === null || gross.local !== "GrossPriceProductTradePrice" || agreement === null) return;
  const g = dec(stringValue(first(gross, "ram:ChargeAmount")));
  const a = dec(stringValue(first(ac, "ram:ActualAmount")));
  const n = dec(stringValue(first(agreement, "ram:NetPriceProductTradePrice", "ram:ChargeAmount")));
  r.check(g !== null && a !== null && n !== null && eq(n, sub(g, a)), "PEPPOL-EN16931-R046", ac, "Item net price MUST equal (Gross price - Allowance amount) when gross price is provided");
}

/** R120, R100, R101 on a line; R110 and R111 on its period. */
function _line(line: XmlElement, r: Report, d: _Doc): void {
  const settlement = select(line, "ram:SpecifiedLineTradeSettlement");
  const net = _decOr(first(settlement, "ram:SpecifiedTradeSettlementLineMonetarySummation", "ram:LineTotalAmount"), ZERO);
  const quantity = _decOr(first(line, "ram:SpecifiedLineTradeDelivery", "ram:BilledQuantity"), ONE);
  const price = _decOr(first(line, "ram:SpecifiedLineTradeAgreement", "ram:NetPriceProductTradePrice", "ram:ChargeAmount"), ZERO);
  const baseEl = first(line, "ram:SpecifiedLineTradeAgreement", "ram:NetPriceProductTradePrice", "ram:BasisQuantity");
  const baseRead = baseEl === null ? ONE : dec(stringValue(baseEl));
  const base = baseRead !== null && cmp(baseRead, ZERO) === 0 ? ONE : baseRead;
  const acs = select(settlement, "ram:SpecifiedTradeAllowanceCharge");
  const total = (kind: string): Dec | null => {
    const amounts = acs.filter((a) => _indicator(a) === kind).flatMap((a) => select(a, "ram:ActualAmount")).map((a) => dec(stringValue(a)));
    return amounts.some((a) => a === null) ? null : round2(sum(amounts as Dec[]));
  };
  const charges = total("true");
  const allowances = total("false");
  let ok = false;
  if (net !== null && quantity !== null && price !== null && base !== null && charges !== null && allowances !== null) {
    // |net - (q × p / b + charges - allowances)| ≤ slack, multiplied through by |b| so no division is needed.
    ok = cmp(abs(sub(mul(sub(add(net, allowances), charges), base), mul(quantity, price))), mul(d.slack, abs(base))) <= 0;
  }
  r.check(ok, "PEPPOL-EN16931-R120", line, "Invoice line net amount MUST equal (Invoiced quantity * (Item net price/item price base quantity) + Sum of invoice line charge amount - sum of invoice line allowance amount");
  const refs = select(settlement, "ram:AdditionalReferencedDocument");
  r.check(refs.filter((x) => select(x, "ram:TypeCode").some((t) => stringValue(t) === "130")).length <= 1, "PEPPOL-EN16931-R100", line, "Only one invoiced object is allowed pr line");
  r.check(refs.length === 0 || refs.some((x) => select(x, "ram:TypeCode").some((t) => stringValue(t) === "130")), "PEPPOL-EN16931-R101", line, "Element Document reference can only be used for Invoice line object");
  const { headerStart, headerEnd } = d;
  // XPath compares the untyped date strings: as numbers when one side is, here as strings (both untyped: string comparison).
  const dates = (els: XmlElement[]) => select(els, "udt:DateTimeString").map((x) => x.text);
  if (headerStart.length > 0) for (const s of select(settlement, "ram:BillingSpecifiedPeriod", "ram:StartDateTime")) {
    const mine = dates([s]);
    const theirs = dates(headerStart);
    r.check(mine.some((m) => theirs.some((t) => m >= t)), "PEPPOL-EN16931-R110", s, "Start date of line period MUST be within invoice period");
  }
  if (headerEnd.length > 0) for (const e of select(settlement, "ram:BillingSpecifiedPeriod", "ram:EndDateTime")) {
    const mine = dates([e]);
    const theirs = dates(headerEnd);
    r.check(mine.some((m) => theirs.some((t) => m <= t)), "PEPPOL-EN16931-R111", e, "End date of line period MUST be within invoice period");
  }
}
