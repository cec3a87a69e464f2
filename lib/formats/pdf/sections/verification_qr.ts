/**
 * The KSeF verification QR code ("KOD I", README “The PDF”) with the caption, the invoice's KSeF
 * number and the link beside it, as the official visualisation prints it. When the code does
 * not fit at its normal size on the rest of the page, a smaller module (still well above the
 * scanners' minimum) keeps it there instead of starting a page for it alone.
 * @module
 */

import { blockHeight, clean, drawBlock, flowHeading, styled, type RenderContext, type StyledLine } from "../blocks.ts";
import { ksefVerificationLink } from "../ksef_link.ts";
import { CONTENT_WIDTH, LEFT } from "../layout.ts";
import { encodeQr, fitsInQr } from "../qr.ts";

/** Side of one QR module in points: version 6 (41 modules) comes out about 37 mm with the quiet zone. */
const _MODULE = 2.6;
/** The smaller module used to keep the code on the page: 0.7 mm, about twice ISO 18004's usual minimum for print. */
const _MODULE_SMALL = 2;
/** Quiet zone of four modules (ISO 18004 §6.3.8). */
const _QUIET = 4;
/** Height of the section heading with its rule. */
const _HEADING_H = 18;

/**
 * Draws the KSeF verification QR code with the KSeF number and the link; nothing without seller NIP or issue date,
 * nor when the link is too long for any QR code (a "NIP" of thousands of characters is none: KSeF could not verify it).
 */
export function drawKsefQr(ctx: RenderContext, xmlSha256: Uint8Array | string, ksefNumber: string | null): void {
  const link = ksefVerificationLink(ctx.invoice, xmlSha256);
  if (link === null || !fitsInQr(link)) return;
  const { flow, labels: L } = ctx;
  const code = encodeQr(link);
  const layout = (module: number) => {
    const side = code.size * module;
    const quiet = _QUIET * module;
    const textW = CONTENT_WIDTH - side - 3 * quiet;
    const text: StyledLine[] = [
      ...styled(ctx, clean(ctx, L.qrCaption), textW, 9, true),
      ...styled(ctx, clean(ctx, ksefNumber), textW, 8.5, true, 0, 6),
      ...styled(ctx, clean(ctx, link), textW, 7, false, 0.2, ksefNumber === null ? 6 : 3),
    ];
    return { module, side, quiet, text, h: Math.max(side + 2 * quiet, blockHeight(text) + quiet) };
  };
  let q = layout(_MODULE);
  if (q.h + _HEADING_H > flow.room()) {
    const small = layout(_MODULE_SMALL);
    if (small.h + _HEADING_H <= flow.room()) q = small;
  }
  flowHeading(ctx, L.qrTitle, q.h);
  const top = flow.y;
  flow.page.qr(LEFT + q.quiet, top + q.quiet, q.module, code);
  const textTop = top + q.quiet + Math.max(0, (q.side - blockHeight(q.text)) / 2);
  drawBlock(flow.page, LEFT + q.side + 2 * q.quiet, textTop, q.text);
  flow.y = top + q.h + 6;
}
