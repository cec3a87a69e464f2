import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { glyphComponents, glyphData, parseTrueType } from "../../../lib/formats/pdf/truetype.ts";
import { subsetTrueType, TrueTypeSubsetter } from "../../../lib/formats/pdf/truetype_subset.ts";
import { readPdfFontFiles } from "../../../storage/fonts/font_files.ts";

const font = parseTrueType(readPdfFontFiles().regular);
const gid = (ch: string) => font.bmp[ch.charCodeAt(0)] ?? 0;
const dir = mkdtempSync(join(tmpdir(), "subset-test-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Big-endian uint32 sum, as the OpenType checksums are computed. */
function checksum(bytes: Uint8Array): number {
  const padded = new Uint8Array((bytes.length + 3) & ~3);
  padded.set(bytes);
  const v = new DataView(padded.buffer);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + v.getUint32(i)) >>> 0;
  return sum;
}

test("subsetTrueType() renumbers glyphs in the given order and keeps their advances", () => {
  const glyphs = [0, gid("Ж"), gid("a"), gid("ó")];
  const sub = parseTrueType(subsetTrueType(font, glyphs));
  // .notdef, Ж, a, ó, then ó's base "o" and its accent.
  assert.equal(sub.numGlyphs, 6);
  glyphs.forEach((g, k) => assert.equal(sub.advances[k], font.advances[g]));
  assert.equal(sub.advances[4], font.advances[gid("o")]);
  const { components } = glyphComponents(glyphData(sub, 3), sub.numGlyphs);
  assert.deepEqual(components.map((c) => c.gid), [4, 5]);
});

test("subsetTrueType() adds a component shared by two composites once", () => {
  // ö and ó share their base "o": .notdef, ö, ó, then "o" and the two accents.
  const sub = parseTrueType(subsetTrueType(font, [0, gid("ö"), gid("ó")]));
  assert.equal(sub.numGlyphs, 6);
  const first = glyphComponents(glyphData(sub, 1), sub.numGlyphs).components.map((c) => c.gid);
  const second = glyphComponents(glyphData(sub, 2), sub.numGlyphs).components.map((c) => c.gid);
  assert.equal(first[0], 3);
  assert.equal(second[0], 3);
  assert.deepEqual([first[1], second[1]].sort(), [4, 5]);
});

test("TrueTypeSubsetter gives each subset the same bytes whatever it built before", () => {
  const subsetter = new TrueTypeSubsetter(font);
  const a = [0, gid("ó"), gid("Ż")];
  const first = subsetter.subset(a);
  subsetter.subset([0, gid("ö"), gid("o"), gid("ż"), gid("ó")]);
  assert.deepEqual(subsetter.subset(a), first);
  assert.deepEqual(subsetTrueType(font, a), first);
});

test("subsetTrueType() drops the glyphs' instructions and keeps only the tables a PDF needs", () => {
  const sub = parseTrueType(subsetTrueType(font, [0, gid("a"), gid("ó")]));
  assert.deepEqual([...sub.tables.keys()], ["OS/2", "cvt ", "fpgm", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "post", "prep"]);
  const a = new DataView(glyphData(sub, 1).buffer, glyphData(sub, 1).byteOffset);
  const contours = a.getInt16(0);
  assert.ok(contours > 0);
  assert.equal(a.getUint16(10 + 2 * contours), 0, "instructionLength");
  // The outline itself is the original's, byte for byte, after the instructions.
  const orig = glyphData(font, gid("a"));
  const ov = new DataView(orig.buffer, orig.byteOffset);
  const skip = 12 + 2 * contours + ov.getUint16(10 + 2 * contours);
  assert.deepEqual(glyphData(sub, 1).subarray(12 + 2 * contours, 12 + 2 * contours + orig.length - skip), orig.subarray(skip));
});

test("subsetTrueType() writes valid table checksums and head.checkSumAdjustment", () => {
  const bytes = subsetTrueType(font, [0, gid("Z"), gid("ż"), gid("€")]);
  const sub = parseTrueType(bytes);
  const v = new DataView(bytes.buffer, bytes.byteOffset);
  for (let i = 0; i < sub.tables.size; i++) {
    const rec = 12 + 16 * i;
    const offset = v.getUint32(rec + 8);
    const length = v.getUint32(rec + 12);
    const tag = new TextDecoder().decode(bytes.subarray(rec, rec + 4));
    let sum = checksum(bytes.subarray(offset, offset + length));
    // head's checksum is taken with checkSumAdjustment as 0.
    if (tag === "head") sum = (sum - v.getUint32(offset + 8)) >>> 0;
    assert.equal(v.getUint32(rec + 4), sum, tag);
  }
  assert.equal(checksum(bytes), 0xb1b0afba);
});

test("subsetTrueType() gives the same bytes for the same glyphs and leaves the font untouched", () => {
  const before = checksum(font.bytes);
  const a = subsetTrueType(font, [0, gid("ą"), gid("ł")]);
  const b = subsetTrueType(font, [0, gid("ą"), gid("ł")]);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, subsetTrueType(font, [0, gid("ł"), gid("ą")]));
  assert.equal(checksum(font.bytes), before);
});

test("subsetTrueType() output loads in FreeType (fc-query) as a TrueType font", { skip: spawnSync("fc-query", ["--version"]).error ? "fc-query missing" : false }, () => {
  const path = join(dir, "subset.ttf");
  writeFileSync(path, subsetTrueType(font, [0, gid("Ж"), gid("ó"), gid("ß")]));
  const r = spawnSync("fc-query", ["-f", "%{fontformat}\n", path], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), "TrueType");
  // A file FreeType cannot open is reported, not queried.
  writeFileSync(path, subsetTrueType(font, [0]).subarray(0, 40));
  assert.notEqual(spawnSync("fc-query", ["-f", "%{fontformat}\n", path], { encoding: "utf8" }).stdout.trim(), "TrueType");
});
