/**
 * Building blocks shared by the invoice sections: the render context (invoice, language, page
 * flow, the set of characters no font could draw), styled lines that are measured first and
 * drawn later, section headings, and drawing a block in place or line by line across pages.
 * @module
 */

import type { PdfFonts } from "./pdf_fonts.ts";
import type { Invoice } from "../invoice/model.ts";
import type { PageCanvas } from "./canvas.ts";
import type { Lang } from "./format.ts";
import type { Labels } from "./labels.ts";
import { CONTENT_WIDTH, type Flow, LEFT, wrapText } from "./layout.ts";

/** Everything a section needs while rendering one invoice. */
export interface RenderContext {
  invoice: Invoice;
  lang: Lang;
  labels: Labels;
  flow: Flow;
  /** The document's fonts: what they draw and how wide text is. */
  fonts: PdfFonts;
  /** Scale of the space between sections: 1, or less to keep the QR code on the first page. */
  spacing: number;
  /** Characters replaced by "?" because no font has them, in order of first use. */
  missing: Set<string>;
}

/** Moves the cursor down by `points` of space between blocks, scaled by the context's spacing. */
export function space(ctx: RenderContext, points: number): void {
  ctx.flow.y += points * ctx.spacing;
}

/** Sanitized single-line text: "" for null, "?" for characters no font draws (recorded). */
export function clean(ctx: RenderContext, s: string | null): string {
  return s === null ? "" : ctx.fonts.sanitize(s, ctx.missing);
}

/** Sanitized paragraphs of a text that may contain line breaks; blank lines dropped. */
export function paragraphs(ctx: RenderContext, s: string | null): string[] {
  if (s === null) return [];
  return s.split(/\r\n|\r|\n/).map((p) => ctx.fonts.sanitize(p, ctx.missing).trim()).filter((p) => p !== "");
}

/** A line of text with its style; `lead` is the distance from the previous baseline. */
export interface StyledLine {
  s: string;
  size: number;
  bold: boolean;
  gray: number;
  lead: number;
  /** A grey label printed before `s` on the same line (a field's "Label: "), and its width. */
  label?: string;
  labelW?: number;
}

/** Grey of field labels. */
const _LABEL_GRAY = 0.4;

/** Sanitized text wrapped to `width`, as styled lines; the first line gets `gapBefore` extra lead. */
export function styled(ctx: RenderContext, s: string, width: number, size: number, bold = false, gray = 0, gapBefore = 0): StyledLine[] {
  if (s === "") return [];
  return wrapText(ctx.fonts, s, width, size, bold).map((line, i) => ({ s: line, size, bold, gray, lead: size * 1.25 + (i === 0 ? gapBefore : 0) }));
}

/** Height of a block of styled lines, down to the last line's descenders. */
export function blockHeight(lines: readonly StyledLine[]): number {
  let h = 0;
  for (const l of lines) h += l.lead;
  const last = lines[lines.length - 1];
  return last === undefined ? 0 : h + last.size * 0.3;
}

/** Draws styled lines with the top of the block at `top`. */
export function drawBlock(page: PageCanvas, x: number, top: number, lines: readonly StyledLine[]): void {
  let y = top;
  for (const l of lines) {
    y += l.lead;
    _drawLine(page, x, y, l);
  }
}

function _drawLine(page: PageCanvas, x: number, y: number, l: StyledLine): void {
  if (l.label !== undefined) page.text(x, y - l.size * 0.25, l.label, l.size, false, _LABEL_GRAY);
  page.text(x + (l.labelW ?? 0), y - l.size * 0.25, l.s, l.size, l.bold, l.gray);
}

/**
 * A "Label: value" field wrapped to `width`: the label grey, the value black, continuing under
 * the label; each line break in the value starts a new line. No lines without a value.
 */
export function fieldLines(ctx: RenderContext, label: string, value: string | null, width: number, size = 8, gapBefore = 0): StyledLine[] {
  const paras = paragraphs(ctx, value);
  if (paras.length === 0) return [];
  const head = `${clean(ctx, label)}: `;
  const out: StyledLine[] = [];
  paras.forEach((p, i) => {
    const lines = wrapText(ctx.fonts, i === 0 ? head + p : p, width, size);
    lines.forEach((line, j) => out.push({ s: line, size, bold: false, gray: 0, lead: size * 1.3 + (i === 0 && j === 0 ? gapBefore : 0) }));
  });
  const first = out[0] as StyledLine;
  if (first.s.startsWith(head)) {
    first.label = head;
    first.labelW = ctx.fonts.textWidth(head, false, size);
    first.s = first.s.slice(head.length);
  } else if (first.s === head.trimEnd()) {
    first.label = first.s;
    first.s = "";
  }
  return out;
}

/** Draws styled lines at the flow's cursor, moving to a new page whenever a line does not fit. */
export function flowBlock(ctx: RenderContext, x: number, lines: readonly StyledLine[]): void {
  const f = ctx.flow;
  for (const l of lines) {
    f.ensure(l.lead + l.size * 0.3);
    // A line at the top of a new page needs no extra gap.
    const lead = f.atTop() ? l.size * 1.25 : l.lead;
    f.y += lead;
    _drawLine(f.page, x, f.y, l);
  }
  if (lines.length > 0) f.y += (lines[lines.length - 1]?.size ?? 0) * 0.3;
}

/** Section heading lines (bold, grey) for a block of the given width. */
export function headingLines(ctx: RenderContext, text: string, width = CONTENT_WIDTH): StyledLine[] {
  return styled(ctx, text, width, 9, true, 0.25);
}

/** Draws a heading at the cursor with a rule under it, keeping it with `keep` points of what follows. */
export function flowHeading(ctx: RenderContext, text: string, keep: number): void {
  const f = ctx.flow;
  const lines = headingLines(ctx, text);
  f.ensure(blockHeight(lines) + 4 + keep);
  drawBlock(f.page, LEFT, f.y, lines);
  f.y += blockHeight(lines) + 1;
  f.page.line(LEFT, f.y, LEFT + CONTENT_WIDTH, f.y, 0.5, 0.6);
  f.y += 3;
}
