/**
 * Renders an invoice and reads back what a person would: the text of each page as pdftotext
 * extracts it in content order (whitespace runs as one space), for the PDF section tests; and its QR codes as
 * `zbarimg` reads them from the rasterised pages.
 * @module
 */

import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Invoice } from "../../lib/formats/invoice/model.ts";
import { renderInvoicePdf, type RenderOptions } from "../../lib/formats/pdf/invoice_pdf.ts";
import { PdfFonts } from "../../lib/formats/pdf/pdf_fonts.ts";
import { readPdfFontFiles } from "../../storage/fonts/font_files.ts";

/** The shipped fonts, parsed once for all tests of a file. */
export const testFonts = new PdfFonts(readPdfFontFiles());

/** The text of each page of a PDF, whitespace runs (no-break spaces too) as one space. */
export function pdfPages(pdf: Uint8Array): string[] {
  const out = execFileSync("pdftotext", ["-raw", "-enc", "UTF-8", "-", "-"], { input: pdf, maxBuffer: 64 << 20 }).toString("utf8");
  const pages = out.split("\f").map((p) => p.replace(/[\s\u00a0]+/g, " ").trim());
  if (pages[pages.length - 1] === "") pages.pop();
  return pages;
}

/** Renders `invoice` with the shipped fonts and returns its pages' text. */
export function renderText(invoice: Invoice, options: Omit<RenderOptions, "fonts"> = {}): string[] {
  return pdfPages(renderInvoicePdf(invoice, { fonts: testFonts, ...options }).bytes);
}

/**
 * The QR codes on a PDF's pages as a phone would read them from a print: every page rasterised at 150 dpi
 * (`pdftoppm`), decoded with `zbarimg`; in reading order per page.
 */
export function pdfQrCodes(pdf: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), "pdf-qr-"));
  try {
    writeFileSync(join(dir, "in.pdf"), pdf);
    execFileSync("pdftoppm", ["-r", "150", "-gray", "-png", join(dir, "in.pdf"), join(dir, "page")]);
    const pages = readdirSync(dir).filter((f) => f.endsWith(".png")).sort();
    return pages.flatMap((p) => {
      // zbarimg exits 4 when it finds no code: a page without one is not an error.
      const r = spawnSync("zbarimg", ["--raw", "-q", join(dir, p)], { encoding: "utf8" });
      if (r.status !== 0 && r.status !== 4) throw new Error(`zbarimg failed: ${r.stderr}`);
      return r.stdout.split("\n").filter((l) => l !== "");
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Throws unless `qpdf --check` finds the file sound. */
export function checkPdf(pdf: Uint8Array): void {
  const dir = mkdtempSync(join(tmpdir(), "pdf-check-"));
  try {
    writeFileSync(join(dir, "in.pdf"), pdf);
    const out = execFileSync("qpdf", ["--check", join(dir, "in.pdf")], { encoding: "utf8" });
    if (!out.includes("No syntax or stream encoding errors found")) throw new Error(`qpdf --check: ${out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
