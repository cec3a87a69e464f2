/**
 * XRechnung 3.0's own rules for CII invoices (KoSIT's XRechnung-CII-validation.sch, schematron 2.5.0,
 * pattern "cii-pattern"): BR-DE-1..BR-DE-31, BR-DE-TMP-32, BR-TMP-2 and BR-TMP-3, with the schematron's
 * severities. The extension and CVD rules are in cii_extension.ts.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { anyEquals, anyFilled, attribute, first, normalizeSpace, NS, select, stringValue } from "../element_paths.ts";
import type { Report } from "../en16931/semantic_report.ts";
import { filenamesUnique, skontoOk } from "./ubl.ts";
import { EMAIL, isIban, TAXED_CATEGORIES, hasThreeDigits, TYPE_CODES, URL_WITH_SCHEME, XR_CIUS_ID, XR_CVD_ID, XR_EXTENSION_ID } from "./vocabulary.ts";

const TX = "rsm:SupplyChainTradeTransaction";

/** The rules of the document, its parties, addresses, payment means, VAT breakdowns and lines. */
export function checkXrechnungCii(root: XmlElement, r: Report): void {
  const tx = select(root, TX);
  const agreement = select(tx, "ram:ApplicableHeaderTradeAgreement");
  const settlement = select(tx, "ram:ApplicableHeaderTradeSettlement");
  _document(root, tx, agreement, settlement, r);
  for (const ctx of select(root, "rsm:ExchangedDocumentContext")) {
    r.check(anyEquals(select(ctx, "ram:GuidelineSpecifiedDocumentContextParameter", "ram:ID"), [XR_CIUS_ID, XR_EXTENSION_ID, XR_CVD_ID]), "BR-DE-21", ctx, 'Das Element "Specification identifier" (BT-24) soll syntaktisch der Kennung des Standards XRechnung entsprechen', "warning");
  }
  for (const seller of select(agreement, "ram:SellerTradeParty")) {
    r.check(first(seller, "ram:DefinedTradeContact") !== null, "BR-DE-2", seller, 'Die Gruppe "SELLER CONTACT" (BG-6) muss übermittelt werden');
  }
  for (const a of select(agreement, "ram:SellerTradeParty", "ram:PostalTradeAddress")) _cityAndPostcode(a, r, "BR-DE-3", "Seller city (BT-37)", "BR-DE-4", "Seller post code (BT-38)");
  for (const c of select(agreement, "ram:SellerTradeParty", "ram:DefinedTradeContact")) {
    r.check(anyFilled([...select(c, "ram:PersonName"), ...select(c, "ram:DepartmentName")]), "BR-DE-5", c, 'Das Element "Seller contact point" (BT-41) muss übermittelt werden');
    const phone = select(c, "ram:TelephoneUniversalCommunication", "ram:CompleteNumber");
    const mail = select(c, "ram:EmailURIUniversalCommunication", "ram:URIID");
    r.check(anyFilled(phone), "BR-DE-6", c, 'Das Element "Seller contact telephone number" (BT-42) muss übermittelt werden');
    r.check(anyFilled(mail), "BR-DE-7", c, 'Das Element "Seller contact email address" (BT-43) muss übermittelt werden');
    r.check(hasThreeDigits(_single(phone)), "BR-DE-27", c, "In BT-42 sollen mindestens drei Ziffern enthalten sein", "warning");
    r.check(EMAIL.test(_single(mail)), "BR-DE-28", c, "In BT-43 soll genau ein @-Zeichen enthalten sein, nicht von einem Leerzeichen oder einem Punkt flankiert", "warning");
  }
  for (const a of select(agreement, "ram:BuyerTradeParty", "ram:PostalTradeAddress")) _cityAndPostcode(a, r, "BR-DE-8", "Buyer city (BT-52)", "BR-DE-9", "Buyer post code (BT-53)");
  for (const d of select(agreement, "ram:AdditionalReferencedDocument")) {
    if (!select(d, "ram:TypeCode").some((t) => stringValue(t) === "916")) continue;
    const uris = select(d, "ram:URIID");
    r.check(uris.length === 0 || uris.some((u) => URL_WITH_SCHEME.test(stringValue(u))), "BR-TMP-2", d, 'BT-124 "External document location" muss eine absolute URL mit gültigem Schema enthalten', "warning");
  }
  for (const a of select(tx, "ram:ApplicableHeaderTradeDelivery", "ram:ShipToTradeParty", "ram:PostalTradeAddress")) _cityAndPostcode(a, r, "BR-DE-10", "Deliver to city (BT-77)", "BR-DE-11", "Deliver to post code (BT-78)");
  const directDebit = select(settlement, "ram:SpecifiedTradePaymentTerms", "ram:DirectDebitMandateID").length > 0 || select(settlement, "ram:CreditorReferenceID").length > 0;
  for (const pm of select(settlement, "ram:SpecifiedTradeSettlementPaymentMeans")) _paymentMeans(pm, directDebit, r);
  for (const t of select(settlement, "ram:ApplicableTradeTax")) {
    r.check(anyFilled(select(t, "ram:RateApplicablePercent")), "BR-DE-14", t, 'Das Element "VAT category rate" (BT-119) muss übermittelt werden');
  }
  for (const t of tx) {
    const lines = select(t, "ram:IncludedSupplyChainTradeLineItem");
    const dated = first(t, "ram:ApplicableHeaderTradeDelivery", "ram:ActualDeliverySupplyChainEvent", "ram:OccurrenceDateTime") !== null || first(t, "ram:ApplicableHeaderTradeSettlement", "ram:BillingSpecifiedPeriod") !== null || lines.every((l) => first(l, "ram:SpecifiedLineTradeSettlement", "ram:BillingSpecifiedPeriod") !== null);
    // The schematron's flag is "information": reported as a warning, which never refuses.
    r.check(dated, "BR-DE-TMP-32", t, 'Eine Rechnung sollte entweder BT-72 "Actual delivery date", BG-14 "Invoicing period" oder in jeder Rechnungsposition BG-26 "Invoice line period" enthalten', "warning");
    for (const line of lines) _basisQuantities(line, r);
  }
}

function _document(root: XmlElement, tx: XmlElement[], agreement: XmlElement[], settlement: XmlElement[], r: Report): void {
  const mandate = select(settlement, "ram:SpecifiedTradePaymentTerms", "ram:DirectDebitMandateID").length > 0;
  const creditor = select(settlement, "ram:CreditorReferenceID").length > 0;
  const debited = select(settlement, "ram:SpecifiedTradeSettlementPaymentMeans", "ram:PayerPartyDebtorFinancialAccount", "ram:IBANID").length > 0;
  const noDebit = !mandate && !creditor && !debited;
  r.check(((mandate || debited) && creditor) || noDebit, "BR-DE-30", root, 'Wenn "DIRECT DEBIT" (BG-19) vorhanden ist, muss "Bank assigned creditor identifier" (BT-90) übermittelt werden');
  r.check(((mandate || creditor) && debited) || noDebit, "BR-DE-31", root, 'Wenn "DIRECT DEBIT" (BG-19) vorhanden ist, muss "Debited account identifier" (BT-91) übermittelt werden');
  r.check(select(settlement, "ram:SpecifiedTradeSettlementPaymentMeans").length > 0, "BR-DE-1", root, 'Eine Rechnung (INVOICE) muss Angaben zu "PAYMENT INSTRUCTIONS" (BG-16) enthalten');
  r.check(anyFilled(select(agreement, "ram:BuyerReference")), "BR-DE-15", root, 'Das Element "Buyer reference" (BT-10) muss übermittelt werden');
  // As written: line taxes with type VAT and a listed category, or allowances/charges whose tax (as a string) is "VAT".
  const lineTaxes = select(tx, "ram:IncludedSupplyChainTradeLineItem", "ram:SpecifiedLineTradeSettlement", "ram:ApplicableTradeTax");
  const acTaxes = select(settlement, "ram:SpecifiedTradeAllowanceCharge", "ram:CategoryTradeTax");
  const taxed = (anyEquals(select(lineTaxes, "ram:TypeCode"), "VAT") && anyEquals(select(lineTaxes, "ram:CategoryCode"), TAXED_CATEGORIES)) || (anyEquals(acTaxes, "VAT") && anyEquals(select(acTaxes, "ram:CategoryCode"), TAXED_CATEGORIES));
  const sellerTax = select(agreement, "ram:SellerTradeParty", "ram:SpecifiedTaxRegistration", "ram:ID").filter((id) => {
    const s = normalizeSpace(attribute(id, "schemeID"));
    return (s === "VA" || s === "FC") && normalizeSpace(stringValue(id)) !== "";
  });
  const identified = sellerTax.length > 0 || select(agreement, "ram:SellerTaxRepresentativeTradeParty").length > 0;
  r.check(!taxed || identified, "BR-DE-16", root, 'Wenn die Steuercodes S, Z, E, AE, K, G, L oder M verwendet werden, muss "Seller VAT identifier" (BT-31), "Seller tax registration identifier" (BT-32) oder "SELLER TAX REPRESENTATIVE PARTY" (BG-11) übermittelt werden');
  const typeCode = _single(select(root, "rsm:ExchangedDocument", "ram:TypeCode"));
  r.check(TYPE_CODES.includes(typeCode), "BR-DE-17", root, `Mit dem Element "Invoice type code" (BT-3) sollen ausschließlich die Codes 326, 380, 384, 389, 381, 875, 876 und 877 übermittelt werden, nicht "${typeCode.slice(0, 20)}"`, "warning");
  r.check(skontoOk(select(settlement, "ram:SpecifiedTradePaymentTerms").map((t) => first(t, "ram:Description")).filter((n) => n !== null)), "BR-DE-18", root, 'Skonto-Zeilen im Element "Payment terms" (BT-20) müssen dem Muster #SKONTO#TAGE=n#PROZENT=n.nn#[BASISBETRAG=n.nn#] folgen und mit einem Zeilenumbruch enden');
  // count(//ram:AdditionalReferencedDocument) against those whose filename no preceding sibling repeats.
  const bySiblings = new Map<XmlElement, XmlElement[][]>();
  const visit = (el: XmlElement): void => {
    const docs = el.children.filter((c) => c.local === "AdditionalReferencedDocument" && c.ns === NS.ram);
    if (docs.length > 0) bySiblings.set(el, docs.map((d) => select(d, "ram:AttachmentBinaryObject")));
    for (const c of el.children) visit(c);
  };
  visit(root);
  r.check([...bySiblings.values()].every(filenamesUnique), "BR-DE-22", root, 'Das "filename"-Attribut aller "AttachmentBinaryObject"-Elemente muss eindeutig sein');
  r.check(typeCode !== "384" || select(settlement, "ram:InvoiceReferencedDocument").length > 0, "BR-DE-26", root, "Wenn der Code 384 (Corrected invoice) übergeben wird, soll PRECEDING INVOICE REFERENCE (BG-3) mind. einmal vorhanden sein", "warning");
}

function _paymentMeans(pm: XmlElement, directDebit: boolean, r: Report): void {
  const code = _single(select(pm, "ram:TypeCode"));
  const transfer = first(pm, "ram:PayeePartyCreditorFinancialAccount") !== null;
  const card = first(pm, "ram:ApplicableTradeSettlementFinancialCard") !== null;
  const debited = first(pm, "ram:PayerPartyDebtorFinancialAccount", "ram:IBANID") !== null;
  if (code === "30" || code === "58") {
    r.check(code !== "58" || isIban(_single(select(pm, "ram:PayeePartyCreditorFinancialAccount", "ram:IBANID"))), "BR-DE-19", pm, '"Payment account identifier" (BT-84) soll eine korrekte IBAN enthalten, wenn mit dem Code 58 SEPA als Zahlungsmittel gefordert wird', "warning");
    r.check(transfer, "BR-DE-23-a", pm, 'Wenn BT-81 einen Schlüssel für Überweisungen enthält (30, 58), muss BG-17 "CREDIT TRANSFER" übermittelt werden');
    r.check(!card && !(directDebit || debited), "BR-DE-23-b", pm, "Wenn BT-81 einen Schlüssel für Überweisungen enthält (30, 58), dürfen BG-18 und BG-19 nicht übermittelt werden");
  } else if (code === "48" || code === "54" || code === "55") {
    r.check(card, "BR-DE-24-a", pm, 'Wenn BT-81 einen Schlüssel für Kartenzahlungen enthält (48, 54, 55), muss BG-18 "PAYMENT CARD INFORMATION" übermittelt werden');
    r.check(!transfer && !(directDebit || debited), "BR-DE-24-b", pm, "Wenn BT-81 einen Schlüssel für Kartenzahlungen enthält (48, 54, 55), dürfen BG-17 und BG-19 nicht übermittelt werden");
  } else if (code === "59") {
    r.check(isIban(_single(select(pm, "ram:PayerPartyDebtorFinancialAccount", "ram:IBANID"))), "BR-DE-20", pm, '"Debited account identifier" (BT-91) soll eine korrekte IBAN enthalten, wenn mit dem Code 59 SEPA als Zahlungsmittel gefordert wird', "warning");
    r.check(directDebit || debited, "BR-DE-25-a", pm, 'Wenn BT-81 einen Schlüssel für Lastschriften enthält (59), muss BG-19 "DIRECT DEBIT" übermittelt werden');
    const institutions = first(pm, "ram:PayeeSpecifiedCreditorFinancialInstitution") !== null || first(pm, "ram:PayerSpecifiedDebtorFinancialInstitution") !== null;
    r.check(!transfer && !institutions && !card, "BR-DE-25-b", pm, "Wenn BT-81 einen Schlüssel für Lastschriften enthält (59), dürfen BG-17 und BG-18 nicht übermittelt werden");
  }
}

/** BR-TMP-3: BT-149 in both the gross and the net price is the same value, with the same unit where both give one. */
function _basisQuantities(line: XmlElement, r: Report): void {
  const gross = select(line, "ram:SpecifiedLineTradeAgreement", "ram:GrossPriceProductTradePrice", "ram:BasisQuantity");
  const net = select(line, "ram:SpecifiedLineTradeAgreement", "ram:NetPriceProductTradePrice", "ram:BasisQuantity");
  if (gross.length === 0 || net.length === 0) return;
  // General comparisons of untyped values: as strings, any pair.
  const same = gross.some((g) => net.some((n) => stringValue(g) === stringValue(n)));
  const grossUnits = gross.map((g) => attribute(g, "unitCode")).filter((u) => u !== null);
  const netUnits = net.map((n) => attribute(n, "unitCode")).filter((u) => u !== null);
  const units = netUnits.length === 0 || grossUnits.length === 0 || grossUnits.some((g) => netUnits.includes(g));
  r.check(same && units, "BR-TMP-3", line, "Wenn BT-149 (Item price base quantity) sowohl in GrossPriceProductTradePrice als auch in NetPriceProductTradePrice vorhanden ist, müssen die Werte identisch sein, ebenso BT-150 (unit of measure code)");
}

function _cityAndPostcode(address: XmlElement, r: Report, cityRule: string, city: string, postcodeRule: string, postcode: string): void {
  r.check(anyFilled(select(address, "ram:CityName")), cityRule, address, `Das Element "${city}" muss übermittelt werden`);
  r.check(anyFilled(select(address, "ram:PostcodeCode")), postcodeRule, address, `Das Element "${postcode}" muss übermittelt werden`);
}

function _single(els: readonly XmlElement[]): string {
  return els.length === 0 ? "" : normalizeSpace(stringValue(els[0] as XmlElement));
}
