/**
 * The packs on values of any length: a verdict in one pass, whatever a hostile sender writes in the fields the
 * patterns read (KoSIT's telephone pattern backtracks cubically when run as a regular expression).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkRulePacks } from "../../../../lib/formats/validation/rule_packs.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";
import { ublInvoice } from "../../../fixtures/ubl_invoice.ts";

const XRECHNUNG = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";

/** A generated UBL invoice claiming XRechnung, with the seller's contact and payment terms as given. */
function invoice(phone: string, mail: string, terms: string): string {
  return ublInvoice(3)
    .replace(/<cbc:CustomizationID>[^<]*</, `<cbc:CustomizationID>${XRECHNUNG}<`)
    .replace("</cac:Party>\n    </cac:AccountingSupplierParty>", `<cac:Contact><cbc:Name>A</cbc:Name><cbc:Telephone>${phone}</cbc:Telephone><cbc:ElectronicMail>${mail}</cbc:ElectronicMail></cac:Contact></cac:Party>\n    </cac:AccountingSupplierParty><cac:PaymentTerms><cbc:Note>${terms}</cbc:Note></cac:PaymentTerms>`);
}

/**
 * The rules a document breaks, checked within a bound: a pattern that backtracks takes a minute on these values
 * (KoSIT's telephone pattern run as a regular expression: 58 s for 200,000 characters), a linear pass well under 0.1 s.
 * A synchronous test cannot be interrupted by its timeout, so the bound is asserted; 5 s leaves a wide margin on a busy machine.
 */
function rules(xml: string): string[] {
  const root = parseXml(xml).root;
  const started = performance.now();
  const found = checkRulePacks(root, "ubl").violations.map((v) => v.rule);
  const ms = performance.now() - started;
  assert.ok(ms < 5_000, `the packs took ${ms.toFixed(0)} ms`);
  return found;
}

describe("the XRechnung pack on long values", () => {
  const long = 200_000;
  test("a telephone number of 200,000 characters with two digits breaks BR-DE-27, with three it does not", () => {
    assert.ok(rules(invoice(`1${"a".repeat(long)}2`, "a@example.de", "x")).includes("BR-DE-27"));
    assert.ok(!rules(invoice(`1${"a".repeat(long)}23`, "a@example.de", "x")).includes("BR-DE-27"));
  });
  test("an e-mail address of 200,000 characters gets its BR-DE-28 verdict", () => {
    assert.ok(rules(invoice("0301234567", `a@${"b.".repeat(long / 2)}@`, "x")).includes("BR-DE-28"));
    assert.ok(!rules(invoice("0301234567", `a@${"b.".repeat(long / 2)}de`, "x")).includes("BR-DE-28"));
  });
  test("payment terms of 200,000 characters with Skonto marks get their BR-DE-18 verdict", () => {
    assert.ok(rules(invoice("0301234567", "a@example.de", `#SKONTO#${"#".repeat(long)}`)).includes("BR-DE-18"));
    assert.ok(!rules(invoice("0301234567", "a@example.de", `#SKONTO#TAGE=7#PROZENT=2.00#\n${"x".repeat(long)}`)).includes("BR-DE-18"));
  });
});
