/**
 * Writes one face as an embedded, subset composite font (ISO 32000-1 §9.7): a Type0 font with
 * /Identity-H encoding over a CIDFontType2 whose CIDs are the subset's glyph ids (/CIDToGIDMap /Identity),
 * /W widths of the glyphs drawn, a FontDescriptor with the subset as FontFile2, and a /ToUnicode
 * CMap (§9.10.3) so extracted text is the exact characters. The subset tag (§9.6.4) is derived
 * from the glyph set, so the same document gives the same bytes. No vertical writing.
 * @module
 */

import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import type { PdfWriter } from "./writer.ts";
import type { FontFace } from "./pdf_fonts.ts";

/** ISO 32000-1 Table 123: Nonsymbolic (Latin text), FixedPitch, Italic. */
const _FLAG_FIXED_PITCH = 1;
const _FLAG_NONSYMBOLIC = 32;
const _FLAG_ITALIC = 64;
/** Adobe TN 5411: at most 100 entries per bfchar block. */
const _BFCHAR_BLOCK = 100;
const _TAG_LETTERS = 6;

/**
 * Writes the font objects of `face`; CID k draws the font's glyph `gids[k]` (`gids[0]` is 0, .notdef).
 * `fontObj` is the Type0 font's reserved object number.
 */
export function writeEmbeddedFont(w: PdfWriter, fontObj: number, face: FontFace, gids: readonly number[]): void {
  const font = face.font;
  const name = `${subsetTag(font.postScriptName, gids)}+${font.postScriptName}`;
  const cid = w.reserve();
  const descriptor = w.reserve();
  const file = w.reserve();
  const toUnicode = w.reserve();

  w.object(fontObj, `<< /Type /Font /Subtype /Type0 /BaseFont /${name} /Encoding /Identity-H /DescendantFonts [${cid} 0 R] /ToUnicode ${toUnicode} 0 R >>`);
  w.object(cid, `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>` +
    ` /FontDescriptor ${descriptor} 0 R /W [${_widths(face, gids)}] /CIDToGIDMap /Identity >>`);
  const em = (x: number) => Math.round((x * 1000) / font.unitsPerEm);
  const flags = _FLAG_NONSYMBOLIC | (font.fixedPitch ? _FLAG_FIXED_PITCH : 0) | (font.italicAngle !== 0 ? _FLAG_ITALIC : 0);
  // The font has no stem width; this is the usual estimate from its weight class.
  const stemV = Math.round(10 + (220 * (font.weightClass - 50)) / 900);
  w.object(descriptor, `<< /Type /FontDescriptor /FontName /${name} /Flags ${flags} /FontBBox [${font.bbox.map(em).join(" ")}]` +
    ` /ItalicAngle ${Math.round(font.italicAngle)} /Ascent ${em(font.ascent)} /Descent ${em(font.descent)} /CapHeight ${em(font.capHeight)}` +
    ` /StemV ${stemV} /FontFile2 ${file} 0 R >>`);
  const subset = face.subsetter.subset(gids);
  // Outlines hardly compress (7.7 KB → 5.7 KB at level 6, 5.8 KB at level 1), so the fast level it is.
  w.compressedStream(file, deflateSync(subset, { level: 1 }), `/Length1 ${subset.length}`);
  w.stream(toUnicode, _toUnicode(face, gids));
}

/** Six capital letters naming the glyph set (ISO 32000-1 §9.6.4), the same for the same glyphs. */
export function subsetTag(fontName: string, gids: readonly number[]): string {
  const hash = createHash("sha256").update(`${fontName}:${gids.join(",")}`).digest();
  let tag = "";
  for (let i = 0; i < _TAG_LETTERS; i++) tag += String.fromCharCode(65 + ((hash[i] ?? 0) % 26));
  return tag;
}

/** The /W array: the widths of CIDs 1…n as one run (.notdef is never drawn). */
function _widths(face: FontFace, gids: readonly number[]): string {
  const run: number[] = [];
  for (let cid = 1; cid < gids.length; cid++) run.push(face.glyphWidths[gids[cid] as number] ?? 0);
  return `1 [${run.join(" ")}]`;
}

function _hex4(n: number): string {
  return n.toString(16).toUpperCase().padStart(4, "0");
}

function _toUnicode(face: FontFace, gids: readonly number[]): string {
  const pairs: string[] = [];
  gids.forEach((g, cid) => {
    const cp = face.unicode[g] ?? 0;
    if (cp !== 0) pairs.push(`<${_hex4(cid)}> <${_hex4(cp)}>`);
  });
  const blocks: string[] = [];
  for (let i = 0; i < pairs.length; i += _BFCHAR_BLOCK) {
    const chunk = pairs.slice(i, i + _BFCHAR_BLOCK);
    blocks.push(`${chunk.length} beginbfchar\n${chunk.join("\n")}\nendbfchar`);
  }
  return "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
    `/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n${blocks.join("\n")}\n` +
    "endcmap\nCMapName currentdict /CMapResource defineresource pop\nend\nend\n";
}
