/**
 * Renders an invoice and reads back what a person would: the text of each page as pdftotext
 * extracts it in content order (whitespace runs as one space), for the PDF section tests.
 * @module
 */

import { execFileSync } from "node:child_process";
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
