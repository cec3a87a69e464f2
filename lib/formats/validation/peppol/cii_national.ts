/**
 * Peppol BIS Billing 3.0's national rules over CII (OpenPeppol's PEPPOL-EN16931-CII.sch, release 3.0.13):
 * Norway (NO-R-*), Denmark (DK-R-*), Italy (IT-R-*), Sweden (SE-R-*) and the Netherlands (NL-R-*), each by
 * the seller's country as the schematron decides it ($supplierCountry, or the address country where it says).
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { attribute, first, normalizeSpace, select, stringValue } from "../element_paths.ts";
import { cmp, dec, ZERO } from "../en16931/semantic_decimal.ts";
import type { Report } from "../en16931/semantic_report.ts";
import { isMod11 } from "./identifiers.ts";
import { isXpathNumber } from "./ubl_national.ts";

const AGREEMENT = ["rsm:SupplyChainTradeTransaction", "ram:ApplicableHeaderTradeAgreement"] as const;
const SETTLEMENT = ["rsm:SupplyChainTradeTransaction", "ram:ApplicableHeaderTradeSettlement"] as const;

function _vatIds(party: XmlElement | null): string[] {
  if (party === null) return [];
  return select(party, "ram:SpecifiedTaxRegistration", "ram:ID").filter((i) => attribute(i, "schemeID") === "VAT").map(stringValue);
}

function _country(party: XmlElement | null): string {
  return stringValue(first(party === null ? [] : [party], "ram:PostalTradeAddress", "ram:CountryID"));
}

/** $supplierCountry: the seller's VAT prefix, else the tax representative's, else the seller's address country. */
function _supplierCountry(root: XmlElement): string {
  const seller = first(root, ...AGREEMENT, "ram:SellerTradeParty");
  const own = _vatIds(seller)[0];
  if (own !== undefined && own.slice(0, 2) !== "") return normalizeSpace(own.slice(0, 2)).toUpperCase();
  const rep = _vatIds(first(root, ...AGREEMENT, "ram:SellerTaxRepresentativeTradeParty"))[0];
  if (rep !== undefined && rep.slice(0, 2) !== "") return normalizeSpace(rep.slice(0, 2)).toUpperCase();
  const c = first(seller === null ? [] : [seller], "ram:PostalTradeAddress", "ram:CountryID");
  return c === null ? "XX" : normalizeSpace(stringValue(c)).toUpperCase();
}

/** Every national rule of the seller's country that the CII document breaks. */
export function checkPeppolCiiNational(root: XmlElement, r: Report): void {
  const supplier = _supplierCountry(root);
  const seller = first(root, ...AGREEMENT, "ram:SellerTradeParty");
  const buyer = first(root, ...AGREEMENT, "ram:BuyerTradeParty");
  if (seller === null) return;
  if (supplier === "NO") {
    r.check(select(seller, "ram:SpecifiedTaxRegistration", "ram:ID").some((i) => attribute(i, "schemeID") === "FC" && normalizeSpace(i.text) === "Foretaksregisteret"), "NO-R-002", seller, 'Most invoice issuers are required to append "Foretaksregisteret" to their invoice', "warning");
    const vat = _vatIds(seller);
    const ok = !vat.some((v) => v.slice(0, 2) === "NO") || vat.some((v) => v.slice(0, 2) === "NO" && /^[0-9]{9}MVA$/.test(v.slice(2)) && isMod11(v.slice(2, 11)));
    r.check(ok, "NO-R-001", seller, "For Norwegian suppliers, a VAT number MUST be the country code prefix NO followed by a valid Norwegian organization number (nine numbers) followed by the letters MVA");
  }
  if (_country(seller) === "DK") _denmark(root, seller, _country(buyer) === "DK", r);
  if (supplier === "IT") {
    for (const t of select(seller, "ram:SpecifiedTaxRegistration")) {
      const ids = select(t, "ram:ID");
      const ok = ids.some((i) => normalizeSpace(attribute(i, "schemeID")) !== "FC") || /^[A-Z0-9]{11,16}$/.test(normalizeSpace(stringValue(ids.find((i) => normalizeSpace(attribute(i, "schemeID")) === "FC") ?? null)));
      r.check(ok, "IT-R-001", t, "BT-32 (Seller tax registration identifier) - For Italian suppliers BT-32 minimum length 11 and maximum length shall be 16");
    }
    r.check(first(seller, "ram:PostalTradeAddress", "ram:LineOne") !== null, "IT-R-002", seller, "BT-35 (Seller address line 1) - Italian suppliers MUST provide the postal address line 1");
    r.check(first(seller, "ram:PostalTradeAddress", "ram:CityName") !== null, "IT-R-003", seller, "BT-37 (Seller city) - Italian suppliers MUST provide the postal address city");
    r.check(first(seller, "ram:PostalTradeAddress", "ram:PostcodeCode") !== null, "IT-R-004", seller, "BT-38 (Seller post code) - Italian suppliers MUST provide the postal address post code");
  }
  if (_country(seller) === "SE") _sweden(root, seller, _country(buyer) === "SE", r);
  if (normalizeSpace(_country(seller)).toUpperCase() === "NL") _netherlands(root, seller, buyer, r);
}

function _denmark(root: XmlElement, seller: XmlElement, dkBuyer: boolean, r: Report): void {
  const legal = select(seller, "ram:SpecifiedLegalOrganization", "ram:ID");
  r.check(normalizeSpace(legal[0]?.text) !== "", "DK-R-002", root, "Danish suppliers MUST provide legal entity");
  const acs = select(root, ...SETTLEMENT, "ram:SpecifiedTradeAllowanceCharge");
  const zzz = select(acs, "ram:ReasonCode").some((c) => stringValue(c) === "ZZZ");
  const reason = stringValue(first(acs, "ram:Reason"));
  const fourDigits = normalizeSpace(reason).length === 4 && isXpathNumber(reason) && Number(reason) >= 0;
  r.check(!(dkBuyer && zzz) || fourDigits, "DK-R-004", root, 'When specifying non-VAT Taxes, Danish suppliers MUST use the SpecifiedTradeAllowanceCharge/ReasonCode="ZZZ" and the 4-digit Tax category MUST be specified as Reason');
  const unschemed = (p: XmlElement | null) => p !== null && select(p, "ram:GlobalID").length > 0 && normalizeSpace(attribute(first(p, "ram:GlobalID"), "schemeID")) === "";
  r.check(!(dkBuyer && (unschemed(seller) || unschemed(first(root, ...AGREEMENT, "ram:BuyerTradeParty")))), "DK-R-013", root, "For Danish Suppliers it is mandatory to use schemeID when GlobalID is used for SellerTradeParty or BuyerTradeParty");
  r.check(!(legal.length > 0 && normalizeSpace(attribute(legal[0] as XmlElement, "schemeID")) !== "0184"), "DK-R-014", root, 'For Danish Suppliers it is mandatory to specify schemeID as "0184" when SpecifiedLegalOrganization is used for SellerTradeParty');
  const due = stringValue(first(root, ...SETTLEMENT, "ram:SpecifiedTradeSettlementHeaderMonetarySummation", "ram:DuePayableAmount"));
  const creditNote = normalizeSpace(stringValue(first(root, "rsm:ExchangedDocument", "ram:TypeCode"))) === "381";
  r.check(!(dkBuyer && creditNote && isXpathNumber(due) && Number(due) < 0), "DK-R-016", root, "For Danish Suppliers, a Credit note cannot have a negative total (DuePayableAmount)");
  for (const t of select(seller, "ram:SpecifiedTaxRegistration")) {
    const id = first(t, "ram:ID");
    const s = attribute(id, "schemeID");
    const text = id === null ? "" : id.text;
    const danish = (s === "VA" || s === "VAT") && text.slice(0, 2) === "DK";
    r.check(!danish || /^DK[0-9]{8}$/.test(text), "DK-R-015", t, "For Danish Suppliers SellerTradeParty/SpecifiedTaxRegistration/ID must be specified with DK followed by 8 digits (eg. DK12345678) if used");
  }
  if (!dkBuyer) return;
  for (const settlement of select(root, ...SETTLEMENT)) {
    const reference = stringValue(first(settlement, "ram:PaymentReference"));
    const prefix = reference.slice(0, 3);
    for (const pm of select(settlement, "ram:SpecifiedTradeSettlementPaymentMeans")) {
      const code = stringValue(first(pm, "ram:TypeCode"));
      const iban = stringValue(first(pm, "ram:PayeePartyCreditorFinancialAccount", "ram:IBANID"));
      r.check(" 1 10 31 42 48 49 50 58 59 93 97 ".includes(` ${code} `), "DK-R-005", pm, "For Danish suppliers the following Payment means type codes are allowed: 1, 10, 31, 42, 48, 49, 50, 58, 59, 93 and 97");
      const bic = normalizeSpace(stringValue(first(pm, "ram:PayeeSpecifiedCreditorFinancialInstitution", "ram:BICID")));
      r.check(!((code === "31" || code === "42") && !(normalizeSpace(iban) !== "" && bic !== "")), "DK-R-006", pm, "For Danish suppliers, bank account and registration account are mandatory if payment means is 31 or 42");
      const mandate = normalizeSpace(stringValue(first(settlement, "ram:CreditorReferenceID"))) !== "" && normalizeSpace(stringValue(first(pm, "ram:SpecifiedTradePaymentTerms", "ram:DirectDebitMandateID"))) !== "";
      r.check(!(code === "49" && !mandate), "DK-R-007", pm, "For Danish suppliers DirectDebitMandateID and CreditorReferenceID are mandatory when payment means is 49");
      r.check(!(code === "50" && !(["01#", "04#", "15#"].includes(prefix) && iban.length === 7)), "DK-R-008", pm, "For Danish Suppliers PaymentReference is mandatory and MUST start with 01#, 04# or 15# (kortartkode), and the Giro account number must be 7 characters long, when payment means equals 50 (Giro)");
      r.check(!(code === "50" && (prefix === "04#" || prefix === "15#") && reference.length !== 19), "DK-R-009", pm, "For Danish Suppliers if the PaymentReference is prefixed with 04# or 15# the 16 digits instruction Id must be added when Payment means equals 50 (Giro)");
      r.check(!(code === "93" && !(["71#", "73#", "75#"].includes(prefix) && iban.length === 8)), "DK-R-010", pm, "For Danish Suppliers the PaymentReference is mandatory and MUST start with 71#, 73# or 75# (kortartkode) and the creditor number must be exactly 8 characters long, when Payment means equals 93 (FIK)");
      r.check(!(code === "93" && (prefix === "71#" || prefix === "75#") && !(reference.length === 18 || reference.length === 19)), "DK-R-011", pm, "For Danish Suppliers if the PaymentReference is prefixed with 71# or 75# the 15-16 digits instruction Id must be added when payment Method equals 93 (FIK)");
    }
  }
  for (const line of select(root, "rsm:SupplyChainTradeTransaction", "ram:IncludedSupplyChainTradeLineItem")) {
    const codes = select(line, "ram:SpecifiedTradeProduct", "ram:DesignatedProductClassification", "ram:ClassCode");
    const mp = codes.some((c) => attribute(c, "listID") === "MP");
    r.check(!mp || codes.some((c) => ["19.05.01", "19.0501"].includes(attribute(c, "listVersionID") ?? "")), "DK-R-003", line, "If ItemClassification is provided from Danish suppliers, UNSPSC version 19.0501 should be used", "warning");
  }
}

function _sweden(root: XmlElement, seller: XmlElement, swedishBuyer: boolean, r: Report): void {
  const vat = select(seller, "ram:SpecifiedTaxRegistration", "ram:ID").filter((i) => attribute(i, "schemeID") === "VAT");
  const swedishVat = vat.some((i) => i.text.slice(0, 2) === "SE");
  if (swedishVat) {
    r.check(normalizeSpace(stringValue(vat[0] ?? null)).length === 14, "SE-R-001", seller, "For Swedish suppliers, Swedish VAT-numbers must consist of 14 characters");
    r.check(isXpathNumber(stringValue(vat[0] ?? null).slice(2, 14)), "SE-R-002", seller, "For Swedish suppliers, the Swedish VAT-numbers must have the trailing 12 characters in numeric form");
  }
  for (const org of select(seller, "ram:SpecifiedLegalOrganization")) {
    const id = first(org, "ram:ID");
    if (id === null) continue;
    r.check(isXpathNumber(id.text), "SE-R-003", org, "Swedish organisation numbers should be numeric", "warning");
    r.check(normalizeSpace(id.text).length === 10, "SE-R-004", org, "Swedish organisation numbers consist of 10 characters", "warning");
  }
  if (first(seller, "ram:SpecifiedLegalOrganization", "ram:ID") !== null) {
    for (const id of select(seller, "ram:SpecifiedTaxRegistration", "ram:ID").filter((i) => attribute(i, "schemeID") === "FC")) {
      r.check(normalizeSpace(stringValue(id).toUpperCase()) === "GODKÄND FÖR F-SKATT", "SE-R-005", id, "For Swedish suppliers, when using Seller tax registration identifier, 'Godkänd för F-skatt' must be stated");
    }
  }
  if (swedishVat) {
    const visit = (el: XmlElement): void => {
      for (const c of el.children) {
        if (c.local === "ApplicableTradeTax" || c.local === "CategoryTradeTax") {
          const p = stringValue(first(c, "ram:RateApplicablePercent"));
          r.check(isXpathNumber(p) && [25, 12, 6].includes(Number(p)), "SE-R-006", c, "For Swedish suppliers, only standard VAT rate of 6, 12 or 25 are used");
        }
        visit(c);
      }
    };
    visit(root);
  }
  for (const pm of select(root, ...SETTLEMENT, "ram:SpecifiedTradeSettlementPaymentMeans")) {
    const code = normalizeSpace(stringValue(first(pm, "ram:TypeCode")));
    const bic = normalizeSpace(stringValue(first(pm, "ram:PayeeSpecifiedCreditorFinancialInstitution", "ram:BICID")));
    for (const id of select(pm, "ram:PayeePartyCreditorFinancialAccount", "ram:ProprietaryID")) {
      const v = normalizeSpace(id.text);
      if (code === "30" && bic === "SE:PLUSGIRO") {
        r.check(isXpathNumber(v), "SE-R-007", id, "For Swedish suppliers using Plusgiro, the Account ID must be numeric", "warning");
        r.check(v.length >= 2 && v.length <= 8, "SE-R-010", id, "For Swedish suppliers using Plusgiro, the Account ID must have 2-8 characters", "warning");
      } else if (code === "30" && bic === "SE:BANKGIRO") {
        r.check(isXpathNumber(v), "SE-R-008", id, "For Swedish suppliers using Bankgiro, the Account ID must be numeric", "warning");
        r.check(v.length === 7 || v.length === 8, "SE-R-009", id, "For Swedish suppliers using Bankgiro, the Account ID must have 7-8 characters", "warning");
      }
    }
    if (code === "50" || code === "56") r.add("SE-R-011", pm, "For Swedish suppliers using Swedish Bankgiro or Plusgiro, the proper way to indicate this is to use Code 30 for PaymentMeans and FinancialInstitutionBranch ID with code SE:BANKGIRO or SE:PLUSGIRO", "warning");
    else if (swedishBuyer && code === "31") r.add("SE-R-012", pm, "For domestic transactions between Swedish trading partners, credit transfer should be indicated by PaymentMeansCode=”30”", "warning");
  }
}

function _netherlands(root: XmlElement, seller: XmlElement, buyer: XmlElement | null, r: Report): void {
  const nlBuyer = normalizeSpace(_country(buyer)).toUpperCase() === "NL";
  const address = (a: XmlElement, rule: string, who: string) => r.check(first(a, "ram:LineOne") !== null && first(a, "ram:CityName") !== null && first(a, "ram:PostcodeCode") !== null, rule, a, `For suppliers in the Netherlands, ${who} MUST contain street name, city and post code`);
  const kvkOrOin = (id: XmlElement, rule: string, who: string) => {
    const scheme = ` ${attribute(id, "schemeID") ?? ""} `;
    r.check((scheme.includes(" 0106 ") || scheme.includes(" 0190 ")) && normalizeSpace(id.text) !== "", rule, id, `For suppliers in the Netherlands, ${who} MUST be either a KVK or OIN number (schemeID 0106 or 0190)`);
  };
  for (const doc of select(root, "rsm:ExchangedDocument")) {
    if (!["81", "83", "381", "396", "532"].includes(normalizeSpace(stringValue(first(doc, "ram:TypeCode"))))) continue;
    r.check(select(root, ...SETTLEMENT, "ram:InvoiceReferencedDocument", "ram:IssuerAssignedID").length > 0, "NL-R-001", doc, "For suppliers in the Netherlands, if the document is a creditnote, the document MUST contain an invoice reference");
  }
  for (const a of select(seller, "ram:PostalTradeAddress")) address(a, "NL-R-002", "the supplier's address");
  for (const id of select(seller, "ram:SpecifiedLegalOrganization", "ram:ID")) kvkOrOin(id, "NL-R-003", "the legal entity identifier");
  if (nlBuyer && buyer !== null) {
    for (const a of select(buyer, "ram:PostalTradeAddress")) address(a, "NL-R-004", "if the customer is in the Netherlands, the customer address");
    for (const id of select(buyer, "ram:SpecifiedLegalOrganization", "ram:ID")) kvkOrOin(id, "NL-R-005", "if the customer is in the Netherlands, the customer's legal entity identifier");
  }
  for (const rep of select(root, ...AGREEMENT, "ram:SellerTaxRepresentativeTradeParty")) {
    if (normalizeSpace(_country(rep)).toUpperCase() !== "NL") continue;
    for (const a of select(rep, "ram:PostalTradeAddress")) address(a, "NL-R-006", "if the fiscal representative is in the Netherlands, the representative's address");
  }
  const means = select(root, ...SETTLEMENT, "ram:SpecifiedTradeSettlementPaymentMeans");
  for (const s of select(root, ...SETTLEMENT, "ram:SpecifiedTradeSettlementHeaderMonetarySummation")) {
    const due = dec(stringValue(first(s, "ram:DuePayableAmount")));
    r.check((due !== null && cmp(due, ZERO) <= 0) || means.length > 0, "NL-R-007", s, "For suppliers in the Netherlands, the supplier MUST provide a means of payment if the payment is from customer to supplier");
  }
  for (const pm of means) r.check(["30", "48", "49", "57", "58", "59"].includes(normalizeSpace(stringValue(first(pm, "ram:TypeCode")))), "NL-R-008", pm, "For suppliers in the Netherlands, the payment means code MUST be one of 30, 48, 49, 57, 58 or 59");
  const orderRef = select(root, ...AGREEMENT, "ram:BuyerOrderReferencedDocument", "ram:IssuerAssignedID").length > 0;
  for (const id of select(root, "rsm:SupplyChainTradeTransaction", "ram:IncludedSupplyChainTradeLineItem", "ram:SpecifiedLineTradeAgreement", "ram:BuyerOrderReferencedDocument", "ram:LineID")) {
    r.check(orderRef, "NL-R-009", id, "For suppliers in the Netherlands, if an order line reference is used, there must be an order reference on the document level");
  }
}
