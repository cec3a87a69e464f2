/**
 * The two faces (regular, bold) a PDF draws its text with, parsed once from TrueType bytes that
 * the caller supplies (lib does no I/O; storage/fonts/font_files.ts reads the shipped Liberation
 * Sans): which characters they can draw, text widths for layout from each glyph's advance (hmtx),
 * and the glyph id and Unicode value of each character. No shaping, kerning or ligatures.
 * @module
 */

import { parseTrueType, type TrueTypeFont } from "./truetype.ts";
import { TrueTypeSubsetter } from "./truetype_subset.ts";

/** The font files to embed: TrueType bytes of a regular and a bold face of one family. */
export interface PdfFontFiles {
  regular: Uint8Array;
  bold: Uint8Array;
}

/** One face ready for PDF text: glyph ids and widths by code point, Unicode by glyph. */
export interface FontFace {
  font: TrueTypeFont;
  /** Builds each document's subset, keeping the glyphs it has prepared. */
  subsetter: TrueTypeSubsetter;
  /** Advance of each glyph in 1/1000 em, rounded as the PDF's /W array gives it. */
  glyphWidths: Uint16Array;
  /** The lowest BMP code point drawn by each glyph (what ToUnicode maps it back to); 0 for none. */
  unicode: Uint32Array;
}

const _QUESTION = 0x3f;
/** Combining Diacritical Marks: the fonts draw them, but composed letters draw and extract better. */
const _COMBINING_FIRST = 0x300;
const _COMBINING_LAST = 0x36f;
const _TAB = 9;
const _LF = 10;
const _CR = 13;

/** Parsed regular and bold faces with the measurements layout needs; share one per process. */
export class PdfFonts {
  /** @internal Regular [0] and bold [1] (the renderer's). */
  readonly faces: readonly [FontFace, FontFace];
  /** @internal Glyph id per BMP code point, per face; 0 where either face lacks the character. */
  readonly glyphs: readonly [Uint16Array, Uint16Array];
  /** Width per BMP code point in 1/1000 em, per face. */
  #widths: [Uint16Array, Uint16Array];

  /** Parses both files; throws TypeError when one is not a TrueType font with a Unicode cmap. */
  constructor(files: PdfFontFiles) {
    const regular = _face(parseTrueType(files.regular));
    const bold = _face(parseTrueType(files.bold));
    this.faces = [regular, bold];
    const glyphs: [Uint16Array, Uint16Array] = [new Uint16Array(0x10000), new Uint16Array(0x10000)];
    this.#widths = [new Uint16Array(0x10000), new Uint16Array(0x10000)];
    for (let cp = 0; cp < 0x10000; cp++) {
      const r = regular.font.bmp[cp] ?? 0;
      const b = bold.font.bmp[cp] ?? 0;
      // Control characters have glyphs in some fonts but never belong on a page.
      if (r === 0 || b === 0 || cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) continue;
      glyphs[0][cp] = r;
      glyphs[1][cp] = b;
      this.#widths[0][cp] = regular.glyphWidths[r] ?? 0;
      this.#widths[1][cp] = bold.glyphWidths[b] ?? 0;
    }
    if (glyphs[0][_QUESTION] === 0) throw new TypeError("PDF fonts must draw \"?\"");
    this.glyphs = glyphs;
  }

  /** True when both faces draw the code point. */
  canDraw(cp: number): boolean {
    return cp < 0x10000 && this.glyphs[0][cp] !== 0;
  }

  /**
   * The text with tabs and line breaks turned into spaces and every character the fonts cannot
   * draw replaced by "?", each such character added to `missing` (NFC first, so "e" + U+0301 becomes "é").
   */
  sanitize(text: string, missing: Set<string>): string {
    const glyphs = this.glyphs[0];
    let i = 0;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (glyphs[c] === 0 || (c >= _COMBINING_FIRST && c <= _COMBINING_LAST)) break;
    }
    if (i === text.length) return text;
    const s = text.normalize("NFC");
    let out = "";
    for (const ch of s) {
      const cp = ch.codePointAt(0) ?? _QUESTION;
      if (cp < 0x10000 && glyphs[cp] !== 0) out += ch;
      else if (cp === _TAB || cp === _LF || cp === _CR) out += " ";
      else {
        missing.add(ch);
        out += "?";
      }
    }
    return out;
  }

  /** Width of sanitized text in points. */
  textWidth(text: string, bold: boolean, size: number): number {
    const widths = this.#widths[bold ? 1 : 0];
    let w = 0;
    for (let i = 0; i < text.length; i++) w += widths[text.charCodeAt(i)] ?? 0;
    return (w * size) / 1000;
  }
}

function _face(font: TrueTypeFont): FontFace {
  const glyphWidths = new Uint16Array(font.numGlyphs);
  for (let g = 0; g < font.numGlyphs; g++) glyphWidths[g] = Math.round(((font.advances[g] ?? 0) * 1000) / font.unitsPerEm);
  const unicode = new Uint32Array(font.numGlyphs);
  for (let cp = 0xffff; cp > 0; cp--) {
    const g = font.bmp[cp] ?? 0;
    if (g !== 0) unicode[g] = cp;
  }
  return { font, subsetter: new TrueTypeSubsetter(font), glyphWidths, unicode };
}
