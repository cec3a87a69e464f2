import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { toApiError } from "../../../lib/api/errors.ts";
import { ApiError } from "../../../lib/http/errors.ts";
import type { Invoice } from "../../../lib/formats/invoice/model.ts";
import { parseDate } from "../../../lib/formats/invoice/query.ts";
import { partyTaxId, readInvoice, requireSubmissionFields } from "../../../lib/formats/invoice/read.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples");
const FA2 = "http://crd.gov.pl/wzor/2023/06/29/12648/";
const FA3 = "http://crd.gov.pl/wzor/2025/06/25/13775/";
const UBL_NS = 'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ' +
  'xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" ' +
  'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';
const CII_NS = 'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" ' +
  'xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" ' +
  'xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"';

function sample(file: string): Invoice {
  return readInvoice(parseXml(readFileSync(join(SAMPLES, file))));
}

function read(xml: string): Invoice {
  return readInvoice(parseXml(xml));
}

/** Asserts a 422 VALIDATION_ERROR with this field and issue. */
function assertValidation(fn: () => unknown, field: string, issue: string): void {
  assert.throws(fn, (raw: unknown) => {
    const err = toApiError(raw);
    assert.ok(err instanceof ApiError, "an ApiError");
    assert.equal(err.status, 422);
    assert.equal(err.code, "VALIDATION_ERROR");
    assert.deepEqual(err.details, { field, issue });
    return true;
  });
}

describe("KSeF FA(2) and FA(3) details", () => {
  test("the VAT breakdown has one row per P_13_x/P_14_x pair with the rate the field stands for", () => {
    const inv = sample("ksef-fa3/FA_3_complex.xml");
    assert.deepEqual(inv.vat_breakdown.map((r) => [r.rate, r.taxable_amount, r.tax_amount]), [
      ["23", "1000.00", "230.00"], ["8", "500.00", "40.00"], ["5", "2000.00", "100.00"], ["4", "300.00", "12.00"],
      ["OSS", "150.00", null], ["0 KR", "100.00", null], ["0 WDT", "200.00", null], ["0 EX", "50.00", null],
      ["zw", "400.00", null], ["np I", "250.00", null], ["np II", "180.00", null], ["oo", "320.00", null],
      ["marża", "500.00", null],
    ]);
    assert.deepEqual(inv.vat_breakdown.map((r) => r.category?.code ?? null), [
      "S", "S", "S", "S", null, "Z", "K", "G", "E", "O", "O", "AE", null,
    ]);
    assert.deepEqual(inv.vat_breakdown.map((r) => r.ksef_field).slice(0, 2), ["P_13_1", "P_13_2"]);
  });

  test("lines carry name, quantity, unit, price, amount, rate and line VAT as written", () => {
    const inv = sample("ksef-fa3/FA_3_complex.xml");
    const l = inv.lines[0];
    assert.deepEqual(
      [l?.number, l?.name, l?.quantity, l?.unit, l?.net_price, l?.price_with_vat, l?.net_amount, l?.amount_with_vat],
      ["1", "Produkt A - cena netto z dokładnością do 8 miejsc", "10.5", "szt.", "53.5993543", null, "500.00", null],
    );
    assert.deepEqual([l?.vat_rate, l?.vat_category, l?.vat_amount, l?.before_correction], [
      "23", { code: "S", text: "Standard rate" }, "115.00", false,
    ]);
    assert.deepEqual(inv.lines.map((l) => l.vat_rate), ["23", "8", "5", "4", "zw", "0 KR"]);
    assert.deepEqual(inv.lines[4]?.vat_rate_text, "Exempt");
    // Line 2 has a gross price (P_9B) with a net amount (P_11): both are kept as written.
    assert.deepEqual([inv.lines[1]?.net_amount, inv.lines[1]?.net_price, inv.lines[1]?.price_with_vat?.length ? "set" : null],
      ["3000.00", null, "set"]);
  });

  test("gross-priced lines (P_9B, P_11A) carry price_with_vat and amount_with_vat", () => {
    const inv = sample("ksef-fa3/FA_3_Przyklad_3_brutto.xml");
    assert.deepEqual(inv.lines.map((l) => [l.net_amount, l.price_with_vat, l.amount_with_vat]), [
      [null, "500", "500"], [null, "500", "500"],
    ]);
  });

  test("header fields: profile, sale date, seller prefix, addresses, e-mail, payment and notes", () => {
    const inv = sample("ksef-fa3/FA_3_complex.xml");
    assert.equal(inv.profile, "FA (3)");
    assert.equal(inv.delivery?.date, "2025-12-14");
    assert.equal(inv.seller.vat_prefix, "PL");
    assert.deepEqual(inv.seller.tax_id, { value: inv.seller.tax_id?.value, country: "PL", scheme: "NIP" });
    assert.deepEqual(inv.seller.address, {
      lines: ["ul. Przykładowa 123", "00-001 Warszawa"], city: null, postal_code: null, subdivision: null,
      country_code: "PL", gln: null,
    });
    assert.equal(inv.seller.contacts[0]?.email, "kontakt@abc.pl");
    const p = inv.payment;
    assert.deepEqual(p?.due_dates, [
      { date: "2025-12-30", description: null, quantity: "15", unit: "days", start_event: "Data wystawienia faktury" },
    ]);
    assert.deepEqual(p?.means, { code: "6", text: "Bank transfer" });
    assert.deepEqual([p?.accounts[0]?.number, p?.accounts[0]?.bank_name], ["12345678901234567890123456", "PKO Bank Polski"]);
    assert.deepEqual(inv.additional_info[0], {
      line_number: null, key: "Informacja ogólna", value: "To jest ogólna informacja dotycząca faktury",
    });
    // The Stopka footer, its pretty-printing indentation dropped.
    assert.equal(inv.footer.at(-1), "Faktura VAT zgodna z wymogami ustawy o podatku od towarów i usług.\n" +
      "Wszelkie reklamacje należy zgłaszać w terminie 14 dni od daty otrzymania faktury.");
  });

  test("FA(2) payment, additional description and footer", () => {
    const inv = sample("ksef-fa2/FA_2_Przyklad_9.xml");
    assert.equal(inv.profile, "FA (2)");
    assert.deepEqual(inv.delivery?.period, { start: "2022-01-01", end: "2022-01-01", description: null });
    assert.deepEqual([inv.payment?.due_dates[0]?.date, inv.payment?.means?.code], ["2022-03-15", "6"]);
    assert.deepEqual(inv.payment?.accounts.map((a) => [a.number, a.bank_name, a.factor]), [
      ["73111111111111111111111111", "Bank Bankowości Bankowej S. A.", false],
    ]);
    assert.deepEqual(inv.additional_info.map((a) => [a.key, a.value]), [["część odsetkowa raty", "netto 200, vat 46"]]);
    assert.deepEqual(inv.footer, ["Kapiał zakładowy 5 000 000"]);
  });

  test("a factor's account is kept and marked as the factor's", () => {
    const inv = sample("ksef-fa3/cirfmf-csharp_multiple-Subject3.xml");
    assert.deepEqual(inv.payment?.accounts.map((a) => [a.number, a.factor]), [["73111111111111111111111111", true]]);
    assert.equal(inv.payment?.due_dates[0]?.date, "2026-03-15");
  });

  test("a correction lists the corrected invoice, the reason and marks the before rows", () => {
    const inv = sample("ksef-fa2/FA_2_Przyklad_2_KOR.xml");
    assert.deepEqual(inv.references.preceding_invoices, [
      { number: "FV2022/02/150", issue_date: "2022-02-15", ksef_number: "9999999999-20230908-8BEF280C8D35-4D", in_ksef: true },
    ]);
    assert.equal(inv.correction?.reason, "obniżka ceny o 200 zł z uwagi na uszkodzenia estetyczne");
    assert.deepEqual(inv.lines.map((l) => [l.before_correction, l.net_amount]), [[true, "1626.01"], [false, "1463.41"]]);
  });

  test("a collective correction keeps all 283 references; NrKSeFN leaves the KSeF number null", () => {
    const inv = sample("ksef-fa2/fa2_KOR_collective_EUR_EU-buyer.xml");
    const refs = inv.references.preceding_invoices;
    assert.equal(refs.length, 283);
    assert.deepEqual(refs[0], { number: "29047904", issue_date: "2023-07-03", ksef_number: null, in_ksef: false });
    assert.deepEqual(refs.at(-1), { number: "29048771", issue_date: "2023-09-30", ksef_number: null, in_ksef: false });
    const last = inv.vat_breakdown.at(-1);
    assert.deepEqual([last?.rate, last?.category?.code, last?.taxable_amount, last?.tax_amount], ["0 WDT", "K", "-565.80", null]);
  });

  const buyerIds: { what: string; input: string; expected: unknown }[] = [
    // The EU VAT number keeps its country prefix (README “The invoice object”).
    { what: "KodUE + NrVatUE", input: "ksef-fa2/fa2_KOR_collective_EUR_EU-buyer.xml", expected: [{ value: "ATU12305736", country: "AT", scheme: "VAT" }, "AT"] },
    { what: "KodKraju + NrID", input: "ksef-fa3/FA_3_Przyklad_23_USD.xml", expected: [{ value: "999999999", country: "US", scheme: "NrID" }, "US"] },
    { what: "NIP", input: "ksef-fa3/FA_3_Przyklad_2_ZAL.xml", expected: [{ value: "2222222222", country: "PL", scheme: "NIP" }, "PL"] },
  ];
  for (const { what, input, expected } of buyerIds) {
    test(`the buyer id ${what} gives the tax id with its country and scheme`, () => {
      const inv = sample(input);
      assert.deepEqual([inv.buyer.tax_id, inv.buyer.address?.country_code ?? null], expected);
    });
  }

  test("a buyer with BrakID has no tax id", () => {
    const inv = read(`<Faktura xmlns="${FA3}"><Podmiot2><DaneIdentyfikacyjne><BrakID>1</BrakID>` +
      `<Nazwa>Jan Kowalski</Nazwa></DaneIdentyfikacyjne></Podmiot2></Faktura>`);
    assert.deepEqual([inv.buyer.name, inv.buyer.tax_id, inv.buyer.no_tax_id, inv.buyer.address], ["Jan Kowalski", null, true, null]);
  });

  test("the rate of P_13_1 and P_13_2 follows the lines when they use 22% and 7%", () => {
    const inv = read(`<Faktura xmlns="${FA2}"><Fa><P_13_1>100</P_13_1><P_14_1>22</P_14_1><P_13_2>10</P_13_2>` +
      `<P_14_2>0.70</P_14_2><P_15>132.70</P_15><FaWiersz><P_12>22</P_12></FaWiersz>` +
      `<FaWiersz><P_12>7</P_12></FaWiersz></Fa></Faktura>`);
    assert.deepEqual(inv.vat_breakdown.map((r) => r.rate), ["22", "7"]);
    const t = inv.totals;
    assert.deepEqual([t.net, t.tax, t.gross, t.payable], ["110", "22.70", "132.70", "132.70"]);
  });

  test("the P_14_xW amounts in PLN never count towards the tax total; they are the tax-currency VAT", () => {
    const inv = sample("ksef-fa2/FA_2_Przyklad_4_EUR.xml");
    assert.equal(inv.totals.tax, "23");
    assert.equal(inv.tax_currency, "PLN");
    assert.ok(inv.totals.tax_in_tax_currency !== null);
    assert.equal(inv.vat_breakdown[0]?.tax_amount_tax_currency, inv.totals.tax_in_tax_currency);
  });

  test("a P_13 field that is not a number makes the net total unknown, not smaller", () => {
    const inv = read(`<Faktura xmlns="${FA3}"><Fa><P_13_1>100,00</P_13_1><P_14_1>23.00</P_14_1>` +
      `<P_13_7>5</P_13_7><P_15>128</P_15></Fa></Faktura>`);
    assert.equal(inv.totals.net, null);
    assert.equal(inv.totals.tax, "23.00");
    const row = inv.vat_breakdown[0];
    assert.deepEqual([row?.rate, row?.taxable_amount, row?.tax_amount], ["23", null, "23.00"]);
  });

  test("an empty P_13 element counts as absent", () => {
    const inv = read(`<Faktura xmlns="${FA3}"><Fa><P_13_1>100</P_13_1><P_14_1>23</P_14_1><P_13_7/>` +
      `<P_15>123</P_15></Fa></Faktura>`);
    assert.equal(inv.totals.net, "100");
    assert.deepEqual(inv.vat_breakdown.map((r) => r.rate), ["23"]);
  });

  test("a Faktura with nothing in it reads as nulls without throwing", () => {
    const inv = read(`<Faktura xmlns="${FA3}"/>`);
    assert.equal(inv.format, "ksef-fa3");
    assert.equal(inv.type, "other");
    assert.equal(inv.number, null);
    assert.ok(Object.values(inv.totals).every((v) => v === null));
    assert.deepEqual([inv.lines, inv.notes, inv.references.preceding_invoices, inv.vat_breakdown], [[], [], [], []]);
    assert.equal(inv.payment, null);
  });
});

describe("UBL details", () => {
  test("parties, VAT breakdown, payment and delivery date of a full invoice", () => {
    const inv = sample("ubl/en16931_ubl-tc434-example2_NOK.xml");
    assert.equal(inv.profile, "urn:cen.eu:en16931:2017");
    assert.equal(inv.delivery?.date, "2013-06-15");
    const s = inv.seller;
    assert.deepEqual([s.name, s.tax_id, s.contacts[0]?.email], [
      "Salescompany ltd.", { value: "NO123456789MVA", country: "NO", scheme: "VAT" }, "antonio@salescompany.no",
    ]);
    assert.deepEqual(s.address, {
      lines: ["Main street 34", "Suite 123"], city: "Big city", postal_code: "303", subdivision: "RegionA",
      country_code: "NO", gln: null,
    });
    assert.deepEqual(inv.vat_breakdown.map((r) => [r.rate, r.category?.code, r.taxable_amount, r.tax_amount]), [
      ["25", "S", "1460.50", "365.13"], ["15", "S", "1.00", "0.15"], ["0", "E", "-25.00", "0.00"],
    ]);
    const p = inv.payment;
    assert.deepEqual([p?.due_dates[0]?.date, p?.means, p?.accounts[0]?.number, p?.terms], [
      "2013-07-20", { code: "30", text: "Credit transfer" }, "NO9386011117947",
      "2 % discount if paid within 2 days\nPenalty percentage 10% from due date",
    ]);
    const l = inv.lines[0];
    assert.deepEqual([l?.number, l?.name, l?.quantity, l?.unit, l?.net_price, l?.net_amount, l?.vat_rate, l?.vat_category?.code], [
      "1", "Laptop computer", "2", "EA", "1273.00", "1273.00", "25", "S",
    ]);
    assert.deepEqual(inv.notes, [{ subject_code: null, text: "Ordered in our booth at the convention" }]);
  });

  test("a corrected invoice (384) lists the preceding invoice", () => {
    const inv = sample("ubl/xrechnung_01.18a-INVOICE_ubl_384.xml");
    assert.deepEqual(inv.references.preceding_invoices, [{ number: "PRG1502168", issue_date: null, ksef_number: null, in_ksef: null }]);
  });

  test("a CreditNote without a type code is a credit note with CreditedQuantity lines", () => {
    const inv = sample("ubl/mustang_UBL-CreditNote-2.1-Example_BOM.ubl.xml");
    assert.equal(inv.type, "credit_note");
    assert.equal(inv.profile, null);
    assert.deepEqual([inv.lines[0]?.quantity, inv.lines[0]?.unit, inv.lines[0]?.vat_amount], ["1", "C62", "254.6"]);
  });

  test("the tax total is the TaxTotal in the document currency, wherever it stands", () => {
    const inv = read(`<Invoice ${UBL_NS}><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>` +
      `<cac:TaxTotal><cbc:TaxAmount currencyID="SEK">1000.00</cbc:TaxAmount></cac:TaxTotal>` +
      `<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">95.50</cbc:TaxAmount><cac:TaxSubtotal>` +
      `<cbc:TaxableAmount currencyID="EUR">500</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">95.50</cbc:TaxAmount>` +
      `<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19.1</cbc:Percent></cac:TaxCategory></cac:TaxSubtotal>` +
      `</cac:TaxTotal></Invoice>`);
    assert.equal(inv.totals.tax, "95.50");
    assert.deepEqual(inv.vat_breakdown.map((r) => [r.rate, r.category?.code, r.taxable_amount, r.tax_amount]), [["19.1", "S", "500", "95.50"]]);
    assert.equal(inv.totals.tax_in_tax_currency, null);
  });

  test("a single TaxTotal without currencyID counts; one in a foreign currency does not", () => {
    const plain = read(`<Invoice ${UBL_NS}><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>` +
      `<cac:TaxTotal><cbc:TaxAmount>7</cbc:TaxAmount></cac:TaxTotal></Invoice>`);
    assert.equal(plain.totals.tax, "7");
    const foreign = read(`<Invoice ${UBL_NS}><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>` +
      `<cac:TaxTotal><cbc:TaxAmount currencyID="SEK">7</cbc:TaxAmount></cac:TaxTotal></Invoice>`);
    assert.equal(foreign.totals.tax, null);
  });

  test("the tax id falls back to a non-VAT tax scheme, never to the legal entity's register number", () => {
    const inv = read(`<Invoice ${UBL_NS}><cac:AccountingSupplierParty><cac:Party>` +
      `<cac:PartyName><cbc:Name>Trading name</cbc:Name></cac:PartyName>` +
      `<cac:PartyTaxScheme><cbc:CompanyID>201/113/40209</cbc:CompanyID><cac:TaxScheme><cbc:ID>FC</cbc:ID></cac:TaxScheme>` +
      `</cac:PartyTaxScheme><cac:PartyLegalEntity><cbc:CompanyID>HRB 1</cbc:CompanyID></cac:PartyLegalEntity>` +
      `</cac:Party></cac:AccountingSupplierParty><cac:AccountingCustomerParty><cac:Party>` +
      `<cac:PartyLegalEntity><cbc:CompanyID>HRB 2</cbc:CompanyID></cac:PartyLegalEntity>` +
      `</cac:Party></cac:AccountingCustomerParty></Invoice>`);
    assert.deepEqual([inv.seller.name, inv.seller.tax_id, partyTaxId(inv.seller)], ["Trading name", null, "201/113/40209"]);
    assert.deepEqual(inv.seller.other_tax_ids, [{ value: "201/113/40209", country: null, scheme: "FC" }]);
    assert.deepEqual(inv.seller.registers, [{ value: "HRB 1", scheme: null }]);
    assert.deepEqual([inv.buyer.name, partyTaxId(inv.buyer)], [null, null]);
  });

  const typeCodes: { what: string; input: string | null; expected: Invoice["type"] }[] = [
    { what: "380 commercial invoice", input: "380", expected: "invoice" },
    { what: "386 prepayment invoice", input: "386", expected: "invoice" },
    { what: "389 self-billed invoice", input: "389", expected: "invoice" },
    { what: "393 factored invoice", input: "393", expected: "invoice" },
    { what: "875 partial construction invoice", input: "875", expected: "invoice" },
    { what: "876 partial final construction invoice", input: "876", expected: "invoice" },
    { what: "877 final construction invoice", input: "877", expected: "invoice" },
    { what: "381 credit note", input: "381", expected: "credit_note" },
    { what: "396 factored credit note", input: "396", expected: "credit_note" },
    { what: "532 forwarder's credit note", input: "532", expected: "credit_note" },
    { what: "384 corrected invoice", input: "384", expected: "correction" },
    { what: "an unknown code", input: "999", expected: "other" },
    { what: "no code on an Invoice root", input: null, expected: "invoice" },
  ];
  for (const { what, input, expected } of typeCodes) {
    test(`type code ${what} reads as ${expected}`, () => {
      const code = input === null ? "" : `<cbc:InvoiceTypeCode>${input}</cbc:InvoiceTypeCode>`;
      const inv = read(`<Invoice ${UBL_NS}>${code}</Invoice>`);
      assert.deepEqual([inv.type, inv.kind?.code ?? null], [expected, input]);
    });
  }

  test("an Invoice with nothing in it reads as nulls without throwing", () => {
    const inv = read(`<Invoice ${UBL_NS}/>`);
    assert.deepEqual([inv.format, inv.number, inv.currency, inv.payment], ["ubl", null, null, null]);
    assert.ok(Object.values(inv.totals).every((v) => v === null));
  });
});

describe("CII details", () => {
  test("the tax total is the TaxTotalAmount in the invoice currency", () => {
    const inv = sample("cii/mustang_Extended_fremdwaehrung_GBP.xml");
    assert.equal(inv.totals.tax, "163.16");
  });

  test("parties, VAT breakdown, payment, notes and delivery date", () => {
    const inv = sample("cii/en16931_CII_business_example_01_NOK.xml");
    assert.equal(inv.delivery?.date, "2013-06-15");
    assert.deepEqual(inv.buyer.address, {
      lines: ["Anystreet 8", "Back door"], city: "Anytown", postal_code: "101", subdivision: "RegionB",
      country_code: "NO", gln: null,
    });
    assert.deepEqual(inv.vat_breakdown.map((r) => [r.rate, r.category?.code, r.taxable_amount, r.tax_amount]), [
      ["25", "S", "1460.5", "365.13"], ["15", "S", "1", "0.15"], ["0", "E", "-25", "0"],
    ]);
    const p = inv.payment;
    assert.deepEqual([p?.due_dates[0]?.date, p?.means?.code, p?.accounts[0]?.number, p?.terms], [
      "2013-07-20", "30", "NO9386011117947", "2 % discount if paid within 2 days\nPenalty percentage 10% from due date",
    ]);
  });

  test("a credit note lists the preceding invoice with its date", () => {
    const inv = sample("cii/gobl-cii_peppol-france-facturx_credit-note_381.xml");
    assert.deepEqual(inv.references.preceding_invoices, [
      { number: "FAC-2024-001", issue_date: "2024-06-13", ksef_number: null, in_ksef: null },
    ]);
    assert.deepEqual(inv.notes.map((n) => n.text), ["Conditions.", "Penalties.", "No early discount."]);
  });

  test("lines carry LineID, name, quantity with unit, net price, amount and VAT category", () => {
    const inv = sample("cii/mustang_factur-x.xml");
    const l = inv.lines[1];
    assert.deepEqual([l?.number, l?.name, l?.quantity, l?.unit, l?.net_price, l?.net_amount, l?.vat_rate, l?.vat_category?.code], [
      "2", "Ballons", "400.0000", "H87", "0.7900", "316.00", "19.00", "S",
    ]);
  });

  test("a date in a format other than 102 is left null", () => {
    const inv = read(`<rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument><ram:ID>1</ram:ID>` +
      `<ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="610">202401</udt:DateTimeString>` +
      `</ram:IssueDateTime></rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`);
    assert.equal(inv.issue_date, null);
    assert.equal(inv.type, "invoice");
  });

  test("a CrossIndustryInvoice with nothing in it reads as nulls without throwing", () => {
    const inv = read(`<rsm:CrossIndustryInvoice ${CII_NS}/>`);
    assert.deepEqual([inv.format, inv.type, inv.number, inv.payment], ["cii", "other", null, null]);
  });
});

describe("readInvoice() format detection", () => {
  const unsupported: { what: string; input: string; expected: string }[] = [
    { what: "a root without a namespace", input: "<Invoice/>", expected: "unsupported root element {}Invoice" },
    {
      what: "KSeF FA(1)'s namespace",
      input: '<Faktura xmlns="http://crd.gov.pl/wzor/2021/11/29/11089/"/>',
      expected: "unsupported root element {http://crd.gov.pl/wzor/2021/11/29/11089/}Faktura",
    },
    {
      what: "a UBL Order",
      input: '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>',
      expected: "unsupported root element {urn:oasis:names:specification:ubl:schema:xsd:Order-2}Order",
    },
    {
      what: "ZUGFeRD 1.0's CrossIndustryDocument",
      input: '<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"/>',
      expected: "unsupported root element {urn:ferd:CrossIndustryDocument:invoice:1p0}CrossIndustryDocument",
    },
    {
      what: "a CreditNote in the Invoice namespace",
      input: '<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
      expected: "unsupported root element {urn:oasis:names:specification:ubl:schema:xsd:Invoice-2}CreditNote",
    },
  ];
  for (const { what, input, expected } of unsupported) {
    test(`readInvoice() refuses ${what} with 422`, () => {
      assertValidation(() => read(input), "xml", expected);
    });
  }

  test("readInvoice() matches by namespace, not by prefix", () => {
    const inv = read(`<x:Faktura xmlns:x="${FA2}"><x:Fa><x:P_2>A/1</x:P_2></x:Fa></x:Faktura>`);
    assert.deepEqual([inv.format, inv.number], ["ksef-fa2", "A/1"]);
  });
});

describe("requireSubmissionFields()", () => {
  const missing: { what: string; input: string; expected: string }[] = [
    {
      what: "a KSeF invoice without P_2",
      input: `<Faktura xmlns="${FA3}"><Podmiot1><DaneIdentyfikacyjne><NIP>1</NIP></DaneIdentyfikacyjne></Podmiot1>` +
        `<Fa><P_1>2024-01-01</P_1></Fa></Faktura>`,
      expected: "xml:/Faktura/Fa/P_2",
    },
    {
      what: "a KSeF invoice with an impossible P_1",
      input: `<Faktura xmlns="${FA2}"><Podmiot1><DaneIdentyfikacyjne><NIP>1</NIP></DaneIdentyfikacyjne></Podmiot1>` +
        `<Fa><P_1>2024-02-30</P_1><P_2>A</P_2></Fa></Faktura>`,
      expected: "xml:/Faktura/Fa/P_1",
    },
    {
      what: "a KSeF invoice without the seller's NIP",
      input: `<Faktura xmlns="${FA3}"><Fa><P_1>2024-01-01</P_1><P_2>A</P_2></Fa></Faktura>`,
      expected: "xml:/Faktura/Podmiot1/DaneIdentyfikacyjne/NIP",
    },
    {
      what: "a UBL Invoice without cbc:ID",
      input: `<Invoice ${UBL_NS}/>`,
      expected: "xml:/Invoice/cbc:ID",
    },
    {
      what: "a UBL Invoice without an issue date",
      input: `<Invoice ${UBL_NS}><cbc:ID>1</cbc:ID></Invoice>`,
      expected: "xml:/Invoice/cbc:IssueDate",
    },
    {
      what: "a UBL CreditNote without the seller's VAT id",
      input: '<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2" ' +
        'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">' +
        "<cbc:ID>1</cbc:ID><cbc:IssueDate>2024-01-01</cbc:IssueDate></CreditNote>",
      expected: "xml:/CreditNote/cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID",
    },
    {
      what: "a CII invoice without an ID",
      input: `<rsm:CrossIndustryInvoice ${CII_NS}/>`,
      expected: "xml:/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID",
    },
    {
      what: "a CII invoice without an issue date",
      input: `<rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument><ram:ID>1</ram:ID>` +
        `</rsm:ExchangedDocument></rsm:CrossIndustryInvoice>`,
      expected: "xml:/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString",
    },
    {
      what: "a CII invoice without the seller's tax registration",
      input: `<rsm:CrossIndustryInvoice ${CII_NS}><rsm:ExchangedDocument><ram:ID>1</ram:ID><ram:IssueDateTime>` +
        `<udt:DateTimeString format="102">20240101</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>` +
        `</rsm:CrossIndustryInvoice>`,
      expected: "xml:/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement" +
        "/ram:SellerTradeParty/ram:SpecifiedTaxRegistration/ram:ID",
    },
  ];
  for (const { what, input, expected } of missing) {
    test(`requireSubmissionFields() refuses ${what}`, () => {
      const inv = read(input);
      assertValidation(() => requireSubmissionFields(inv), expected, "required");
    });
  }
});

describe("parseDate()", () => {
  const dates: { what: string; input: string | null; expected: string | null }[] = [
    { what: "an xsd:date", input: "2024-03-01", expected: "2024-03-01" },
    { what: "an xsd:date with a zone", input: "2024-03-01+01:00", expected: "2024-03-01" },
    { what: "an xsd:date with Z", input: "2024-03-01Z", expected: "2024-03-01" },
    { what: "a date-time", input: "2024-03-01T10:00:00Z", expected: "2024-03-01" },
    { what: "format 102", input: "20240301", expected: "2024-03-01" },
    { what: "29 February of a leap year", input: "2024-02-29", expected: "2024-02-29" },
    { what: "29 February of another year", input: "2023-02-29", expected: null },
    { what: "month 13", input: "2024-13-01", expected: null },
    { what: "day 0", input: "20240100", expected: null },
    { what: "a Polish written date", input: "01.03.2024", expected: null },
    { what: "trailing garbage", input: "2024-03-01x", expected: null },
    { what: "letters", input: "2024-0a-01", expected: null },
    { what: "nothing", input: null, expected: null },
  ];
  for (const { what, input, expected } of dates) {
    test(`parseDate() reads ${what}`, () => {
      assert.equal(parseDate(input), expected);
    });
  }
});
