/**
 * Text in content streams for the embedded fonts: each character becomes a two-byte code
 * (Identity-H, ISO 32000-1 §9.7.5.2) numbering the document's glyphs in order of first use, which
 * is also their glyph id in the subset that document.ts embeds (so /CIDToGIDMap is /Identity).
 * Text must be sanitized first (PdfFonts.sanitize). No shaping or kerning: one character, one glyph.
 * @module
 */

import type { PdfFonts } from "./pdf_fonts.ts";

/** Resource names of the two fonts: regular and bold. */
export const FONT_NAMES = ["F1", "F2"] as const;

/**
 * Each byte as it goes into a literal string (§7.3.4.2): itself, or escaped where a reader would
 * take it for a delimiter or normalize it (parentheses, backslash, CR, LF). Half the size of hex.
 */
const _LITERAL = Array.from({ length: 256 }, (_, b) =>
  b === 0x28 || b === 0x29 || b === 0x5c ? `\\${String.fromCharCode(b)}` : b === 0x0d ? "\\r" : b === 0x0a ? "\\n" : String.fromCharCode(b));
const _QUESTION = 0x3f;

/** The fonts of one document and the glyphs it has drawn with each, shared by all its pages. */
export class FontUsage {
  readonly fonts: PdfFonts;
  /** Per face (regular, bold): the font's glyph id of each code, in order of first use; code 0 is .notdef. */
  readonly glyphs: readonly [number[], number[]];
  /** Per face: the code given to each of the font's glyph ids (0 = not used yet). */
  #codes: [Uint16Array, Uint16Array];

  constructor(fonts: PdfFonts) {
    this.fonts = fonts;
    this.glyphs = [[0], [0]];
    this.#codes = [new Uint16Array(fonts.faces[0].font.numGlyphs), new Uint16Array(fonts.faces[1].font.numGlyphs)];
  }

  /** Content-stream operators that select the font and show sanitized text ("/F1 9 Tf (\0\1…) Tj"). */
  show(text: string, bold: boolean, size: string): string {
    const face = bold ? 1 : 0;
    const byChar = this.fonts.glyphs[face];
    const codes = this.#codes[face];
    const glyphs = this.glyphs[face];
    let codesText = "";
    for (let i = 0; i < text.length; i++) {
      let g = byChar[text.charCodeAt(i)] ?? 0;
      // Unsanitized text still gets a visible mark rather than .notdef.
      if (g === 0) g = byChar[_QUESTION] ?? 0;
      let code = codes[g] ?? 0;
      if (code === 0) {
        code = glyphs.push(g) - 1;
        codes[g] = code;
      }
      codesText += (_LITERAL[code >> 8] as string) + (_LITERAL[code & 0xff] as string);
    }
    return `/${FONT_NAMES[face]} ${size} Tf (${codesText}) Tj`;
  }
}
