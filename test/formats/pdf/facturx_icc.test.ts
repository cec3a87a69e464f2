import assert from "node:assert/strict";
import { test } from "node:test";
import { D50_XYZ, SRGB_CURVE_ENTRIES, srgbIccProfile, srgbToLinear } from "../../../lib/formats/pdf/srgb_icc.ts";

/** A small reader of what ICC.1:2001-04 puts in a profile's header and tag table. */
function readIcc(p: Uint8Array) {
  const view = new DataView(p.buffer, p.byteOffset, p.byteLength);
  const sig = (at: number) => String.fromCharCode(...p.subarray(at, at + 4));
  const tags = new Map<string, { offset: number; size: number }>();
  const count = view.getUint32(128);
  for (let i = 0; i < count; i++) {
    const at = 132 + 12 * i;
    tags.set(sig(at), { offset: view.getUint32(at + 4), size: view.getUint32(at + 8) });
  }
  const xyz = (tag: string) => {
    const t = tags.get(tag)!;
    assert.equal(sig(t.offset), "XYZ ", tag);
    return [0, 1, 2].map((i) => view.getInt32(t.offset + 8 + 4 * i) / 65536);
  };
  const curve = (tag: string) => {
    const t = tags.get(tag)!;
    assert.equal(sig(t.offset), "curv", tag);
    const n = view.getUint32(t.offset + 8);
    return Array.from({ length: n }, (_, i) => view.getUint16(t.offset + 12 + 2 * i));
  };
  return {
    size: view.getUint32(0), major: p[8], minor: p[9], deviceClass: sig(12), colourSpace: sig(16), pcs: sig(20), magic: sig(36),
    illuminant: [0, 1, 2].map((i) => view.getInt32(68 + 4 * i) / 65536), tags, xyz, curve, sig,
  };
}

const icc = readIcc(srgbIccProfile());

test("the sRGB profile's header says: its own size, 'acsp', version 2.x, class 'mntr', colour space 'RGB ', PCS 'XYZ '", () => {
  assert.equal(icc.size, srgbIccProfile().length);
  assert.equal(icc.magic, "acsp");
  assert.equal(icc.major, 2);
  assert.equal(icc.minor, 0x10);
  assert.equal(icc.deviceClass, "mntr");
  assert.equal(icc.colourSpace, "RGB ");
  assert.equal(icc.pcs, "XYZ ");
  for (const [i, v] of icc.illuminant.entries()) assert.ok(Math.abs(v - D50_XYZ[i]!) < 1e-4);
});

test("the sRGB profile has every tag a matrix/TRC display profile needs, each inside the file and 4-byte aligned", () => {
  assert.deepEqual([...icc.tags.keys()].sort(), ["bTRC", "bXYZ", "cprt", "desc", "gTRC", "gXYZ", "rTRC", "rXYZ", "wtpt"]);
  for (const [tag, { offset, size }] of icc.tags) {
    assert.equal(offset % 4, 0, tag);
    assert.ok(offset >= 128 + 4 + 12 * icc.tags.size && offset + size <= icc.size, tag);
  }
  assert.equal(icc.sig(icc.tags.get("desc")!.offset), "desc");
  assert.equal(icc.sig(icc.tags.get("cprt")!.offset), "text");
});

test("the sRGB colorants are IEC 61966-2-1's primaries adapted to D50, and add up to the white point", () => {
  // The values the common sRGB IEC61966-2.1 v2 profiles carry, to four places.
  const expected: Record<string, number[]> = { rXYZ: [0.4361, 0.2225, 0.0139], gXYZ: [0.3851, 0.7169, 0.0971], bXYZ: [0.1431, 0.0606, 0.7141] };
  for (const [tag, want] of Object.entries(expected)) {
    icc.xyz(tag).forEach((v, i) => assert.ok(Math.abs(v - want[i]!) < 0.0005, `${tag}[${i}] ${v}`));
  }
  const sum = [0, 1, 2].map((i) => icc.xyz("rXYZ")[i]! + icc.xyz("gXYZ")[i]! + icc.xyz("bXYZ")[i]!);
  sum.forEach((v, i) => assert.ok(Math.abs(v - D50_XYZ[i]!) < 0.0002, `white[${i}] ${v}`));
  assert.deepEqual(icc.xyz("wtpt").map((v) => v.toFixed(4)), ["0.9642", "1.0000", "0.8249"]);
});

test("the sRGB tone curves sample the sRGB transfer function from 0 to 65535, rising", () => {
  const curve = icc.curve("rTRC");
  assert.equal(curve.length, SRGB_CURVE_ENTRIES);
  assert.deepEqual(icc.curve("gTRC"), curve);
  assert.deepEqual(icc.curve("bTRC"), curve);
  assert.equal(curve[0], 0);
  assert.equal(curve[curve.length - 1], 65535);
  for (let i = 1; i < curve.length; i++) assert.ok(curve[i]! >= curve[i - 1]!, `entry ${i}`);
  // Mid-grey 0.5 encodes 21.4 % linear light (IEC 61966-2-1 clause 5.2).
  assert.ok(Math.abs(srgbToLinear(0.5) - 0.2140) < 0.0001);
  assert.ok(Math.abs(curve[512]! / 65535 - srgbToLinear(512 / 1023)) < 1 / 65535);
});
