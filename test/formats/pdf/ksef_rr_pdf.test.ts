/**
 * The PDF of a KSeF FA_RR(1) invoice (README "The PDF"): the VAT RR title, the farmer's and the buyer's blocks, the
 * flat-rate refund in the line table, summary and totals, the amount in words, both accounts and the proof of
 * payment, in Polish and English, with KOD I like every KSeF form; and the share of the FA_RR and PEF test
 * documents' values that can be read in their PDF (as test/formats/pdf/coverage.test.ts counts it for the samples).
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { readInvoice } from "../../../lib/formats/invoice/read.ts";
import { readInvoiceXml } from "../../../lib/formats/invoice/read_xml.ts";
import { renderInvoicePdf } from "../../../lib/formats/pdf/invoice_pdf.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { pdfCoverage, pdfText } from "../../support/pdf_coverage.ts";
import { renderText, testFonts } from "../../support/pdf_text.ts";
import { fixturePath } from "../../support/server.ts";

const invoice = (file: string) => readInvoiceXml(readFileSync(fixturePath("ksef-rr", file)));
const SHA = "Cm7OelL0gVuTNVuBHQ2dKMSyF7hwzE0dFzaKqBZv5Zk";

describe("FA_RR(1) PDF", () => {
  test("renderInvoicePdf() prints a VAT RR invoice in Polish by default, with its own labels and KOD I", () => {
    const text = renderText(invoice("fa_rr1_vat_rr.xml"), { xmlSha256: SHA }).join("\n");
    for (const s of [
      "Faktura VAT RR", "Nr RR/2026/11/0042", "Format: KSeF FA_RR (1)", "Data dokonania nabycia: 2026-11-18",
      "Dostawca (rolnik ryczałtowy) Jan Nowak Gospodarstwo Rolne", "Numer kontrahenta: DOST-0427",
      "Nabywca (wystawca faktury) Młyn-Pol Zakłady Zbożowe Sp. z o.o.",
      "Cena jedn. bez zwrotu Wartość bez zwrotu Wartość ze zwrotem Kwota zwrotu Stawka zwrotu",
      "1 Pszenica konsumpcyjna 12,5 t 950,00 11 875,00 12 706,25 831,25 7%", "Klasa lub jakość: klasa I",
      "Zryczałtowany zwrot podatku (PLN)", "Wartość nabycia Zwrot podatku Należność 7% 20 275,00 1 419,25 21 694,25",
      "Słownie: dwadzieścia jeden tysięcy sześćset dziewięćdziesiąt cztery złote 25/100", "Forma płatności: przelew (1)",
      "Rachunek rolnika: 61109010140000071219812874", "Rachunek nabywcy: 27114020040000300201355387",
      "Dokument zapłaty: PRZELEW/2026/11/20/0042, 2026-11-20", "Wartość nabycia: 20 275,00 PLN", "Zwrot podatku: 1 419,25 PLN",
      "Należność ogółem: 21 694,25 PLN", "Do zapłaty: 21 544,25 PLN", "Kod weryfikujący KSeF (KOD I)",
      `https://qr.ksef.mf.gov.pl/invoice/7251801126/20-11-2026/${SHA}`,
    ]) assert.ok(text.includes(s), `missing: ${s}`);
    assert.ok(!text.includes("Stawka VAT") && !text.includes("Sprzedawca"), "no VAT invoice wording");
  });

  test("renderInvoicePdf() prints a VAT RR invoice in English", () => {
    const text = renderText(invoice("fa_rr1_vat_rr.xml"), { lang: "en" }).join("\n");
    for (const s of [
      "VAT RR invoice", "Supplier (flat-rate farmer)", "Buyer (issuer of the invoice)", "Farm produce or service",
      "Refund rate", "Flat-rate tax refund (PLN)", "Class or quality: klasa I", "In words:", "Farmer's account:",
      "Buyer's account:", "Proof of payment:", "Payment means: bank transfer (1)", "Total amount due:",
    ]) assert.ok(text.includes(s), `missing: ${s}`);
  });

  test("renderInvoicePdf() prints a KOR_VAT_RR correction with its reason, type 4 and the corrected invoice", () => {
    const text = renderText(invoice("fa_rr1_kor_vat_rr.xml")).join("\n");
    for (const s of [
      "Faktura VAT RR KOREKTA", "Błędna masa towaru w kwicie wagowym",
      "Korekta skutkująca w dacie dokonania zwrotu całości lub części należności (4)", "RR/2026/11/0042", "przed korektą",
    ]) assert.ok(text.includes(s), `missing: ${s}`);
  });
});

describe("PDF coverage of the FA_RR(1) and PEF(3) test documents", () => {
  for (const [dir, file] of [["ksef-rr", "fa_rr1_vat_rr.xml"], ["ksef-rr", "fa_rr1_kor_vat_rr.xml"], ["ksef-pef", "pef3_invoice.xml"], ["ksef-pef", "pef3_kor_credit_note.xml"]] as const) {
    test(`the PDF text of ${file} shows at least 97 % of its leaf values`, { skip: !_hasPdftotext() && "pdftotext is not installed" }, (t) => {
      const bytes = readFileSync(fixturePath(dir, file));
      const doc = parseXml(bytes);
      const pdf = renderInvoicePdf(readInvoice(doc), { fonts: testFonts, xmlSha256: createHash("sha256").update(bytes).digest() }).bytes;
      const c = pdfCoverage(doc.root, pdfText(execFileSync("pdftotext", ["-raw", "-enc", "UTF-8", "-", "-"], { input: pdf }).toString("utf8")));
      for (const m of c.missing) t.diagnostic(`missing ${m.path} = ${JSON.stringify(m.value)}`);
      assert.ok(c.found / c.total >= 0.97, `${c.found}/${c.total}`);
    });
  }
});

function _hasPdftotext(): boolean {
  return spawnSync("pdftotext", ["-v"]).error === undefined;
}
