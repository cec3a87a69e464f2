import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readInvoice } from "../../../../lib/formats/invoice/read.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";
import { pdfInvoice } from "../../../fixtures/pdf_invoice.ts";
import { renderText } from "../../../support/pdf_text.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "..", "fixtures", "samples");

describe("KSeF QR section", () => {
  test("drawKsefQr() stays on the first page of an invoice it nearly fits (FA_2_Przyklad_10_ZAL)", () => {
    const xml = readFileSync(join(SAMPLES, "ksef-fa2", "FA_2_Przyklad_10_ZAL.xml"));
    const inv = readInvoice(parseXml(xml));
    const sha = createHash("sha256").update(xml).digest();
    // Without the code the invoice ends low on page one; with it, still one page.
    assert.equal(renderText(inv).length, 1);
    const pages = renderText(inv, { xmlSha256: sha });
    assert.equal(pages.length, 1, "the code moved to a page of its own");
    assert.ok(pages[0]?.includes("Kod weryfikujący KSeF (KOD I)"));
  });

  test("drawKsefQr() prints the KSeF number in the header and under the code", () => {
    const ksefNumber = "5260250274-20261120-0100A0B4A8E7-A5";
    const text = renderText(pdfInvoice(1), { xmlSha256: new Uint8Array(32), ksefNumber }).join(" ");
    assert.equal(text.split(ksefNumber).length, 3, text);
  });
});
