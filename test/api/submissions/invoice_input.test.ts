import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { blankInvoice, blankLine, blankParty } from "../../../lib/formats/invoice/blank.ts";
import { readInvoiceInput } from "../../../lib/api/submissions/invoice_input.ts";

describe("readInvoiceInput()", () => {
  test("fills every field a minimal invoice leaves out: null, [] or false, as the API answers them", () => {
    const { invoice, findings } = readInvoiceInput({
      format: "ksef-fa3", type: "invoice", number: "FV/1", issue_date: "2026-12-01", currency: "PLN",
      seller: { name: "Sprzedawca", tax_id: { value: "5260250274", country: "PL", scheme: "NIP" } },
      lines: [{ name: "Usługa", quantity: "1", unit: "szt.", net_price: "100.00", vat_rate: "23" }],
    });
    assert.deepEqual(findings, []);
    const expected = blankInvoice("ksef-fa3");
    Object.assign(expected, { type: "invoice", number: "FV/1", issue_date: "2026-12-01", currency: "PLN" });
    expected.seller = { ...blankParty(), name: "Sprzedawca", tax_id: { value: "5260250274", country: "PL", scheme: "NIP" } };
    expected.lines = [{ ...blankLine(), name: "Usługa", quantity: "1", unit: "szt.", net_price: "100.00", vat_rate: "23" }];
    assert.deepEqual(invoice, expected);
  });

  test("names the JSON path of each value that does not fit", () => {
    const { findings } = readInvoiceInput({
      format: "ksef-fa3", type: "bill", issue_date: "1.12.2026",
      lines: [{ name: "A", quantity: 2 }, { name: "B", net_price: "12,50", colour: "red" }],
      seller: { tax_id: { country: "PL" } }, notes: "hello", buyer: { no_tax_id: "yes" },
    });
    assert.deepEqual(findings.map((f) => f.field).sort(), [
      "invoice.buyer.no_tax_id", "invoice.issue_date", "invoice.lines[0].quantity", "invoice.lines[1].colour",
      "invoice.lines[1].net_price", "invoice.notes", "invoice.seller.tax_id.value", "invoice.type",
    ]);
    assert.match(findings.find((f) => f.field === "invoice.lines[0].quantity")!.message, /decimal string .*not a JSON number/);
    assert.match(findings.find((f) => f.field === "invoice.lines[1].colour")!.message, /not a field of the invoice object/);
    assert.match(findings.find((f) => f.field === "invoice.seller.tax_id.value")!.message, /is required/);
  });

  test("refuses a list longer than it reads, without reading it", () => {
    const { findings } = readInvoiceInput({ format: "ubl", type: "invoice", footer: new Array(10_001).fill("x") });
    assert.deepEqual(findings.map((f) => f.field), ["invoice.footer"]);
  });
});
