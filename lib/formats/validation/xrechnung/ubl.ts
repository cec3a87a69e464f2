/**
 * XRechnung 3.0's own rules for UBL invoices and credit notes (KoSIT's XRechnung-UBL-validation.sch,
 * schematron 2.5.0, pattern "ubl-pattern"): BR-DE-1..BR-DE-31, BR-DE-TMP-32 and BR-TMP-2, with the
 * schematron's severities. The extension and CVD rules are in ubl_extension.ts.
 * @module
 */
import type { XmlElement } from "../../xml/tree.ts";
import { anyEquals, anyFilled, attribute, first, normalizeSpace, NS, select, stringValue } from "../element_paths.ts";
import type { Report } from "../en16931/semantic_report.ts";
import { EMAIL, isIban, SKONTO, TAXED_CATEGORIES, hasThreeDigits, TYPE_CODES, URL_WITH_SCHEME, XR_CIUS_ID, XR_CVD_ID, XR_EXTENSION_ID } from "./vocabulary.ts";

const { cac, cbc } = NS;

/** The rules of the document level and of its parties, addresses, payment means and VAT breakdowns. */
export function checkXrechnungUbl(root: XmlElement, r: Report): void {
  _document(root, r);
  for (const ref of select(root, "cac:AdditionalDocumentReference", "cac:Attachment", "cac:ExternalReference")) {
    r.check(URL_WITH_SCHEME.test(stringValue(first(ref, "cbc:URI"))), "BR-TMP-2", ref, 'BT-124 "External document location" muss eine absolute URL mit gültigem Schema enthalten', "warning");
  }
  for (const supplier of select(root, "cac:AccountingSupplierParty")) {
    r.check(first(supplier, "cac:Party", "cac:Contact") !== null, "BR-DE-2", supplier, 'Die Gruppe "SELLER CONTACT" (BG-6) muss übermittelt werden');
  }
  for (const a of select(root, "cac:AccountingSupplierParty", "cac:Party", "cac:PostalAddress")) {
    _cityAndPostcode(a, r, "BR-DE-3", "Seller city (BT-37)", "BR-DE-4", "Seller post code (BT-38)");
  }
  for (const c of select(root, "cac:AccountingSupplierParty", "cac:Party", "cac:Contact")) {
    r.check(anyFilled(select(c, "cbc:Name")), "BR-DE-5", c, 'Das Element "Seller contact point" (BT-41) muss übermittelt werden');
    r.check(anyFilled(select(c, "cbc:Telephone")), "BR-DE-6", c, 'Das Element "Seller contact telephone number" (BT-42) muss übermittelt werden');
    r.check(anyFilled(select(c, "cbc:ElectronicMail")), "BR-DE-7", c, 'Das Element "Seller contact email address" (BT-43) muss übermittelt werden');
    r.check(hasThreeDigits(_single(select(c, "cbc:Telephone"))), "BR-DE-27", c, "In BT-42 sollen mindestens drei Ziffern enthalten sein", "warning");
    r.check(EMAIL.test(_single(select(c, "cbc:ElectronicMail"))), "BR-DE-28", c, "In BT-43 soll genau ein @-Zeichen enthalten sein, nicht von einem Leerzeichen oder einem Punkt flankiert", "warning");
  }
  for (const a of select(root, "cac:AccountingCustomerParty", "cac:Party", "cac:PostalAddress")) {
    _cityAndPostcode(a, r, "BR-DE-8", "Buyer city (BT-52)", "BR-DE-9", "Buyer post code (BT-53)");
  }
  for (const a of select(root, "cac:Delivery", "cac:DeliveryLocation", "cac:Address")) {
    _cityAndPostcode(a, r, "BR-DE-10", "Deliver to city (BT-77)", "BR-DE-11", "Deliver to post code (BT-78)");
  }
  for (const pm of select(root, "cac:PaymentMeans")) _paymentMeans(pm, r);
  for (const st of select(root, "cac:TaxTotal", "cac:TaxSubtotal")) {
    r.check(anyFilled(select(st, "cac:TaxCategory", "cbc:Percent")), "BR-DE-14", st, 'Das Element "VAT category rate" (BT-119) muss übermittelt werden');
  }
}

function _document(root: XmlElement, r: Report): void {
  r.check(first(root, "cac:PaymentMeans") !== null, "BR-DE-1", root, 'Eine Rechnung (INVOICE) muss Angaben zu "PAYMENT INSTRUCTIONS" (BG-16) enthalten');
  r.check(anyFilled(select(root, "cbc:BuyerReference")), "BR-DE-15", root, 'Das Element "Buyer reference" (BT-10) muss übermittelt werden');
  // BT-95 (allowances; the credit-note reading, which the invoice reading is a part of), BT-102, BT-151.
  const codes: XmlElement[] = [];
  for (const ac of select(root, "cac:AllowanceCharge")) {
    const indicator = select(ac, "cbc:ChargeIndicator");
    if (anyEquals(indicator, "false") || anyEquals(indicator, "true")) codes.push(...select(ac, "cac:TaxCategory", "cbc:ID"));
  }
  for (const line of [...select(root, "cac:InvoiceLine"), ...select(root, "cac:CreditNoteLine")]) codes.push(...select(line, "cac:Item", "cac:ClassifiedTaxCategory", "cbc:ID"));
  const taxed = anyEquals(codes, TAXED_CATEGORIES);
  const identified = first(root, "cac:TaxRepresentativeParty") !== null || anyFilled(select(root, "cac:AccountingSupplierParty", "cac:Party", "cac:PartyTaxScheme").flatMap((s) => select(s, "cbc:CompanyID")));
  r.check(!taxed || identified, "BR-DE-16", root, 'Wenn die Steuercodes S, Z, E, AE, K, G, L oder M verwendet werden, muss "Seller VAT identifier" (BT-31), "Seller tax registration identifier" (BT-32) oder "SELLER TAX REPRESENTATIVE PARTY" (BG-11) übermittelt werden');
  const typeCode = _single([...select(root, "cbc:InvoiceTypeCode"), ...select(root, "cbc:CreditNoteTypeCode")]);
  r.check(TYPE_CODES.includes(typeCode), "BR-DE-17", root, `Mit dem Element "Invoice type code" (BT-3) sollen ausschließlich die Codes 326, 380, 384, 389, 381, 875, 876 und 877 übermittelt werden, nicht "${typeCode.slice(0, 20)}"`, "warning");
  r.check(skontoOk(select(root, "cac:PaymentTerms").map((t) => first(t, "cbc:Note")).filter((n) => n !== null)), "BR-DE-18", root, 'Skonto-Zeilen im Element "Payment terms" (BT-20) müssen dem Muster #SKONTO#TAGE=n#PROZENT=n.nn#[BASISBETRAG=n.nn#] folgen und mit einem Zeilenumbruch enden');
  r.check(anyEquals(select(root, "cbc:CustomizationID"), [XR_CIUS_ID, XR_EXTENSION_ID, XR_CVD_ID]), "BR-DE-21", root, 'Das Element "Specification identifier" (BT-24) soll syntaktisch der Kennung des Standards XRechnung entsprechen', "warning");
  r.check(filenamesUnique(select(root, "cac:AdditionalDocumentReference").map((d) => select(d, "cac:Attachment", "cbc:EmbeddedDocumentBinaryObject"))), "BR-DE-22", root, 'Das "filename"-Attribut aller "EmbeddedDocumentBinaryObject"-Elemente muss eindeutig sein');
  r.check(typeCode !== "384" || first(root, "cac:BillingReference", "cac:InvoiceDocumentReference") !== null, "BR-DE-26", root, 'Wenn der Code 384 (Corrected invoice) übergeben wird, soll PRECEDING INVOICE REFERENCE (BG-3) mind. einmal vorhanden sein', "warning");
  const mandate = first(root, "cac:PaymentMeans", "cac:PaymentMandate") !== null;
  const sepa = [...select(root, "cac:AccountingSupplierParty", "cac:Party", "cac:PartyIdentification", "cbc:ID"), ...select(root, "cac:PayeeParty", "cac:PartyIdentification", "cbc:ID")].some((id) => attribute(id, "schemeID") === "SEPA");
  r.check(!mandate || sepa, "BR-DE-30", root, 'Wenn "DIRECT DEBIT" (BG-19) vorhanden ist, muss "Bank assigned creditor identifier" (BT-90) übermittelt werden');
  r.check(!mandate || first(root, "cac:PaymentMeans", "cac:PaymentMandate", "cac:PayerFinancialAccount", "cbc:ID") !== null, "BR-DE-31", root, 'Wenn "DIRECT DEBIT" (BG-19) vorhanden ist, muss "Debited account identifier" (BT-91) übermittelt werden');
  const lines = [...select(root, "cac:InvoiceLine"), ...select(root, "cac:CreditNoteLine")];
  const dated = first(root, "cac:Delivery", "cbc:ActualDeliveryDate") !== null || first(root, "cac:InvoicePeriod") !== null || lines.every((l) => first(l, "cac:InvoicePeriod") !== null);
  // The schematron's flag is "information": reported as a warning, which never refuses.
  r.check(dated, "BR-DE-TMP-32", root, 'Eine Rechnung sollte entweder BT-72 "Actual delivery date", BG-14 "Invoicing period" oder in jeder Rechnungsposition BG-26 "Invoice line period" enthalten', "warning");
}

function _paymentMeans(pm: XmlElement, r: Report): void {
  const code = _single(select(pm, "cbc:PaymentMeansCode"));
  const transfer = first(pm, "cac:PayeeFinancialAccount") !== null;
  const card = first(pm, "cac:CardAccount") !== null;
  const mandate = first(pm, "cac:PaymentMandate") !== null;
  if (code === "30" || code === "58") {
    r.check(code !== "58" || isIban(_single(select(pm, "cac:PayeeFinancialAccount", "cbc:ID"))), "BR-DE-19", pm, '"Payment account identifier" (BT-84) soll eine korrekte IBAN enthalten, wenn mit dem Code 58 SEPA als Zahlungsmittel gefordert wird', "warning");
    r.check(transfer, "BR-DE-23-a", pm, 'Wenn BT-81 einen Schlüssel für Überweisungen enthält (30, 58), muss BG-17 "CREDIT TRANSFER" übermittelt werden');
    r.check(!card && !mandate, "BR-DE-23-b", pm, "Wenn BT-81 einen Schlüssel für Überweisungen enthält (30, 58), dürfen BG-18 und BG-19 nicht übermittelt werden");
  } else if (code === "48" || code === "54" || code === "55") {
    r.check(card, "BR-DE-24-a", pm, 'Wenn BT-81 einen Schlüssel für Kartenzahlungen enthält (48, 54, 55), muss BG-18 "PAYMENT CARD INFORMATION" übermittelt werden');
    r.check(!transfer && !mandate, "BR-DE-24-b", pm, "Wenn BT-81 einen Schlüssel für Kartenzahlungen enthält (48, 54, 55), dürfen BG-17 und BG-19 nicht übermittelt werden");
  } else if (code === "59") {
    r.check(isIban(_single(select(pm, "cac:PaymentMandate", "cac:PayerFinancialAccount", "cbc:ID"))), "BR-DE-20", pm, '"Debited account identifier" (BT-91) soll eine korrekte IBAN enthalten, wenn mit dem Code 59 SEPA als Zahlungsmittel gefordert wird', "warning");
    r.check(mandate, "BR-DE-25-a", pm, 'Wenn BT-81 einen Schlüssel für Lastschriften enthält (59), muss BG-19 "DIRECT DEBIT" übermittelt werden');
    r.check(!transfer && !card, "BR-DE-25-b", pm, "Wenn BT-81 einen Schlüssel für Lastschriften enthält (59), dürfen BG-17 und BG-18 nicht übermittelt werden");
  }
}

function _cityAndPostcode(address: XmlElement, r: Report, cityRule: string, city: string, postcodeRule: string, postcode: string): void {
  r.check(anyFilled(select(address, "cbc:CityName")), cityRule, address, `Das Element "${city}" muss übermittelt werden`);
  r.check(anyFilled(select(address, "cbc:PostalZone")), postcodeRule, address, `Das Element "${postcode}" muss übermittelt werden`);
}

/** normalize-space() of the first of `els` ("" when there is none): what the schematron compares. */
function _single(els: readonly XmlElement[]): string {
  return els.length === 0 ? "" : normalizeSpace(stringValue(els[0] as XmlElement));
}

/**
 * BR-DE-18 over the first note of each payment terms: every line that starts with `#` is a whole Skonto entry,
 * and what follows the last `#…#` of the note starts with a line break (the schematron's `tokenize(., '#.+#')[last()]`).
 */
export function skontoOk(notes: readonly XmlElement[]): boolean {
  for (const note of notes) {
    const text = stringValue(note);
    const entries = text.split(/\r?\n/).filter((l) => normalizeSpace(l).startsWith("#"));
    if (entries.length === 0) continue;
    const parts = text.split(/#[^\n\r]+#/);
    const tail = parts[parts.length - 1] ?? "";
    if (!/^[ \t\r\n]*\n/.test(tail)) return false;
    for (const l of entries) if (!SKONTO.test(normalizeSpace(l))) return false;
  }
  return true;
}

/** BR-DE-22: no attachment repeats the filename of an attachment before it (a missing filename repeats nothing). */
export function filenamesUnique(attachmentsPerReference: readonly XmlElement[][]): boolean {
  const seen = new Set<string>();
  for (const objects of attachmentsPerReference) {
    const names = objects.map((o) => attribute(o, "filename")).filter((n): n is string => n !== null);
    if (names.some((n) => seen.has(n))) return false;
    for (const n of names) seen.add(n);
  }
  return true;
}
