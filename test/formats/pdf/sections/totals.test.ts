import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { blankPayment } from "../../../../lib/formats/invoice/blank.ts";
import { pdfInvoice } from "../../../fixtures/pdf_invoice.ts";
import { renderText } from "../../../support/pdf_text.ts";

describe("amounts", () => {
  test("drawAmounts() does not ask for the amount of a paid invoice and prints the payment date", () => {
    const inv = pdfInvoice(1, { payment: { ...blankPayment(), paid: true, paid_date: "2026-11-21" } });
    const text = renderText(inv).join(" ");
    assert.ok(text.includes("Zapłacono: 60 787,40 PLN, 2026-11-21"), text);
    assert.ok(!text.includes("Do zapłaty"));
  });

  test("drawAmounts() reads a negative balance as an amount to refund", () => {
    const inv = pdfInvoice(1, { totals: { ...pdfInvoice(0).totals, payable: "-123.45" } });
    const text = renderText(inv, { lang: "en" }).join(" ");
    assert.ok(text.includes("Amount to refund: 123.45 PLN"), text);
    assert.ok(!text.includes("Amount due"));
  });

  test("drawAmounts() explains the amount due with prepaid, rounding and allowances, and shows VAT in PLN", () => {
    const base = pdfInvoice(1);
    const inv = pdfInvoice(1, {
      currency: "EUR", tax_currency: "PLN",
      vat_breakdown: base.vat_breakdown.map((v) => ({ ...v, tax_amount_tax_currency: v.tax_amount === null ? null : "48321.12" })),
      totals: { ...base.totals, allowances: "10.00", prepaid: "1000.00", rounding: "0.01", payable: "59787.41", tax_in_tax_currency: "48321.12" },
    });
    const text = renderText(inv, { lang: "en" }).join(" ");
    for (const s of ["VAT PLN", "48,321.12", "Sum of allowances: 10.00 EUR", "Paid amount: 1,000.00 EUR", "Rounding: 0.01 EUR", "Total VAT (PLN): 48,321.12 PLN", "Amount due: 59,787.41 EUR"]) {
      assert.ok(text.includes(s), `missing ${s} in ${text}`);
    }
  });
});
