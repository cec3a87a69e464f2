/**
 * checkSemanticRules over the official examples: every UBL and CII sample that
 * claims EN 16931 passes, except the ones that really break a rule (each checked
 * by hand against the artefacts' Schematron and kept here with its rule ids);
 * and a violation carries the element's path, line and column.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { claimsEn16931 } from "../../../../lib/formats/validation/en16931/rules.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";
import { ublInvoice } from "../../../fixtures/ubl_invoice.ts";
import { BASE, drop, edit, sample, SAMPLES, violations, type Syntax } from "./semantic_cases.ts";

/**
 * Samples that claim EN 16931 yet break its rules, with every rule they break.
 * - mustang_factur-x-extended.xml: its freight is an EXTENDED-only
 *   ram:SpecifiedLogisticsServiceCharge, not a document-level charge, so
 *   ChargeTotalAmount 15.00 has no charge to add up (BR-CO-12: 15.00 ≠ 0) and the S
 *   breakdown's BasisAmount 403.55 ≠ lines 410.10 − allowance 21.55 = 388.55 (BR-S-08).
 * - mustang_UC11_F202600022_EXTENDED_FX_BOM.xml (EXTENDED-CTC-FR): lines 1 and 5 are
 *   GROUP lines without quantity, price or VAT category (BR-22, BR-23, BR-26, BR-27,
 *   BR-CO-04), their amounts count in the line sum (425.80 ≠ BT-106 212.90, BR-CO-10),
 *   and the S breakdowns carry exemption reasons (BR-S-10).
 */
const MUST_FAIL: Record<string, string[]> = {
  "cii/mustang_factur-x-extended.xml": ["BR-CO-12", "BR-S-08"],
  "cii/mustang_UC11_F202600022_EXTENDED_FX_BOM.xml": ["BR-22", "BR-23", "BR-26", "BR-27", "BR-CO-04", "BR-CO-10", "BR-S-10"],
};

/** Samples that do not claim EN 16931 (so the rules are not applied to them). */
const NOT_CLAIMING = ["ubl/mustang_UBL-CreditNote-2.1-Example_BOM.ubl.xml", "cii/mustang_facturFrMinimum.xml"];

describe("checkSemanticRules() on the official examples", () => {
  for (const syntax of ["ubl", "cii"] as const) {
    for (const file of readdirSync(join(SAMPLES, syntax)).filter((f) => f.endsWith(".xml")).sort()) {
      const key = `${syntax}/${file}`;
      const root = parseXml(sample(syntax, file)).root;
      if (NOT_CLAIMING.includes(key)) {
        test(`${key} does not claim EN 16931`, () => assert.equal(claimsEn16931(root, syntax), false));
        continue;
      }
      const expected = MUST_FAIL[key] ?? [];
      test(expected.length === 0 ? `${key} breaks no rule` : `${key} breaks exactly ${expected.join(", ")}`, () => {
        assert.equal(claimsEn16931(root, syntax), true);
        const found = violations(sample(syntax, file), syntax).filter((v) => v.severity === "error");
        assert.deepEqual([...new Set(found.map((v) => v.rule))].sort(), [...expected].sort());
      });
    }
  }
});

describe("checkSemanticRules() violations", () => {
  test("a violation points at the element by path, line and column, with the artefacts' id and severity", () => {
    const xml = edit(BASE.ubl, ">2800<", ">2801<");
    const v = violations(xml, "ubl").find((x) => x.rule === "BR-CO-10");
    assert.ok(v);
    assert.equal(v.severity, "error");
    assert.equal(v.path, "/Invoice/cac:LegalMonetaryTotal");
    const line = xml.split("\n").findIndex((l) => l.includes("<cac:LegalMonetaryTotal>")) + 1;
    assert.equal(v.line, line);
    assert.equal(v.column, 5);
    assert.match(v.message, /1301\.00|1301/);
  });

  test("positions are given among same-named siblings", () => {
    const xml = edit(BASE.ubl, "<cbc:ID>2</cbc:ID>", "<cbc:ID> </cbc:ID>");
    const v = violations(xml, "ubl").find((x) => x.rule === "BR-21");
    assert.equal(v?.path, "/Invoice/cac:InvoiceLine[2]");
  });

  test("a warning rule reports the severity warning", () => {
    const xml = edit(BASE.cii, "<ram:PayeePartyCreditorFinancialAccount>", "<ram:ApplicableTradeSettlementFinancialCard><ram:ID>4111111111111111</ram:ID></ram:ApplicableTradeSettlementFinancialCard><ram:PayeePartyCreditorFinancialAccount>");
    const v = violations(xml, "cii").find((x) => x.rule === "BR-51");
    assert.equal(v?.severity, "warning");
  });

  test("a document missing whole groups still gets every rule's verdict, without throwing", () => {
    const bare = (s: Syntax) => (s === "ubl" ? '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>' : '<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"/>');
    for (const s of ["ubl", "cii"] as const) {
      const rules = new Set(violations(bare(s), s).map((v) => v.rule));
      for (const r of ["BR-01", "BR-02", "BR-03", "BR-04", "BR-05", "BR-06", "BR-07", "BR-08", "BR-10", "BR-16"]) assert.ok(rules.has(r), `${s} ${r}`);
    }
    const noTotals = drop(BASE.cii, "ram:SpecifiedTradeSettlementHeaderMonetarySummation");
    assert.ok(violations(noTotals, "cii").some((v) => v.rule === "BR-CO-15"));
  });

  test("a generated invoice breaks no rule, and each of its 500 nameless lines is reported at its own path", () => {
    assert.deepEqual(violations(ublInvoice(50), "ubl"), []);
    const xml = ublInvoice(500).replace(/<cbc:Name>Usługa wdrożeniowa nr \d+<\/cbc:Name>/g, "<cbc:Name/>");
    const found = violations(xml, "ubl").filter((v) => v.rule === "BR-25");
    assert.equal(found.length, 500);
    assert.equal(found[499]?.path, "/Invoice/cac:InvoiceLine[500]");
    assert.equal(new Set(found.map((v) => v.path)).size, 500);
  });
});
