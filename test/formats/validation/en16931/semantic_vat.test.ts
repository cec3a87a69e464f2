/**
 * The EN 16931 VAT-category rules (semantic_vat.ts, semantic_vat_sums.ts). For each
 * category the base invoice is rewritten into a valid invoice of that category
 * (rate, tax, exemption reason and VAT identifiers as the category needs), checked
 * to pass every rule; then one edit breaks each rule family -01..-10.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { after, BASE, before, drop, edit, editAll, rulesOf, runSyntaxCases, violations, type Syntax, type SyntaxCase } from "./semantic_cases.ts";

interface Category {
  code: string;
  prefix: string;
  /** The rate lines, allowances and charges carry in the valid invoice; null for none. */
  rate: "base" | "0" | null;
  reason: boolean;
  /** A rate that breaks -05/-06/-07, per syntax. */
  badRate: Record<Syntax, string>;
}

const CATEGORIES: Category[] = [
  { code: "S", prefix: "BR-S", rate: "base", reason: false, badRate: { ubl: "0", cii: "0" } },
  { code: "Z", prefix: "BR-Z", rate: "0", reason: false, badRate: { ubl: "5", cii: "5" } },
  { code: "E", prefix: "BR-E", rate: "0", reason: true, badRate: { ubl: "5", cii: "5" } },
  { code: "AE", prefix: "BR-AE", rate: "0", reason: true, badRate: { ubl: "5", cii: "5" } },
  { code: "K", prefix: "BR-IC", rate: "0", reason: true, badRate: { ubl: "5", cii: "5" } },
  { code: "G", prefix: "BR-G", rate: "0", reason: true, badRate: { ubl: "5", cii: "5" } },
  { code: "O", prefix: "BR-O", rate: null, reason: true, badRate: { ubl: "0", cii: "0" } },
  // IGIC: UBL accepts a rate of 0 on lines, allowances and charges, CII does not.
  { code: "L", prefix: "BR-AF", rate: "base", reason: false, badRate: { ubl: "-1", cii: "0" } },
  { code: "M", prefix: "BR-AG", rate: "base", reason: false, badRate: { ubl: "-1", cii: "-1" } },
];

const UBL_VAT = "<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>";
const UBL_SELLER_VAT = `<cac:PartyTaxScheme><cbc:CompanyID>GB1232434</cbc:CompanyID>${UBL_VAT}</cac:PartyTaxScheme>`;

function ublTotal(xml: string, tag: string, value: string): string {
  return edit(xml, new RegExp(`<cbc:${tag} currencyID="EUR">[^<]*</cbc:${tag}>`), `<cbc:${tag} currencyID="EUR">${value}</cbc:${tag}>`);
}

/** The UBL base invoice rewritten into a valid invoice of category `c`. */
function ublAs(c: Category): string {
  let x = editAll(BASE.ubl, "<cbc:ID>S</cbc:ID>", `<cbc:ID>${c.code}</cbc:ID>`);
  if (c.rate !== "base") {
    x = editAll(x, "<cbc:Percent>25.0</cbc:Percent>", c.rate === null ? "" : "<cbc:Percent>0</cbc:Percent>");
    x = editAll(x, ">331.25<", ">0.00<");
    x = ublTotal(ublTotal(x, "TaxInclusiveAmount", "1325"), "PayableAmount", "1325");
  }
  if (c.reason) x = edit(x, /(<cac:TaxSubtotal>[\s\S]*?)(<cac:TaxScheme>)/, "$1<cbc:TaxExemptionReason>Exempt</cbc:TaxExemptionReason>$2");
  if (c.code === "O") x = drop(drop(x, "cac:PartyTaxScheme"), "cac:PartyTaxScheme");
  return x;
}

function ublCategory(code: string, rate: string | null): string {
  return `<cac:TaxCategory><cbc:ID>${code}</cbc:ID>${rate === null ? "" : `<cbc:Percent>${rate}</cbc:Percent>`}${UBL_VAT}</cac:TaxCategory>`;
}

function ublAllowance(code: string, rate: string | null): string {
  return `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>Discount</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">10</cbc:Amount>${ublCategory(code, rate)}</cac:AllowanceCharge>`;
}

const ublRate = (c: Category) => (c.rate === null ? null : c.rate === "base" ? "25.0" : "0");

/** Sets the rate of the first line category (or the charge's) of code `code`. */
function ublSetRate(xml: string, where: "line" | "charge", code: string, rate: string): string {
  const head = where === "line" ? "<cac:ClassifiedTaxCategory>\\s*" : "<cbc:ChargeIndicator>true</cbc:ChargeIndicator>[\\s\\S]*?<cac:TaxCategory>\\s*";
  return edit(xml, new RegExp(`(${head}<cbc:ID>${code}</cbc:ID>)(\\s*<cbc:Percent>[^<]*</cbc:Percent>)?`), `$1<cbc:Percent>${rate}</cbc:Percent>`);
}

/** Takes the identifiers the category needs away (or, for O, gives the seller a VAT identifier). */
function ublBreakParties(xml: string, c: Category): string {
  return c.code === "O" ? before(xml, "<cac:PartyLegalEntity>", UBL_SELLER_VAT) : drop(xml, "cac:PartyTaxScheme");
}

function ublCases(c: Category): SyntaxCase[] {
  const base = ublAs(c);
  const p = c.prefix;
  const withAllowance = (x: string) => before(x, "<cac:TaxTotal>", ublAllowance(c.code, ublRate(c)));
  const cases: SyntaxCase[] = [
    { rule: `${p}-01`, what: "no VAT breakdown for the category", breaks: (x) => drop(x, "cac:TaxSubtotal") },
    { rule: `${p}-02`, what: "a line in the category without the identifiers it needs", breaks: (x) => ublBreakParties(x, c) },
    { rule: `${p}-03`, what: "an allowance in the category without the identifiers it needs", breaks: (x) => ublBreakParties(withAllowance(x), c), holds: withAllowance },
    { rule: `${p}-04`, what: "a charge in the category without the identifiers it needs", breaks: (x) => ublBreakParties(x, c) },
    { rule: `${p}-05`, what: `a line rate of ${c.badRate.ubl}`, breaks: (x) => ublSetRate(x, "line", c.code, c.badRate.ubl) },
    { rule: `${p}-06`, what: `an allowance rate of ${c.badRate.ubl}`, breaks: (x) => before(x, "<cac:TaxTotal>", ublAllowance(c.code, c.badRate.ubl)), holds: withAllowance },
    { rule: `${p}-07`, what: `a charge rate of ${c.badRate.ubl}`, breaks: (x) => ublSetRate(x, "charge", c.code, c.badRate.ubl) },
    { rule: `${p}-08`, what: "a taxable amount that is not lines + charges − allowances", breaks: (x) => edit(x, ">1325</cbc:TaxableAmount>", ">1330</cbc:TaxableAmount>") },
    {
      rule: `${p}-09`, what: "a wrong tax amount",
      breaks: (x) => c.rate === "base" ? edit(x, ">331.25<", ">340.00<", 2) : edit(x, ">0.00<", ">1.00<", 2),
    },
    c.reason
      ? { rule: `${p}-10`, what: "no exemption reason", breaks: (x) => drop(x, "cbc:TaxExemptionReason") }
      : { rule: `${p}-10`, what: "an exemption reason", breaks: (x) => edit(x, /(<cac:TaxSubtotal>[\s\S]*?)(<cac:TaxScheme>)/, "$1<cbc:TaxExemptionReason>No</cbc:TaxExemptionReason>$2") },
  ];
  return cases.map((k) => ({ ...k, base }));
}

const CII_BUYER_VAT = '<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE987654321</ram:ID></ram:SpecifiedTaxRegistration>';
const CII_SELLER_VAT = '<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE 123456789</ram:ID></ram:SpecifiedTaxRegistration>';
const CII_DELIVERY =
  '<ram:ApplicableHeaderTradeDelivery><ram:ShipToTradeParty><ram:PostalTradeAddress><ram:CountryID>FR</ram:CountryID></ram:PostalTradeAddress></ram:ShipToTradeParty><ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime><udt:DateTimeString format="102">20160401</udt:DateTimeString></ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent></ram:ApplicableHeaderTradeDelivery>';

/** The CII base invoice rewritten into a valid invoice of category `c`. */
function ciiAs(c: Category): string {
  let x = editAll(BASE.cii, "<ram:CategoryCode>S</ram:CategoryCode>", `<ram:CategoryCode>${c.code}</ram:CategoryCode>`);
  if (c.rate !== "base") {
    x = editAll(x, "<ram:RateApplicablePercent>7</ram:RateApplicablePercent>", c.rate === null ? "" : "<ram:RateApplicablePercent>0</ram:RateApplicablePercent>");
    x = editAll(editAll(x, ">22.04<", ">0.00<"), ">336.9<", ">314.86<");
  }
  if (c.reason) x = after(x, "<ram:BasisAmount>314.86</ram:BasisAmount>", "<ram:ExemptionReason>Exempt</ram:ExemptionReason>");
  if (c.code === "AE" || c.code === "K") x = before(x, "</ram:BuyerTradeParty>", CII_BUYER_VAT);
  if (c.code === "K") x = edit(x, "<ram:ApplicableHeaderTradeDelivery/>", CII_DELIVERY);
  if (c.code === "O") x = drop(x, "ram:SpecifiedTaxRegistration");
  return x;
}

const ciiRate = (c: Category) => (c.rate === null ? null : c.rate === "base" ? "7" : "0");

function ciiAllowanceCharge(charge: boolean, code: string, rate: string | null): string {
  return `<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>${charge}</udt:Indicator></ram:ChargeIndicator><ram:ActualAmount>10.00</ram:ActualAmount><ram:Reason>R</ram:Reason><ram:CategoryTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>${code}</ram:CategoryCode>${rate === null ? "" : `<ram:RateApplicablePercent>${rate}</ram:RateApplicablePercent>`}</ram:CategoryTradeTax></ram:SpecifiedTradeAllowanceCharge>`;
}

function ciiBreakParties(xml: string, c: Category): string {
  return c.code === "O" ? before(xml, "</ram:SellerTradeParty>", CII_SELLER_VAT) : drop(xml, "ram:SpecifiedTaxRegistration");
}

function ciiCases(c: Category): SyntaxCase[] {
  const base = ciiAs(c);
  const p = c.prefix;
  const add = (x: string, charge: boolean, rate = ciiRate(c)) => before(x, "<ram:SpecifiedTradePaymentTerms>", ciiAllowanceCharge(charge, c.code, rate));
  const byRate = c.code === "S" || c.code === "L" || c.code === "M";
  const cases: SyntaxCase[] = [
    {
      rule: `${p}-01`, what: byRate ? "one line in the category and no breakdown" : "two breakdowns for the category",
      breaks: (x) => byRate
        ? drop(edit(x, `<ram:CategoryCode>${c.code}</ram:CategoryCode>`, "<ram:CategoryCode>Z</ram:CategoryCode>", 2), "ram:ApplicableTradeTax", 3)
        : before(x, "<ram:SpecifiedTradePaymentTerms>", `<ram:ApplicableTradeTax><ram:CalculatedAmount>0</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>0</ram:BasisAmount><ram:CategoryCode>${c.code}</ram:CategoryCode></ram:ApplicableTradeTax>`),
    },
    { rule: `${p}-02`, what: "a line in the category without the identifiers it needs", breaks: (x) => ciiBreakParties(x, c) },
    { rule: `${p}-03`, what: "an allowance in the category without the identifiers it needs", breaks: (x) => ciiBreakParties(add(x, false), c), holds: (x) => add(x, false) },
    { rule: `${p}-04`, what: "a charge in the category without the identifiers it needs", breaks: (x) => ciiBreakParties(add(x, true), c), holds: (x) => add(x, true) },
    {
      rule: `${p}-05`, what: `a line rate of ${c.badRate.cii}`,
      breaks: (x) => edit(x, new RegExp(`(<ram:CategoryCode>${c.code}</ram:CategoryCode>)(\\s*<ram:RateApplicablePercent>[^<]*</ram:RateApplicablePercent>)?`), `$1<ram:RateApplicablePercent>${c.badRate.cii}</ram:RateApplicablePercent>`),
    },
    { rule: `${p}-06`, what: `an allowance rate of ${c.badRate.cii}`, breaks: (x) => add(x, false, c.badRate.cii), holds: (x) => add(x, false) },
    { rule: `${p}-07`, what: `a charge rate of ${c.badRate.cii}`, breaks: (x) => add(x, true, c.badRate.cii), holds: (x) => add(x, true) },
    { rule: `${p}-08`, what: "a taxable amount that is not lines + charges − allowances", breaks: (x) => edit(x, "<ram:BasisAmount>314.86<", "<ram:BasisAmount>320.00<") },
    c.reason
      ? { rule: `${p}-10`, what: "no exemption reason", breaks: (x) => drop(x, "ram:ExemptionReason") }
      : { rule: `${p}-10`, what: "an exemption reason", breaks: (x) => after(x, "<ram:BasisAmount>314.86</ram:BasisAmount>", "<ram:ExemptionReason>No</ram:ExemptionReason>") },
  ];
  // The CII artefacts do not check -09 for IGIC and IPSI (their test is `true()`).
  if (c.code !== "L" && c.code !== "M") {
    cases.push({
      rule: `${p}-09`, what: "a wrong tax amount",
      breaks: (x) => c.rate === "base" ? edit(x, "<ram:CalculatedAmount>22.04<", "<ram:CalculatedAmount>30.00<") : edit(x, "<ram:CalculatedAmount>0.00<", "<ram:CalculatedAmount>1.00<"),
    });
  }
  return cases.map((k) => ({ ...k, base }));
}

describe("EN 16931 VAT categories", () => {
  for (const c of CATEGORIES) {
    test(`an invoice entirely in category ${c.code} breaks no rule (UBL and CII)`, () => {
      assert.deepEqual(violations(ublAs(c), "ubl").map((v) => `${v.rule} ${v.path}`), []);
      assert.deepEqual(violations(ciiAs(c), "cii").map((v) => `${v.rule} ${v.path}`), []);
    });
  }
});

for (const c of CATEGORIES) {
  describe(`EN 16931 VAT category ${c.code} (UBL)`, () => runSyntaxCases("ubl", ublCases(c)));
  describe(`EN 16931 VAT category ${c.code} (CII)`, () => runSyntaxCases("cii", ciiCases(c)));
}

const K = CATEGORIES.find((c) => c.code === "K") as Category;
const O = CATEGORIES.find((c) => c.code === "O") as Category;
const UBL_S_SUBTOTAL = `<cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">0</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">0</cbc:TaxAmount>${ublCategory("S", "25")}</cac:TaxSubtotal>`;

describe("EN 16931 intra-community supply and not-subject-to-VAT rules", () => {
  runSyntaxCases("ubl", [
    { rule: "BR-IC-11", what: "no delivery date nor invoicing period", base: ublAs(K), breaks: (x) => drop(x, "cbc:ActualDeliveryDate") },
    { rule: "BR-IC-12", what: "no deliver-to country", base: ublAs(K), breaks: (x) => drop(x, "cac:Country", 3) },
    { rule: "BR-O-11", what: "another category's breakdown", base: ublAs(O), breaks: (x) => before(x, "</cac:TaxTotal>", UBL_S_SUBTOTAL) },
    { rule: "BR-O-12", what: "a line in another category", base: ublAs(O), breaks: (x) => edit(x, "<cbc:ID>O</cbc:ID>", "<cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent>", 4) },
    { rule: "BR-O-13", what: "an allowance in another category", base: ublAs(O), breaks: (x) => before(x, "<cac:TaxTotal>", ublAllowance("S", "25")) },
    { rule: "BR-O-14", what: "a charge in another category", base: ublAs(O), breaks: (x) => edit(x, "<cbc:ID>O</cbc:ID>", "<cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent>", 1) },
  ]);
  runSyntaxCases("cii", [
    { rule: "BR-IC-11", what: "no delivery date nor invoicing period", base: ciiAs(K), breaks: (x) => drop(x, "ram:ActualDeliverySupplyChainEvent") },
    { rule: "BR-IC-12", what: "no deliver-to country", base: ciiAs(K), breaks: (x) => drop(x, "ram:ShipToTradeParty") },
    { rule: "BR-O-11", what: "a line in another category", base: ciiAs(O), breaks: (x) => edit(x, "<ram:CategoryCode>O</ram:CategoryCode>", "<ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>7</ram:RateApplicablePercent>", 2) },
    { rule: "BR-O-12", what: "a line in another category", base: ciiAs(O), breaks: (x) => edit(x, "<ram:CategoryCode>O</ram:CategoryCode>", "<ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>7</ram:RateApplicablePercent>", 2) },
    { rule: "BR-O-13", what: "an allowance in another category", base: ciiAs(O), breaks: (x) => before(x, "<ram:SpecifiedTradePaymentTerms>", ciiAllowanceCharge(false, "S", "7")) },
    { rule: "BR-O-14", what: "a charge in another category", base: ciiAs(O), breaks: (x) => before(x, "<ram:SpecifiedTradePaymentTerms>", ciiAllowanceCharge(true, "S", "7")) },
  ]);
});

describe("EN 16931 split payment (B)", () => {
  const ublB = editAll(BASE.ubl, "<cbc:ID>S</cbc:ID>", "<cbc:ID>B</cbc:ID>");
  const ublItaly = (x: string) => x.replace(/<cbc:IdentificationCode>[A-Z]+<\/cbc:IdentificationCode>/g, "<cbc:IdentificationCode>IT</cbc:IdentificationCode>");
  const ciiB = editAll(BASE.cii, "<ram:CategoryCode>S</ram:CategoryCode>", "<ram:CategoryCode>B</ram:CategoryCode>");
  const ciiItaly = (x: string) => x.replace(/<ram:CountryID>[A-Z]+<\/ram:CountryID>/g, "<ram:CountryID>IT</ram:CountryID>");
  runSyntaxCases("ubl", [
    { rule: "BR-B-01", what: "split payment outside Italy", base: ublB, breaks: (x) => x, holds: ublItaly },
    { rule: "BR-B-02", what: "split payment mixed with standard rate", base: ublB, breaks: (x) => edit(x, "<cbc:ID>B</cbc:ID>", "<cbc:ID>S</cbc:ID>", 4) },
  ]);
  runSyntaxCases("cii", [
    { rule: "BR-B-01", what: "split payment outside Italy", base: ciiB, breaks: (x) => x, holds: ciiItaly },
    { rule: "BR-B-02", what: "split payment mixed with standard rate", base: ciiB, breaks: (x) => edit(x, "<ram:CategoryCode>B</ram:CategoryCode>", "<ram:CategoryCode>S</ram:CategoryCode>", 2) },
  ]);

  test("BR-S-08 groups by rate: two S rates each need their own breakdown", () => {
    const xml = edit(BASE.ubl, "<cbc:Percent>25.0</cbc:Percent>", "<cbc:Percent>12</cbc:Percent>", 4);
    assert.ok(rulesOf(xml, "ubl").has("BR-S-08"));
  });
});
