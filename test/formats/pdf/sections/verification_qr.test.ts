import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readInvoice } from "../../../../lib/formats/invoice/read.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";
import { pdfInvoice } from "../../../fixtures/pdf_invoice.ts";
import { buildKsefCertificateLink, verifyKsefCertificateLink } from "../../../../lib/formats/pdf/ksef_certificate_link.ts";
import { renderInvoicePdf } from "../../../../lib/formats/pdf/invoice_pdf.ts";
import { checkPdf, pdfPages, pdfQrCodes, renderText, testFonts } from "../../../support/pdf_text.ts";
import { generateKeyPairSync } from "node:crypto";

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

  describe("an offline invoice (kody-qr.md: KOD I and KOD II)", () => {
    const xml = readFileSync(join(SAMPLES, "ksef-fa3", "FA_3_Przyklad_3_brutto.xml"));
    const inv = readInvoice(parseXml(xml));
    const sha = createHash("sha256").update(xml).digest();
    const kod1 = `https://qr-test.ksef.mf.gov.pl/invoice/5451824119/02-12-2025/${sha.toString("base64url")}`;
    const keys = { rsa: generateKeyPairSync("rsa", { modulusLength: 2048 }), ec: generateKeyPairSync("ec", { namedCurve: "P-256" }) };
    const kod2 = (kind: keyof typeof keys) => buildKsefCertificateLink({
      environment: "test", contextType: "Nip", contextId: "5451824119", sellerNip: "5451824119", certificateSerial: "01F20A5D352AE590",
      xmlSha256: sha, privateKey: keys[kind].privateKey,
    });
    const flat = (pages: string[]) => pages.join(" ").replace(/\s+/g, "");

    for (const kind of ["rsa", "ec"] as const) {
      test(`drawKsefQr() draws KOD I labelled OFFLINE and KOD II labelled CERTYFIKAT (${kind} signature), both readable from a 150 dpi print`, () => {
        const link = kod2(kind);
        const pdf = renderInvoicePdf(inv, { fonts: testFonts, xmlSha256: sha, ksefEnvironment: "test", offline: true, certificateLink: link }).bytes;
        checkPdf(pdf);
        assert.deepEqual(pdfQrCodes(pdf).sort(), [kod1, link].sort());
        assert.equal(verifyKsefCertificateLink(link, keys[kind].publicKey), true);
        const pages = pdfPages(pdf);
        const text = pages.join(" ");
        assert.ok(text.includes("Kod weryfikujący KSeF (KOD I) OFFLINE Zeskanuj kod"), text);
        assert.ok(text.includes("Kod weryfikujący certyfikat KSeF wystawcy (KOD II) CERTYFIKAT Faktura wystawiona w trybie offline"), text);
        assert.ok(flat(pages).includes(kod1) && flat(pages).includes(link), "both links printed");
      });
    }

    test("drawKsefQr() labels KOD I of an offline invoice with its KSeF number once known, and keeps KOD II", () => {
      const ksefNumber = "5451824119-20251202-0100A0B4A8E7-A5";
      const text = renderText(inv, { xmlSha256: sha, ksefEnvironment: "test", offline: true, certificateLink: kod2("ec"), ksefNumber }).join(" ");
      assert.ok(text.includes(`Kod weryfikujący KSeF (KOD I) ${ksefNumber} Zeskanuj kod`), text);
      assert.ok(!text.includes("OFFLINE"));
      assert.ok(text.includes("CERTYFIKAT"));
    });

    test("drawKsefQr() draws neither label nor KOD II for an online invoice without its KSeF number", () => {
      const text = renderText(inv, { xmlSha256: sha, ksefEnvironment: "test" }).join(" ");
      assert.ok(text.includes("Kod weryfikujący KSeF (KOD I) Zeskanuj kod"), text);
      assert.ok(!text.includes("OFFLINE") && !text.includes("CERTYFIKAT") && !text.includes("KOD II"));
    });
  });
});
