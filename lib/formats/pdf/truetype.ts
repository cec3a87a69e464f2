/**
 * Reads a TrueType font (OpenType with `glyf` outlines) far enough to embed it in a PDF: the
 * table directory, head, hhea, maxp, hmtx, cmap (formats 4 and 12), loca, the components of
 * composite glyphs, post and the PostScript name. No hinting, kerning, layout tables or CFF
 * outlines. Follows the OpenType specification 1.9 (Microsoft) / Apple TrueType Reference.
 * @module
 */

/** One parsed font: the bytes, where each table is, and what the PDF writer needs. */
export interface TrueTypeFont {
  bytes: Uint8Array;
  /** Offset and length of each table, by tag. */
  tables: ReadonlyMap<string, { offset: number; length: number }>;
  unitsPerEm: number;
  numGlyphs: number;
  /** Advance width of each glyph, in font units. */
  advances: Uint16Array;
  /** Start offset of each glyph's data in `glyf` (relative to the table), numGlyphs + 1 entries. */
  glyphOffsets: Uint32Array;
  /** Glyph id of each BMP code point (0 = none). */
  bmp: Uint16Array;
  /** Glyph ids of code points above U+FFFF. */
  astral: ReadonlyMap<number, number>;
  postScriptName: string;
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
  weightClass: number;
  fixedPitch: boolean;
}

/** Parsing stops here rather than trusting a count: the format's own maxima (16-bit counts). */
const _MAX_TABLES = 64;
const _MAX_CMAP_SUBTABLES = 64;
const _MAX_CMAP12_GROUPS = 0x10000;
const _MAX_NAME_RECORDS = 1024;

const _SFNT_TRUETYPE = 0x00010000;
const _SFNT_TRUE = 0x74727565; // 'true' (Apple)
const _HEAD_MAGIC = 0x5f0f3cf5;

// Composite glyph flags (OpenType 'glyf', "Composite glyph description").
const _ARG_1_AND_2_ARE_WORDS = 0x0001;
const _WE_HAVE_A_SCALE = 0x0008;
const _MORE_COMPONENTS = 0x0020;
const _WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const _WE_HAVE_A_TWO_BY_TWO = 0x0080;

/** Parses a TrueType font; throws TypeError when the bytes are not one. */
export function parseTrueType(input: Uint8Array): TrueTypeFont {
  // A plain view: a Node Buffer's slice() shares memory, which would let a subset patch the font.
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (o: number) => _check(v, o, 2) && v.getUint16(o);
  const sfnt = _check(v, 0, 12) && v.getUint32(0);
  if (sfnt !== _SFNT_TRUETYPE && sfnt !== _SFNT_TRUE) throw new TypeError("Cannot parse font: not a TrueType font");
  const numTables = u16(4);
  if (numTables > _MAX_TABLES) throw new TypeError("Cannot parse font: too many tables");
  const tables = new Map<string, { offset: number; length: number }>();
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + i * 16;
    _check(v, rec, 16);
    const tag = String.fromCharCode(bytes[rec] ?? 0, bytes[rec + 1] ?? 0, bytes[rec + 2] ?? 0, bytes[rec + 3] ?? 0);
    const offset = v.getUint32(rec + 8);
    const length = v.getUint32(rec + 12);
    _check(v, offset, length);
    tables.set(tag, { offset, length });
  }
  const table = (tag: string) => {
    const t = tables.get(tag);
    if (t === undefined) throw new TypeError(`Cannot parse font: no ${tag} table`);
    return t.offset;
  };

  const head = table("head");
  if (_check(v, head, 54) && v.getUint32(head + 12) !== _HEAD_MAGIC) throw new TypeError("Cannot parse font: bad head magic");
  const unitsPerEm = v.getUint16(head + 18);
  const bbox: [number, number, number, number] = [v.getInt16(head + 36), v.getInt16(head + 38), v.getInt16(head + 40), v.getInt16(head + 42)];
  const longLoca = v.getInt16(head + 50) === 1;

  const numGlyphs = u16(table("maxp") + 4);
  const hhea = table("hhea");
  _check(v, hhea, 36);
  const numberOfHMetrics = v.getUint16(hhea + 34);
  if (numberOfHMetrics === 0 || numberOfHMetrics > numGlyphs) throw new TypeError("Cannot parse font: bad numberOfHMetrics");
  const hmtx = table("hmtx");
  _check(v, hmtx, numberOfHMetrics * 4);
  const advances = new Uint16Array(numGlyphs);
  for (let g = 0; g < numGlyphs; g++) advances[g] = v.getUint16(hmtx + Math.min(g, numberOfHMetrics - 1) * 4);

  const loca = table("loca");
  table("glyf");
  const glyfLength = tables.get("glyf")?.length ?? 0;
  _check(v, loca, (numGlyphs + 1) * (longLoca ? 4 : 2));
  const glyphOffsets = new Uint32Array(numGlyphs + 1);
  for (let g = 0; g <= numGlyphs; g++) {
    const off = longLoca ? v.getUint32(loca + g * 4) : v.getUint16(loca + g * 2) * 2;
    if (off > glyfLength || (g > 0 && off < (glyphOffsets[g - 1] ?? 0))) throw new TypeError("Cannot parse font: bad loca table");
    glyphOffsets[g] = off;
  }

  // A font subset for a PDF has no cmap; it parses, with no characters.
  const { bmp, astral } = tables.has("cmap") ? _readCmap(v, table("cmap"), numGlyphs) : { bmp: new Uint16Array(0x10000), astral: new Map<number, number>() };
  const os2 = tables.get("OS/2");
  const hasOs2 = os2 !== undefined && os2.length >= 78;
  const ascent = hasOs2 ? v.getInt16(os2.offset + 68) : v.getInt16(hhea + 4);
  const descent = hasOs2 ? v.getInt16(os2.offset + 70) : v.getInt16(hhea + 6);
  // sCapHeight exists from OS/2 version 2 on; before that, the height of "H" is the usual stand-in.
  const capHeight = os2 !== undefined && os2.length >= 90 && v.getUint16(os2.offset) >= 2 ? v.getInt16(os2.offset + 88) : bbox[3];
  const weightClass = hasOs2 ? v.getUint16(os2.offset + 4) : 400;
  const post = tables.get("post");
  const italicAngle = post !== undefined && post.length >= 16 ? v.getInt32(post.offset + 4) / 65536 : 0;
  const fixedPitch = post !== undefined && post.length >= 16 ? v.getUint32(post.offset + 12) !== 0 : false;

  return {
    bytes, tables, unitsPerEm, numGlyphs, advances, glyphOffsets, bmp, astral, bbox, ascent, descent, capHeight,
    italicAngle, weightClass, fixedPitch, postScriptName: _postScriptName(v, tables.get("name")),
  };
}

/** One component of a composite glyph: its glyph id and where that id sits in the glyph's data. */
export interface GlyphComponent {
  gid: number;
  /** Offset of the 16-bit glyph index within the glyph's bytes. */
  at: number;
}

/** The bytes of one glyph's description in `glyf` (empty for a glyph without outline). */
export function glyphData(font: TrueTypeFont, gid: number): Uint8Array {
  const glyf = font.tables.get("glyf")?.offset ?? 0;
  return font.bytes.subarray(glyf + (font.glyphOffsets[gid] ?? 0), glyf + (font.glyphOffsets[gid + 1] ?? 0));
}

/**
 * The components of a composite glyph (empty for a simple or empty glyph) and where its
 * instructions start (the end of the last component record).
 */
export function glyphComponents(data: Uint8Array, numGlyphs: number): { components: GlyphComponent[]; end: number } {
  // numberOfContours is negative for a composite: a set sign bit, checked before any allocation.
  if (data.length < 10 || ((data[0] ?? 0) & 0x80) === 0) return { components: [], end: data.length };
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const components: GlyphComponent[] = [];
  let p = 10;
  // Each component is at least 6 bytes, so the loop ends within the glyph's own bytes.
  for (;;) {
    if (p + 4 > v.byteLength) throw new TypeError("Cannot parse font: composite glyph is truncated");
    const flags = v.getUint16(p);
    const gid = v.getUint16(p + 2);
    if (gid >= numGlyphs) throw new TypeError(`Cannot parse font: composite glyph refers to glyph ${gid}`);
    components.push({ gid, at: p + 2 });
    p += 4 + (flags & _ARG_1_AND_2_ARE_WORDS ? 4 : 2);
    if (flags & _WE_HAVE_A_SCALE) p += 2;
    else if (flags & _WE_HAVE_AN_X_AND_Y_SCALE) p += 4;
    else if (flags & _WE_HAVE_A_TWO_BY_TWO) p += 8;
    if (!(flags & _MORE_COMPONENTS)) return { components, end: Math.min(p, data.length) };
  }
}

function _check(v: DataView, offset: number, length: number): true {
  if (offset < 0 || length < 0 || offset + length > v.byteLength) throw new TypeError("Cannot parse font: table out of bounds");
  return true;
}

/** Prefers a Unicode full-repertoire subtable (format 12), then a BMP one (format 4). */
function _readCmap(v: DataView, cmap: number, numGlyphs: number): { bmp: Uint16Array; astral: Map<number, number> } {
  _check(v, cmap, 4);
  const count = Math.min(v.getUint16(cmap + 2), _MAX_CMAP_SUBTABLES);
  let best = -1;
  let bestRank = 0;
  for (let i = 0; i < count; i++) {
    const rec = cmap + 4 + i * 8;
    _check(v, rec, 8);
    const platform = v.getUint16(rec);
    const encoding = v.getUint16(rec + 2);
    const sub = cmap + v.getUint32(rec + 4);
    _check(v, sub, 2);
    const format = v.getUint16(sub);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    const rank = !unicode ? 0 : format === 12 ? 2 : format === 4 ? 1 : 0;
    if (rank > bestRank) {
      best = sub;
      bestRank = rank;
    }
  }
  if (best < 0) throw new TypeError("Cannot parse font: no Unicode cmap of format 4 or 12");
  const bmp = new Uint16Array(0x10000);
  const astral = new Map<number, number>();
  const put = (cp: number, gid: number) => {
    if (gid === 0 || gid >= numGlyphs) return;
    if (cp < 0x10000) bmp[cp] = gid;
    else if (cp <= 0x10ffff) astral.set(cp, gid);
  };
  if (bestRank === 2) _cmap12(v, best, put);
  else _cmap4(v, best, put);
  return { bmp, astral };
}

function _cmap12(v: DataView, sub: number, put: (cp: number, gid: number) => void): void {
  _check(v, sub, 16);
  const groups = v.getUint32(sub + 12);
  if (groups > _MAX_CMAP12_GROUPS) throw new TypeError("Cannot parse font: too many cmap groups");
  _check(v, sub + 16, groups * 12);
  let next = 0;
  for (let i = 0; i < groups; i++) {
    const g = sub + 16 + i * 12;
    const start = v.getUint32(g);
    const end = Math.min(v.getUint32(g + 4), 0x10ffff);
    // Groups are sorted and disjoint (OpenType cmap format 12), which also bounds the work.
    if (start < next) throw new TypeError("Cannot parse font: cmap groups overlap");
    next = end + 1;
    const gid = v.getUint32(g + 8);
    for (let cp = start; cp <= end; cp++) put(cp, gid + cp - start);
  }
}

function _cmap4(v: DataView, sub: number, put: (cp: number, gid: number) => void): void {
  _check(v, sub, 14);
  const segX2 = v.getUint16(sub + 6);
  const ends = sub + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const rangeOffsets = deltas + segX2;
  _check(v, rangeOffsets, segX2);
  let next = 0;
  for (let s = 0; s < segX2; s += 2) {
    const end = v.getUint16(ends + s);
    const start = v.getUint16(starts + s);
    // Segments are sorted and disjoint (OpenType cmap format 4), which also bounds the work.
    if (start < next || end < start) throw new TypeError("Cannot parse font: cmap segments overlap");
    next = end + 1;
    const delta = v.getUint16(deltas + s);
    const ro = v.getUint16(rangeOffsets + s);
    for (let cp = start; cp <= end && cp !== 0xffff; cp++) {
      if (ro === 0) {
        put(cp, (cp + delta) & 0xffff);
        continue;
      }
      // idRangeOffset counts from its own position (OpenType cmap format 4).
      const at = rangeOffsets + s + ro + (cp - start) * 2;
      if (at + 2 > v.byteLength) continue;
      const gid = v.getUint16(at);
      if (gid !== 0) put(cp, (gid + delta) & 0xffff);
    }
  }
}

/** nameID 6 from a Windows (UTF-16BE) or Macintosh (Roman) record; "Font" when absent. */
function _postScriptName(v: DataView, name: { offset: number; length: number } | undefined): string {
  if (name === undefined || name.length < 6) return "Font";
  const count = Math.min(v.getUint16(name.offset + 2), _MAX_NAME_RECORDS);
  const strings = name.offset + v.getUint16(name.offset + 4);
  for (let i = 0; i < count; i++) {
    const rec = name.offset + 6 + i * 12;
    if (rec + 12 > name.offset + name.length) break;
    if (v.getUint16(rec + 6) !== 6) continue;
    const platform = v.getUint16(rec);
    const len = v.getUint16(rec + 8);
    const at = strings + v.getUint16(rec + 10);
    if (at + len > v.byteLength) continue;
    let s = "";
    if (platform === 3) for (let k = 0; k + 1 < len; k += 2) s += String.fromCharCode(v.getUint16(at + k));
    else if (platform === 1) for (let k = 0; k < len; k++) s += String.fromCharCode(v.getUint8(at + k));
    else continue;
    // A PDF name may hold only these (PostScript name rules, OpenType 'name' ID 6).
    s = s.replace(/[^\x21-\x7e]|[\[\](){}<>/%#]/g, "");
    if (s !== "") return s;
  }
  return "Font";
}
