import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deflateSync } from "node:zlib";
import { decodeStreamData } from "../../../../lib/formats/pdf/read/filters.ts";
import { DEFAULT_PDF_READ_LIMITS, ReadBudget } from "../../../../lib/formats/pdf/read/limits.ts";
import { PdfReadError } from "../../../../lib/formats/pdf/read/read_error.ts";
import type { PdfDict, PdfValue } from "../../../../lib/formats/pdf/read/values.ts";
import { createRandom } from "../../../support/random.ts";

const name = (n: string): PdfValue => ({ kind: "name", name: n });
const dict = (entries: [string, PdfValue][]): PdfDict => ({ kind: "dict", map: new Map(entries) });
const budget = (): ReadBudget => new ReadBudget({ ...DEFAULT_PDF_READ_LIMITS });
const same = (v: PdfValue | undefined): PdfValue => v ?? null;

/** PNG-filters `rows` of `rowBytes` (RFC 2083 section 6) with filter `type` on every row, `bpp` bytes per pixel. */
function pngEncode(data: Uint8Array, rowBytes: number, bpp: number, type: number): Uint8Array {
  const rows = data.length / rowBytes;
  const out = new Uint8Array(rows * (rowBytes + 1));
  for (let r = 0; r < rows; r++) {
    out[r * (rowBytes + 1)] = type;
    for (let i = 0; i < rowBytes; i++) {
      const x = data[r * rowBytes + i]!;
      const a = i >= bpp ? data[r * rowBytes + i - bpp]! : 0;
      const b = r > 0 ? data[(r - 1) * rowBytes + i]! : 0;
      const c = r > 0 && i >= bpp ? data[(r - 1) * rowBytes + i - bpp]! : 0;
      const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
      const predicted = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][type]!;
      out[r * (rowBytes + 1) + 1 + i] = (x - predicted + 256) & 0xff;
    }
  }
  return out;
}

const random = createRandom(12);
const DATA = Uint8Array.from({ length: 7 * 40 }, () => Math.floor(random() * 256)); // 40 rows of 7 bytes (xref rows of /W [1 4 2])

describe("decodeStreamData()", () => {
  for (const [type, label] of [[0, "None"], [1, "Sub"], [2, "Up"], [3, "Average"], [4, "Paeth"]] as const) {
    test(`decodeStreamData() undoes the PNG ${label} predictor`, () => {
      const parms = dict([["Predictor", 12], ["Columns", 7]]);
      const encoded = deflateSync(pngEncode(DATA, 7, 1, type));
      assert.deepEqual(decodeStreamData(encoded, dict([["Filter", name("FlateDecode")], ["DecodeParms", parms]]), budget(), same), DATA);
    });
  }

  test("decodeStreamData() undoes the PNG Paeth predictor with 3 colours (3 bytes per pixel)", () => {
    const parms = dict([["Predictor", 15], ["Columns", 7], ["Colors", 3]]);
    const data = DATA.subarray(0, 21 * 10);
    const encoded = deflateSync(pngEncode(data, 21, 3, 4));
    assert.deepEqual(decodeStreamData(encoded, dict([["Filter", [name("FlateDecode")]], ["DecodeParms", [parms]]]), budget(), same), data);
  });

  test("decodeStreamData() undoes the TIFF predictor", () => {
    const encoded = Uint8Array.from(DATA, (x, i) => (i % 7 === 0 ? x : (x - DATA[i - 1]! + 256) & 0xff));
    const parms = dict([["Predictor", 2], ["Columns", 7]]);
    assert.deepEqual(decodeStreamData(deflateSync(encoded), dict([["Filter", name("FlateDecode")], ["DecodeParms", parms]]), budget(), same), DATA);
  });

  test("decodeStreamData() returns unfiltered data as it is", () => {
    assert.deepEqual(decodeStreamData(DATA, dict([]), budget(), same), DATA);
  });

  for (const { what, filter, reason } of [
    { what: "a filter it does not implement", filter: name("LZWDecode"), reason: "unsupported" },
    { what: "damaged Flate data", filter: name("FlateDecode"), reason: "damaged" },
  ]) {
    test(`decodeStreamData() refuses ${what}`, () => {
      assert.throws(() => decodeStreamData(Uint8Array.of(1, 2, 3, 4), dict([["Filter", filter]]), budget(), same), (e) => e instanceof PdfReadError && e.reason === reason);
    });
  }

  test("decodeStreamData() gives what a Flate stream cut short holds", () => {
    const text = new TextEncoder().encode("<Invoice>".repeat(1000));
    const cut = deflateSync(text).subarray(0, 40);
    const got = decodeStreamData(cut, dict([["Filter", name("FlateDecode")]]), budget(), same);
    assert.ok(got.length > 0 && got.length < text.length);
    assert.deepEqual(Uint8Array.from(got), text.subarray(0, got.length));
  });
});
