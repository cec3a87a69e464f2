/**
 * One page's content stream (ISO 32000-1 §8, §9.4): text, filled rectangles, lines and QR
 * modules, in top-down coordinates (y grows downwards from the top edge, as layouts think).
 * Operators are collected as strings and joined once; text must already be sanitized
 * (PdfFonts.sanitize). No clipping, images or colour spaces other than DeviceGray.
 * @module
 */

import type { FontUsage } from "./encoding.ts";
import type { QrCode } from "./qr.ts";
import { num } from "./writer.ts";

/** Two hex digits per byte value, for inline image data. */
const _HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** A4 in points (ISO 216: 210 × 297 mm). */
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;

/** Drawing operations for one page. */
export class PageCanvas {
  #ops: string[] = [];
  #fill = 0;
  #used: FontUsage;

  constructor(used: FontUsage) {
    this.#used = used;
  }

  /** Draws text with its baseline at (x, y); `gray` 0 is black, 1 white. */
  text(x: number, y: number, s: string, size: number, bold = false, gray = 0): void {
    if (s === "") return;
    this.#setFill(gray);
    this.#ops.push(`BT ${num(x)} ${num(PAGE_HEIGHT - y)} Td ${this.#used.show(s, bold, num(size))} ET`);
  }

  /** Draws text whose right edge is at `right`. */
  textRight(right: number, y: number, s: string, size: number, bold = false, gray = 0): void {
    this.text(right - this.#used.fonts.textWidth(s, bold, size), y, s, size, bold, gray);
  }

  /** Fills a rectangle whose top-left corner is (x, y). */
  rect(x: number, y: number, w: number, h: number, gray: number): void {
    this.#setFill(gray);
    this.#ops.push(`${num(x)} ${num(PAGE_HEIGHT - y - h)} ${num(w)} ${num(h)} re f`);
  }

  /** Strokes a straight line. */
  line(x1: number, y1: number, x2: number, y2: number, width: number, gray: number): void {
    this.#ops.push(`${num(gray)} G ${num(width)} w ${num(x1)} ${num(PAGE_HEIGHT - y1)} m ${num(x2)} ${num(PAGE_HEIGHT - y2)} l S`);
  }

  /**
   * Draws a QR code whose top-left module is at (x, y), each module `module` points wide: one
   * inline 1-bit image mask (ISO 32000-1 §8.9.7, §8.9.6.2) scaled by the matrix, so the symbol
   * costs a few hundred bytes of content instead of a rectangle per run of modules.
   */
  qr(x: number, y: number, module: number, code: QrCode): void {
    this.#setFill(0);
    const { size, modules } = code;
    const rowBytes = (size + 7) >> 3;
    let hex = "";
    for (let row = 0; row < size; row++) {
      for (let b = 0; b < rowBytes; b++) {
        let byte = 0;
        for (let bit = 0; bit < 8; bit++) {
          const col = b * 8 + bit;
          if (col < size && modules[row * size + col] === 1) byte |= 0x80 >> bit;
        }
        hex += _HEX[byte];
      }
    }
    const side = num(size * module);
    // /D [1 0]: a 1 (dark module) paints with the fill colour, a 0 leaves the page as it is.
    this.#ops.push(`q ${side} 0 0 ${side} ${num(x)} ${num(PAGE_HEIGHT - y - size * module)} cm BI /W ${size} /H ${size} /IM true /BPC 1 /D [1 0] /F /AHx ID ${hex}> EI Q`);
  }

  /** The page's content stream. */
  content(): string {
    return this.#ops.join("\n");
  }

  #setFill(gray: number): void {
    if (gray === this.#fill) return;
    this.#fill = gray;
    this.#ops.push(`${num(gray)} g`);
  }
}
