/**
 * The `integrator-api/pdf` entry point (README "The PDF", "Embedding the core"): the invoice reader and the PDF
 * renderer with the fonts shipped in this folder, for callers who want only the rendering and not the API. It
 * re-exports; it holds no logic.
 * @module
 */
export { readPdfFontFiles } from "./font_files.ts";
export { PdfFonts, type PdfFontFiles } from "../../lib/formats/pdf/pdf_fonts.ts";
export { defaultPdfLang, RENDERER_VERSION, renderInvoicePdf, type RenderedPdf, type RenderOptions } from "../../lib/formats/pdf/invoice_pdf.ts";
export type { Lang } from "../../lib/formats/pdf/format.ts";
export { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
export type { ReadOptions } from "../../lib/formats/invoice/read.ts";
export type { Invoice } from "../../lib/formats/invoice/model.ts";
export { XmlError } from "../../lib/formats/xml/errors.ts";
export { InvoiceError } from "../../lib/formats/invoice/errors.ts";
