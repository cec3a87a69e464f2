/**
 * The parts of the invoice model that the compact JSON never had (README “The invoice object”), read
 * from the real samples: KSeF annotations, third parties, settlement, orders,
 * attachments, registers, transaction terms, partial payments, PLN VAT; UBL payee,
 * tax representative, allowances and totals; CII tax currency and exchange rate.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { codeOf, KSEF_THIRD_PARTY_ROLES } from "../../../lib/formats/invoice/code_lists.ts";
import type { Invoice } from "../../../lib/formats/invoice/model.ts";
import { readInvoice } from "../../../lib/formats/invoice/read.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples");

function sample(file: string): Invoice {
  return readInvoice(parseXml(readFileSync(join(SAMPLES, file))));
}

describe("KSeF sections", () => {
  test("Adnotacje: reverse charge and split payment are flags; no exemption, no margin scheme", () => {
    const a = sample("ksef-fa3/FA_3_complex.xml").annotations;
    assert.deepEqual(a, {
      cash_accounting: false, self_billing: false, reverse_charge: true, split_payment: true,
      exemption: { applies: false, act: null, directive: null, other: null },
      new_transport: { applies: false, art_42_5: false, vehicles: [] }, triangular: false,
      margin: { applies: false, scheme: null },
    });
  });

  test("Stopka: registers and footer texts have their own places", () => {
    const inv = sample("ksef-fa3/FA_3_complex.xml");
    assert.deepEqual(inv.registers, [
      { full_name: "ABC Spółka z ograniczoną odpowiedzialnością", krs: "0000123456", regon: "123456789", bdo: "000012345" },
    ]);
    assert.equal(inv.footer.length, 1);
    assert.deepEqual(inv.notes, []);
  });

  test("WarunkiTransakcji: contracts, orders, Incoterms, contract rate and transports with carrier and route", () => {
    const inv = sample("ksef-fa3/FA_3_complex.xml");
    const t = inv.transaction_terms;
    assert.deepEqual(t?.contracts, [{ date: "2025-12-01", number: "UM/2025/001" }]);
    assert.deepEqual(t?.orders, [{ date: "2025-12-10", number: "ZAM/2025/123" }]);
    assert.deepEqual([t?.delivery_terms, t?.contract_rate, t?.contract_currency], ["DDP - Delivered Duty Paid", "4.56789", "EUR"]);
    const road = t?.transports[0];
    assert.deepEqual([road?.kind, road?.cargo, road?.carrier?.name, road?.via.length], [
      { code: "3", text: "Road transport" }, { code: "13", text: "Pallet" }, "Firma Transportowa Sp. z o.o.", 1,
    ]);
    assert.equal(t?.transports[1]?.kind_description, "Transport kombajnem");
    assert.ok(inv.exchange_rates.some((r) => r.applies_to === "contract" && r.rate === "4.56789" && r.from_currency === "EUR"));
  });

  test("Podmiot3: third parties with their role text; Rozliczenie makes the amount due", () => {
    const inv = sample("ksef-fa3/cirfmf-csharp_multiple-Subject3.xml");
    assert.equal(inv.third_parties[0]?.name, "Szkoła Podstawowa w Bzdziszewie");
    assert.deepEqual(inv.third_parties[0]?.role, codeOf(KSEF_THIRD_PARTY_ROLES, "8"));
    assert.deepEqual(inv.settlement, {
      charges: [], charges_total: null, deductions: [{ amount: "1000", reason: "nadwyżka salda nierozliczonych środków" }],
      deductions_total: "1000", to_pay: "63279.92", to_settle: null,
    });
    assert.equal(inv.totals.payable, "63279.92");
    assert.equal(inv.totals.gross, "64279.92");
  });

  test("Zamowienie of an advance invoice: its value and order lines", () => {
    const inv = sample("ksef-fa2/FA_2_Przyklad_10_ZAL.xml");
    assert.equal(inv.kind?.code, "ZAL");
    assert.equal(inv.orders[0]?.value, "375150");
    const l = inv.orders[0]?.lines[0];
    assert.deepEqual([l?.number, l?.uu_id, l?.name, l?.net_price, l?.net_amount, l?.vat_amount], [
      "1", "aaaa111133339990", "mieszkanie 50m^2", "300000", "300000", "69000",
    ]);
  });

  test("Zalacznik: blocks with heading, metadata and typed table columns", () => {
    const a = sample("ksef-fa3/FA_3_Zalacznik_Przyklad_1.xml").attachments[0];
    assert.equal(a?.description, "1. Rozliczenie punktu poboru");
    assert.deepEqual(a?.meta[0], { key: "Rok umowny", value: "01-01-2026 - 31-12-2026" });
    assert.deepEqual(a?.tables[0]?.columns.slice(0, 3), [
      { type: "txt", name: "Opłaty" }, { type: "txt", name: "Grupa taryfowa" }, { type: "date", name: "Data od" },
    ]);
    assert.deepEqual(a?.tables[0]?.rows[0]?.slice(0, 3), ["Dystrybucyjna zmienna", "W-4_TA", "01.01.2026"]);
  });

  test("a foreign-currency invoice: VAT in PLN per rate, the line rate, partial payments", () => {
    const inv = sample("ksef-fa3/FA_3_Przyklad_4_EUR.xml");
    assert.deepEqual([inv.currency, inv.tax_currency, inv.totals.tax, inv.totals.tax_in_tax_currency], ["EUR", "PLN", "23", "99.36"]);
    assert.equal(inv.vat_breakdown[0]?.tax_amount_tax_currency, "99.36");
    assert.deepEqual(inv.exchange_rates, [
      { applies_to: "line", line_number: "1", from_currency: "EUR", to_currency: "PLN", rate: "4.3200", date: null },
    ]);
    assert.deepEqual(inv.payment?.partial_status, { code: "1", text: "Paid in part" });
    assert.deepEqual(inv.payment?.partial_payments.map((p) => [p.amount, p.date]), [
      ["100", "2025-01-01"], ["200", "2025-02-01"], ["300", "2025-03-01"],
    ]);
  });

  test("a settlement invoice lists its advance invoices, in KSeF and outside", () => {
    assert.deepEqual(sample("ksef-fa3/FA_3_Przyklad_1_ROZ.xml").references.advance_invoices, [
      { number: null, ksef_number: "5451824119-20251202-0100A0E87267-21" }, { number: "ABC/TEST/DEF", ksef_number: null },
    ]);
  });
});

describe("UBL and CII sections", () => {
  test("UBL: payee, tax representative, document allowances and charges, prepaid and amount due", () => {
    const inv = sample("ubl/en16931_ubl-tc434-example2_NOK.xml");
    assert.deepEqual([inv.payee?.name, inv.tax_representative?.name], ["Ebeneser Scrooge AS", "Tax handling company AS"]);
    assert.deepEqual(inv.allowances_charges.map((a) => [a.charge, a.amount, a.reason]), [
      [false, "100.00", "Promotion discount"], [true, "100.00", "Freight"],
    ]);
    assert.deepEqual(inv.totals, {
      line_net: "1436.50", allowances: "100.00", charges: "100.00", net: "1436.50", tax: "365.28",
      tax_in_tax_currency: null, net_in_tax_currency: null, gross: "1801.78", gross_in_tax_currency: null, gross_in_words: null, prepaid: "1000.00", rounding: null, payable: "801.78",
    });
    assert.deepEqual([inv.references.contract, inv.references.order, inv.delivery?.address?.city], ["Contract321", "123", "DeliveryCity"]);
    assert.equal(inv.annotations, null);
  });

  test("CII: VAT in the tax currency (BT-111) and the exchange rate", () => {
    const inv = sample("cii/mustang_Extended_fremdwaehrung_GBP.xml");
    assert.deepEqual([inv.currency, inv.tax_currency, inv.totals.tax, inv.totals.tax_in_tax_currency], ["GBP", "EUR", "163.16", "183.14"]);
    assert.deepEqual(inv.exchange_rates, [
      { applies_to: "invoice", line_number: null, from_currency: "GBP", to_currency: "EUR", rate: "1.12244", date: "2018-10-31" },
    ]);
  });

  test("codeOf() gives the text of a listed code and null text for an unlisted one", () => {
    assert.deepEqual(codeOf(KSEF_THIRD_PARTY_ROLES, "1"), { code: "1", text: "Factor" });
    assert.deepEqual(codeOf(KSEF_THIRD_PARTY_ROLES, "99"), { code: "99", text: null });
    assert.deepEqual(codeOf(KSEF_THIRD_PARTY_ROLES, "toString"), { code: "toString", text: null });
    assert.equal(codeOf(KSEF_THIRD_PARTY_ROLES, null), null);
  });
});
