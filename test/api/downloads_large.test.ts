import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import { renderInvoicePdf } from "../../lib/formats/pdf/invoice_pdf.ts";
import { PdfFonts } from "../../lib/formats/pdf/pdf_fonts.ts";
import { readPdfFontFiles } from "../../storage/fonts/font_files.ts";
import { importLargeInvoice, largeKsef } from "../support/large_invoice.ts";
import { startServer, type TestServer } from "../support/server.ts";

describe("the PDF of a large invoice", () => {
  const fonts = new PdfFonts(readPdfFontFiles());
  let s: TestServer;
  let token: string;
  let id: string;
  const renders: { lang?: string; xmlSha256?: unknown }[] = [];
  // A render waits for the test to let it finish, so that the test can ask /healthz meanwhile.
  let held: { started: () => void; release: Promise<void> } | null = null;
  before(async () => {
    s = await startServer({
      renderPdfOffThread: async (xml, job) => {
        renders.push(job);
        if (held) {
          held.started();
          await held.release;
        }
        return renderInvoicePdf(readInvoiceXml(xml), { ...job, fonts });
      },
    });
    ({ token, id } = await importLargeInvoice(s, largeKsef()));
  });
  after(async () => {
    await s.close();
    rmSync(s.dataDir, { recursive: true, force: true });
  });

  test("is rendered off the event loop, once per language: /healthz answers meanwhile, the second GET serves the kept file", { timeout: 60_000 }, async () => {
    let started!: () => void;
    const rendering = new Promise<void>((r) => (started = r));
    let release!: () => void;
    held = { started, release: new Promise<void>((r) => (release = r)) };
    const first = s.fetch(`/api/v1/documents/${id}/pdf?lang=en`, token);
    await rendering;
    const health = await s.fetch("/healthz", null);
    assert.equal(health.status, 200, "/healthz answers while the PDF is being rendered");
    await health.text();
    held = null;
    release();
    const a = await first;
    assert.equal(a.status, 200);
    const bytes = new Uint8Array(await a.arrayBuffer());
    assert.equal(new TextDecoder().decode(bytes.subarray(0, 5)), "%PDF-");
    assert.equal(renders.length, 1);
    assert.equal(renders[0]!.lang, "en");
    assert.equal(typeof renders[0]!.xmlSha256, "string", "the QR code's hash is passed to the thread");

    const b = await s.fetch(`/api/v1/documents/${id}/pdf?lang=en`, token);
    assert.deepEqual(new Uint8Array(await b.arrayBuffer()), bytes);
    assert.equal(renders.length, 1, "the second GET does not render again");
  });
});
