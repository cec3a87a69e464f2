/** claimsEn16931: which specification identifiers (BT-24) put a document under the EN 16931 rules. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { claimsEn16931, specificationIdentifier } from "../../../../lib/formats/validation/en16931/rules.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";

const ubl = (id: string | null) =>
  parseXml(`<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">${id === null ? "" : `<cbc:CustomizationID> ${id} </cbc:CustomizationID>`}<cbc:ID>1</cbc:ID></Invoice>`).root;
const cii = (id: string) =>
  parseXml(`<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100"><rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${id}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext></rsm:CrossIndustryInvoice>`).root;

const CLAIMING = [
  "urn:cen.eu:en16931:2017",
  "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
  "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
  "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic",
  "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended",
  "urn:cen.eu:en16931:2017#conformant#urn:zugferd.de:2p0:extended",
  "urn:fdc:peppol.eu:2017:poacc:billing:3.0",
  "urn:xoev-de:kosit:standard:xrechnung_1.2",
  "urn:factur-x.eu:1p0:extended",
];
const NOT_CLAIMING = ["urn:factur-x.eu:1p0:minimum", "urn:factur-x.eu:1p0:basicwl", "urn:zugferd.de:2p0:minimum", "urn:zugferd.de:2p0:basicwl", "urn:oasis:names:specification:ubl:xpath:Invoice-2.1", ""];

describe("claimsEn16931()", () => {
  for (const id of CLAIMING) {
    test(`claims for ${id}`, () => {
      assert.equal(claimsEn16931(ubl(id), "ubl"), true);
      assert.equal(claimsEn16931(cii(id), "cii"), true);
    });
  }
  for (const id of NOT_CLAIMING) {
    test(`does not claim for ${JSON.stringify(id)}`, () => {
      assert.equal(claimsEn16931(ubl(id), "ubl"), false);
      assert.equal(claimsEn16931(cii(id), "cii"), false);
    });
  }
  test("a UBL invoice without CustomizationID does not claim", () => {
    assert.equal(claimsEn16931(ubl(null), "ubl"), false);
    assert.equal(specificationIdentifier(ubl(null), "ubl"), "");
  });
  test("the identifier is read trimmed", () => assert.equal(specificationIdentifier(ubl("urn:cen.eu:en16931:2017"), "ubl"), "urn:cen.eu:en16931:2017"));
});
