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

  /** Draws the dark modules of a QR code as rectangles, one per horizontal run; (x, y) is the top-left module. */
  qr(x: number, y: number, module: number, code: QrCode): void {
    this.#setFill(0);
    const parts: string[] = [];
    const { size, modules } = code;
    for (let row = 0; row < size; row++) {
      let col = 0;
      while (col < size) {
        if (modules[row * size + col] !== 1) {
          col++;
          continue;
        }
        const start = col;
        while (col < size && modules[row * size + col] === 1) col++;
        // Slight overlap (0.02 pt) avoids hairline gaps between rows in some rasterizers.
        parts.push(`${num(x + start * module)} ${num(PAGE_HEIGHT - y - (row + 1) * module)} ${num((col - start) * module)} ${num(module + 0.02)} re`);
      }
    }
    this.#ops.push(`${parts.join("\n")}\nf`);
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
