/**
 * The parties of the invoice, two blocks to a row: seller beside buyer, then the payee and the
 * seller's tax representative (EN 16931 BG-10, BG-11), the deliver-to party (BG-13), KSeF third
 * parties (Podmiot3) with their role and share, and the authorised party (PodmiotUpowazniony).
 * @module
 */

import { blankParty } from "../../invoice/blank.ts";
import type { Party } from "../../invoice/model.ts";
import { blockHeight, type RenderContext, type StyledLine, space } from "../blocks.ts";
import { codeWords } from "../code_words.ts";
import { flowColumns, GUTTER, type Field } from "../fields.ts";
import { formatDecimal } from "../format.ts";
import { CONTENT_WIDTH, LEFT } from "../layout.ts";
import { partyLines } from "./party_block.ts";

/** Grey of heading lines (headingLines in blocks.ts), which tells them from the party's name. */
const _HEADING_GRAY = 0.25;
/** Width of one of two columns. */
const _HALF = (CONTENT_WIDTH - GUTTER) / 2;

/** Draws every party block, two to a row. */
export function drawParties(ctx: RenderContext): void {
  const { invoice: inv, labels: L, lang } = ctx;
  const blocks: StyledLine[][] = [
    partyLines(ctx, inv.seller, _HALF, L.seller),
    partyLines(ctx, inv.buyer, _HALF, L.buyer),
  ];
  _row(ctx, blocks, true);
  const more: StyledLine[][] = [];
  if (inv.payee !== null) more.push(partyLines(ctx, inv.payee, _HALF, L.payee));
  if (inv.tax_representative !== null) more.push(partyLines(ctx, inv.tax_representative, _HALF, L.taxRepresentative));
  const d = inv.delivery;
  if (d !== null && (d.party_name !== null || d.location_id !== null || d.address !== null)) {
    const place: Party = { ...blankParty(), name: d.party_name, address: d.address };
    const extra: Field[] = d.location_id === null ? [] : [[L.location, d.location_id.scheme === null ? d.location_id.value : `${d.location_id.value} (${d.location_id.scheme})`]];
    more.push(partyLines(ctx, place, _HALF, L.deliverTo, extra));
  }
  for (const t of inv.third_parties) {
    const role = t.role_description ?? codeWords(t.role, lang, "role");
    const share: Field[] = [[L.share, t.share === null ? null : `${formatDecimal(t.share, lang, 0)}%`]];
    more.push(partyLines(ctx, t, _HALF, `${L.thirdParty}${role === null ? "" : `: ${role}`}`, share));
  }
  if (inv.authorized_party !== null) {
    const a = inv.authorized_party;
    more.push(partyLines(ctx, a, _HALF, `${L.authorizedParty}: ${codeWords(a.role, lang, "authorized") ?? ""}`.replace(/: $/, "")));
  }
  for (let i = 0; i < more.length; i += 2) _row(ctx, more.slice(i, i + 2), false);
}

/** Draws up to two blocks side by side with a thin rule under their headings. */
function _row(ctx: RenderContext, blocks: StyledLine[][], first: boolean): void {
  const { flow } = ctx;
  const h = Math.max(...blocks.map(blockHeight));
  flow.ensure(h + 4);
  const top = flow.y;
  const samePage = h <= flow.room();
  flowColumns(ctx, blocks, _HALF);
  if (samePage) {
    blocks.forEach((b, k) => {
      // Under the heading's last line: a long role wraps the heading onto two.
      let lines = 0;
      while (lines < b.length && b[lines]?.bold === true && b[lines]?.gray === _HEADING_GRAY) lines++;
      const rule = top + Math.max(1, lines) * 9 * 1.25 + 3;
      const x = LEFT + k * (_HALF + GUTTER);
      flow.page.line(x, rule, x + _HALF, rule, 0.5, 0.6);
    });
  }
  space(ctx, first ? 12 : 10);
}
