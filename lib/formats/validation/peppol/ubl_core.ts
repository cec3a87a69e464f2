/**
 * Peppol BIS Billing 3.0's transaction rules over UBL (OpenPeppol's PEPPOL-EN16931-UBL.sch, release
 * 3.0.21): PEPPOL-EN16931-R*, the PEPPOL-COMMON identifier rules, the code lists (CL*), the profile
 * rules (P*) and the date format (F001), with the schematron's severities. Where one pattern gives an
 * element to the first of several rules (allowances and charges, identifier schemes), so does this.
 * The national rules are in ubl_national.ts.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { attribute, first, hasText, normalizeSpace, NS, select, stringValue } from "../element_paths.ts";
import { abs, add, cmp, dec, eq, mul, percentOf, round2, sub, sum, type Dec, ONE, ZERO } from "../en16931/semantic_decimal.ts";
import type { Report } from "../en16931/semantic_report.ts";
import { CREDIT_NOTE_TYPE_CODES, EAS, INVOICE_TYPE_CODES, ISO_4217, MIME_CODES, PROFILE_01, PROFILE_02, UNCL_2005, UNCL_5189, UNCL_7161 } from "./code_lists.ts";
import { ENDPOINT_9907, SCHEME_RULES } from "./identifiers.ts";
import { countries } from "./ubl_countries.ts";

const { cac, cbc, cn } = NS;
const SLACK: Dec = { units: 2n, scale: 2 };
/** The tolerance of R040 and R120 for forint amounts in XRechnung's reading of these rules (its HUF test instances). */
const HUF_SLACK: Dec = { units: 5n, scale: 1 };

/** How a pack reads Peppol's rules: XRechnung allows forint amounts half a forint (KoSIT's r040-r120-HUF-slack instances). */
export interface PeppolReading {
  hufSlack: boolean;
}
const AMOUNTS = new Set(["Amount", "BaseAmount", "PriceAmount", "TaxableAmount", "LineExtensionAmount", "TaxExclusiveAmount", "TaxInclusiveAmount", "AllowanceTotalAmount", "ChargeTotalAmount", "PrepaidAmount", "PayableRoundingAmount", "PayableAmount"]);
const DATES = new Set(["IssueDate", "DueDate", "TaxPointDate", "StartDate", "EndDate", "ActualDeliveryDate"]);
const VATEX_CATEGORY: Record<string, [string, string]> = {
  "VATEX-EU-G": ["PEPPOL-EN16931-P0104", "G"],
  "VATEX-EU-O": ["PEPPOL-EN16931-P0105", "O"],
  "VATEX-EU-IC": ["PEPPOL-EN16931-P0106", "K"],
  "VATEX-EU-AE": ["PEPPOL-EN16931-P0107", "AE"],
  "VATEX-EU-D": ["PEPPOL-EN16931-P0108", "E"],
  "VATEX-EU-F": ["PEPPOL-EN16931-P0109", "E"],
  "VATEX-EU-I": ["PEPPOL-EN16931-P0110", "E"],
  "VATEX-EU-J": ["PEPPOL-EN16931-P0111", "E"],
};

/** The document's business process profile ($profile): "01", "02" or "Unknown". */
export function profileOf(root: XmlElement): string {
  const id = normalizeSpace(stringValue(first(root, "cbc:ProfileID")));
  return PROFILE_01.includes(id) ? "01" : id === PROFILE_02 ? "02" : "Unknown";
}

/** Every Peppol transaction rule (not the national ones) the UBL document breaks. */
export function checkPeppolUbl(root: XmlElement, r: Report, reading: PeppolReading = { hufSlack: false }): void {
  const { supplierIsDe, customerIsDe } = countries(root);
  const profile = profileOf(root);
  const currency = select(root, "cbc:DocumentCurrencyCode").map(stringValue);
  const slack = reading.hufSlack && currency.some((c) => normalizeSpace(c) === "HUF") ? HUF_SLACK : SLACK;
  _document(root, r, supplierIsDe && customerIsDe, profile);
  const lines = [...select(root, "cac:InvoiceLine"), ...select(root, "cac:CreditNoteLine")];
  for (const ac of select(root, "cac:AllowanceCharge")) _allowanceCharge(ac, r, slack);
  // The invoice period once, not per line: a lookup among the root's children per line would be quadratic.
  const period = { start: first(root, "cac:InvoicePeriod", "cbc:StartDate"), end: first(root, "cac:InvoicePeriod", "cbc:EndDate") };
  for (const line of lines) {
    for (const ac of select(line, "cac:AllowanceCharge")) _allowanceCharge(ac, r, slack);
    _line(root, line, r, slack, period);
  }
  const bothDe = supplierIsDe && customerIsDe;
  const walk = (el: XmlElement, parent: XmlElement): void => {
    _element(el, parent, r, { currency, profile, bothDe });
    for (const c of el.children) walk(c, el);
  };
  for (const c of root.children) walk(c, root);
}

function _document(root: XmlElement, r: Report, bothDe: boolean, profile: string): void {
  if (root.ns === cn) r.check(select(root, "cac:AdditionalDocumentReference").filter((d) => select(d, "cbc:DocumentTypeCode").some((c) => stringValue(c) === "50")).length <= 1, "PEPPOL-EN16931-R080", root, "Only one project reference is allowed on document level");
  r.check(first(root, "cbc:ProfileID") !== null, "PEPPOL-EN16931-R001", root, "Business process MUST be provided");
  r.check(profile !== "Unknown", "PEPPOL-EN16931-R007", root, "Business process MUST have an approved identifier");
  r.check(select(root, "cbc:Note").length <= 1 || bothDe, "PEPPOL-EN16931-R002", root, "No more than one note is allowed on document level, unless both the buyer and seller are German organizations");
  r.check(first(root, "cbc:BuyerReference") !== null || first(root, "cac:OrderReference", "cbc:ID") !== null, "PEPPOL-EN16931-R003", root, "A buyer reference or purchase order reference MUST be provided");
  const spec = normalizeSpace(select(root, "cbc:CustomizationID").map((c) => c.text).join(""));
  r.check(spec.startsWith("urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0") && !spec.includes("::"), "PEPPOL-EN16931-R004", root, "Specification identifier MUST begin with the value 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'");
  const totals = select(root, "cac:TaxTotal");
  const withSubtotals = totals.filter((t) => first(t, "cac:TaxSubtotal") !== null);
  const taxCurrency = first(root, "cbc:TaxCurrencyCode");
  r.check(withSubtotals.length === 1, "PEPPOL-EN16931-R053", root, "Only one tax total with tax subtotals MUST be provided");
  r.check(totals.length - withSubtotals.length === (taxCurrency !== null ? 1 : 0), "PEPPOL-EN16931-R054", root, "Only one tax total without tax subtotals MUST be provided when tax currency code is provided");
  if (taxCurrency !== null) {
    const amounts = (code: string) => totals.flatMap((t) => select(t, "cbc:TaxAmount")).filter((a) => attribute(a, "currencyID") === normalizeSpace(code)).map((a) => dec(stringValue(a)));
    const inTax = amounts(stringValue(taxCurrency));
    const inDoc = select(root, "cbc:DocumentCurrencyCode").flatMap((c) => amounts(stringValue(c)));
    // XPath general comparisons: some amount of each currency on the same side of zero.
    const some = (xs: (Dec | null)[], test: (c: number) => boolean) => xs.some((x) => x !== null && test(cmp(x, ZERO)));
    const ok = (some(inTax, (c) => c <= 0) && some(inDoc, (c) => c <= 0)) || (some(inTax, (c) => c >= 0) && some(inDoc, (c) => c >= 0));
    r.check(ok, "PEPPOL-EN16931-R055", root, "Invoice total VAT amount and Invoice total VAT amount in accounting currency MUST have the same operational sign");
  }
}

/** R041, R042, or R040 and R043: the first rule whose context takes the allowance or charge. */
function _allowanceCharge(ac: XmlElement, r: Report, slack: Dec): void {
  const factor = first(ac, "cbc:MultiplierFactorNumeric");
  const base = first(ac, "cbc:BaseAmount");
  if (factor !== null && base === null) return r.add("PEPPOL-EN16931-R041", ac, "Allowance/charge base amount MUST be provided when allowance/charge percentage is provided");
  if (factor === null && base !== null) return r.add("PEPPOL-EN16931-R042", ac, "Allowance/charge percentage MUST be provided when allowance/charge base amount is provided");
  if (factor !== null && base !== null) {
    const amountEl = first(ac, "cbc:Amount");
    const amount = amountEl === null ? ZERO : dec(stringValue(amountEl));
    const b = dec(stringValue(base));
    const f = dec(stringValue(factor));
    const ok = amount !== null && b !== null && f !== null && cmp(abs(sub(amount, percentOf(mul(b, f)))), slack) <= 0;
    r.check(ok, "PEPPOL-EN16931-R040", ac, "Allowance/charge amount must equal base amount * percentage/100 if base amount and percentage exists");
  }
  const indicator = normalizeSpace(first(ac, "cbc:ChargeIndicator")?.text);
  r.check(indicator === "true" || indicator === "false", "PEPPOL-EN16931-R043", ac, "Allowance/charge ChargeIndicator value MUST equal 'true' or 'false'");
}

function _decOr(el: XmlElement | null, fallback: Dec): Dec | null {
  return el === null ? fallback : dec(stringValue(el));
}

/** R120, R121, R100, R101 on a line; R110 and R111 on its period; R044, R046 and R130 on its price. */
function _line(root: XmlElement, line: XmlElement, r: Report, slack: Dec, period: { start: XmlElement | null; end: XmlElement | null }): void {
  const net = _decOr(first(line, "cbc:LineExtensionAmount"), ZERO);
  const quantity = _decOr(first(line, root.ns === cn ? "cbc:CreditedQuantity" : "cbc:InvoicedQuantity"), ONE);
  const price = _decOr(first(line, "cac:Price", "cbc:PriceAmount"), ZERO);
  const baseEl = first(line, "cac:Price", "cbc:BaseQuantity");
  const baseRead = baseEl === null ? ONE : dec(stringValue(baseEl));
  const base = baseRead !== null && cmp(baseRead, ZERO) === 0 ? ONE : baseRead;
  const acs = select(line, "cac:AllowanceCharge");
  const total = (kind: string): Dec | null => {
    const amounts = acs.filter((a) => normalizeSpace(stringValue(first(a, "cbc:ChargeIndicator"))) === kind).flatMap((a) => select(a, "cbc:Amount")).map((a) => dec(stringValue(a)));
    return amounts.some((a) => a === null) ? null : round2(sum(amounts as Dec[]));
  };
  const charges = total("true");
  const allowances = total("false");
  let ok = false;
  if (net !== null && quantity !== null && price !== null && base !== null && charges !== null && allowances !== null) {
    // |net - (q × p / b + charges - allowances)| ≤ 0.02, multiplied through by |b| so no division is needed.
    const scaled = sub(mul(sub(add(net, allowances), charges), base), mul(quantity, price));
    ok = cmp(abs(scaled), mul(slack, abs(base))) <= 0;
  }
  r.check(ok, "PEPPOL-EN16931-R120", line, "Invoice line net amount MUST equal (Invoiced quantity * (Item net price/item price base quantity) + Sum of invoice line charge amount - sum of invoice line allowance amount");
  r.check(baseEl === null || (baseRead !== null && cmp(baseRead, ZERO) > 0), "PEPPOL-EN16931-R121", line, "Base quantity MUST be a positive number above zero");
  const refs = select(line, "cac:DocumentReference");
  r.check(refs.length <= 1, "PEPPOL-EN16931-R100", line, "Only one invoiced object is allowed pr line");
  r.check(refs.length === 0 || refs.some((d) => select(d, "cbc:DocumentTypeCode").some((c) => stringValue(c) === "130")), "PEPPOL-EN16931-R101", line, "Element Document reference can only be used for Invoice line object");
  const { start, end } = period;
  for (const p of select(line, "cac:InvoicePeriod")) {
    if (start !== null) for (const s of select(p, "cbc:StartDate")) r.check(!_before(s.text, start.text), "PEPPOL-EN16931-R110", s, "Start date of line period MUST be within invoice period");
    if (end !== null) for (const e of select(p, "cbc:EndDate")) r.check(!_before(end.text, e.text), "PEPPOL-EN16931-R111", e, "End date of line period MUST be within invoice period");
  }
  for (const priceEl of select(line, "cac:Price")) {
    for (const ac of select(priceEl, "cac:AllowanceCharge")) {
      r.check(normalizeSpace(stringValue(first(ac, "cbc:ChargeIndicator"))) === "false", "PEPPOL-EN16931-R044", ac, "Charge on price level is NOT allowed. Only value 'false' allowed");
      const acBase = first(ac, "cbc:BaseAmount");
      if (acBase !== null) {
        const p = dec(stringValue(first(priceEl, "cbc:PriceAmount")));
        const b = dec(stringValue(acBase));
        const a = dec(stringValue(first(ac, "cbc:Amount")));
        r.check(p !== null && b !== null && a !== null && eq(p, sub(b, a)), "PEPPOL-EN16931-R046", ac, "Item net price MUST equal (Gross price - Allowance amount) when gross price is provided");
      }
    }
    for (const bq of select(priceEl, "cbc:BaseQuantity")) {
      const unit = attribute(bq, "unitCode");
      if (unit === null) continue;
      const q = select(line, root.ns === cn ? "cbc:CreditedQuantity" : "cbc:InvoicedQuantity");
      const hasQuantity = first(line, "cbc:InvoicedQuantity") !== null || first(line, "cbc:CreditedQuantity") !== null;
      r.check(!hasQuantity || q.some((x) => attribute(x, "unitCode") === unit), "PEPPOL-EN16931-R130", bq, "Unit code of price base quantity MUST be same as invoiced quantity");
    }
  }
}

/** xs:date(a) < xs:date(b) for two valid dates (the artefact stops on others: no verdict then). */
function _before(a: string, b: string): boolean {
  const x = _date(a);
  const y = _date(b);
  return x !== null && y !== null && x < y;
}

function _date(s: string): string | null {
  const m = /^\s*(-?\d{4,})-(\d{2})-(\d{2})(Z|[+-]\d{2}:\d{2})?\s*$/.exec(s);
  return m === null ? null : `${m[1]}-${m[2]}-${m[3]}`;
}

/** A valid xs:date of exactly ten characters (F001). */
function _isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= (days[mo - 1] as number);
}

/** The rules whose context is one element anywhere: R008, R005, R010, R020, R051, R061, the ICD, CL, P and F rules. */
function _element(el: XmlElement, parent: XmlElement, r: Report, doc: { currency: string[]; profile: string; bothDe: boolean }): void {
  if (el.children.length === 0 && !hasText(el.text)) r.add("PEPPOL-EN16931-R008", el, "Document MUST not contain empty elements");
  if (el.ns === cac) {
    if (el.local === "Party" && parent.ns === cac && parent.local === "AccountingCustomerParty") r.check(first(el, "cbc:EndpointID") !== null, "PEPPOL-EN16931-R010", el, "Buyer electronic address MUST be provided");
    else if (el.local === "Party" && parent.ns === cac && parent.local === "AccountingSupplierParty") r.check(first(el, "cbc:EndpointID") !== null, "PEPPOL-EN16931-R020", el, "Seller electronic address MUST be provided");
    else if (el.local === "PaymentMeans") {
      const code = normalizeSpace(stringValue(first(el, "cbc:PaymentMeansCode")));
      if (code === "49" || code === "59") r.check(first(el, "cac:PaymentMandate", "cbc:ID") !== null, "PEPPOL-EN16931-R061", el, "Mandate reference MUST be provided for direct debit");
    } else if (el.local === "TaxCategory") {
      const vatex = select(el, "cbc:TaxExemptionReasonCode").map((c) => stringValue(c).toUpperCase());
      for (const code of vatex) {
        const rule = VATEX_CATEGORY[code];
        if (rule !== undefined) r.check(normalizeSpace(stringValue(first(el, "cbc:ID"))) === rule[1], rule[0], el, `Tax Category ${rule[1]} MUST be used when exemption reason code is ${code}`);
      }
    }
    return;
  }
  if (el.ns !== cbc) return;
  const local = el.local;
  if (local === "TaxCurrencyCode") {
    const docCurrency = first(parent, "cbc:DocumentCurrencyCode");
    r.check(normalizeSpace(el.text) !== normalizeSpace(docCurrency?.text), "PEPPOL-EN16931-R005", el, "VAT accounting currency code MUST be different from invoice currency code when provided");
  }
  const isAmount = AMOUNTS.has(local) || (local === "TaxAmount" && parent.ns === cac && (parent.local === "TaxSubtotal" || (parent.local === "TaxTotal" && first(parent, "cac:TaxSubtotal") !== null)));
  if (isAmount) r.check(doc.currency.includes(attribute(el, "currencyID") ?? "\u0000"), "PEPPOL-EN16931-R051", el, "All currencyID attributes must have the same value as the invoice currency code (BT-5), except for the invoice total VAT amount in accounting currency (BT-111)");
  if (AMOUNTS.has(local) || local === "TaxAmount") r.check(ISO_4217.has(attribute(el, "currencyID") ?? ""), "PEPPOL-EN16931-CL007", el, "Currency code must be according to ISO 4217:2005");
  const scheme = attribute(el, "schemeID");
  if (scheme !== null && (local === "EndpointID" || local === "CompanyID" || (local === "ID" && parent.ns === cac && parent.local === "PartyIdentification"))) {
    const rule = SCHEME_RULES.find((x) => x.scheme === scheme) ?? (local === "EndpointID" && scheme === ENDPOINT_9907.scheme ? ENDPOINT_9907 : undefined);
    const value = normalizeSpace(stringValue(el));
    if (rule !== undefined) r.check(rule.test(value, stringValue(el)), rule.rule, el, rule.message, rule.severity);
    else if (local === "CompanyID" && parent.ns === cac && parent.local === "PartyTaxScheme" && value.startsWith("NL") && normalizeSpace(stringValue(first(parent, "cac:TaxScheme", "cbc:ID"))) === "VAT") {
      r.check(/^NL[0-9]{9}B[0-9]{2}$/.test(value), "PEPPOL-COMMON-R056-2", el, "Dutch VAT numbers MUST have the format (NL123456789B12)", "warning");
    }
  } else if (local === "CompanyID" && parent.ns === cac && parent.local === "PartyTaxScheme") {
    const value = normalizeSpace(stringValue(el));
    if (value.startsWith("NL") && normalizeSpace(stringValue(first(parent, "cac:TaxScheme", "cbc:ID"))) === "VAT") r.check(/^NL[0-9]{9}B[0-9]{2}$/.test(value), "PEPPOL-COMMON-R056-2", el, "Dutch VAT numbers MUST have the format (NL123456789B12)", "warning");
  }
  if (local === "EndpointID" && scheme !== null) r.check(EAS.has(scheme), "PEPPOL-EN16931-CL008", el, `Electronic address identifier scheme must be from the codelist "Electronic Address Identifier Scheme", not "${scheme.slice(0, 20)}"`);
  if (local === "EmbeddedDocumentBinaryObject") {
    const mime = attribute(el, "mimeCode");
    if (mime !== null) r.check(MIME_CODES.has(mime), "PEPPOL-EN16931-CL001", el, "Mime code must be according to subset of IANA code list");
  } else if (local === "AllowanceChargeReasonCode" && parent.ns === cac && parent.local === "AllowanceCharge") {
    const indicators = select(parent, "cbc:ChargeIndicator").map(stringValue);
    const code = normalizeSpace(el.text);
    if (indicators.includes("false")) r.check(UNCL_5189.has(code), "PEPPOL-EN16931-CL002", el, "Reason code MUST be according to subset of UNCL 5189 D.16B");
    else if (indicators.includes("true")) r.check(UNCL_7161.has(code), "PEPPOL-EN16931-CL003", el, "Reason code MUST be according to UNCL 7161 D.16B");
  } else if (local === "DescriptionCode" && parent.ns === cac && parent.local === "InvoicePeriod") {
    r.check(UNCL_2005.has(normalizeSpace(el.text)), "PEPPOL-EN16931-CL006", el, "Invoice period description code must be according to UNCL 2005 D.16B");
  } else if (local === "InvoiceTypeCode") {
    const code = normalizeSpace(el.text);
    r.check(!(doc.profile === "01" || doc.profile === "02") || INVOICE_TYPE_CODES.has(code), "PEPPOL-EN16931-P0100", el, "Invoice type code MUST be set according to the profile");
    r.check(!(code === "326" || code === "384") || doc.bothDe, "PEPPOL-EN16931-P0112", el, "Invoice type code 326 or 384 are only allowed when both buyer and seller are German organizations");
  } else if (local === "CreditNoteTypeCode") {
    r.check(!(doc.profile === "01" || doc.profile === "02") || CREDIT_NOTE_TYPE_CODES.has(normalizeSpace(el.text)), "PEPPOL-EN16931-P0101", el, "Credit note type code MUST be set according to the profile");
  } else if (DATES.has(local)) {
    r.check(_isDate(el.text), "PEPPOL-EN16931-F001", el, "A date MUST be formatted YYYY-MM-DD");
  }
}
