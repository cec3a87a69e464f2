import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { glyphComponents, glyphData, parseTrueType, type TrueTypeFont } from "../../../lib/formats/pdf/truetype.ts";
import { writeTrueType } from "../../../lib/formats/pdf/truetype_subset.ts";
import { readPdfFontFiles } from "../../../storage/fonts/font_files.ts";

const files = readPdfFontFiles();
const regular = parseTrueType(files.regular);
const bold = parseTrueType(files.bold);

/** The font's tables as separate byte arrays, so a test can swap one. */
function tablesOf(font: TrueTypeFont): Map<string, Uint8Array> {
  return new Map([...font.tables].map(([tag, t]) => [tag, font.bytes.slice(t.offset, t.offset + t.length)]));
}

/** A cmap with one subtable (platform 3, encoding 10) of format 12 holding the given groups. */
function cmap12(groups: readonly (readonly [number, number, number])[]): Uint8Array {
  const sub = 16 + 12 * groups.length;
  const v = new DataView(new ArrayBuffer(12 + sub));
  v.setUint16(2, 1);
  v.setUint16(4, 3);
  v.setUint16(6, 10);
  v.setUint32(8, 12);
  v.setUint16(12, 12);
  v.setUint32(16, sub);
  v.setUint32(24, groups.length);
  groups.forEach(([start, end, gid], i) => {
    v.setUint32(28 + i * 12, start);
    v.setUint32(32 + i * 12, end);
    v.setUint32(36 + i * 12, gid);
  });
  return new Uint8Array(v.buffer);
}

describe("parseTrueType()", () => {
  test("parseTrueType() reads Liberation Sans: names, metrics and the format 4 cmap", () => {
    assert.equal(regular.postScriptName, "LiberationSans");
    assert.equal(bold.postScriptName, "LiberationSans-Bold");
    assert.equal(regular.unitsPerEm, 2048);
    assert.equal(regular.numGlyphs, 2620);
    assert.equal(regular.weightClass, 400);
    assert.equal(bold.weightClass, 700);
    // Helvetica's AFM widths, which Liberation Sans matches: A 667, ą 556, in 1/1000 em.
    const a = regular.bmp[0x41] ?? 0;
    assert.equal(Math.round(((regular.advances[a] ?? 0) * 1000) / 2048), 667);
    for (const ch of "AaŻżЖжΩωß€") assert.notEqual(regular.bmp[ch.charCodeAt(0)], 0, ch);
    assert.equal(regular.bmp[0x4e2d], 0);
    assert.equal(regular.glyphOffsets.length, regular.numGlyphs + 1);
  });

  test("parseTrueType() reads a format 12 cmap, astral code points included", () => {
    const tables = tablesOf(regular);
    const a = regular.bmp[0x41] ?? 0;
    tables.set("cmap", cmap12([[0x41, 0x43, a], [0x1d400, 0x1d401, a]]));
    const font = parseTrueType(writeTrueType(tables));
    assert.deepEqual([font.bmp[0x41], font.bmp[0x42], font.bmp[0x43], font.bmp[0x44]], [a, a + 1, a + 2, 0]);
    assert.deepEqual([...font.astral], [[0x1d400, a], [0x1d401, a + 1]]);
  });

  test("parseTrueType() refuses what is not a TrueType font", () => {
    const cases = [
      { what: "empty", bytes: new Uint8Array(0) },
      { what: "a CFF (OTTO) font", bytes: new TextEncoder().encode("OTTO\0\0\0\0\0\0\0\0") },
      { what: "a truncated directory", bytes: files.regular.subarray(0, 100) },
      { what: "a truncated file", bytes: files.regular.subarray(0, files.regular.length - 1000) },
    ];
    for (const { what, bytes } of cases) assert.throws(() => parseTrueType(bytes), TypeError, what);
    const tables = tablesOf(regular);
    tables.set("cmap", cmap12([[0x50, 0x60, 3], [0x55, 0x70, 3]]));
    assert.throws(() => parseTrueType(writeTrueType(tables)), /cmap groups overlap/);
    tables.delete("head");
    assert.throws(() => parseTrueType(writeTrueType(tables)), /no head table/);
  });
});

describe("composite glyphs", () => {
  test("glyphComponents() lists the base letter and the accent of a composite glyph", () => {
    const oAcute = regular.bmp[0xf3] ?? 0;
    const { components, end } = glyphComponents(glyphData(regular, oAcute), regular.numGlyphs);
    assert.equal(components.length, 2);
    assert.equal(components[0]?.gid, regular.bmp[0x6f]);
    const accent = components[1]?.gid ?? 0;
    assert.ok(accent !== 0 && accent !== regular.bmp[0x6f] && glyphData(regular, accent).length > 0);
    assert.ok(end < glyphData(regular, oAcute).length, "instructions follow the components");
    assert.deepEqual(glyphComponents(glyphData(regular, regular.bmp[0x6f] ?? 0), regular.numGlyphs).components, []);
  });
});
