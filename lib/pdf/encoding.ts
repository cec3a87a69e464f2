/**
 * Text in content streams for the embedded fonts: each character becomes its glyph id as a
 * two-byte code (Identity-H, ISO 32000-1 §9.7.5.2), and the glyphs a document draws are recorded
 * so that document.ts embeds only those. Text must be sanitized first (PdfFonts.sanitize), so
 * every character has a glyph. No shaping or kerning: one character, one glyph.
 * @module
 */

import type { PdfFonts } from "../formats/pdf/pdf_fonts.ts";

/** Resource names of the two fonts: regular and bold. */
export const FONT_NAMES = ["F1", "F2"] as const;

/** Two hex digits of each byte value. */
const _HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, "0"));
const _QUESTION = 0x3f;

/** The fonts of one document and the glyphs it has drawn with each, shared by all its pages. */
export class FontUsage {
  readonly fonts: PdfFonts;
  /** 1 for every glyph id drawn, per face (regular, bold). */
  readonly used: readonly [Uint8Array, Uint8Array];

  constructor(fonts: PdfFonts) {
    this.fonts = fonts;
    this.used = [new Uint8Array(fonts.faces[0].font.numGlyphs), new Uint8Array(fonts.faces[1].font.numGlyphs)];
  }
}

/** Content-stream operators that select the font and show sanitized text ("/F1 9 Tf <0024…> Tj"). */
export function showText(usage: FontUsage, text: string, bold: boolean, size: string): string {
  const face = bold ? 1 : 0;
  const glyphs = usage.fonts.glyphs[face];
  const used = usage.used[face];
  let hex = "";
  for (let i = 0; i < text.length; i++) {
    let g = glyphs[text.charCodeAt(i)] ?? 0;
    // Unsanitized text still gets a visible mark rather than .notdef.
    if (g === 0) g = glyphs[_QUESTION] ?? 0;
    used[g] = 1;
    hex += (_HEX2[g >> 8] as string) + (_HEX2[g & 0xff] as string);
  }
  return `/${FONT_NAMES[face]} ${size} Tf <${hex}> Tj`;
}
