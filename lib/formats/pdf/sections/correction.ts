/**
 * What a correction corrects (README “The PDF”): the corrected invoices with their dates and KSeF
 * numbers (a compact two-column grid when there are many), the reason, the type of effect, the
 * right number or period, amounts and rates before the correction, and the seller's and buyers'
 * data as on the corrected invoice (KSeF Podmiot1K, Podmiot2K).
 * @module
 */

import { clean, flowBlock, flowHeading, styled, type RenderContext, type StyledLine, space } from "../blocks.ts";
import { codeWords } from "../code_words.ts";
import { flowColumns, flowFields, GUTTER } from "../fields.ts";
import { formatAmount, formatDecimal } from "../format.ts";
import { CONTENT_WIDTH, LEFT, wrapText } from "../layout.ts";
import { partyLines } from "./party_block.ts";

/** Up to this many corrected invoices are listed one per line; more go into a compact grid. */
const _FEW_REFERENCES = 3;

/** Draws the correction section; nothing for an invoice that corrects nothing. */
export function drawCorrection(ctx: RenderContext): void {
  const { invoice: inv, labels: L, flow, lang } = ctx;
  const refs = inv.references.preceding_invoices;
  const c = inv.correction;
  if (refs.length === 0 && c === null) return;
  // When none of many corrected invoices is in KSeF, the heading says so once instead of every entry.
  const allOutside = refs.length > _FEW_REFERENCES && refs.every((r) => r.ksef_number === null && r.in_ksef === false);
  const heading = refs.length === 1 ? L.correctedInvoice : refs.length > 1 ? `${L.correctedInvoices} (${refs.length})` : L.correction;
  flowHeading(ctx, allOutside ? `${heading}, ${L.outsideKsef}` : heading, 24);
  if (refs.length <= _FEW_REFERENCES) {
    for (const r of refs) {
      const parts = [r.number ?? "—"];
      if (r.issue_date !== null) parts.push(` ${L.dated} ${r.issue_date}`);
      if (r.ksef_number !== null) parts.push(`, ${L.ksefNumber}: ${r.ksef_number}`);
      else if (r.in_ksef === false) parts.push(` (${L.outsideKsef})`);
      flowBlock(ctx, LEFT, styled(ctx, clean(ctx, parts.join("")), CONTENT_WIDTH, 9, false, 0, 1));
    }
  } else {
    _referenceGrid(ctx, !allOutside);
  }
  space(ctx, 4);
  if (c !== null) {
    flowFields(ctx, [
      [L.correctionReason, c.reason],
      [L.correctionType, codeWords(c.type, lang, "correction")],
      [L.correctedNumber, c.corrected_number],
      [L.correctedPeriod, c.period],
      [L.amountBefore, c.amount_before === null ? null : formatAmount(c.amount_before, lang)],
      [L.rateBefore, c.exchange_rate_before === null ? null : formatDecimal(c.exchange_rate_before, lang, 0)],
    ]);
    const half = (CONTENT_WIDTH - GUTTER) / 2;
    const before: StyledLine[][] = [];
    if (c.seller_before !== null) before.push(partyLines(ctx, c.seller_before, half, L.sellerBefore));
    for (const b of c.buyers_before) before.push(partyLines(ctx, b, half, L.buyerBefore));
    for (let i = 0; i < before.length; i += 2) {
      space(ctx, 4);
      flowColumns(ctx, before.slice(i, i + 2), half);
    }
  }
  space(ctx, 8);
}

/** Many corrected invoices: two side-by-side columns of "number · date · KSeF number" in small type. */
function _referenceGrid(ctx: RenderContext, markOutside: boolean): void {
  const { invoice: inv, flow } = ctx;
  const size = 7;
  const lead = 8.6;
  const half = (CONTENT_WIDTH - 16) / 2;
  const cells = inv.references.preceding_invoices.map((r) => {
    const ksef = r.ksef_number ?? (markOutside && r.in_ksef === false ? ctx.labels.outsideKsef : null);
    const s = [r.number ?? "—", r.issue_date, ksef].filter((x) => x !== null).join("  ·  ");
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
