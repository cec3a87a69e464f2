/**
 * Builds a subset of a TrueType font for embedding in a PDF (ISO 32000-1 §9.9: glyf, head, hhea,
 * hmtx, loca, maxp, cvt, fpgm, prep, plus OS/2 and a name-less post). Glyph ids stay as they are,
 * so a PDF can use /CIDToGIDMap /Identity: unused glyphs below the last used one keep their id with
 * no outline. No cmap, name or layout tables: the PDF addresses glyphs by id.
 * @module
 */

import { glyphClosure, type TrueTypeFont } from "./truetype.ts";

/** Tables copied as they are (hinting programs and metrics the rasterizer may read). */
const _VERBATIM = ["OS/2", "cvt ", "fpgm", "prep"] as const;
/** The fixed part of a format 3 'post' table (no glyph names). */
const _POST_HEADER = 32;
/** head.checkSumAdjustment is this minus the whole file's checksum (OpenType 'head'). */
const _CHECKSUM_MAGIC = 0xb1b0afba;

/** The subset font file with the glyphs `used`, their composite components and .notdef. */
export function subsetTrueType(font: TrueTypeFont, used: Iterable<number>): Uint8Array {
  const keep = glyphClosure(font, used);
  const kept = new Uint8Array(font.numGlyphs);
  for (const g of keep) kept[g] = 1;
  const total = (keep[keep.length - 1] ?? 0) + 1;
  const source = (g: number) => (kept[g] === 1 ? g : -1);

  const glyfAt = _table(font, "glyf").offset;
  let glyfLength = 0;
  for (let g = 0; g < total; g++) {
    const s = source(g);
    if (s >= 0) glyfLength += _pad4((font.glyphOffsets[s + 1] ?? 0) - (font.glyphOffsets[s] ?? 0));
  }
  const glyf = new Uint8Array(glyfLength);
  const loca = new DataView(new ArrayBuffer((total + 1) * 4));
  const hmtx = new DataView(new ArrayBuffer(total * 4));
  let at = 0;
  for (let g = 0; g < total; g++) {
    loca.setUint32(g * 4, at);
    const s = source(g);
    if (s < 0) continue;
    const start = font.glyphOffsets[s] ?? 0;
    const end = font.glyphOffsets[s + 1] ?? 0;
    glyf.set(font.bytes.subarray(glyfAt + start, glyfAt + end), at);
    at += _pad4(end - start);
    hmtx.setUint16(g * 4, font.advances[s] ?? 0);
    hmtx.setInt16(g * 4 + 2, _leftSideBearing(font, s));
  }
  loca.setUint32(total * 4, at);

  const head = _copy(font, "head");
  const hv = new DataView(head.buffer);
  hv.setUint32(8, 0); // checkSumAdjustment, set once the file is complete
  hv.setInt16(50, 1); // indexToLocFormat: long offsets
  const hhea = _copy(font, "hhea");
  new DataView(hhea.buffer).setUint16(34, total); // numberOfHMetrics: every glyph has its own
  const maxp = _copy(font, "maxp");
  new DataView(maxp.buffer).setUint16(4, total);

  const tables = new Map<string, Uint8Array>([
    ["glyf", glyf], ["head", head], ["hhea", hhea], ["hmtx", new Uint8Array(hmtx.buffer)],
    ["loca", new Uint8Array(loca.buffer)], ["maxp", maxp],
  ]);
  for (const tag of _VERBATIM) if (font.tables.has(tag)) tables.set(tag, _copy(font, tag));
  if (font.tables.has("post") && _table(font, "post").length >= _POST_HEADER) {
    const post = _copy(font, "post").slice(0, _POST_HEADER);
    new DataView(post.buffer).setUint32(0, 0x00030000);
    tables.set("post", post);
  }
  return _assemble(tables);
}

/** Writes the table directory and the tables (sorted by tag, 4-byte aligned) and sets the checksums. */
function _assemble(tables: Map<string, Uint8Array>): Uint8Array {
  const tags = [...tables.keys()].sort();
  const n = tags.length;
  let size = 12 + 16 * n;
  for (const t of tags) size += _pad4(tables.get(t)?.length ?? 0);
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  // Binary-search helpers of the table directory (OpenType "Table Directory").
  const log2 = Math.floor(Math.log2(n));
  v.setUint32(0, 0x00010000);
  v.setUint16(4, n);
  v.setUint16(6, 16 * 2 ** log2);
  v.setUint16(8, log2);
  v.setUint16(10, 16 * n - 16 * 2 ** log2);
  let at = 12 + 16 * n;
  let headAt = -1;
  tags.forEach((tag, i) => {
    const data = tables.get(tag) as Uint8Array;
    const rec = 12 + 16 * i;
    for (let k = 0; k < 4; k++) out[rec + k] = tag.charCodeAt(k);
    out.set(data, at);
    v.setUint32(rec + 4, _checksum(out, at, data.length));
    v.setUint32(rec + 8, at);
    v.setUint32(rec + 12, data.length);
    if (tag === "head") headAt = at;
    at += _pad4(data.length);
  });
  v.setUint32(headAt + 8, (_CHECKSUM_MAGIC - _checksum(out, 0, out.length)) >>> 0);
  return out;
}

/** Sum of big-endian uint32 words, the last one zero-padded, modulo 2^32. */
function _checksum(bytes: Uint8Array, start: number, length: number): number {
  let sum = 0;
  const end = start + length;
  let i = start;
  for (; i + 4 <= end; i += 4) sum = (sum + (((bytes[i] ?? 0) << 24) | ((bytes[i + 1] ?? 0) << 16) | ((bytes[i + 2] ?? 0) << 8) | (bytes[i + 3] ?? 0))) >>> 0;
  if (i < end) {
    let last = 0;
    for (let k = 0; k < 4; k++) last = (last << 8) | (i + k < end ? (bytes[i + k] ?? 0) : 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

function _leftSideBearing(font: TrueTypeFont, g: number): number {
  const hmtx = _table(font, "hmtx").offset;
  const metrics = new DataView(font.bytes.buffer, font.bytes.byteOffset).getUint16(_table(font, "hhea").offset + 34);
  const at = g < metrics ? hmtx + g * 4 + 2 : hmtx + metrics * 4 + (g - metrics) * 2;
  return at + 2 <= font.bytes.length ? new DataView(font.bytes.buffer, font.bytes.byteOffset).getInt16(at) : 0;
}

function _table(font: TrueTypeFont, tag: string): { offset: number; length: number } {
  const t = font.tables.get(tag);
  if (t === undefined) throw new TypeError(`Cannot subset font: no ${tag} table`);
  return t;
}

/** A copy of a table's bytes (its own buffer, so it can be patched). */
function _copy(font: TrueTypeFont, tag: string): Uint8Array {
  const t = _table(font, tag);
  return font.bytes.slice(t.offset, t.offset + t.length);
}

function _pad4(n: number): number {
  return (n + 3) & ~3;
}
