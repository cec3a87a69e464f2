/**
 * Renders the invoice model as an A4 PDF a person can read and print (README “The PDF”), section by
 * section in the order of the official visualisations: header, parties, details, correction,
 * lines, orders, amounts with payment, annotations, transaction terms, notes, attachments,
 * registers and footer, the KSeF QR codes (KOD I, and KOD II of an offline invoice), and "n / N" on every page. Works from the model only,
 * never from XML; deterministic (same invoice and options → same bytes). Each section is a module in sections/.
 * @module
 */

import type { Invoice } from "../invoice/model.ts";
import { isKsefFormat, type InvoiceFormat } from "../invoice/vocabulary.ts";
import { drawAnnotations } from "./sections/annotations.ts";
import type { RenderContext } from "./blocks.ts";
import { documentTitle, isKsef } from "./code_words.ts";
import { drawCorrection } from "./sections/correction.ts";
import { drawDetails } from "./sections/details.ts";
import { buildPdf } from "./document.ts";
import { facturXArchive, type FacturXOptions } from "./facturx.ts";
import { FontUsage } from "./encoding.ts";
import type { Lang } from "./format.ts";
import { drawHeader, drawPageFooters } from "./sections/header.ts";
import { LABELS, RR_LABELS } from "./labels.ts";
import { Flow } from "./layout.ts";
import { drawLines } from "./sections/line_table.ts";
import { drawAttachments, drawFooterSection, drawNotes } from "./sections/notes.ts";
import { drawParties } from "./sections/parties.ts";
import type { PdfFonts } from "./pdf_fonts.ts";
import type { KsefQrEnvironment } from "./ksef_link.ts";
import { drawKsefQr } from "./sections/verification_qr.ts";
import { drawOrders, drawTransactionTerms } from "./sections/terms.ts";
import { drawAmounts } from "./sections/totals.ts";

/** Options of renderInvoicePdf(). */
export interface RenderOptions {
  /** The fonts to draw with and embed (parse them once: `new PdfFonts(files)`). */
  fonts: PdfFonts;
  /** Language of labels and number format; default "pl" for KSeF formats, "en" otherwise. */
  lang?: Lang;
  /** SHA-256 of the XML bytes (32 bytes, hex or base64url): needed for the KSeF QR code. */
  xmlSha256?: Uint8Array | string;
  /** The invoice's own KSeF number, printed in the header and under the QR code as the official visualisation does. */
  ksefNumber?: string;
  /** The KSeF environment the invoice belongs to: the host of its QR links (kody-qr.md); default "prod". */
  ksefEnvironment?: KsefQrEnvironment;
  /** The invoice was issued offline (tryby-offline.md): KOD I reads `OFFLINE` until `ksefNumber` is known. */
  offline?: boolean;
  /** An offline invoice's KOD II, the signed certificate link (buildKsefCertificateLink()); drawn labelled `CERTYFIKAT`. */
  certificateLink?: string;
  /** Make the file a Factur-X/ZUGFeRD PDF/A-3b carrying this CII (README "Getting a Factur-X PDF"). */
  facturX?: FacturXOptions;
}

/** The rendered file and the characters that were printed as "?" (for the caller to log). */
export interface RenderedPdf {
  bytes: Uint8Array;
  missingGlyphs: string[];
}

/**
 * Bump when the output changes for any invoice: stored renderings are kept under a key with this version
 * (lib/api/downloads.ts), so without a bump a changed renderer keeps serving the old PDFs. The golden-output
 * test (test/formats/pdf/golden_output.test.ts) fails when the bytes change and the version does not.
 */
export const RENDERER_VERSION = 5;

/** Section spacing tried when the QR code alone would start a second page. */
const _TIGHT_SPACING = 0.3;

/** The language a rendering of an invoice in `format` has without a `lang` option: Polish for what KSeF carries. */
export function defaultPdfLang(format: InvoiceFormat | null): Lang {
  return format !== null && (isKsefFormat(format) || format === "ksef-pef3") ? "pl" : "en";
}

/** Renders an invoice as a PDF file. */
export function renderInvoicePdf(invoice: Invoice, options: RenderOptions): RenderedPdf {
  const lang = options.lang ?? defaultPdfLang(invoice.format);
  if (lang !== "pl" && lang !== "en") throw new RangeError(`Unknown PDF language: ${String(lang)}`);
  let r = _render(invoice, options, lang, 1);
  // A one-page invoice whose QR code was pushed to a page of its own: tighter spacing may keep it on the first.
  if (r.qrMovedToPage2) {
    const tight = _render(invoice, options, lang, _TIGHT_SPACING);
    if (tight.ctx.flow.pages.length === 1) r = tight;
  }
  const title = documentTitle(invoice, lang);
  const archive = options.facturX ? facturXArchive(invoice, options.facturX) : undefined;
  const bytes = buildPdf(r.ctx.flow.pages, r.used, { title: `${title} ${invoice.number ?? ""}`.trim() }, archive);
  return { bytes, missingGlyphs: [...r.ctx.missing] };
}

function _render(invoice: Invoice, options: RenderOptions, lang: Lang, spacing: number): { ctx: RenderContext; used: FontUsage; qrMovedToPage2: boolean } {
  const used = new FontUsage(options.fonts);
  const ctx: RenderContext = { invoice, lang, labels: (invoice.format === "ksef-fa-rr1" ? RR_LABELS : LABELS)[lang], flow: new Flow(used), fonts: options.fonts, spacing, missing: new Set() };
  const title = documentTitle(invoice, lang);
  const ksefNumber = options.ksefNumber ?? null;
  drawHeader(ctx, title, ksefNumber);
  drawParties(ctx);
  drawDetails(ctx);
  drawCorrection(ctx);
  drawLines(ctx);
  drawOrders(ctx);
  drawAmounts(ctx);
  drawAnnotations(ctx);
  drawTransactionTerms(ctx);
  drawNotes(ctx);
  drawAttachments(ctx);
  drawFooterSection(ctx);
  const before = ctx.flow.pages.length;
  if (isKsef(invoice) && options.xmlSha256 !== undefined) {
    drawKsefQr(ctx, {
      xmlSha256: options.xmlSha256, ksefNumber, environment: options.ksefEnvironment ?? "prod",
      offline: options.offline === true, certificateLink: options.certificateLink ?? null,
    });
  }
  drawPageFooters(ctx, title);
  return { ctx, used, qrMovedToPage2: before === 1 && ctx.flow.pages.length === 2 };
}
