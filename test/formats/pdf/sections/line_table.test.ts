import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { pdfInvoice, pdfLine } from "../../../fixtures/pdf_invoice.ts";
import { renderText } from "../../../support/pdf_text.ts";

describe("line table", () => {
  test("drawLines() shows only the columns the lines have", () => {
    const text = renderText(pdfInvoice(2)).join(" ");
    assert.ok(text.includes("Lp. Nazwa towaru lub usługi Ilość J.m. Cena jedn. netto Wartość netto Stawka VAT"), text);
    assert.ok(!text.includes("Rabat") && !text.includes("Kwota VAT") && !text.includes("dalsze kolumny"));
  });

  test("drawLines() moves money columns that do not fit into a second table keyed by line number", () => {
    const full = { price_with_vat: "1518.44", amount_with_vat: "3036.87", discount: "11.11", vat_amount: "567.87" };
    const text = renderText(pdfInvoice(0, { lines: [pdfLine(1, full), pdfLine(2, full)] })).join(" ");
    // Net price and amount first, then the gross price and the discount; the rest does not fit beside a readable name.
    const main = "Lp. Nazwa towaru lub usługi Ilość J.m. Cena jedn. netto Cena jedn. brutto Rabat Wartość netto Stawka VAT";
    assert.ok(text.includes(main), text);
    assert.ok(text.includes("Pozycje – dalsze kolumny Lp. Wartość brutto Kwota VAT 1 3 036,87 567,87 2 3 036,87 567,87"), text);
  });

  test("drawLines() prints a line's codes and its DodatkowyOpis under the line, not among the general notes", () => {
    const inv = pdfInvoice(0, {
      lines: [pdfLine(1, { seller_item_id: "IDX-7", standard_item_id: { value: "5901234123457", scheme: "GTIN" } }), pdfLine(2)],
      additional_info: [{ line_number: "1", key: "Partia", value: "LOT-42" }, { line_number: null, key: "Ogólna", value: "Informacja" }],
    });
    const text = renderText(inv).join(" ");
    const line1 = text.indexOf("Towar 1");
    const note = text.indexOf("Partia: LOT-42");
    assert.ok(line1 >= 0 && note > line1 && note < text.indexOf("Towar 2"), text);
    assert.ok(text.includes("Indeks: IDX-7 · GTIN: 5901234123457"));
    assert.ok(text.includes("Dodatkowe informacje Ogólna: Informacja"));
    assert.equal(text.split("LOT-42").length, 2, "the line's note is printed once");
  });
});
