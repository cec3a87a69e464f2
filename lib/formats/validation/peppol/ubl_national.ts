/**
 * Peppol BIS Billing 3.0's national rules over UBL (OpenPeppol's PEPPOL-EN16931-UBL.sch, release 3.0.21), each
 * applying by the seller's (and for some the buyer's) country as the schematron decides it (ubl_countries.ts):
 * Norway (NO-R-*), Denmark (DK-R-*), Italy (IT-R-*), Sweden (SE-R-*), Iceland (IS-R-*), the Netherlands (NL-R-*).
 * Greece and Germany are in ubl_national_gr_de.ts.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { attribute, descendants, first, normalizeSpace, NS, select, stringValue } from "../element_paths.ts";
import { cmp, dec, ZERO } from "../en16931/semantic_decimal.ts";
import type { Report } from "../en16931/semantic_report.ts";
import { isMod11, isSeOrgnr } from "./identifiers.ts";
import { countries } from "./ubl_countries.ts";

/** XPath number(x) != NaN: a number as XPath 1.0 reads one (optional sign, digits, one dot). */
export function isXpathNumber(s: string): boolean {
  return /^\s*-?([0-9]+(\.[0-9]*)?|\.[0-9]+)\s*$/.test(s);
}

function _vatSchemes(party: XmlElement): XmlElement[] {
  return select(party, "cac:PartyTaxScheme").filter((s) => normalizeSpace(stringValue(first(s, "cac:TaxScheme", "cbc:ID"))) === "VAT");
}

function _addressCountry(party: XmlElement | null): string {
  return stringValue(first(party === null ? [] : [party], "cac:PostalAddress", "cac:Country", "cbc:IdentificationCode"));
}

/** Every national rule of the seller's country that the UBL document breaks. */
export function checkPeppolUblNational(root: XmlElement, r: Report): void {
  const { supplier } = countries(root);
  const seller = first(root, "cac:AccountingSupplierParty", "cac:Party");
  const buyer = first(root, "cac:AccountingCustomerParty", "cac:Party");
  if (seller !== null && supplier === "NO") _norway(seller, r);
  const dkSeller = _addressCountry(seller) === "DK";
  if (dkSeller) _denmark(root, r, _addressCountry(buyer) === "DK");
  if (seller !== null && supplier === "IT") _italy(seller, r);
  _sweden(root, seller, buyer, r);
  if (_addressCountry(seller) === "IS") _iceland(root, r, _addressCountry(buyer) === "IS");
  _netherlands(root, seller, buyer, r);
}

function _norway(seller: XmlElement, r: Report): void {
  const tax = select(seller, "cac:PartyTaxScheme").filter((s) => normalizeSpace(stringValue(first(s, "cac:TaxScheme", "cbc:ID"))) === "TAX");
  r.check(tax.some((s) => normalizeSpace(stringValue(first(s, "cbc:CompanyID"))) === "Foretaksregisteret"), "NO-R-002", seller, 'For Norwegian suppliers, most invoice issuers are required to append "Foretaksregisteret" to their invoice', "warning");
  const vat = _vatSchemes(seller).map((s) => stringValue(first(s, "cbc:CompanyID")));
  const norwegian = vat.some((v) => v.slice(0, 2) === "NO");
  const ok = !norwegian || vat.some((v) => v.slice(0, 2) === "NO" && /^[0-9]{9}MVA$/.test(v.slice(2)) && isMod11(v.slice(2, 11)));
  r.check(ok, "NO-R-001", seller, "For Norwegian suppliers, a VAT number MUST be the country code prefix NO followed by a valid Norwegian organization number (nine numbers) followed by the letters MVA");
}

function _denmark(root: XmlElement, r: Report, dkBuyer: boolean): void {
  const legal = select(root, "cac:AccountingSupplierParty", "cac:Party", "cac:PartyLegalEntity", "cbc:CompanyID");
  r.check(normalizeSpace(legal[0]?.text) !== "", "DK-R-002", root, "Danish suppliers MUST provide legal entity (CVR-number)");
  r.check(legal.length === 0 || normalizeSpace(attribute(legal[0] as XmlElement, "schemeID")) === "0184", "DK-R-014", root, 'For Danish Suppliers it is mandatory to specify schemeID as "0184" (DK CVR-number) when PartyLegalEntity/CompanyID is used for AccountingSupplierParty');
  const payable = first(root, "cac:LegalMonetaryTotal", "cbc:PayableAmount");
  const negative = payable !== null && isXpathNumber(payable.text) && Number(payable.text) < 0;
  r.check(!(root.local === "CreditNote" && dkBuyer && negative), "DK-R-016", root, "For Danish Suppliers, a Credit note cannot have a negative total (PayableAmount)");
  if (!dkBuyer) return;
  for (const p of [...select(root, "cac:AccountingSupplierParty", "cac:Party", "cac:PartyIdentification"), ...select(root, "cac:AccountingCustomerParty", "cac:Party", "cac:PartyIdentification")]) {
    const id = first(p, "cbc:ID");
    r.check(!(id !== null && normalizeSpace(attribute(id, "schemeID")) === ""), "DK-R-013", p, "For Danish Suppliers it is mandatory to use schemeID when PartyIdentification/ID is used for AccountingCustomerParty or AccountingSupplierParty");
  }
  if (root.local === "Invoice") for (const pm of select(root, "cac:PaymentMeans")) _danishPayment(pm, r);
  for (const party of select(root, "cac:AccountingCustomerParty", "cac:Party")) {
    const id = first(party, "cac:PartyLegalEntity", "cbc:CompanyID");
    r.check(!(id !== null && normalizeSpace(attribute(id, "schemeID")) !== "0184"), "DK-R-017", party, 'For Danish Customers it is mandatory to specify schemeID as "0184" (DK CVR-number) when PartyLegalEntity/CompanyID is used for AccountingCustomerParty');
  }
  for (const line of [...select(root, "cac:InvoiceLine"), ...select(root, "cac:CreditNoteLine")]) {
    const codes = select(line, "cac:Item", "cac:CommodityClassification", "cbc:ItemClassificationCode");
    const tst = codes.some((c) => attribute(c, "listID") === "TST");
    const versions = codes.map((c) => attribute(c, "listVersionID"));
    const ok = !tst || versions.some((v) => v === "19.05.01" || v === "19.0501" || v === "26.08.01" || v === "26.0801");
    r.check(ok, "DK-R-003", line, "If ItemClassification is provided from Danish suppliers, UNSPSC version 19.05.01 or 26.08.01 should be used");
  }
  for (const ac of descendants(root, NS.cac, "AllowanceCharge")) _danishTax(ac, r);
}

function _danishTax(ac: XmlElement, r: Report): void {
  if (!select(ac, "cbc:AllowanceChargeReasonCode").some((c) => stringValue(c) === "ZZZ")) return;
  const reasons = select(ac, "cbc:AllowanceChargeReason");
  const reason = stringValue(reasons[0] ?? null);
  const fourDigits = normalizeSpace(reason).length === 4 && isXpathNumber(reason) && Number(reason) >= 0 && Number(reason) <= 9999;
  const hashed = reasons.length > 0 && reason.includes("#") && !reason.startsWith("#") && !reason.endsWith("#");
  r.check(fourDigits || hashed, "DK-R-004", ac, 'When specifying non-VAT Taxes for Danish customers, Danish suppliers MUST use the AllowanceChargeReasonCode="ZZZ" and MUST be specified in AllowanceChargeReason; Either as the 4-digit Tax category or must include a #, but the # is not allowed as first and last character');
}

function _danishPayment(pm: XmlElement, r: Report): void {
  const code = stringValue(first(pm, "cbc:PaymentMeansCode"));
  const paymentId = stringValue(first(pm, "cbc:PaymentID"));
  const account = stringValue(first(pm, "cac:PayeeFinancialAccount", "cbc:ID"));
  const prefix = paymentId.slice(0, 3);
  r.check(` 1 10 31 42 48 49 50 58 59 93 97 `.includes(` ${code} `), "DK-R-005", pm, "For Danish suppliers the following Payment means codes are allowed: 1, 10, 31, 42, 48, 49, 50, 58, 59, 93 and 97");
  const branch = normalizeSpace(stringValue(first(pm, "cac:PayeeFinancialAccount", "cac:FinancialInstitutionBranch", "cbc:ID")));
  r.check(!((code === "31" || code === "42") && !(normalizeSpace(account) !== "" && branch !== "")), "DK-R-006", pm, "For Danish suppliers bank account and registration account is mandatory if payment means is 31 or 42");
  const mandate = normalizeSpace(stringValue(first(pm, "cac:PaymentMandate", "cbc:ID"))) !== "" && normalizeSpace(stringValue(first(pm, "cac:PaymentMandate", "cac:PayerFinancialAccount", "cbc:ID"))) !== "";
  r.check(!(code === "49" && !mandate), "DK-R-007", pm, "For Danish suppliers PaymentMandate/ID and PayerFinancialAccount/ID are mandatory when payment means is 49");
  r.check(!(code === "50" && !(["01#", "04#", "15#"].includes(prefix) && /^[0-9]{7,8}$/.test(account))), "DK-R-008", pm, "For Danish Suppliers PaymentID is mandatory and MUST start with 01#, 04# or 15# (kortartkode), and PayeeFinancialAccount/ID (Giro kontonummer) is mandatory and must be 7 or 8 numerical characters long, when payment means equals 50 (Giro)");
  r.check(!(code === "50" && (prefix === "04#" || prefix === "15#") && paymentId.length !== 19), "DK-R-009", pm, 'For Danish Suppliers if the PaymentID is prefixed with 04# or 15# the 16 digits instruction Id must be added to the PaymentID eg. "04#1234567890123456" when Payment means equals 50 (Giro)');
  r.check(!(code === "93" && !(["71#", "73#", "75#"].includes(prefix) && account.length === 8)), "DK-R-010", pm, "For Danish Suppliers using PaymentMeansCode 93, PaymentID is mandatory. The first three characters of the PaymentID MUST be 71#, 73# or 75# (kortartskode), and PayeeFinancialAccount/ID MUST be exactly 8 characters long");
  r.check(!(code === "93" && (prefix === "71#" || prefix === "75#") && !(paymentId.length === 18 || paymentId.length === 19)), "DK-R-011", pm, 'For Danish Suppliers if the PaymentID is prefixed with 71# or 75# the 15-16 digits instruction Id must be added to the PaymentID eg. "71#1234567890123456" when payment Method equals 93 (FIK)');
}

function _italy(seller: XmlElement, r: Report): void {
  for (const s of select(seller, "cac:PartyTaxScheme")) {
    if (normalizeSpace(stringValue(first(s, "cac:TaxScheme", "cbc:ID"))) === "VAT") continue;
    r.check(/^[A-Z0-9]{11,16}$/.test(normalizeSpace(stringValue(first(s, "cbc:CompanyID")))), "IT-R-001", s, "BT-32 (Seller tax registration identifier) - For Italian suppliers BT-32 minimum length 11 and maximum length shall be 16");
  }
  r.check(first(seller, "cac:PostalAddress", "cbc:StreetName") !== null, "IT-R-002", seller, "BT-35 (Seller address line 1) - Italian suppliers MUST provide the postal address line 1");
  r.check(first(seller, "cac:PostalAddress", "cbc:CityName") !== null, "IT-R-003", seller, "BT-37 (Seller city) - Italian suppliers MUST provide the postal address city");
  r.check(first(seller, "cac:PostalAddress", "cbc:PostalZone") !== null, "IT-R-004", seller, "BT-38 (Seller post code) - Italian suppliers MUST provide the postal address post code");
}

function _sweden(root: XmlElement, seller: XmlElement | null, buyer: XmlElement | null, r: Report): void {
  if (seller === null || _addressCountry(seller) !== "SE") return;
  const vatIds = _vatSchemes(seller).map((s) => stringValue(first(s, "cbc:CompanyID")));
  // The schematron's TaxScheme test here is `cbc:ID = 'VAT'` (not normalised): the same for any usual document.
  const swedishVat = vatIds.some((v) => v.slice(0, 2) === "SE");
  if (swedishVat) {
    const id = vatIds[0] ?? "";
    r.check(normalizeSpace(id).length === 14, "SE-R-001", seller, "For Swedish suppliers, Swedish VAT-numbers must consist of 14 characters");
    r.check(isXpathNumber(id.slice(2, 14)), "SE-R-002", seller, "For Swedish suppliers, the Swedish VAT-numbers must have the trailing 12 characters in numeric form");
  }
  for (const le of select(seller, "cac:PartyLegalEntity")) {
    const id = first(le, "cbc:CompanyID");
    if (id === null) continue;
    r.check(isXpathNumber(id.text), "SE-R-003", le, "Swedish organisation numbers should be numeric");
    r.check(normalizeSpace(id.text).length === 10, "SE-R-004", le, "Swedish organisation numbers consist of 10 characters");
    r.check(isSeOrgnr(normalizeSpace(id.text)), "SE-R-013", le, "The last digit of a Swedish organization number must be valid according to the Luhn algorithm");
  }
  if (first(seller, "cac:PartyLegalEntity", "cbc:CompanyID") !== null) {
    for (const s of select(seller, "cac:PartyTaxScheme")) {
      if (normalizeSpace(stringValue(first(s, "cac:TaxScheme", "cbc:ID"))).toUpperCase() === "VAT") continue;
      for (const id of select(s, "cbc:CompanyID")) r.check(normalizeSpace(stringValue(id).toUpperCase()) === "GODKÄND FÖR F-SKATT", "SE-R-005", id, "For Swedish suppliers, when using Seller tax registration identifier, 'Godkänd för F-skatt' must be stated");
    }
  }
  if (swedishVat) {
    const visit = (el: XmlElement): void => {
      for (const c of el.children) {
        if ((c.local === "TaxCategory" || c.local === "ClassifiedTaxCategory") && select(c, "cbc:ID").some((i) => stringValue(i) === "S")) {
          const p = stringValue(first(c, "cbc:Percent"));
          r.check(isXpathNumber(p) && [25, 12, 6].includes(Number(p)), "SE-R-006", c, "For Swedish suppliers, only standard VAT rate of 6, 12 or 25 are used");
        }
        visit(c);
      }
    };
    visit(root);
  }
  const swedishBuyer = _addressCountry(buyer) === "SE";
  for (const pm of select(root, "cac:PaymentMeans")) {
    const code = normalizeSpace(stringValue(first(pm, "cbc:PaymentMeansCode")));
    const branch = normalizeSpace(stringValue(first(pm, "cac:PayeeFinancialAccount", "cac:FinancialInstitutionBranch", "cbc:ID")));
    for (const id of select(pm, "cac:PayeeFinancialAccount", "cbc:ID")) {
      const v = normalizeSpace(id.text);
      if (code === "30" && branch === "SE:PLUSGIRO") {
        r.check(isXpathNumber(v), "SE-R-007", id, "For Swedish suppliers using Plusgiro, the Account ID must be numeric", "warning");
        r.check(v.length >= 2 && v.length <= 8, "SE-R-010", id, "For Swedish suppliers using Plusgiro, the Account ID must have 2-8 characters", "warning");
      } else if (code === "30" && branch === "SE:BANKGIRO") {
        r.check(isXpathNumber(v), "SE-R-008", id, "For Swedish suppliers using Bankgiro, the Account ID must be numeric", "warning");
        r.check(v.length === 7 || v.length === 8, "SE-R-009", id, "For Swedish suppliers using Bankgiro, the Account ID must have 7-8 characters", "warning");
      }
    }
    const raw = select(pm, "cbc:PaymentMeansCode").map(stringValue);
    if (raw.includes("50") || raw.includes("56")) r.add("SE-R-011", pm, "For Swedish suppliers using Swedish Bankgiro or Plusgiro, the proper way to indicate this is to use Code 30 for PaymentMeans and FinancialInstitutionBranch ID with code SE:BANKGIRO or SE:PLUSGIRO", "warning");
    else if (swedishBuyer && raw.includes("31")) r.add("SE-R-012", pm, 'For domestic transactions between Swedish trading partners, credit transfer should be indicated by PaymentMeansCode="30"', "warning");
  }
}

function _iceland(root: XmlElement, r: Report, icelandicBuyer: boolean): void {
  const type = normalizeSpace(stringValue(first(root, "cbc:InvoiceTypeCode") ?? first(root, "cbc:CreditNoteTypeCode")));
  r.check(type === "380" || type === "381", "IS-R-001", root, "If seller is icelandic then invoice type should be 380 or 381", "warning");
  const legal = select(root, "cac:AccountingSupplierParty", "cac:Party", "cac:PartyLegalEntity", "cbc:CompanyID");
  r.check(legal.some((l) => attribute(l, "schemeID") === "0196"), "IS-R-002", root, "If seller is icelandic then it shall contain sellers legal id");
  const sellerAddress = select(root, "cac:AccountingSupplierParty", "cac:Party", "cac:PostalAddress");
  r.check(select(sellerAddress, "cbc:StreetName").length > 0 && select(sellerAddress, "cbc:PostalZone").length > 0, "IS-R-003", root, "If seller is icelandic then it shall contain his address with street name and zip code");
  for (const [code, rule] of [["9", "IS-R-006"], ["42", "IS-R-007"]] as const) {
    const means = select(root, "cac:PaymentMeans").filter((pm) => select(pm, "cbc:PaymentMeansCode").some((c) => stringValue(c) === code));
    const ids = select(means, "cac:PayeeFinancialAccount", "cbc:ID");
    r.check(means.length === 0 || (ids.length > 0 && normalizeSpace(stringValue(ids[0] ?? null)).length === 12), rule, root, `If seller is icelandic and payment means code is ${code} then a 12 digit account id must exist`);
  }
  const eindagi = select(root, "cac:AdditionalDocumentReference").filter((d) => select(d, "cbc:DocumentDescription").some((x) => stringValue(x) === "EINDAGI"));
  if (eindagi.length > 0) {
    const id = stringValue(first(eindagi, "cbc:ID"));
    r.check(id.length === 10 && /^\d{4}-\d{2}-\d{2}$/.test(id), "IS-R-008", root, "If seller is icelandic and invoice contains supporting description EINDAGI then the id form must be YYYY-MM-DD");
    const due = first(root, "cbc:DueDate");
    r.check(due !== null, "IS-R-009", root, "If seller is icelandic and invoice contains supporting description EINDAGI invoice must have due date");
    r.check(due !== null && stringValue(due) <= id, "IS-R-010", root, "If seller is icelandic and invoice contains supporting description EINDAGI the id date must be same or later than due date");
  }
  if (!icelandicBuyer) return;
  for (const c of select(root, "cac:AccountingCustomerParty")) {
    r.check(select(c, "cac:Party", "cac:PartyLegalEntity", "cbc:CompanyID").some((l) => attribute(l, "schemeID") === "0196"), "IS-R-004", c, "If seller and buyer are icelandic then the invoice shall contain the buyers icelandic legal identifier");
    const a = select(c, "cac:Party", "cac:PostalAddress");
    r.check(select(a, "cbc:StreetName").length > 0 && select(a, "cbc:PostalZone").length > 0, "IS-R-005", c, "If seller and buyer are icelandic then the invoice shall contain the buyers address with street name and zip code");
  }
}

function _netherlands(root: XmlElement, seller: XmlElement | null, buyer: XmlElement | null, r: Report): void {
  const nl = (p: XmlElement | null) => normalizeSpace(_addressCountry(p)).toUpperCase() === "NL";
  if (!nl(seller)) return;
  const nlBuyer = nl(buyer);
  const address = (a: XmlElement, rule: string, who: string) => r.check(first(a, "cbc:StreetName") !== null && first(a, "cbc:CityName") !== null && first(a, "cbc:PostalZone") !== null, rule, a, `For suppliers in the Netherlands, ${who} MUST contain street name, city and post code`);
  const kvkOrOin = (id: XmlElement, rule: string, who: string) => {
    const scheme = ` ${attribute(id, "schemeID") ?? ""} `;
    r.check((scheme.includes(" 0106 ") || scheme.includes(" 0190 ")) && normalizeSpace(id.text) !== "", rule, id, `For suppliers in the Netherlands, ${who} MUST be either a KVK or OIN number (schemeID 0106 or 0190)`);
  };
  for (const c of select(root, "cbc:CreditNoteTypeCode")) r.check(first(root, "cac:BillingReference", "cac:InvoiceDocumentReference", "cbc:ID") !== null, "NL-R-001", c, "For suppliers in the Netherlands, if the document is a creditnote, the document MUST contain an invoice reference");
  for (const a of select(seller as XmlElement, "cac:PostalAddress")) address(a, "NL-R-002", "the supplier's address");
  for (const id of select(seller as XmlElement, "cac:PartyLegalEntity", "cbc:CompanyID")) kvkOrOin(id, "NL-R-003", "the legal entity identifier");
  if (nlBuyer && buyer !== null) {
    for (const a of select(buyer, "cac:PostalAddress")) address(a, "NL-R-004", "if the customer is in the Netherlands, the customer address");
    for (const id of select(buyer, "cac:PartyLegalEntity", "cbc:CompanyID")) kvkOrOin(id, "NL-R-005", "if the customer is in the Netherlands, the customer's legal entity identifier");
  }
  for (const rep of select(root, "cac:TaxRepresentativeParty")) {
    if (normalizeSpace(stringValue(first(rep, "cac:PostalAddress", "cac:Country", "cbc:IdentificationCode"))).toUpperCase() !== "NL") continue;
    for (const a of select(rep, "cac:PostalAddress")) address(a, "NL-R-006", "if the fiscal representative is in the Netherlands, the representative's address");
  }
  for (const t of select(root, "cac:LegalMonetaryTotal")) {
    const payable = dec(stringValue(first(t, "cbc:PayableAmount")));
    const noPayment = payable !== null && (root.local === "Invoice" ? cmp(payable, ZERO) <= 0 : cmp(payable, ZERO) >= 0);
    r.check(noPayment || select(root, "cac:PaymentMeans").length > 0, "NL-R-007", t, "For suppliers in the Netherlands, the supplier MUST provide a means of payment (cac:PaymentMeans) if the payment is from customer to supplier");
  }
  if (nlBuyer) for (const pm of select(root, "cac:PaymentMeans")) {
    r.check(["30", "48", "49", "57", "58", "59"].includes(normalizeSpace(stringValue(first(pm, "cbc:PaymentMeansCode")))), "NL-R-008", pm, "For suppliers in the Netherlands, if the customer is in the Netherlands, the payment means code MUST be one of 30, 48, 49, 57, 58 or 59");
  }
  const orderRef = first(root, "cac:OrderReference", "cbc:ID") !== null;
  for (const line of [...select(root, "cac:InvoiceLine"), ...select(root, "cac:CreditNoteLine")]) {
    for (const id of select(line, "cac:OrderLineReference", "cbc:LineID")) r.check(orderRef, "NL-R-009", id, "For suppliers in the Netherlands, if an order line reference is used, there must be an order reference on the document level");
  }
}
