/**
 * Renders the invoice model as an A4 PDF a person can read and print (API.md §8): header,
 * seller and buyer, corrected invoices, line items, VAT summary, totals, payment, notes, the
 * KSeF verification QR code, and "n / N" on every page. Works from the model only, never from
 * XML; deterministic (same invoice and options → same bytes). Sections live in invoice_sections.ts.
 * @module
 */

import type { PdfFonts } from "./pdf_fonts.ts";
import type { Invoice, Party } from "../invoice/model.ts";
import { isKsefFormat } from "../invoice/vocabulary.ts";
import { type RenderContext, blockHeight, clean, drawBlock, flowBlock, flowHeading, headingLines, paragraphs, styled, type StyledLine } from "./blocks.ts";
import { PAGE_HEIGHT } from "./canvas.ts";
import { buildPdf } from "./document.ts";
import { FontUsage } from "./encoding.ts";
import type { Lang } from "./format.ts";
import { documentTitle, FORMAT_NAMES, LABELS } from "./labels.ts";
import { CONTENT_WIDTH, Flow, LEFT, MARGIN, RIGHT, wrapText } from "./layout.ts";
import { drawKsefQr, drawLineTable, drawNotes, drawSummary } from "./invoice_sections.ts";

/** Options of renderInvoicePdf(). */
export interface RenderOptions {
  /** The fonts to draw with and embed (parse them once: `new PdfFonts(files)`). */
  fonts: PdfFonts;
  /** Language of labels and number format; default "pl" for KSeF formats, "en" otherwise. */
  lang?: Lang;
  /** SHA-256 of the XML bytes (32 bytes, hex or base64url): needed for the KSeF QR code. */
  xmlSha256?: Uint8Array | string;
  /** The invoice's own KSeF number, printed under the QR code as the official visualisation does. */
  ksefNumber?: string;
}

/** The rendered file and the characters that were printed as "?" (for the caller to log). */
export interface RenderedPdf {
  bytes: Uint8Array;
  missingGlyphs: string[];
}

/** Renders an invoice as a PDF file. */
export function renderInvoicePdf(invoice: Invoice, options: RenderOptions): RenderedPdf {
  const ksef = isKsefFormat(invoice.format);
  const lang = options.lang ?? (ksef ? "pl" : "en");
  if (lang !== "pl" && lang !== "en") throw new RangeError(`Unknown PDF language: ${String(lang)}`);
  const used = new FontUsage(options.fonts);
  const ctx: RenderContext = { invoice, lang, labels: LABELS[lang], flow: new Flow(used), fonts: options.fonts, missing: new Set() };
  const title = documentTitle(invoice, lang);

  _header(ctx, title, options.ksefNumber ?? null);
  _parties(ctx);
  _corrections(ctx);
  drawLineTable(ctx);
  drawSummary(ctx);
  drawNotes(ctx);
  if (ksef && options.xmlSha256 !== undefined) drawKsefQr(ctx, options.xmlSha256, options.ksefNumber ?? null);
  _footers(ctx, title);

  const bytes = buildPdf(ctx.flow.pages, used, { title: `${title} ${invoice.number ?? ""}`.trim() });
  return { bytes, missingGlyphs: [...ctx.missing] };
}

/** Width of the title column; the dates column takes the rest. */
const _TITLE_WIDTH = 300;

function _header(ctx: RenderContext, title: string, ksefNumber: string | null): void {
  const { invoice: inv, labels: L, flow } = ctx;
  const page = flow.page;
  const rows: [string, string][] = [];
  if (ksefNumber !== null) rows.push([L.ksefNumber, ksefNumber]); // the official visualisation heads with it
  if (inv.issue_date !== null) rows.push([L.issueDate, inv.issue_date]);
  if ((inv.delivery?.date ?? null) !== null) rows.push([L.saleDate, inv.delivery?.date ?? ""]);
  if (inv.currency !== null) rows.push([L.currency, inv.currency]);
  rows.push([L.format, FORMAT_NAMES[inv.format]]);
  let y = MARGIN + 2;
  for (const [label, value] of rows) {
    y += 11.5;
    const v = clean(ctx, value);
    const vw = ctx.fonts.textWidth(v, true, 9);
    // Label first, so extracted text reads "Issue date: 2026-11-20".
    page.textRight(RIGHT - vw - 5, y, `${clean(ctx, label)}:`, 8, false, 0.35);
    page.textRight(RIGHT, y, v, 9, true);
  }
  const left: StyledLine[] = [...styled(ctx, clean(ctx, title), _TITLE_WIDTH, 17, true)];
  if (inv.number !== null) left.push(...styled(ctx, clean(ctx, `${L.number} ${inv.number}`), _TITLE_WIDTH, 11.5, true, 0, 3));
  // Flowed, so even an absurdly long number continues on the next page instead of running off this one.
  flow.y = MARGIN - 4;
  flowBlock(ctx, LEFT, left);
  flow.y = (flow.page === page ? Math.max(flow.y, y + 3) : flow.y) + 8;
  flow.page.line(LEFT, flow.y, RIGHT, flow.y, 1, 0.2);
  flow.y += 12;
}

/** Gap between the seller and buyer columns. */
const _GUTTER = 24;

function _parties(ctx: RenderContext): void {
  const { labels: L, flow } = ctx;
  const w = (CONTENT_WIDTH - _GUTTER) / 2;
  const seller = [...headingLines(ctx, L.seller, w), ..._partyLines(ctx, ctx.invoice.seller, w)];
  const buyer = [...headingLines(ctx, L.buyer, w), ..._partyLines(ctx, ctx.invoice.buyer, w)];
  const h = Math.max(blockHeight(seller), blockHeight(buyer));
  flow.ensure(h);
  if (h > flow.room()) {
    // Taller than a page (only with absurd input): one after the other, flowing over pages.
    flowBlock(ctx, LEFT, seller);
    flow.y += 10;
    flowBlock(ctx, LEFT, buyer);
    flow.y += 14;
    return;
  }
  drawBlock(flow.page, LEFT, flow.y, seller);
  drawBlock(flow.page, LEFT + w + _GUTTER, flow.y, buyer);
  const rule = flow.y + 9 * 1.25 + 3;
  flow.page.line(LEFT, rule, LEFT + w, rule, 0.5, 0.6);
  flow.page.line(LEFT + w + _GUTTER, rule, RIGHT, rule, 0.5, 0.6);
  flow.y += h + 14;
}

function _partyLines(ctx: RenderContext, p: Party, width: number): StyledLine[] {
  const L = ctx.labels;
  const out: StyledLine[] = [];
  out.push(...styled(ctx, clean(ctx, p.name), width, 10, true, 0, 6));
  const taxId = p.tax_id ?? p.other_tax_ids[0] ?? null;
  if (taxId !== null) out.push(...styled(ctx, clean(ctx, `${L.taxId}: ${taxId.scheme === "NIP" ? (p.vat_prefix ?? "") : ""}${taxId.value}`), width, 9, false, 0, 1));
  const a = p.address;
  if (a !== null) {
    for (const line of a.lines) for (const para of paragraphs(ctx, line)) out.push(...styled(ctx, para, width, 9));
    const city = [a.postal_code, a.city].filter((s) => s !== null && s.trim() !== "").join(" ");
    const place = [city, a.country_code ?? ""].filter((s) => s !== "").join(", ");
    out.push(...styled(ctx, clean(ctx, place), width, 9));
  }
  const email = p.contacts.find((c) => c.email !== null)?.email ?? null;
  if (email !== null) out.push(...styled(ctx, clean(ctx, `${L.email}: ${email}`), width, 9));
  return out;
}

/** Up to this many corrected invoices are listed one per line; more go into a compact table. */
const _FEW_REFERENCES = 3;

function _corrections(ctx: RenderContext): void {
  const { invoice: inv, labels: L, flow } = ctx;
  const refs = inv.references.preceding_invoices;
  const reasonText = inv.correction?.reason ?? null;
  if (refs.length === 0 && reasonText === null) return;
  if (refs.length > 0) {
    flowHeading(ctx, refs.length === 1 ? L.correctedInvoice : `${L.correctedInvoices} (${refs.length})`, 24);
    if (refs.length <= _FEW_REFERENCES) {
      for (const r of refs) {
        const parts = [r.number ?? "—"];
        if (r.issue_date !== null) parts.push(` ${L.dated} ${r.issue_date}`);
        if (r.ksef_number !== null) parts.push(`, ${L.ksefNumber}: ${r.ksef_number}`);
        flowBlock(ctx, LEFT, styled(ctx, clean(ctx, parts.join("")), CONTENT_WIDTH, 9, false, 0, 1));
      }
    } else {
      _referenceGrid(ctx);
    }
    flow.y += 8;
  }
  const reason = paragraphs(ctx, reasonText);
  if (reason.length > 0) {
    const lines = [...styled(ctx, clean(ctx, `${L.correctionReason}:`), CONTENT_WIDTH, 8, true, 0.25)];
    for (const p of reason) lines.push(...styled(ctx, p, CONTENT_WIDTH, 9));
    flowBlock(ctx, LEFT, lines);
    flow.y += 8;
  }
}

/** Many corrected invoices: two side-by-side columns of "number · date · KSeF number" in small type. */
function _referenceGrid(ctx: RenderContext): void {
  const { invoice: inv, flow } = ctx;
  const size = 7;
  const lead = 8.6;
  const half = (CONTENT_WIDTH - 16) / 2;
  const cells = inv.references.preceding_invoices.map((r) => {
    const s = [r.number ?? "—", r.issue_date, r.ksef_number].filter((x) => x !== null).join("  ·  ");
    return wrapText(ctx.fonts, clean(ctx, s), half, size);
  });
  for (let i = 0; i < cells.length; i += 2) {
    const a = cells[i] ?? [];
    const b = cells[i + 1] ?? [];
    const h = Math.max(a.length, b.length) * lead;
    flow.ensure(h + 2);
    a.forEach((s, k) => flow.page.text(LEFT, flow.y + size + k * lead, s, size));
    b.forEach((s, k) => flow.page.text(LEFT + half + 16, flow.y + size + k * lead, s, size));
    flow.y += h;
  }
}

function _footers(ctx: RenderContext, title: string): void {
  const pages = ctx.flow.pages;
  const left = clean(ctx, `${title} ${ctx.invoice.number ?? ""}`.trim());
  const y = PAGE_HEIGHT - 30;
  // The footer repeats the header's number, so a number too long for it is shortened here only.
  const shown = _fit(ctx, left, CONTENT_WIDTH - 80, 7);
  pages.forEach((page, i) => {
    page.line(LEFT, y - 11, RIGHT, y - 11, 0.5, 0.6);
    page.text(LEFT, y, shown, 7, false, 0.35);
    page.textRight(RIGHT, y, `${i + 1} / ${pages.length}`, 8);
  });
}

/** The text cut to fit `width` with an ellipsis; as it is when it fits. */
function _fit(ctx: RenderContext, s: string, width: number, size: number): string {
  if (ctx.fonts.textWidth(s, false, size) <= width) return s;
  const limit = width - ctx.fonts.textWidth("…", false, size);
  let w = 0;
  let end = 0;
  for (; end < s.length; end++) {
    w += ctx.fonts.textWidth(s[end] ?? "", false, size);
    if (w > limit) break;
  }
  return `${s.slice(0, end)}…`;
}
