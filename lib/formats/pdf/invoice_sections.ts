/**
 * The body sections of the printed invoice: the line items table (wrapping names, breaking
 * across pages with its header repeated, "before correction" rows shaded and labelled), the
 * VAT summary with totals beside the payment details, notes, and the KSeF QR code with its
 * link. Layout only; the entry point and the header are in invoice_pdf.ts.
 * @module
 */

import type { InvoiceLine } from "../invoice/model.ts";
import { blockHeight, clean, drawBlock, flowBlock, flowHeading, headingLines, paragraphs, styled, type RenderContext, type StyledLine } from "./blocks.ts";
import { addDecimals, formatAmount, formatDecimal, formatMoney, formatRate } from "./format.ts";
import { ksefVerificationLink } from "./ksef_link.ts";
import { paymentMeansName, unitName } from "./labels.ts";
import { BOTTOM, type Column, CONTENT_WIDTH, drawCells, LEFT, MARGIN, RIGHT, rowHeight, wrapCells } from "./layout.ts";
import { encodeQr } from "./qr.ts";

/** Line table columns: No., name (the rest of the width), quantity, unit, unit price, amount, VAT rate. */
const _FIXED: readonly number[] = [24, 0, 50, 36, 64, 72, 44];
const _LINE_COLUMNS: Column[] = _FIXED.map((w, i) => ({
  width: i === 1 ? CONTENT_WIDTH - _FIXED.reduce((a, b) => a + b, 0) : w,
  align: i === 1 || i === 3 ? "left" : "right",
}));
const _CELL_SIZE = 8;
const _CELL_LEAD = 9.8;
const _HEAD_SIZE = 7;
const _HEAD_LEAD = 8.4;
const _MARK_SIZE = 6.5;
const _SHADE_HEAD = 0.86;
const _SHADE_BEFORE = 0.93;

/** Draws the line items table; nothing when the invoice has no lines. */
export function drawLineTable(ctx: RenderContext): void {
  const { invoice: inv, labels: L, flow } = ctx;
  if (inv.lines.length === 0) return;
  const gross = inv.lines.filter(_grossPriced).length;
  const all = gross === inv.lines.length;
  const mixed = gross > 0 && !all;
  const head = wrapCells(ctx.fonts, [
    L.lineNo, L.name, L.quantity, L.unit,
    mixed ? L.unitPriceMixed : all ? L.unitPriceGross : L.unitPriceNet,
    mixed ? L.amountMixed : all ? L.amountGross : L.amountNet, L.vatRate,
  ], _LINE_COLUMNS, _HEAD_SIZE, true);
  const headH = rowHeight(head, _HEAD_LEAD);
  const drawHead = () => {
    flow.page.rect(LEFT, flow.y, CONTENT_WIDTH, headH, _SHADE_HEAD);
    drawCells(flow.page, LEFT, flow.y, _LINE_COLUMNS, head, _HEAD_SIZE, _HEAD_LEAD, true);
    flow.y += headH;
  };
  const hasBefore = inv.lines.some((l) => l.before_correction);
  const rows = inv.lines.map((line, i) => _lineRow(ctx, line, i, !hasBefore ? "" : line.before_correction ? L.beforeCorrection : L.afterCorrection));
  // Keep the header with the first row, or with a few lines of a row that must be split anyway.
  const first = rows[0]?.height ?? 0;
  flow.ensure(headH + (first <= BOTTOM - MARGIN - headH ? first : 3 * _CELL_LEAD + _ROW_PAD));
  drawHead();
  flow.onNewPage = drawHead;
  for (const row of rows) _drawRow(ctx, row, headH);
  flow.onNewPage = null;
  flow.y += 10;
}

/** One line item, wrapped and measured. */
interface _Row {
  cells: string[][];
  /** "before correction" / "after correction" label, or "". */
  mark: string;
  before: boolean;
  height: number;
}

/** Vertical space of a row beyond its text lines, and of the row's label. */
const _ROW_PAD = 5;
const _MARK_H = _MARK_SIZE * 1.3;

function _lineRow(ctx: RenderContext, line: InvoiceLine, index: number, mark: string): _Row {
  const { invoice: inv, lang } = ctx;
  const cells = wrapCells(ctx.fonts, [
    clean(ctx, line.number ?? String(index + 1)),
    clean(ctx, line.name),
    line.quantity === null ? "" : clean(ctx, formatDecimal(line.quantity, lang, 0)),
    clean(ctx, unitName(inv, line.unit, lang)),
    clean(ctx, formatAmount(_grossPriced(line) ? line.price_with_vat : line.net_price, lang)),
    clean(ctx, formatAmount(_grossPriced(line) ? line.amount_with_vat : line.net_amount, lang)),
    clean(ctx, formatRate(line.vat_rate, line.vat_category?.code ?? null, lang)),
  ], _LINE_COLUMNS, _CELL_SIZE);
  const lines = Math.max(1, ...cells.map((c) => c.length));
  return { cells, mark: clean(ctx, mark), before: line.before_correction, height: lines * _CELL_LEAD + _ROW_PAD + (mark === "" ? 0 : _MARK_H) };
}

function _drawRow(ctx: RenderContext, row: _Row, headH: number): void {
  const { flow } = ctx;
  const markH = row.mark === "" ? 0 : _MARK_H;
  const total = Math.max(1, ...row.cells.map((c) => c.length));
  // A row that fits on a page moves whole to the next one; a taller row is split between its lines.
  if (row.height > flow.room() && row.height <= BOTTOM - MARGIN - headH) flow.newPage();
  let from = 0;
  while (from < total) {
    const fit = Math.max(1, Math.floor((flow.room() - markH - _ROW_PAD) / _CELL_LEAD));
    const to = Math.min(total, from + fit);
    const last = to === total;
    const h = (to - from) * _CELL_LEAD + _ROW_PAD + (last ? markH : 0);
    if (row.before) flow.page.rect(LEFT, flow.y, CONTENT_WIDTH, h, _SHADE_BEFORE);
    drawCells(flow.page, LEFT, flow.y, _LINE_COLUMNS, row.cells, _CELL_SIZE, _CELL_LEAD, false, from, to);
    if (last && row.mark !== "") {
      flow.page.text(LEFT + (_LINE_COLUMNS[0]?.width ?? 0) + 3, flow.y + h - 3.2, row.mark, _MARK_SIZE, false, 0.35);
    }
    flow.y += h;
    flow.page.line(LEFT, flow.y, RIGHT, flow.y, 0.4, 0.75);
    from = to;
    if (!last) flow.newPage();
  }
}

/** VAT summary columns: rate, net, VAT, gross. */
const _VAT_COLUMNS: Column[] = [
  { width: 62, align: "left" }, { width: 74, align: "right" }, { width: 70, align: "right" }, { width: 76, align: "right" },
];
const _VAT_WIDTH = _VAT_COLUMNS.reduce((a, c) => a + c.width, 0);

/** Draws the VAT summary and totals on the right with the payment details on the left. */
export function drawSummary(ctx: RenderContext): void {
  const { flow } = ctx;
  const leftW = CONTENT_WIDTH - _VAT_WIDTH - 24;
  const pay = _paymentLines(ctx, leftW);
  const rightH = _summaryHeight(ctx);
  const payH = blockHeight(pay);
  const h = Math.max(rightH, payH);
  if (h <= BOTTOM - MARGIN) {
    flow.ensure(h);
    const top = flow.y;
    drawBlock(flow.page, LEFT, top, pay);
    _drawVatAndTotals(ctx, top);
    flow.y = top + h + 12;
    return;
  }
  // Payment text longer than a page: totals first, then payment flowing over pages.
  flow.ensure(rightH);
  _drawVatAndTotals(ctx, flow.y);
  flow.y += rightH + 12;
  flowBlock(ctx, LEFT, pay);
}

function _vatRows(ctx: RenderContext): string[][][] {
  const { invoice: inv, lang } = ctx;
  return inv.vat_breakdown.map((v) => wrapCells(ctx.fonts, [
    clean(ctx, formatRate(v.rate, v.category?.code ?? null, lang)), clean(ctx, formatAmount(v.taxable_amount, lang)),
    clean(ctx, formatAmount(v.tax_amount, lang)),
    // No tax amount (zw, np, 0%): the gross is the net.
    clean(ctx, formatAmount(addDecimals(v.taxable_amount, v.tax_amount ?? "0"), lang)),
  ], _VAT_COLUMNS, _CELL_SIZE));
}

function _totals(ctx: RenderContext): [string, string, boolean][] {
  const { invoice: inv, labels: L, lang } = ctx;
  const t = inv.totals;
  const rows: [string, string, boolean][] = [];
  if (t.net !== null) rows.push([L.totalNet, formatMoney(t.net, inv.currency, lang), false]);
  if (t.tax !== null) rows.push([L.totalTax, formatMoney(t.tax, inv.currency, lang), false]);
  if (t.gross !== null) rows.push([L.totalGross, formatMoney(t.gross, inv.currency, lang), true]);
  return rows;
}

const _TOTAL_LEAD = 13;
const _PAYABLE_H = 22;

function _summaryHeight(ctx: RenderContext): number {
  const rows = _vatRows(ctx);
  let h = 0;
  if (rows.length > 0) {
    h += blockHeight(headingLines(ctx, ctx.labels.vatSummary, _VAT_WIDTH)) + 4 + _HEAD_LEAD + 5;
    for (const r of rows) h += rowHeight(r, _CELL_LEAD);
    h += 8;
  }
  h += _totals(ctx).length * _TOTAL_LEAD;
  if (ctx.invoice.totals.payable !== null) h += _PAYABLE_H + 4;
  return h;
}

function _drawVatAndTotals(ctx: RenderContext, top: number): void {
  const { invoice: inv, labels: L, lang, flow } = ctx;
  const page = flow.page;
  const x = RIGHT - _VAT_WIDTH;
  let y = top;
  const rows = _vatRows(ctx);
  if (rows.length > 0) {
    const title = inv.currency === null ? L.vatSummary : `${L.vatSummary} (${clean(ctx, inv.currency)})`;
    const heading = headingLines(ctx, title, _VAT_WIDTH);
    drawBlock(page, x, y, heading);
    y += blockHeight(heading) + 4;
    const head = wrapCells(ctx.fonts, [L.vatRate, L.net, L.vat, L.gross], _VAT_COLUMNS, _HEAD_SIZE, true);
    const headH = _HEAD_LEAD + 5;
    page.rect(x, y, _VAT_WIDTH, headH, _SHADE_HEAD);
    drawCells(page, x, y, _VAT_COLUMNS, head, _HEAD_SIZE, _HEAD_LEAD, true);
    y += headH;
    for (const r of rows) {
      drawCells(page, x, y, _VAT_COLUMNS, r, _CELL_SIZE, _CELL_LEAD);
      y += rowHeight(r, _CELL_LEAD);
      page.line(x, y, RIGHT, y, 0.4, 0.75);
    }
    y += 8;
  }
  for (const [label, value, bold] of _totals(ctx)) {
    y += _TOTAL_LEAD;
    const v = clean(ctx, value);
    page.textRight(RIGHT - Math.max(110, ctx.fonts.textWidth(v, bold, 9) + 8), y - 3, clean(ctx, `${label}:`), 8.5, bold, 0.25);
    page.textRight(RIGHT, y - 3, v, 9, bold);
  }
  if (inv.totals.payable !== null) {
    y += 4;
    const v = clean(ctx, formatMoney(inv.totals.payable, inv.currency, lang));
    page.rect(x, y, _VAT_WIDTH, _PAYABLE_H, 0.9);
    page.text(x + 5, y + 15, clean(ctx, `${L.payable}:`), 10, true);
    page.textRight(RIGHT - 5, y + 15, v, 11.5, true);
  }
}

function _paymentLines(ctx: RenderContext, width: number): StyledLine[] {
  const { invoice: inv, labels: L } = ctx;
  const p = inv.payment;
  if (p === null) return [];
  const out: StyledLine[] = [];
  const add = (label: string, value: string | null, bold = false) => {
    const paras = paragraphs(ctx, value);
    if (paras.length === 0) return;
    out.push(...styled(ctx, clean(ctx, label), width, 7, false, 0.35, out.length === 0 ? 0 : 3));
    for (const para of paras) out.push(...styled(ctx, para, width, 9, bold));
  };
  const means = p.means?.code ?? p.means_text;
  // With factoring the buyer pays the factor: its account is the one to pay into.
  const account = p.accounts.find((a) => !a.factor) ?? p.accounts[0] ?? null;
  add(L.dueDate, p.due_dates[0]?.date ?? null, true);
  add(L.means, means === null ? null : paymentMeansName(inv, means, ctx.lang));
  add(L.account, account?.number ?? null, true);
  add(L.bank, account?.bank_name ?? null);
  add(L.terms, p.terms);
  return out.length === 0 ? [] : [...headingLines(ctx, L.payment, width), ...out.map((l, i) => (i === 0 ? { ...l, lead: l.lead + 4 } : l))];
}

/** Draws the notes, flowing over pages. */
export function drawNotes(ctx: RenderContext): void {
  const paras = [
    ...ctx.invoice.notes.map((n) => n.text),
    ...ctx.invoice.additional_info.map((a) => (a.key === null ? a.value : a.value === null ? a.key : `${a.key}: ${a.value}`)),
    ...ctx.invoice.footer,
  ].flatMap((n) => paragraphs(ctx, n));
  if (paras.length === 0) return;
  flowHeading(ctx, ctx.labels.notes, 12);
  for (const p of paras) flowBlock(ctx, LEFT, styled(ctx, p, CONTENT_WIDTH, 8.5, false, 0, 2));
  ctx.flow.y += 10;
}

/** Side of one QR module in points: version 6 (41 modules) comes out about 37 mm with the quiet zone. */
const _QR_MODULE = 2.6;
/** Quiet zone of four modules (ISO 18004 §6.3.8). */
const _QR_QUIET = 4;

/** Draws the KSeF verification QR code ("KOD I") with the KSeF number and the link under it; nothing without seller NIP or issue date. */
export function drawKsefQr(ctx: RenderContext, xmlSha256: Uint8Array | string, ksefNumber: string | null): void {
  const link = ksefVerificationLink(ctx.invoice, xmlSha256);
  if (link === null) return;
  const { flow, labels: L } = ctx;
  const code = encodeQr(link);
  const side = code.size * _QR_MODULE;
  const quiet = _QR_QUIET * _QR_MODULE;
  const under = [
    ...styled(ctx, clean(ctx, ksefNumber), CONTENT_WIDTH - quiet, 8, true),
    ...styled(ctx, clean(ctx, link), CONTENT_WIDTH - quiet, 7, false, 0.2),
  ];
  const h = quiet + side + quiet + blockHeight(under);
  flow.ensure(h + 24);
  flowHeading(ctx, L.qrTitle, h);
  const top = flow.y + quiet;
  flow.page.qr(LEFT + quiet, top, _QR_MODULE, code);
  const caption = styled(ctx, clean(ctx, L.qrCaption), CONTENT_WIDTH - side - 3 * quiet, 9, true);
  drawBlock(flow.page, LEFT + side + 2 * quiet, top + side / 2 - blockHeight(caption) / 2, caption);
  // The text starts about a quiet zone below the symbol, so scanners still find its edge.
  drawBlock(flow.page, LEFT + quiet, top + side + quiet - 6, under);
  flow.y = top + side + quiet - 6 + blockHeight(under) + 8;
}

/**
 * A line priced gross (KSeF P_9B/P_11A): P_11 (net) pairs with P_9A, P_11A (gross)
 * with P_9B; a line without either amount follows its price.
 */
function _grossPriced(l: InvoiceLine): boolean {
  return l.net_amount === null && (l.amount_with_vat !== null || (l.net_price === null && l.price_with_vat !== null));
}
