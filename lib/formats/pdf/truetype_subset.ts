/**
 * Builds a subset of a TrueType font for embedding in a PDF (ISO 32000-1 §9.9 lists glyf, head,
 * hhea, hmtx, loca, maxp, cvt, fpgm, prep; OS/2 and a name-less post are kept too). Glyphs are
 * renumbered in the order given (new id k is the k-th glyph listed, .notdef first, composite
 * components after), so a PDF whose codes are those new ids uses /CIDToGIDMap /Identity. The
 * glyphs' own instructions are dropped, halving their data: viewers rasterize PDF text unhinted or
 * auto-hinted; cvt, fpgm and prep stay (the PDF spec requires them), so a hinting rasterizer still
 * runs. No cmap, name or layout tables: the PDF addresses glyphs by id.
 * @module
 */

import { glyphComponents, glyphData, type GlyphComponent, type TrueTypeFont } from "./truetype.ts";

/** Tables copied as they are: metrics some rasterizers read, and the font-wide hinting programs. */
const _VERBATIM = ["OS/2", "cvt ", "fpgm", "prep"] as const;
/** The fixed part of a format 3 'post' table (no glyph names). */
const _POST_HEADER = 32;
/** head.checkSumAdjustment is this minus the whole file's checksum (OpenType 'head'). */
const _CHECKSUM_MAGIC = 0xb1b0afba;
/** Composite flag: instructions follow the last component (OpenType 'glyf'). */
const _WE_HAVE_INSTRUCTIONS = 0x0100;

/** One glyph prepared once: its description without instructions, components, metrics. */
interface _Glyph {
  data: Uint8Array;
  /** Components of a composite, with where their ids sit in `data`; empty for a simple glyph. */
  components: readonly GlyphComponent[];
  advance: number;
  lsb: number;
}

/** Limit on the glyphs a subset may list, from the 16-bit glyph ids of TrueType. */
const _MAX_GLYPHS = 0xffff;

/**
 * Subsets one font, many times: each glyph is prepared (instructions dropped) on first use and
 * kept, so a document pays only for copying its glyphs. Share one per parsed font.
 */
export class TrueTypeSubsetter {
  readonly font: TrueTypeFont;
  #glyphs = new Map<number, _Glyph>();
  /** Tables copied as they are, read once. */
  #verbatim: [string, Uint8Array][];

  constructor(font: TrueTypeFont) {
    this.font = font;
    this.#verbatim = _VERBATIM.filter((tag) => font.tables.has(tag)).map((tag) => [tag, _copy(font, tag)]);
    if (font.tables.has("post") && _table(font, "post").length >= _POST_HEADER) {
      const post = new Uint8Array(_copy(font, "post").subarray(0, _POST_HEADER));
      new DataView(post.buffer).setUint32(0, 0x00030000);
      this.#verbatim.push(["post", post]);
    }
  }

  /**
   * The subset font file: new glyph id k draws `glyphs[k]` of the font (`glyphs[0]` should be 0,
   * .notdef); glyphs their composites need are appended after them.
   */
  subset(glyphs: readonly number[]): Uint8Array {
    const order = this.#closure(glyphs);
    const total = order.length;
    const prepared = order.map((g) => this.#glyph(g));
    const newId = new Map<number, number>();
    order.forEach((g, k) => newId.set(g, k));

    let glyfLength = 0;
    for (const p of prepared) glyfLength += _pad4(p.data.length);
    const glyf = new Uint8Array(glyfLength);
    const gv = new DataView(glyf.buffer);
    const loca = new DataView(new ArrayBuffer((total + 1) * 4));
    const hmtx = new DataView(new ArrayBuffer(total * 4));
    let at = 0;
    prepared.forEach((p, k) => {
      loca.setUint32(k * 4, at);
      glyf.set(p.data, at);
      for (const c of p.components) gv.setUint16(at + c.at, newId.get(c.gid) ?? 0);
      at += _pad4(p.data.length);
      hmtx.setUint16(k * 4, p.advance);
      hmtx.setInt16(k * 4 + 2, p.lsb);
    });
    loca.setUint32(total * 4, at);

    const head = _copy(this.font, "head");
    const hv = new DataView(head.buffer);
    hv.setUint32(8, 0); // checkSumAdjustment, set once the file is complete
    hv.setInt16(50, 1); // indexToLocFormat: long offsets
    const hhea = _copy(this.font, "hhea");
    new DataView(hhea.buffer).setUint16(34, total); // numberOfHMetrics: every glyph has its own
    const maxp = _copy(this.font, "maxp");
    // Only numGlyphs changes: maxp's other fields are upper bounds, still true of the subset.
    new DataView(maxp.buffer).setUint16(4, total);
    return writeTrueType(new Map<string, Uint8Array>([
      ["glyf", glyf], ["head", head], ["hhea", hhea], ["hmtx", new Uint8Array(hmtx.buffer)],
      ["loca", new Uint8Array(loca.buffer)], ["maxp", maxp], ...this.#verbatim,
    ]));
  }

  /** .notdef, the glyphs in order, then their composites' components (any depth) not yet listed. */
  #closure(glyphs: readonly number[]): number[] {
    const seen = new Set<number>([0]);
    for (const g of glyphs) if (g < this.font.numGlyphs) seen.add(g);
    const order = [...seen];
    // Components are appended as found, so the walk ends once every listed glyph has been looked at.
    for (let i = 0; i < order.length; i++) {
      if (order.length > _MAX_GLYPHS) throw new RangeError("Cannot subset font: too many glyphs");
      for (const c of this.#glyph(order[i] as number).components) {
        if (seen.has(c.gid)) continue;
        seen.add(c.gid);
        order.push(c.gid);
      }
    }
    return order;
  }

  #glyph(gid: number): _Glyph {
    let g = this.#glyphs.get(gid);
    if (g === undefined) {
      g = _prepare(this.font, gid);
      this.#glyphs.set(gid, g);
    }
    return g;
  }
}

/** One-off subset of `font` (see TrueTypeSubsetter.subset; keep a subsetter to subset a font often). */
export function subsetTrueType(font: TrueTypeFont, glyphs: readonly number[]): Uint8Array {
  return new TrueTypeSubsetter(font).subset(glyphs);
}

/** A glyph's description without instructions, its components and metrics. */
function _prepare(font: TrueTypeFont, gid: number): _Glyph {
  const data = glyphData(font, gid);
  const metrics = { advance: font.advances[gid] ?? 0, lsb: _leftSideBearing(font, gid) };
  if (data.length < 10) return { data: new Uint8Array(0), components: [], ...metrics };
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const contours = v.getInt16(0);
  if (contours >= 0) {
    // Simple glyph: header, endPtsOfContours[n], instructionLength, instructions, then the outline.
    const lengthAt = 10 + 2 * contours;
    if (lengthAt + 2 > data.length) throw new TypeError("Cannot subset font: simple glyph is truncated");
    const rest = lengthAt + 2 + v.getUint16(lengthAt);
    if (rest > data.length) throw new TypeError("Cannot subset font: simple glyph is truncated");
    const out = new Uint8Array(lengthAt + 2 + data.length - rest);
    out.set(data.subarray(0, lengthAt), 0);
    out.set(data.subarray(rest), lengthAt + 2);
    return { data: out, components: [], ...metrics };
  }
  const { components, end } = glyphComponents(data, font.numGlyphs);
  const out = new Uint8Array(data.subarray(0, end));
  const ov = new DataView(out.buffer);
  // The component ids are renumbered per subset, as the copy is made (TrueTypeSubsetter.subset).
  for (const c of components) ov.setUint16(c.at - 2, ov.getUint16(c.at - 2) & ~_WE_HAVE_INSTRUCTIONS);
  return { data: out, components, ...metrics };
}

/** A font file of the given tables: directory, tables sorted by tag and 4-byte aligned, checksums set. */
export function writeTrueType(tables: ReadonlyMap<string, Uint8Array>): Uint8Array {
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
  if (headAt >= 0) v.setUint32(headAt + 8, (_CHECKSUM_MAGIC - _checksum(out, 0, out.length)) >>> 0);
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
  return new Uint8Array(font.bytes.subarray(t.offset, t.offset + t.length));
}

function _pad4(n: number): number {
  return (n + 3) & ~3;
}
