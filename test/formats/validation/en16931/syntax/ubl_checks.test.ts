import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkSyntaxRules } from "../../../../../lib/formats/validation/en16931/syntax.ts";
import type { XmlElement } from "../../../../../lib/formats/xml/tree.ts";
import { BASE, chain, descend, loadSample, only, setAttr } from "../syntax_cases.ts";

type Case = { what: string; mutate: (root: XmlElement) => void; fires: boolean; doc?: string };

const CREDIT_NOTE = "en16931_ubl-tc434-creditnote1.xml";

/** Each hand-written UBL rule, broken and satisfied by mutations of a valid sample. */
const CASES: Record<string, Case[]> = {
  "BR-CL-01": [
    { what: "an unknown invoice type code", mutate: (r) => void (descend(r, "cbc:InvoiceTypeCode").text = "999"), fires: true },
    { what: "a credit note code in an invoice", mutate: (r) => void (descend(r, "cbc:InvoiceTypeCode").text = "381"), fires: true },
    { what: "invoice code 389 padded with spaces", mutate: (r) => void (descend(r, "cbc:InvoiceTypeCode").text = " 389 "), fires: false },
    { what: "an invoice code in a credit note", doc: CREDIT_NOTE, mutate: (r) => void (descend(r, "cbc:CreditNoteTypeCode").text = "380"), fires: true },
    { what: "credit note code 381", doc: CREDIT_NOTE, mutate: (r) => void (descend(r, "cbc:CreditNoteTypeCode").text = "381"), fires: false },
  ],
  "BR-CL-08": [
    { what: "an unknown subject code", mutate: (r) => void chain(r, "cbc:Note", "#QQQ#text"), fires: true },
    { what: "a known subject code", mutate: (r) => void chain(r, "cbc:Note", "#AAI#text"), fires: false },
    { what: "a two-letter code (not a subject code at all)", mutate: (r) => void chain(r, "cbc:Note", "#AB#text"), fires: false },
    { what: "a code the list's text contains (XPath contains)", mutate: (r) => void chain(r, "cbc:Note", "#A A#text"), fires: false },
    { what: "no second #", mutate: (r) => void chain(r, "cbc:Note", "#QQQ text"), fires: false },
  ],
  "BR-CL-10": [
    { what: "an unknown scheme", mutate: (r) => void chain(descend(r, "cac:AccountingCustomerParty/cac:Party"), "cac:PartyIdentification/cbc:ID", "1", { schemeID: "XX" }), fires: true },
    { what: "an ICD scheme", mutate: (r) => void chain(descend(r, "cac:AccountingCustomerParty/cac:Party"), "cac:PartyIdentification/cbc:ID", "1", { schemeID: "0088" }), fires: false },
    { what: "SEPA for the buyer", mutate: (r) => void chain(descend(r, "cac:AccountingCustomerParty/cac:Party"), "cac:PartyIdentification/cbc:ID", "1", { schemeID: "SEPA" }), fires: true },
    { what: "SEPA for the seller", mutate: (r) => void chain(descend(r, "cac:AccountingSupplierParty/cac:Party"), "cac:PartyIdentification/cbc:ID", "1", { schemeID: "SEPA" }), fires: false },
  ],
  "UBL-SR-51": [
    {
      what: "two address lines",
      mutate: (r) => {
        const addr = descend(r, "cac:AccountingSupplierParty/cac:Party/cac:PostalAddress");
        chain(addr, "cac:AddressLine/cbc:Line", "a");
        chain(addr, "cac:AddressLine/cbc:Line", "b");
      },
      fires: true,
    },
    { what: "one address line", mutate: (r) => void chain(descend(r, "cac:AccountingSupplierParty/cac:Party/cac:PostalAddress"), "cac:AddressLine/cbc:Line", "a"), fires: false },
  ],
  "UBL-SR-43": [
    { what: "a scheme on a supporting document", mutate: (r) => void chain(r, "cac:AdditionalDocumentReference/cbc:ID", "1", { schemeID: "AAA" }), fires: true },
    { what: "a type code other than 130", mutate: (r) => void chain(descend(r, "cac:AdditionalDocumentReference"), "cbc:DocumentTypeCode", "916"), fires: true },
    {
      what: "an invoiced object (130) with a scheme",
      mutate: (r) => {
        const ref = chain(r, "cac:AdditionalDocumentReference");
        chain(ref, "cbc:ID", "1", { schemeID: "AAA" });
        chain(ref, "cbc:DocumentTypeCode", "130");
      },
      fires: false,
    },
    { what: "type code 50 in an invoice", mutate: (r) => void chain(chain(r, "cac:AdditionalDocumentReference"), "cbc:DocumentTypeCode", "50"), fires: true },
    { what: "type code 50 in a credit note", doc: CREDIT_NOTE, mutate: (r) => void chain(chain(r, "cac:AdditionalDocumentReference"), "cbc:DocumentTypeCode", "50"), fires: false },
  ],
  "UBL-DT-01": [
    { what: "three fraction digits", mutate: (r) => void (descend(r, "cac:LegalMonetaryTotal/cbc:LineExtensionAmount").text = "100.001"), fires: true },
    { what: "one fraction digit", mutate: (r) => void (descend(r, "cac:LegalMonetaryTotal/cbc:LineExtensionAmount").text = "100.1"), fires: false },
    { what: "a price amount with four", mutate: (r) => void (descend(r, "cac:InvoiceLine/cac:Price/cbc:PriceAmount").text = "1.0001"), fires: false },
    {
      what: "an amount in a price discount",
      mutate: (r) => void chain(descend(r, "cac:InvoiceLine/cac:Price"), "cac:AllowanceCharge/cbc:BaseAmount", "1.005", { currencyID: "EUR" }),
      fires: false,
    },
  ],
  "UBL-SR-53": [
    { what: "a tax scheme without CompanyID", mutate: (r) => void chain(descend(r, "cac:AccountingCustomerParty/cac:Party"), "cac:PartyTaxScheme/cac:TaxScheme/cbc:ID", "VAT"), fires: true },
    {
      what: "a tax scheme with CompanyID",
      mutate: (r) => {
        const pts = chain(descend(r, "cac:AccountingCustomerParty/cac:Party"), "cac:PartyTaxScheme");
        chain(pts, "cbc:CompanyID", "DE123");
        chain(pts, "cac:TaxScheme/cbc:ID", "VAT");
      },
      fires: false,
    },
  ],
  "UBL-CR-002": [
    { what: "UBLVersionID 2.0", mutate: (r) => void r.children.unshift(chain({ ...r, children: [] }, "cbc:UBLVersionID", "2.0")), fires: true },
    { what: "UBLVersionID 2.1", mutate: (r) => void r.children.unshift(chain({ ...r, children: [] }, "cbc:UBLVersionID", "2.1")), fires: false },
  ],
  "UBL-CR-412": [
    { what: "a payment due date in an invoice's payment means", mutate: (r) => void chain(descend(r, "cac:PaymentMeans"), "cbc:PaymentDueDate", "2026-12-01"), fires: true },
    { what: "a payment due date in a credit note's", doc: CREDIT_NOTE, mutate: (r) => void chain(descend(r, "cac:PaymentMeans"), "cbc:PaymentDueDate", "2026-12-01"), fires: false },
  ],
  "UBL-DT-18": [
    { what: "a name attribute on a note", mutate: (r) => setAttr(descend(r, "cbc:Note"), "name", "x"), fires: true },
    { what: "a name attribute on a payment means code", mutate: (r) => setAttr(descend(r, "cac:PaymentMeans/cbc:PaymentMeansCode"), "name", "Credit transfer"), fires: false },
  ],
};

function payee(r: XmlElement, names: string[], ids: string[] = [], legal: string[] = []): void {
  const p = chain(r, "cac:PayeeParty");
  for (const id of ids) chain(p, "cac:PartyIdentification/cbc:ID", id);
  for (const n of names) chain(p, "cac:PartyName/cbc:Name", n);
  for (const c of legal) chain(p, "cac:PartyLegalEntity/cbc:CompanyID", c);
}
const sellerName = (r: XmlElement): string =>
  descend(r, "cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName").text;

for (const id of ["UBL-SR-19", "UBL-SR-20", "UBL-SR-21"]) {
  CASES[id] = [
    { what: "a payee named as the seller", mutate: (r) => payee(r, [sellerName(r)]), fires: true },
    { what: "a payee without a name", mutate: (r) => payee(r, []), fires: true },
    { what: "a payee of its own", mutate: (r) => payee(r, ["Factoring Ltd"], ["1"], ["C1"]), fires: false },
  ];
}
CASES["UBL-SR-19"]!.push({ what: "two payee names", mutate: (r) => payee(r, ["A", "B"]), fires: true });
CASES["UBL-SR-20"]!.push({ what: "two payee identifiers", mutate: (r) => payee(r, ["A"], ["1", "2"]), fires: true });
CASES["UBL-SR-21"]!.push({ what: "two payee registration identifiers", mutate: (r) => payee(r, ["A"], [], ["C1", "C2"]), fires: true });

describe("UBL syntax rules checked by hand-written functions", () => {
  for (const [rule, cases] of Object.entries(CASES)) {
    for (const c of cases) {
      test(`${rule} ${c.fires ? "fires on" : "accepts"} ${c.what}`, () => {
        const root = loadSample("ubl", c.doc ?? BASE.ubl);
        assert.deepEqual(only(checkSyntaxRules(root, "ubl"), rule), [], "the sample satisfies it");
        c.mutate(root);
        const found = only(checkSyntaxRules(root, "ubl"), rule);
        assert.equal(found.length > 0, c.fires, JSON.stringify(found));
      });
    }
  }
});
