/**
 * The top of the first page and the foot of every page: the document title by kind, its number
 * and KSeF number when known, the key dates and currency on the right; "title number" and
 * "n / N" at the bottom of each page. The details section prints everything else.
 * @module
 */

import { clean, flowBlock, styled, type RenderContext, type StyledLine } from "../blocks.ts";
import { PAGE_HEIGHT } from "../canvas.ts";
import { FORMAT_NAMES } from "../code_words.ts";
import { CONTENT_WIDTH, LEFT, MARGIN, RIGHT } from "../layout.ts";

/** Width of the title column; the dates column takes the rest. */
const _TITLE_WIDTH = 300;

/** Draws the title block and the dates column on the first page. */
export function drawHeader(ctx: RenderContext, title: string, ksefNumber: string | null): void {
  const { invoice: inv, labels: L, flow } = ctx;
  const page = flow.page;
  const advance = inv.kind?.code === "ZAL" || inv.kind?.code === "KOR_ZAL";
  const rows: [string, string | null][] = [
    [L.issueDate, inv.issue_date],
    [advance ? L.advanceDate : L.saleDate, inv.delivery?.date ?? null],
    [L.currency, inv.currency],
    [L.format, FORMAT_NAMES[inv.format]],
  ];
  let y = MARGIN + 2;
  for (const [label, value] of rows) {
    if (value === null) continue;
    y += 11.5;
    const v = clean(ctx, value);
    const vw = ctx.fonts.textWidth(v, true, 9);
    // Label first, so extracted text reads "Issue date: 2026-11-20".
    page.textRight(RIGHT - vw - 5, y, `${clean(ctx, label)}:`, 8, false, 0.35);
    page.textRight(RIGHT, y, v, 9, true);
  }
  const left: StyledLine[] = [...styled(ctx, clean(ctx, title), _TITLE_WIDTH, 17, true)];
  if (inv.number !== null) for (const x of styled(ctx, clean(ctx, `${L.number} ${inv.number}`), _TITLE_WIDTH, 11.5, true, 0, 3)) left.push(x);
  if (ksefNumber !== null) for (const x of styled(ctx, clean(ctx, `${L.ksefNumber}: ${ksefNumber}`), _TITLE_WIDTH, 8.5, false, 0, 2)) left.push(x);
  // Flowed, so even an absurdly long number continues on the next page instead of running off this one.
  flow.y = MARGIN - 4;
  flowBlock(ctx, LEFT, left);
  flow.y = (flow.page === page ? Math.max(flow.y, y + 3) : flow.y) + 8;
  flow.page.line(LEFT, flow.y, RIGHT, flow.y, 1, 0.2);
  flow.y += 12;
}

/** Draws "title number" and "n / N" at the foot of every page. */
export function drawPageFooters(ctx: RenderContext, title: string): void {
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
