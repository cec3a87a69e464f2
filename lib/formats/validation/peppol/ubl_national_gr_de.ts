/**
 * Peppol BIS Billing 3.0's national rules for Greece (GR-R-*, GR-S-*) and Germany (DE-R-*) over UBL
 * (OpenPeppol's PEPPOL-EN16931-UBL.sch, release 3.0.21). Germany's are XRechnung's own rules (BR-DE-*,
 * BR-TMP-2) applied when both seller and buyer are in Germany, under Peppol's ids: they run here through
 * the XRechnung module, renamed.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { first, normalizeSpace, select, stringValue } from "../element_paths.ts";
import { Report } from "../en16931/semantic_report.ts";
import type { Severity } from "../violation.ts";
import { checkXrechnungUbl } from "../xrechnung/ubl.ts";
import { isXpathNumber } from "./ubl_national.ts";
import { countries } from "./ubl_countries.ts";

/** Greek TIN check digit (u:TinVerification). */
export function isGreekTin(v: string): boolean {
  if (!/^[0-9]{9}/.test(v)) return false;
  let total = 0;
  for (let i = 0; i < 8; i++) total += (v.charCodeAt(i) - 48) * 2 ** (8 - i);
  return (total % 11) % 10 === v.charCodeAt(8) - 48;
}

const _GREEK_DOCUMENT_TYPES = ["1.1", "1.6", "2.1", "2.4", "5.1", "5.2"];
const _DATE = /^(0?[1-9]|[12][0-9]|3[01])[-\\/ ]?(0?[1-9]|1[0-2])[-\\/ ]?(19|20)[0-9]{2}/;

function _vatIds(party: XmlElement | null): string[] {
  if (party === null) return [];
  return select(party, "cac:PartyTaxScheme").filter((s) => select(s, "cac:TaxScheme", "cbc:ID").some((i) => stringValue(i) === "VAT")).flatMap((s) => select(s, "cbc:CompanyID")).map(stringValue);
}

/** GR-R-* and GR-S-* when the seller is Greek. */
export function checkPeppolUblGreece(root: XmlElement, r: Report): void {
  const { supplier, customer } = countries(root);
  const greek = (c: string) => c === "GR" || c === "EL";
  const seller = first(root, "cac:AccountingSupplierParty", "cac:Party");
  const buyer = first(root, "cac:AccountingCustomerParty", "cac:Party");
  // $accountingSupplierCountry: the seller's VAT prefix, else its address country (no tax representative).
  const ownVat = _vatIds(seller)[0];
  const accountingCountry = ownVat !== undefined && ownVat.slice(0, 2) !== "" ? normalizeSpace(ownVat.slice(0, 2)).toUpperCase() : normalizeSpace(stringValue(first(seller === null ? [] : [seller], "cac:PostalAddress", "cac:Country", "cbc:IdentificationCode"))).toUpperCase();
  if (greek(accountingCountry) && seller !== null) {
    for (const e of select(seller, "cbc:EndpointID")) r.check(e.attrs.some((a) => a.local === "schemeID" && a.value === "9933") && isGreekTin(stringValue(e)), "GR-R-009", e, "Greek suppliers that send an invoice through the PEPPOL network must use a correct TIN number as an electronic address (schemeID 9933)");
  }
  if (!greek(supplier)) return;
  for (const id of select(root, "cbc:ID")) _greekInvoiceId(root, id, r);
  if (seller !== null) {
    r.check(stringValue(first(seller, "cac:PartyName", "cbc:Name")).length > 0, "GR-R-002", seller, "Greek Suppliers must provide their full name as they are registered in the Greek Business Registry (G.E.MH.) as a legal entity or in the Tax Registry as a natural person");
    const vat = select(seller, "cac:PartyTaxScheme").filter((s) => normalizeSpace(stringValue(first(s, "cac:TaxScheme", "cbc:ID"))) === "VAT").flatMap((s) => select(s, "cbc:CompanyID"));
    const v = stringValue(vat[0] ?? null);
    r.check(vat.length === 1 && v.slice(0, 2) === "EL" && isGreekTin(v.slice(2)), "GR-S-011", seller, "Greek suppliers must provide their Seller Tax Registration Number, prefixed by the country code", "warning");
    for (const c of vat) r.check(stringValue(c).slice(0, 2) === "EL" && isGreekTin(stringValue(c).slice(2)), "GR-R-003", c, "For the Greek Suppliers, the VAT must start with 'EL' and must be a valid TIN number");
  }
  const sellerInGreece = stringValue(first(seller === null ? [] : [seller], "cac:PostalAddress", "cac:Country", "cbc:IdentificationCode")) === "GR";
  const refs = select(root, "cac:AdditionalDocumentReference");
  const described = (text: string) => refs.filter((d) => select(d, "cbc:DocumentDescription").some((x) => stringValue(x) === text));
  if (sellerInGreece) {
    r.check(described("##M.AR.K##").length === 1, "GR-R-004-1", root, "When Supplier is Greek, there must be one MARK Number");
    r.check(described("##INVOICE|URL##").length === 1, "GR-S-008-1", root, "When Supplier is Greek, there should be one invoice url", "warning");
    r.check(described("##INVOICE|URL##").length <= 1, "GR-R-008-2", root, "When Supplier is Greek, there should be no more than one invoice url");
    for (const d of described("##M.AR.K##")) for (const id of select(d, "cbc:ID")) r.check(/^[1-9]([0-9]*)/.test(stringValue(id)), "GR-R-004-2", id, "When Supplier is Greek, the MARK Number must be a positive integer");
  }
  for (const d of described("##INVOICE|URL##")) r.check(normalizeSpace(stringValue(first(d, "cac:Attachment", "cac:ExternalReference", "cbc:URI"))).length > 0, "GR-R-008-3", d, "When Supplier is Greek and the INVOICE URL Document reference exists, the External Reference URI should be present");
  if (buyer !== null) {
    r.check(stringValue(first(buyer, "cac:PartyName", "cbc:Name")).length > 0, "GR-R-005", buyer, "Greek Suppliers must provide the full name of the buyer");
    if (greek(customer)) {
      const vat = select(buyer, "cac:PartyTaxScheme").filter((s) => normalizeSpace(stringValue(first(s, "cac:TaxScheme", "cbc:ID"))) === "VAT").flatMap((s) => select(s, "cbc:CompanyID"));
      const v = stringValue(vat[0] ?? null);
      r.check(vat.length === 1 && v.slice(0, 2) === "EL" && isGreekTin(v.slice(2)), "GR-R-006", buyer, "Greek Suppliers must provide the VAT number of the buyer, if the buyer is Greek");
      for (const e of select(buyer, "cbc:EndpointID")) r.check(e.attrs.some((a) => a.local === "schemeID" && a.value === "9933") && isGreekTin(stringValue(e)), "GR-R-010", e, "Greek Suppliers that send an invoice through the PEPPOL network to a greek buyer must use a correct TIN number as an electronic address (SchemeID 9933)");
    }
  }
}

/** GR-R-001-*: the invoice number of a Greek seller is TIN|date|number|document type|series|sequence. */
function _greekInvoiceId(root: XmlElement, id: XmlElement, r: Report): void {
  const segments = stringValue(id).split("|");
  const seg = (i: number) => segments[i] ?? "";
  r.check(segments.length === 6, "GR-R-001-1", id, "When the Supplier is Greek, the Invoice Id should consist of 6 segments");
  const tins = [...select(root, "cac:AccountingSupplierParty", "cac:Party"), ...select(root, "cac:TaxRepresentativeParty")].flatMap(_vatIds).map((v) => v.slice(2, 11));
  r.check(normalizeSpace(seg(0)).length === 9 && isGreekTin(seg(0)) && tins.includes(seg(0)), "GR-R-001-2", id, "When the Supplier is Greek, the Invoice Id first segment must be a valid TIN Number and match either the Supplier's or the Tax Representative's Tin Number");
  const issue = stringValue(first(root, "cbc:IssueDate")).split("-");
  const date = seg(1).split("/");
  r.check(normalizeSpace(seg(1)).length > 0 && _DATE.test(seg(1)) && date[0] === issue[2] && date[1] === issue[1] && date[2] === issue[0], "GR-R-001-3", id, "When the Supplier is Greek, the Invoice Id second segment must be a valid Date that matches the invoice Issue Date");
  r.check(normalizeSpace(seg(2)).length > 0 && isXpathNumber(seg(2)) && /^\s*[+-]?[0-9]+\s*$/.test(seg(2)) && Number(seg(2)) >= 0, "GR-R-001-4", id, "When Supplier is Greek, the Invoice Id third segment must be a positive integer");
  r.check(normalizeSpace(seg(3)).length > 0 && _GREEK_DOCUMENT_TYPES.includes(seg(3)), "GR-R-001-5", id, "When Supplier is Greek, the Invoice Id in the fourth segment must be a valid greek document type");
  r.check(seg(4).length > 0, "GR-R-001-6", id, "When Supplier is Greek, the Invoice Id fifth segment must not be empty");
  r.check(seg(5).length > 0, "GR-R-001-7", id, "When Supplier is Greek, the Invoice Id sixth segment must not be empty");
}

/** XRechnung's ids as Peppol's German rules name them; the others (BR-DE-21, BR-DE-TMP-32) are not among them. */
const _GERMAN_IDS: Record<string, string> = {
  "BR-TMP-2": "DE-R-T02",
  "BR-DE-23-a": "DE-R-023-1",
  "BR-DE-23-b": "DE-R-023-2",
  "BR-DE-24-a": "DE-R-024-1",
  "BR-DE-24-b": "DE-R-024-2",
  "BR-DE-25-a": "DE-R-025-1",
  "BR-DE-25-b": "DE-R-025-2",
};
for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 22, 26, 27, 28, 30, 31]) _GERMAN_IDS[`BR-DE-${n}`] = `DE-R-${String(n).padStart(3, "0")}`;

/** A report that files XRechnung's findings under Peppol's German ids into another report. */
class _GermanReport extends Report {
  #into: Report;
  constructor(root: XmlElement, into: Report) {
    super(root);
    this.#into = into;
  }
  override add(rule: string, el: XmlElement, message: string, severity: Severity = "error"): void {
    const id = _GERMAN_IDS[rule];
    if (id !== undefined) this.#into.add(id, el, `If both supplier and customer are located in Germany: ${message}`, severity);
  }
}

/** DE-R-* when both the seller's and the buyer's addresses are in Germany. */
export function checkPeppolUblGermany(root: XmlElement, r: Report): void {
  const { supplierIsDe, customerIsDe } = countries(root);
  if (supplierIsDe && customerIsDe) checkXrechnungUbl(root, new _GermanReport(root, r));
}
