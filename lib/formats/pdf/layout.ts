/**
 * Page flow and text layout for A4 documents: a cursor that starts new pages (calling a hook,
 * so a table can repeat its header), greedy word wrapping that breaks over-long words rather
 * than letting them run past a column, and table cells drawn from wrapped lines. No
 * hyphenation, justification or bidirectional text.
 * @module
 */

import type { PdfFonts } from "./pdf_fonts.ts";
import { PAGE_HEIGHT, PAGE_WIDTH, PageCanvas } from "./canvas.ts";
import type { FontUsage } from "./encoding.ts";

/** Page margins in points (about 14 mm). */
export const MARGIN = 40;
/** Left edge and width of the text area. */
export const LEFT = MARGIN;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
export const RIGHT = PAGE_WIDTH - MARGIN;
/** Content stops here; the footer lives below. */
export const BOTTOM = PAGE_HEIGHT - 52;

/** A vertical cursor over a growing list of pages. */
export class Flow {
  readonly pages: PageCanvas[] = [];
  page: PageCanvas;
  y = MARGIN;
  /** Called after each new page is started (e.g. to repeat a table header). */
  onNewPage: (() => void) | null = null;
  #used: FontUsage;

  constructor(used: FontUsage) {
    this.#used = used;
    this.page = this.#start();
  }

  /** Starts a new page and runs the hook. */
  newPage(): void {
    this.page = this.#start();
    this.onNewPage?.();
  }

  /** Space left on this page. */
  room(): number {
    return BOTTOM - this.y;
  }

  /** Starts a new page unless `height` fits here or the page is still empty. */
  ensure(height: number): void {
    if (height > this.room() && this.y > MARGIN) this.newPage();
  }

  /** True when nothing has been drawn below the top margin yet. */
  atTop(): boolean {
    return this.y <= MARGIN;
  }

  #start(): PageCanvas {
    const p = new PageCanvas(this.#used);
    this.pages.push(p);
    this.y = MARGIN;
    return p;
  }
}

/** Characters after which an over-long word may break (URLs, ids, hyphenated words). */
const _SOFT_BREAKS = "/-_.,;:?&=";

/** Sanitized text wrapped to `width` points: words greedily, over-long words split. */
export function wrapText(fonts: PdfFonts, text: string, width: number, size: number, bold = false): string[] {
  if (fonts.textWidth(text, bold, size) <= width) return [text.trim()];
  const space = fonts.textWidth(" ", bold, size);
  const lines: string[] = [];
  let line = "";
  let lineW = 0;
  for (const word of text.split(" ")) {
    if (word === "") continue;
    const w = fonts.textWidth(word, bold, size);
    if (line !== "" && lineW + space + w <= width) {
      line += ` ${word}`;
      lineW += space + w;
      continue;
    }
    if (line !== "") lines.push(line);
    if (w <= width) {
      line = word;
      lineW = w;
      continue;
    }
    const parts = _splitWord(fonts, word, width, size, bold);
    line = parts.pop() ?? "";
    lineW = fonts.textWidth(line, bold, size);
    for (const x of parts) lines.push(x);
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

/** Splits a word wider than `width` into pieces that fit, preferring a break after / - _ . etc. */
function _splitWord(fonts: PdfFonts, word: string, width: number, size: number, bold: boolean): string[] {
  const out: string[] = [];
  let start = 0;
  let w = 0;
  let soft = -1;
  for (let i = 0; i < word.length; i++) {
    const ch = word[i] ?? "";
    const cw = fonts.textWidth(ch, bold, size);
    if (w + cw > width && i > start) {
      // Break after the last soft break if it is in the second half of the piece.
      const cut = soft > start + (i - start) / 2 ? soft : i;
      out.push(word.slice(start, cut));
      start = cut;
      w = fonts.textWidth(word.slice(cut, i), bold, size);
      soft = -1;
    }
    w += cw;
    if (_SOFT_BREAKS.includes(ch)) soft = i + 1;
  }
  out.push(word.slice(start));
  return out;
}

/** One table column: width in points and alignment. */
export interface Column {
  width: number;
  align: "left" | "right";
}

/** Horizontal and vertical cell padding. */
export const CELL_PAD_X = 3;
export const CELL_PAD_Y = 2.5;

/** Each cell's text wrapped to its column. */
export function wrapCells(fonts: PdfFonts, cells: readonly string[], columns: readonly Column[], size: number, bold = false): string[][] {
  return cells.map((c, i) => (c === "" ? [] : wrapText(fonts, c, (columns[i]?.width ?? 0) - 2 * CELL_PAD_X, size, bold)));
}

/** Height of a row of wrapped cells. */
export function rowHeight(lines: readonly (readonly string[])[], leading: number): number {
  let n = 1;
  for (const l of lines) if (l.length > n) n = l.length;
  return n * leading + 2 * CELL_PAD_Y;
}

/** Draws wrapped cells with their first baseline one `size` below `top`; lines [from, to) of each cell. */
export function drawCells(
  page: PageCanvas, x: number, top: number, columns: readonly Column[], lines: readonly (readonly string[])[],
  size: number, leading: number, bold = false, from = 0, to = Infinity,
): void {
  let cx = x;
  for (let c = 0; c < columns.length; c++) {
    const col = columns[c] as Column;
    const cell = lines[c] ?? [];
    const end = Math.min(cell.length, to);
    for (let i = from; i < end; i++) {
      const y = top + CELL_PAD_Y + size + (i - from) * leading - 0.15 * size;
      const s = cell[i] ?? "";
      if (col.align === "right") page.textRight(cx + col.width - CELL_PAD_X, y, s, size, bold);
      else page.text(cx + CELL_PAD_X, y, s, size, bold);
    }
    cx += col.width;
  }
}
