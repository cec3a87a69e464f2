/**
 * The EN 16931 total rules (semantic_totals.ts): BR-CO-10..BR-CO-18 and the
 * two-decimal rules on totals and VAT breakdowns, in exact decimals with the
 * artefacts' rounding and ±1 tolerances, for UBL and CII.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { after, before, BASE, drop, edit, rulesOf, runSyntaxCases, type SyntaxCase } from "./semantic_cases.ts";

const UBL_ALLOWANCE = (amount: string) =>
  `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">${amount}</cbc:Amount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25.0</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:AllowanceCharge>`;
const ubl_total = (xml: string, tag: string, value: string) => edit(xml, new RegExp(`<cbc:${tag} currencyID="EUR">[^<]*</cbc:${tag}>`), `<cbc:${tag} currencyID="EUR">${value}</cbc:${tag}>`);

const ubl: SyntaxCase[] = [
  { rule: "BR-CO-10", what: "line net sum differs from the lines", breaks: (x) => edit(x, ">2800<", ">2801<") },
  {
    rule: "BR-CO-11", what: "an allowance without the allowance total",
    breaks: (x) => before(x, "<cac:TaxTotal>", UBL_ALLOWANCE("10")),
    holds: (x) => after(before(x, "<cac:TaxTotal>", UBL_ALLOWANCE("10")), "</cbc:TaxExclusiveAmount>", '<cbc:AllowanceTotalAmount currencyID="EUR">10</cbc:AllowanceTotalAmount>'),
  },
  { rule: "BR-CO-12", what: "charge total differs from the charges", breaks: (x) => ubl_total(x, "ChargeTotalAmount", "26") },
  { rule: "BR-CO-13", what: "total without VAT off by a cent", breaks: (x) => ubl_total(x, "TaxExclusiveAmount", "1325.01") },
  { rule: "BR-CO-14", what: "VAT total differs from the breakdowns", breaks: (x) => edit(x, ">331.25<", ">331.26<") },
  { rule: "BR-CO-15", what: "total with VAT is not net plus VAT", breaks: (x) => ubl_total(ubl_total(x, "TaxInclusiveAmount", "1656.26"), "PayableAmount", "1656.26") },
  {
    rule: "BR-CO-16", what: "amount due ignores the paid amount",
    breaks: (x) => after(x, "</cbc:ChargeTotalAmount>", '<cbc:PrepaidAmount currencyID="EUR">100</cbc:PrepaidAmount>'),
    holds: (x) => ubl_total(after(x, "</cbc:ChargeTotalAmount>", '<cbc:PrepaidAmount currencyID="EUR">100</cbc:PrepaidAmount>'), "PayableAmount", "1556.25"),
  },
  { rule: "BR-CO-17", what: "VAT amount far from taxable times rate", breaks: (x) => edit(x, ">331.25<", ">333.25<", 2) },
  { rule: "BR-CO-18", what: "no VAT breakdown", breaks: (x) => drop(x, "cac:TaxSubtotal") },
  { rule: "BR-DEC-09", what: "3 decimals", breaks: (x) => ubl_total(x, "LineExtensionAmount", "1300.000") },
  { rule: "BR-DEC-10", what: "3 decimals", breaks: (x) => after(x, "</cbc:TaxExclusiveAmount>", '<cbc:AllowanceTotalAmount currencyID="EUR">0.000</cbc:AllowanceTotalAmount>') },
  { rule: "BR-DEC-11", what: "3 decimals", breaks: (x) => ubl_total(x, "ChargeTotalAmount", "25.000") },
  { rule: "BR-DEC-12", what: "3 decimals", breaks: (x) => ubl_total(x, "TaxExclusiveAmount", "1325.000") },
  { rule: "BR-DEC-14", what: "3 decimals", breaks: (x) => ubl_total(x, "TaxInclusiveAmount", "1656.250") },
  { rule: "BR-DEC-16", what: "3 decimals", breaks: (x) => after(x, "</cbc:ChargeTotalAmount>", '<cbc:PrepaidAmount currencyID="EUR">0.000</cbc:PrepaidAmount>') },
  { rule: "BR-DEC-17", what: "3 decimals", breaks: (x) => after(x, "</cbc:ChargeTotalAmount>", '<cbc:PayableRoundingAmount currencyID="EUR">0.000</cbc:PayableRoundingAmount>') },
  { rule: "BR-DEC-18", what: "3 decimals", breaks: (x) => ubl_total(x, "PayableAmount", "1656.250") },
  { rule: "BR-DEC-19", what: "3 decimals", breaks: (x) => edit(x, ">1325</cbc:TaxableAmount>", ">1325.000</cbc:TaxableAmount>") },
  { rule: "BR-DEC-20", what: "3 decimals", breaks: (x) => edit(x, ">331.25<", ">331.250<", 2) },
  { rule: "BR-45", what: "a breakdown without taxable amount", breaks: (x) => drop(x, "cbc:TaxableAmount") },
  { rule: "BR-46", what: "a breakdown without tax amount", breaks: (x) => edit(x, '<cbc:TaxAmount currencyID="EUR">331.25</cbc:TaxAmount>', "", 2) },
  { rule: "BR-47", what: "a breakdown without category code", breaks: (x) => edit(x, /(<cac:TaxSubtotal>[\s\S]*?<cac:TaxCategory>\s*)<cbc:ID>S<\/cbc:ID>/, "$1") },
  { rule: "BR-48", what: "a breakdown without rate", breaks: (x) => edit(x, /(<cac:TaxSubtotal>[\s\S]*?<cac:TaxCategory>[\s\S]*?)<cbc:Percent>25.0<\/cbc:Percent>/, "$1") },
];

const cii_total = (xml: string, tag: string, value: string) => edit(xml, new RegExp(`<ram:${tag}>[^<]*</ram:${tag}>`), `<ram:${tag}>${value}</ram:${tag}>`);
const CII_AC = (charge: boolean, amount: string) =>
  `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>${charge}</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>${amount}</ram:ActualAmount><ram:Reason>R</ram:Reason><ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>7</ram:RateApplicablePercent></ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge>`;
const SUMS = "<ram:SpecifiedTradeSettlementHeaderMonetarySummation>";

const cii: SyntaxCase[] = [
  { rule: "BR-CO-10", what: "line net sum differs from the lines", breaks: (x) => edit(x, "<ram:LineTotalAmount>26.07<", "<ram:LineTotalAmount>26.08<") },
  {
    rule: "BR-CO-11", what: "an allowance without the allowance total",
    breaks: (x) => before(x, "<ram:SpecifiedTradePaymentTerms>", CII_AC(false, "10")),
    holds: (x) => after(before(x, "<ram:SpecifiedTradePaymentTerms>", CII_AC(false, "10")), "<ram:LineTotalAmount>314.86</ram:LineTotalAmount>", "<ram:AllowanceTotalAmount>10.00</ram:AllowanceTotalAmount>"),
  },
  {
    rule: "BR-CO-12", what: "a charge total without charges",
    breaks: (x) => after(x, "<ram:LineTotalAmount>314.86</ram:LineTotalAmount>", "<ram:ChargeTotalAmount>15.00</ram:ChargeTotalAmount>"),
    holds: (x) => after(before(x, "<ram:SpecifiedTradePaymentTerms>", CII_AC(true, "15")), "<ram:LineTotalAmount>314.86</ram:LineTotalAmount>", "<ram:ChargeTotalAmount>15.00</ram:ChargeTotalAmount>"),
  },
  { rule: "BR-CO-13", what: "total without VAT off by a cent", breaks: (x) => cii_total(x, "TaxBasisTotalAmount", "314.87") },
  { rule: "BR-CO-14", what: "VAT total differs from the breakdowns", breaks: (x) => edit(x, '<ram:TaxTotalAmount currencyID="EUR">22.04<', '<ram:TaxTotalAmount currencyID="EUR">22.05<') },
  { rule: "BR-CO-15", what: "total with VAT is not net plus VAT", breaks: (x) => cii_total(cii_total(x, "GrandTotalAmount", "336.91"), "DuePayableAmount", "336.91") },
  {
    rule: "BR-CO-16", what: "amount due ignores the rounding amount",
    breaks: (x) => after(x, "<ram:GrandTotalAmount>336.9</ram:GrandTotalAmount>", "<ram:RoundingAmount>0.10</ram:RoundingAmount>"),
    holds: (x) => cii_total(after(x, "<ram:GrandTotalAmount>336.9</ram:GrandTotalAmount>", "<ram:RoundingAmount>0.10</ram:RoundingAmount>"), "DuePayableAmount", "337.00"),
  },
  { rule: "BR-CO-17", what: "VAT amount far from taxable times rate", breaks: (x) => edit(x, "<ram:CalculatedAmount>22.04<", "<ram:CalculatedAmount>24.04<") },
  { rule: "BR-CO-18", what: "no VAT breakdown", breaks: (x) => drop(x, "ram:ApplicableTradeTax", 3) },
  { rule: "BR-DEC-09", what: "3 decimals", breaks: (x) => edit(x, "<ram:LineTotalAmount>314.86<", "<ram:LineTotalAmount>314.860<") },
  { rule: "BR-DEC-10", what: "3 decimals", breaks: (x) => after(x, SUMS, "<ram:AllowanceTotalAmount>0.000</ram:AllowanceTotalAmount>") },
  { rule: "BR-DEC-11", what: "3 decimals", breaks: (x) => after(x, SUMS, "<ram:ChargeTotalAmount>0.000</ram:ChargeTotalAmount>") },
  { rule: "BR-DEC-12", what: "3 decimals", breaks: (x) => cii_total(x, "TaxBasisTotalAmount", "314.860") },
  {
    // The CII artefacts compare the value with itself rounded to cents: "22.040" passes, "22.041" does not.
    rule: "BR-DEC-13", what: "a VAT total with a third significant decimal",
    breaks: (x) => edit(x, ">22.04</ram:TaxTotalAmount>", ">22.041</ram:TaxTotalAmount>"),
    holds: (x) => edit(x, ">22.04</ram:TaxTotalAmount>", ">22.040</ram:TaxTotalAmount>"),
  },
  { rule: "BR-DEC-14", what: "3 decimals", breaks: (x) => cii_total(x, "GrandTotalAmount", "336.900") },
  { rule: "BR-DEC-15", what: "3 decimals", breaks: (x) => after(after(x, "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>", "<ram:TaxCurrencyCode>SEK</ram:TaxCurrencyCode>"), "22.04</ram:TaxTotalAmount>", '<ram:TaxTotalAmount currencyID="SEK">220.401</ram:TaxTotalAmount>'), holds: (x) => after(after(x, "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>", "<ram:TaxCurrencyCode>SEK</ram:TaxCurrencyCode>"), "22.04</ram:TaxTotalAmount>", '<ram:TaxTotalAmount currencyID="SEK">220.40</ram:TaxTotalAmount>') },
  { rule: "BR-DEC-16", what: "3 decimals", breaks: (x) => after(x, "<ram:GrandTotalAmount>336.9</ram:GrandTotalAmount>", "<ram:TotalPrepaidAmount>0.000</ram:TotalPrepaidAmount>") },
  { rule: "BR-DEC-17", what: "3 decimals", breaks: (x) => after(x, "<ram:GrandTotalAmount>336.9</ram:GrandTotalAmount>", "<ram:RoundingAmount>0.000</ram:RoundingAmount>") },
  { rule: "BR-DEC-18", what: "3 decimals", breaks: (x) => cii_total(x, "DuePayableAmount", "336.900") },
  { rule: "BR-DEC-19", what: "3 decimals", breaks: (x) => edit(x, "<ram:BasisAmount>314.86<", "<ram:BasisAmount>314.860<") },
  { rule: "BR-DEC-20", what: "3 decimals", breaks: (x) => edit(x, "<ram:CalculatedAmount>22.04<", "<ram:CalculatedAmount>22.040<") },
  { rule: "BR-45", what: "a breakdown without taxable amount", breaks: (x) => drop(x, "ram:BasisAmount") },
  { rule: "BR-46", what: "a breakdown without tax amount", breaks: (x) => drop(x, "ram:CalculatedAmount") },
  { rule: "BR-47", what: "a breakdown without category code", breaks: (x) => edit(x, "<ram:CategoryCode>S</ram:CategoryCode>", "", 3) },
  { rule: "BR-48", what: "a breakdown without rate", breaks: (x) => drop(x, "ram:RateApplicablePercent", 3) },
];

describe("EN 16931 totals (UBL)", () => runSyntaxCases("ubl", ubl));
describe("EN 16931 totals (CII)", () => runSyntaxCases("cii", cii));

describe("EN 16931 totals: exact decimals, rounding and tolerances", () => {
  test("BR-CO-10 rounds the lines' sum half up to two decimals before comparing", () => {
    // 2800.005 + -1500 = 1300.005, which rounds to 1300.01.
    const xml = edit(BASE.ubl, ">2800<", ">2800.005<");
    assert.ok(rulesOf(xml, "ubl").has("BR-CO-10"));
    assert.ok(!rulesOf(ubl_total(ubl_total(ubl_total(ubl_total(xml, "LineExtensionAmount", "1300.01"), "TaxExclusiveAmount", "1325.01"), "TaxInclusiveAmount", "1656.26"), "PayableAmount", "1656.26"), "ubl").has("BR-CO-10"));
  });

  test("sums are exact: 0.1 + 0.2 is 0.3, never 0.30000000000000004", () => {
    let xml = edit(BASE.ubl, ">2800<", ">0.1<");
    xml = edit(xml, ">-1500<", ">0.2<");
    xml = ubl_total(xml, "LineExtensionAmount", "0.3");
    assert.ok(!rulesOf(xml, "ubl").has("BR-CO-10"));
  });

  test("BR-CO-17 tolerance is strict in UBL (a difference of exactly 1 fails) and inclusive in CII", () => {
    const ubl = edit(BASE.ubl, ">331.25<", ">332.25<", 2);
    assert.ok(rulesOf(ubl, "ubl").has("BR-CO-17"));
    assert.ok(!rulesOf(edit(BASE.ubl, ">331.25<", ">332.24<", 2), "ubl").has("BR-CO-17"));
    const cii = edit(BASE.cii, "<ram:CalculatedAmount>22.04<", "<ram:CalculatedAmount>23.04<");
    assert.ok(!rulesOf(cii, "cii").has("BR-CO-17"));
    assert.ok(rulesOf(edit(BASE.cii, "<ram:CalculatedAmount>22.04<", "<ram:CalculatedAmount>23.05<"), "cii").has("BR-CO-17"));
  });

  test("BR-CO-15 accepts a CII invoice without VAT total when the totals with and without VAT agree", () => {
    let xml = drop(BASE.cii, "ram:TaxTotalAmount");
    assert.ok(rulesOf(xml, "cii").has("BR-CO-15"));
    xml = cii_total(cii_total(xml, "GrandTotalAmount", "314.86"), "DuePayableAmount", "314.86");
    assert.ok(!rulesOf(xml, "cii").has("BR-CO-15"));
  });

  test("BR-DEC-13 never fails in UBL: the UBL artefacts' test selects no element", () => {
    const xml = edit(BASE.ubl, ">331.25<", ">331.250<");
    assert.ok(!rulesOf(xml, "ubl").has("BR-DEC-13"));
  });
});
