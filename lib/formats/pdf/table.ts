/**
 * Tables that flow over pages: a shaded header repeated on every page the table reaches, rows
 * that move whole to the next page when they fit on one and split between their text lines
 * when they do not, optional shading and a small mark per row ("before correction"), and
 * detail lines under a row spanning all but the first column. Layout only.
 * @module
 */

import { blockHeight, drawBlock, type RenderContext, type StyledLine, space } from "./blocks.ts";
import { BOTTOM, type Column, CONTENT_WIDTH, drawCells, LEFT, MARGIN, rowHeight, wrapCells } from "./layout.ts";

/** One row: its cells' text, and how it is marked. */
export interface TableRow {
  cells: readonly string[];
  /** Background grey, or null for none. */
  shade?: number | null;
  /** A small grey label under the row's second cell ("before correction"). */
  mark?: string;
  /** Lines printed under the row, from the second column on (codes, notes of the line). */
  below?: readonly StyledLine[];
}

/** What a table is made of. */
export interface TableSpec {
  columns: readonly Column[];
  head: readonly string[];
  rows: readonly TableRow[];
  /** Text size of the cells; the header is a point smaller. */
  size?: number;
}

const _SHADE_HEAD = 0.86;
const _MARK_SIZE = 6.5;
const _MARK_H = _MARK_SIZE * 1.3;
/** Vertical space of a row beyond its text lines, and under its detail lines. */
const _ROW_PAD = 5;
const _BELOW_PAD = 2;

/** Column widths: fixed ones as given, the flexible one (width 0) takes what is left of `total`. */
export function fitColumns(columns: readonly Column[], total = CONTENT_WIDTH): Column[] {
  const fixed = columns.reduce((a, c) => a + c.width, 0);
  return columns.map((c) => (c.width === 0 ? { ...c, width: total - fixed } : c));
}

/** Draws a table at the cursor, flowing over pages. */
export function flowTable(ctx: RenderContext, spec: TableSpec): void {
  const { flow, fonts } = ctx;
  if (spec.rows.length === 0) return;
  const size = spec.size ?? 8;
  const lead = size * 1.22;
  const headSize = size - 1;
  const headLead = headSize * 1.2;
  const head = wrapCells(fonts, spec.head, spec.columns, headSize, true);
  const headH = rowHeight(head, headLead);
  const width = spec.columns.reduce((a, c) => a + c.width, 0);
  const drawHead = () => {
    flow.page.rect(LEFT, flow.y, width, headH, _SHADE_HEAD);
    drawCells(flow.page, LEFT, flow.y, spec.columns, head, headSize, headLead, true);
    flow.y += headH;
  };
  const rows = spec.rows.map((r) => ({ row: r, cells: wrapCells(fonts, r.cells, spec.columns, size) }));
  const first = rows[0];
  const firstH = first === undefined ? 0 : _height(first.cells, first.row, lead);
  // Keep the header with the first row, or with a few lines of a row that must be split anyway.
  flow.ensure(headH + (firstH <= BOTTOM - MARGIN - headH ? firstH : 3 * lead + _ROW_PAD));
  drawHead();
  const saved = flow.onNewPage;
  flow.onNewPage = drawHead;
  const x2 = LEFT + (spec.columns[0]?.width ?? 0) + 3;
  for (const { row, cells } of rows) {
    const markH = row.mark === undefined || row.mark === "" ? 0 : _MARK_H;
    const below = row.below ?? [];
    const belowH = below.length === 0 ? 0 : blockHeight(below) + _BELOW_PAD;
    const total = Math.max(1, ...cells.map((c) => c.length));
    const whole = total * lead + _ROW_PAD + markH + belowH;
    // A row that fits on a page moves whole to the next one; a taller row is split between its lines.
    if (whole > flow.room() && whole <= BOTTOM - MARGIN - headH) flow.newPage();
    let from = 0;
    while (from < total) {
      const fit = Math.max(1, Math.floor((flow.room() - markH - _ROW_PAD) / lead));
      const to = Math.min(total, from + fit);
      const last = to === total;
      const lastBelow = last && belowH <= flow.room() - ((to - from) * lead + _ROW_PAD + markH);
      const h = (to - from) * lead + _ROW_PAD + (last ? markH : 0) + (lastBelow ? belowH : 0);
      if (row.shade !== undefined && row.shade !== null) flow.page.rect(LEFT, flow.y, width, h, row.shade);
      drawCells(flow.page, LEFT, flow.y, spec.columns, cells, size, lead, false, from, to);
      if (last && markH > 0) flow.page.text(x2, flow.y + (to - from) * lead + _ROW_PAD + markH - 3.2, row.mark ?? "", _MARK_SIZE, false, 0.35);
      // Under the mark when there is one, so the two never touch.
      if (lastBelow && below.length > 0) drawBlock(flow.page, x2, flow.y + (to - from) * lead + markH + (markH > 0 ? _ROW_PAD - 1 : 1), below);
      flow.y += h;
      if (last && !lastBelow && below.length > 0) {
        // Detail lines longer than the rest of the page continue on the next one, under the repeated header.
        for (const l of below) {
          flow.ensure(l.lead + 2);
          drawBlock(flow.page, x2, flow.y - 2, [l]);
          flow.y += l.lead;
        }
        space(ctx, 4);
      }
      flow.page.line(LEFT, flow.y, LEFT + width, flow.y, 0.4, 0.75);
      from = to;
      if (!last) flow.newPage();
    }
  }
  flow.onNewPage = saved;
  space(ctx, 8);
}

function _height(cells: readonly (readonly string[])[], row: TableRow, lead: number): number {
  const n = Math.max(1, ...cells.map((c) => c.length));
  const markH = row.mark === undefined || row.mark === "" ? 0 : _MARK_H;
  const below = row.below ?? [];
  return n * lead + _ROW_PAD + markH + (below.length === 0 ? 0 : blockHeight(below) + _BELOW_PAD);
}

/** Width that a header label needs in bold at `size`, plus the cell padding. */
export function headWidth(ctx: RenderContext, text: string, size: number): number {
  return ctx.fonts.textWidth(text, true, size) + 6;
}
