/**
 * The Peppol BIS Billing 3.0 pack: OpenPeppol's own examples pass, and each negative case, derived from
 * base-example.xml by one change, fires the rule it breaks (and the example itself does not).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { checkPeppol } from "../../../../lib/formats/validation/peppol/pack.ts";
import { checkRulePacks } from "../../../../lib/formats/validation/rule_packs.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";

const DIR = join(import.meta.dirname, "../../../fixtures/peppol");
const BASE = readFileSync(join(DIR, "base-example.xml"), "utf8");

const rulesOf = (xml: string) => checkPeppol(parseXml(xml).root, "ubl").map((v) => v.rule);

/** `{ what, rule, from, to }`: replacing `from` by `to` in base-example.xml breaks `rule`. */
const NEGATIVE = [
  { what: "no business process", rule: "PEPPOL-EN16931-R001", from: /<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, to: "" },
  { what: "an unknown business process", rule: "PEPPOL-EN16931-R007", from: "billing:01:1.0</cbc:ProfileID>", to: "billing:99:1.0</cbc:ProfileID>" },
  { what: "two notes between non-German parties", rule: "PEPPOL-EN16931-R002", from: "<cbc:DocumentCurrencyCode>", to: "<cbc:Note>a</cbc:Note><cbc:Note>b</cbc:Note><cbc:DocumentCurrencyCode>" },
  { what: "neither buyer reference nor order reference", rule: "PEPPOL-EN16931-R003", from: /<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, to: "" },
  { what: "a specification identifier with '::'", rule: "PEPPOL-EN16931-R004", from: "billing:3.0</cbc:CustomizationID>", to: "billing:3.0::x</cbc:CustomizationID>" },
  { what: "the tax currency equal to the invoice currency", rule: "PEPPOL-EN16931-R005", from: "<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>", to: "<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode><cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>" },
  { what: "an empty element", rule: "PEPPOL-EN16931-R008", from: "<cbc:BuyerReference>0150abc</cbc:BuyerReference>", to: "<cbc:BuyerReference>0150abc</cbc:BuyerReference><cbc:AccountingCost> </cbc:AccountingCost>" },
  { what: "a seller without electronic address", rule: "PEPPOL-EN16931-R020", from: '<cbc:EndpointID schemeID="0088">9482348239847239874</cbc:EndpointID>', to: "" },
  { what: "a buyer without electronic address", rule: "PEPPOL-EN16931-R010", from: '<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>', to: "" },
  { what: "a charge amount that is not base × percentage", rule: "PEPPOL-EN16931-R040", from: "<cbc:ChargeIndicator>true</cbc:ChargeIndicator>", to: '<cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:MultiplierFactorNumeric>50</cbc:MultiplierFactorNumeric><cbc:BaseAmount currencyID="EUR">1</cbc:BaseAmount>' },
  { what: "a percentage without base amount", rule: "PEPPOL-EN16931-R041", from: "<cbc:ChargeIndicator>true</cbc:ChargeIndicator>", to: "<cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:MultiplierFactorNumeric>50</cbc:MultiplierFactorNumeric>" },
  { what: "a base amount without percentage", rule: "PEPPOL-EN16931-R042", from: "<cbc:ChargeIndicator>true</cbc:ChargeIndicator>", to: '<cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:BaseAmount currencyID="EUR">1</cbc:BaseAmount>' },
  { what: "a charge indicator that is neither true nor false", rule: "PEPPOL-EN16931-R043", from: "<cbc:ChargeIndicator>true</cbc:ChargeIndicator>", to: "<cbc:ChargeIndicator>1</cbc:ChargeIndicator>" },
  { what: "an amount in another currency", rule: "PEPPOL-EN16931-R051", from: '<cbc:PriceAmount currencyID="EUR">400</cbc:PriceAmount>', to: '<cbc:PriceAmount currencyID="SEK">400</cbc:PriceAmount>' },
  { what: "an unknown currency", rule: "PEPPOL-EN16931-CL007", from: '<cbc:PriceAmount currencyID="EUR">400</cbc:PriceAmount>', to: '<cbc:PriceAmount currencyID="XYZ">400</cbc:PriceAmount>' },
  { what: "a line net amount that does not follow from quantity and price", rule: "PEPPOL-EN16931-R120", from: '<cbc:LineExtensionAmount currencyID= "EUR">2800</cbc:LineExtensionAmount>', to: '<cbc:LineExtensionAmount currencyID= "EUR">2800.03</cbc:LineExtensionAmount>' },
  { what: "direct debit without mandate reference", rule: "PEPPOL-EN16931-R061", from: '<cbc:PaymentMeansCode name="Credit transfer">30</cbc:PaymentMeansCode>', to: "<cbc:PaymentMeansCode>59</cbc:PaymentMeansCode>" },
  { what: "an invoice type code outside the profile", rule: "PEPPOL-EN16931-P0100", from: "<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>", to: "<cbc:InvoiceTypeCode>381</cbc:InvoiceTypeCode>" },
  { what: "a partial invoice between non-German parties", rule: "PEPPOL-EN16931-P0112", from: "<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>", to: "<cbc:InvoiceTypeCode>326</cbc:InvoiceTypeCode>" },
  { what: "a date not written YYYY-MM-DD", rule: "PEPPOL-EN16931-F001", from: "<cbc:IssueDate>2017-11-13</cbc:IssueDate>", to: "<cbc:IssueDate>2017-11-31</cbc:IssueDate>" },
  { what: "an electronic address scheme outside the list", rule: "PEPPOL-EN16931-CL008", from: '<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>', to: '<cbc:EndpointID schemeID="0001">FR23342</cbc:EndpointID>' },
  { what: "a GLN with a wrong check digit", rule: "PEPPOL-COMMON-R040", from: '<cbc:EndpointID schemeID="0088">9482348239847239874</cbc:EndpointID>', to: '<cbc:EndpointID schemeID="0088">9482348239847239875</cbc:EndpointID>' },
  { what: "a Norwegian organisation number with a wrong check digit", rule: "PEPPOL-COMMON-R041", from: '<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>', to: '<cbc:EndpointID schemeID="0192">987654320</cbc:EndpointID>' },
  { what: "a Belgian enterprise number with a wrong check", rule: "PEPPOL-COMMON-R043", from: '<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>', to: '<cbc:EndpointID schemeID="0208">0123456788</cbc:EndpointID>' },
  { what: "a Swedish organisation number with a wrong check digit", rule: "PEPPOL-COMMON-R049", from: '<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>', to: '<cbc:EndpointID schemeID="0007">5560360794</cbc:EndpointID>' },
] as const;

describe("Peppol BIS Billing 3.0 rules", () => {
  for (const file of readdirSync(DIR).filter((f) => f.endsWith(".xml")).sort()) {
    test(`OpenPeppol's ${file} breaks no Peppol rule`, () => {
      assert.deepEqual(rulesOf(readFileSync(join(DIR, file), "utf8")), []);
    });
  }
  for (const c of NEGATIVE) {
    test(`${c.rule} fires on base-example.xml with ${c.what}`, () => {
      const xml = BASE.replace(c.from, c.to);
      assert.notEqual(xml, BASE, "the change applies");
      assert.ok(rulesOf(xml).includes(c.rule), `${c.rule} in ${rulesOf(xml).join(", ")}`);
    });
  }
  test("a correct Norwegian, Belgian and Swedish organisation number passes its check", () => {
    for (const [scheme, id] of [["0192", "987654325"], ["0208", "0123456749"], ["0007", "5560360793"]]) {
      const xml = BASE.replace('<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>', `<cbc:EndpointID schemeID="${scheme}">${id}</cbc:EndpointID>`);
      assert.deepEqual(rulesOf(xml), [], `${scheme} ${id}`);
    }
  });
});

describe("checkRulePacks()", () => {
  const root = (xml: string) => parseXml(xml).root;
  test("runs the Peppol pack for a Peppol BIS Billing 3.0 identifier and names it in checks", () => {
    assert.deepEqual(checkRulePacks(root(BASE), "ubl").checks, ["PEPPOL-BIS:3.0 3.0.21"]);
  });
  test("runs the XRechnung pack for an XRechnung 3.0 identifier, its extension and its CVD profile", () => {
    for (const id of ["urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0", "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0", "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9"]) {
      const xml = BASE.replace(/<cbc:CustomizationID>[^<]*</, `<cbc:CustomizationID>${id}<`);
      assert.deepEqual(checkRulePacks(root(xml), "ubl").checks, ["XRECHNUNG:3.0.2"]);
    }
  });
  test("runs no pack for plain EN 16931 or another CIUS", () => {
    for (const id of ["urn:cen.eu:en16931:2017", "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_2.3", "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended"]) {
      const xml = BASE.replace(/<cbc:CustomizationID>[^<]*</, `<cbc:CustomizationID>${id}<`);
      assert.deepEqual(checkRulePacks(root(xml), "ubl"), { checks: [], violations: [] });
    }
  });
});

describe("Peppol BIS Billing 3.0 rules on CII", () => {
  // The CEN CII example claiming Peppol BIS: each case changes one thing and must fire a rule the base does not.
  const base = readFileSync(join(import.meta.dirname, "../../../fixtures/samples/cii/en16931_CII_example1.xml"), "utf8").replace(
    /<ram:GuidelineSpecifiedDocumentContextParameter>\s*<ram:ID>[^<]*<\/ram:ID>/,
    "<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>urn:fdc:peppol.eu:2017:poacc:billing:01:1.0</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</ram:ID>",
  );
  const ciiRules = (xml: string) => checkPeppol(parseXml(xml).root, "cii").map((v) => v.rule);
  const CASES = [
    { rule: "PEPPOL-EN16931-R001", what: "no business process", from: /<ram:BusinessProcessSpecifiedDocumentContextParameter>.*?<\/ram:BusinessProcessSpecifiedDocumentContextParameter>/, to: "" },
    { rule: "PEPPOL-EN16931-R007", what: "a business process not in the Peppol format", from: "billing:01:1.0", to: "billing:1:1.0" },
    { rule: "PEPPOL-EN16931-R004", what: "another specification identifier", from: "#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</ram:ID>", to: "#compliant#urn:fdc:peppol.eu:2017:poacc:billing:2.0</ram:ID>" },
    { rule: "PEPPOL-EN16931-F001", what: "a date in another format", from: '<udt:DateTimeString format="102">20150109</udt:DateTimeString>', to: '<udt:DateTimeString format="102">2015-01-09</udt:DateTimeString>' },
    { rule: "PEPPOL-EN16931-P0100", what: "a type code outside profile 01", from: "<ram:TypeCode>380</ram:TypeCode>", to: "<ram:TypeCode>999</ram:TypeCode>" },
    { rule: "PEPPOL-EN16931-R061", what: "direct debit without mandate", from: "<ram:TypeCode>30</ram:TypeCode>", to: "<ram:TypeCode>59</ram:TypeCode>" },
    { rule: "PEPPOL-COMMON-R040", what: "a GLN with a wrong check digit", from: "<ram:ID>57151520</ram:ID>", to: '<ram:ID schemeID="0088">5909876543210</ram:ID>' },
    { rule: "PEPPOL-EN16931-R121", what: "a zero base quantity", from: "<ram:ChargeAmount>9.95</ram:ChargeAmount>", to: "<ram:ChargeAmount>9.95</ram:ChargeAmount><ram:BasisQuantity>0</ram:BasisQuantity>" },
    { rule: "PEPPOL-EN16931-R130", what: "a base quantity in another unit", from: "<ram:ChargeAmount>9.95</ram:ChargeAmount>", to: '<ram:ChargeAmount>9.95</ram:ChargeAmount><ram:BasisQuantity unitCode="KGM">1</ram:BasisQuantity>' },
  ] as const;
  for (const c of CASES) {
    test(`${c.rule} fires on the CEN CII example with ${c.what}`, () => {
      const xml = base.replace(c.from, c.to);
      assert.notEqual(xml, base, "the change applies");
      assert.ok(!ciiRules(base).includes(c.rule), `${c.rule} already fires on the base`);
      assert.ok(ciiRules(xml).includes(c.rule), `${c.rule} in ${ciiRules(xml).join(", ")}`);
    });
  }
  /** The seller moved: its address country, and a VAT identifier (scheme VAT) in place of its VA one. */
  const ciiSeller = (country: string, vat: string) =>
    base.replace("<ram:CountryID>NL</ram:CountryID>", `<ram:CountryID>${country}</ram:CountryID>`).replace('<ram:ID schemeID="VA">NL8200.98.395.B.01</ram:ID>', `<ram:ID schemeID="VAT">${vat}</ram:ID>`);
  const NATIONAL = [
    { rule: "NL-R-003", what: "a Dutch seller whose legal identifier has no KVK or OIN scheme (as the example is)", xml: base },
    { rule: "NL-R-008", what: "a Dutch seller paying by code 31", xml: base.replace("<ram:TypeCode>30</ram:TypeCode>", "<ram:TypeCode>31</ram:TypeCode>") },
    { rule: "NO-R-001", what: "a Norwegian seller whose VAT number fails its check digit", xml: ciiSeller("NO", "NO123456789MVA") },
    { rule: "DK-R-014", what: "a Danish seller whose legal identifier has no CVR scheme", xml: ciiSeller("DK", "DK12345678") },
    { rule: "SE-R-001", what: "a Swedish seller whose VAT number is too short", xml: ciiSeller("SE", "SE12345") },
    { rule: "IT-R-001", what: "an Italian seller whose tax registration identifier is too short", xml: ciiSeller("IT", "IT12345678901").replace("</ram:SpecifiedTaxRegistration>\n            </ram:SellerTradeParty>", '</ram:SpecifiedTaxRegistration><ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">123</ram:ID></ram:SpecifiedTaxRegistration>\n            </ram:SellerTradeParty>') },
  ] as const;
  for (const c of NATIONAL) {
    test(`${c.rule} fires on the CEN CII example for ${c.what}`, () => {
      // A changed document must owe the rule to the change.
      if (c.xml !== base) assert.ok(!ciiRules(base).includes(c.rule), `${c.rule} already fires on the base`);
      assert.ok(ciiRules(c.xml).includes(c.rule), `${c.rule} in ${ciiRules(c.xml).join(", ")}`);
    });
  }
  test("a Norwegian CII seller with a valid organisation number in its VAT number passes NO-R-001", () => {
    assert.ok(!ciiRules(ciiSeller("NO", "NO987654325MVA")).includes("NO-R-001"));
  });
  test("checkRulePacks() names OpenPeppol's CII release for a CII invoice", () => {
    assert.deepEqual(checkRulePacks(parseXml(base).root, "cii").checks, ["PEPPOL-BIS:3.0 3.0.13"]);
  });
});

describe("Peppol BIS Billing 3.0 national rules on UBL", () => {
  /** base-example.xml with the seller moved: its address country and VAT identifier (the first ones in the file). */
  const seller = (country: string, vat: string, also: (xml: string) => string = (x) => x) =>
    also(BASE.replace("<cbc:IdentificationCode>GB</cbc:IdentificationCode>", `<cbc:IdentificationCode>${country}</cbc:IdentificationCode>`).replace("<cbc:CompanyID>GB1232434</cbc:CompanyID>", `<cbc:CompanyID>${vat}</cbc:CompanyID>`));
  const NATIONAL = [
    { what: "a Norwegian seller whose VAT number fails its check digit", rule: "NO-R-001", xml: seller("NO", "NO123456789MVA") },
    { what: "a Danish seller whose legal identifier has no CVR scheme", rule: "DK-R-014", xml: seller("DK", "DK12345678") },
    { what: "an Italian seller without a street", rule: "IT-R-002", xml: seller("IT", "IT12345678901", (x) => x.replace("<cbc:StreetName>Main street 1</cbc:StreetName>", "")) },
    { what: "a Swedish seller whose VAT number is too short", rule: "SE-R-001", xml: seller("SE", "SE4598375937") },
    { what: "a Swedish seller whose organisation number is not numeric", rule: "SE-R-003", xml: seller("SE", "SE459837593701") },
    { what: "an Icelandic seller without kennitala", rule: "IS-R-002", xml: seller("IS", "IS12345") },
    { what: "a Dutch seller whose legal identifier is neither KVK nor OIN", rule: "NL-R-003", xml: seller("NL", "NL123456789B01") },
    { what: "a Greek seller whose invoice number is not in six segments", rule: "GR-R-001-1", xml: seller("GR", "EL123456789") },
    { what: "a Greek seller whose VAT number fails the TIN check", rule: "GR-R-003", xml: seller("GR", "EL123456789") },
    { what: "a German seller and buyer without the seller's contact", rule: "DE-R-002", xml: seller("DE", "DE123456789", (x) => x.replace("<cbc:IdentificationCode>SE</cbc:IdentificationCode>", "<cbc:IdentificationCode>DE</cbc:IdentificationCode>")) },
  ] as const;
  for (const c of NATIONAL) {
    test(`${c.rule} fires for ${c.what}, and not on base-example.xml`, () => {
      assert.ok(!rulesOf(BASE).includes(c.rule));
      assert.ok(rulesOf(c.xml).includes(c.rule), `${c.rule} in ${rulesOf(c.xml).join(", ")}`);
    });
  }
  test("a Norwegian seller with a valid organisation number in its VAT number passes NO-R-001", () => {
    assert.ok(!rulesOf(seller("NO", "NO987654325MVA")).includes("NO-R-001"));
  });
  test("the German rules stay silent unless both seller and buyer are in Germany", () => {
    assert.ok(!rulesOf(seller("DE", "DE123456789")).some((r) => r.startsWith("DE-R-")));
  });
});
