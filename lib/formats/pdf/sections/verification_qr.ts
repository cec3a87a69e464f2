/**
 * The KSeF verification QR codes as kody-qr.md has them on a visualisation: KOD I (the invoice in KSeF)
 * labelled under the code with the invoice's KSeF number, or `OFFLINE` while an offline invoice has none yet;
 * and, for an offline invoice, KOD II (the issuer's KSeF certificate) labelled `CERTYFIKAT`. Each code has its
 * caption and its link printed beside it. KOD II comes already built and signed (ksef_certificate_link.ts): the
 * renderer signs nothing. When a code does not fit at its normal size on the rest of the page, a smaller module
 * (still well above the scanners' minimum) keeps it there instead of starting a page for it alone.
 * @module
 */

import { blockHeight, clean, drawBlock, flowHeading, styled, type RenderContext, type StyledLine } from "../blocks.ts";
import { ksefVerificationLink, type KsefQrEnvironment } from "../ksef_link.ts";
import { CONTENT_WIDTH, LEFT } from "../layout.ts";
import { encodeQr, fitsInQr, type QrCode } from "../qr.ts";

/** Side of one QR module in points: version 6 (41 modules, KOD I) comes out about 37 mm with the quiet zone. */
const _MODULE = 2.6;
/** The smaller module used to keep the code on the page: 0.7 mm, about twice ISO 18004's usual minimum for print. */
const _MODULE_SMALL = 2;
/** The side a code is drawn at when its normal module would make it larger (KOD II has 3-4 times KOD I's data). */
const _MAX_SIDE = 41 * _MODULE;
/** The least module: 0.53 mm, still about twice the 0.25 mm that phone cameras read on paper. */
const _MODULE_MIN = 1.5;
/** Quiet zone of four modules (ISO 18004 §6.3.8). */
const _QUIET = 4;
/** Height of the section heading with its rule. */
const _HEADING_H = 18;
/** kody-qr.md, "Oznaczenie pod kodem QR": the label of KOD I before the KSeF number is known, and of KOD II. */
const _OFFLINE_LABEL = "OFFLINE";
const _CERTIFICATE_LABEL = "CERTYFIKAT";

/** What the section draws: the XML's hash, the invoice's environment and KSeF number, and the offline state. */
export interface KsefQrOptions {
  xmlSha256: Uint8Array | string;
  ksefNumber: string | null;
  environment: KsefQrEnvironment;
  /** Issued offline: KOD I reads `OFFLINE` until the KSeF number is known. */
  offline: boolean;
  /** The signed KOD II link of an offline invoice, or null. */
  certificateLink: string | null;
}

/**
 * Draws KOD I (and KOD II when given); nothing without seller NIP or issue date, nor when the link is too long
 * for any QR code (a "NIP" of thousands of characters is none: KSeF could not verify it).
 */
export function drawKsefQr(ctx: RenderContext, o: KsefQrOptions): void {
  const link = ksefVerificationLink(ctx.invoice, o.xmlSha256, o.environment);
  if (link === null || !fitsInQr(link)) return;
  const { labels: L } = ctx;
  const label = o.ksefNumber ?? (o.offline ? _OFFLINE_LABEL : null);
  _drawCode(ctx, { title: L.qrTitle, caption: L.qrCaption, label, link });
  if (o.certificateLink !== null) {
    _drawCode(ctx, { title: L.qrCertificateTitle, caption: L.qrCertificateCaption, label: _CERTIFICATE_LABEL, link: o.certificateLink });
  }
}

interface _Code {
  title: string;
  caption: string;
  label: string | null;
  link: string;
}

// One code with its heading: the symbol at the left with its label under it, caption and link beside.
function _drawCode(ctx: RenderContext, c: _Code): void {
  const { flow } = ctx;
  const code = encodeQr(c.link);
  const normal = Math.min(_MODULE, Math.max(_MODULE_MIN, _MAX_SIDE / code.size));
  let q = _layout(ctx, c, code, normal);
  if (q.h + _HEADING_H > flow.room()) {
    const small = _layout(ctx, c, code, Math.max(_MODULE_MIN, normal * (_MODULE_SMALL / _MODULE)));
    if (small.h + _HEADING_H <= flow.room()) q = small;
  }
  flowHeading(ctx, c.title, q.h);
  const top = flow.y;
  flow.page.qr(LEFT + q.quiet, top + q.quiet, q.module, code);
  if (q.label.length > 0) {
    const labelX = LEFT + Math.max(0, q.quiet + (q.side - q.labelW) / 2);
    drawBlock(flow.page, labelX, top + q.quiet + q.side + q.quiet / 2, q.label);
  }
  const textTop = top + q.quiet + Math.max(0, (q.side - blockHeight(q.text)) / 2);
  drawBlock(flow.page, LEFT + q.columnW, textTop, q.text);
  flow.y = top + q.h + 6;
}

function _layout(ctx: RenderContext, c: _Code, code: QrCode, module: number) {
  const side = code.size * module;
  const quiet = _QUIET * module;
  const labelText = clean(ctx, c.label);
  const labelW = labelText === "" ? 0 : ctx.fonts.textWidth(labelText, true, 8);
  const label: StyledLine[] = labelText === "" ? [] : [{ s: labelText, size: 8, bold: true, gray: 0, lead: 10 }];
  // A label wider than the symbol with its quiet zone pushes the text to the right of it.
  const columnW = Math.max(side + 2 * quiet, labelW + quiet);
  const textW = CONTENT_WIDTH - columnW - quiet;
  const text: StyledLine[] = [
    ...styled(ctx, clean(ctx, c.caption), textW, 9, true),
    ...styled(ctx, clean(ctx, c.link), textW, 7, false, 0.2, 6),
  ];
  const codeH = label.length === 0 ? side + 2 * quiet : side + 1.5 * quiet + blockHeight(label) + quiet / 2;
  return { module, side, quiet, label, labelW, columnW, text, h: Math.max(codeH, blockHeight(text) + quiet) };
}
