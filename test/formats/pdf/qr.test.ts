import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { promisify } from "node:util";
import { encodeQr, fitsInQr, type QrCode } from "../../../lib/formats/pdf/qr.ts";

const run = promisify(execFile);
const zbarMissing = spawnSync("zbarimg", ["--version"]).error !== undefined;
// Fails when zbarimg is missing, unless PDF_TOOLS=skip says to skip (see test/pdf.test.ts).
const skipZbar = zbarMissing && process.env.PDF_TOOLS === "skip" ? "zbarimg is not installed" : false;

const dir = mkdtempSync(join(tmpdir(), "qr-test-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Writes the symbol as a plain PBM, 4 pixels per module, with the 4-module quiet zone. */
function pbm(code: QrCode): string {
  const scale = 4;
  const n = (code.size + 8) * scale;
  const rows: string[] = [];
  for (let y = 0; y < n; y++) {
    const row: string[] = [];
    for (let x = 0; x < n; x++) {
      const mx = Math.floor(x / scale) - 4;
      const my = Math.floor(y / scale) - 4;
      const inside = mx >= 0 && my >= 0 && mx < code.size && my < code.size;
      row.push(inside && code.modules[my * code.size + mx] === 1 ? "1" : "0");
    }
    rows.push(row.join(" "));
  }
  const path = join(dir, `${++files}.pbm`);
  writeFileSync(path, `P1\n${n} ${n}\n${rows.join("\n")}\n`);
  return path;
}

function at(code: QrCode, x: number, y: number): number {
  return code.modules[y * code.size + x] ?? -1;
}

/** ISO 18004 Table C.1: the 15 format bits of level M for masks 0-7. */
const FORMAT_M = [
  "101010000010010", "101000100100101", "101111001111100", "101101101001011",
  "100010111111001", "100000011001110", "100111110010111", "100101010100000",
].map((s) => parseInt(s, 2));

describe("encodeQr()", () => {
  const versions = [
    { what: "14 bytes, the most version 1-M holds", input: 14, expected: 1 },
    { what: "15 bytes", input: 15, expected: 2 },
    { what: "the 99-byte KSeF link length", input: 99, expected: 6 },
    { what: "106 bytes, the most version 6-M holds", input: 106, expected: 6 },
    { what: "107 bytes, where version information starts", input: 107, expected: 7 },
    { what: "181 bytes, past version 9, with a 16-bit count", input: 181, expected: 10 },
    { what: "213 bytes, the most version 10-M holds", input: 213, expected: 10 },
    { what: "214 bytes", input: 214, expected: 11 },
    { what: "2331 bytes, the most version 40-M holds", input: 2331, expected: 40 },
  ];
  for (const { what, input, expected } of versions) {
    test(`encodeQr() picks version ${expected} for ${what}`, () => {
      const code = encodeQr(new Uint8Array(input).fill(0x41));
      assert.equal(code.version, expected);
      assert.equal(code.size, expected * 4 + 17);
      assert.equal(code.modules.length, code.size * code.size);
    });
  }

  test("encodeQr() rejects data longer than version 40-M holds, which fitsInQr() tells beforehand", () => {
    assert.throws(() => encodeQr(new Uint8Array(2332)), RangeError);
    assert.equal(fitsInQr(new Uint8Array(2332)), false);
    assert.equal(fitsInQr(new Uint8Array(2331)), true);
    assert.equal(encodeQr(new Uint8Array(2331)).size, 177);
  });

  test("encodeQr() draws finder and timing patterns and a valid level-M format in both copies", () => {
    const code = encodeQr("https://qr.ksef.mf.gov.pl/invoice/5260250274/20-11-2026/AAAA");
    const s = code.size;
    const finder = ["1111111", "1000001", "1011101", "1011101", "1011101", "1000001", "1111111"];
    for (const [ox, oy] of [[0, 0], [s - 7, 0], [0, s - 7]] as const) {
      for (let y = 0; y < 7; y++) {
        const row = Array.from({ length: 7 }, (_, x) => at(code, ox + x, oy + y)).join("");
        assert.equal(row, finder[y], `finder at ${ox},${oy} row ${y}`);
      }
    }
    for (let i = 8; i < s - 8; i++) {
      assert.equal(at(code, i, 6), i % 2 === 0 ? 1 : 0);
      assert.equal(at(code, 6, i), i % 2 === 0 ? 1 : 0);
    }
    assert.equal(at(code, 8, s - 8), 1, "dark module");
    let first = 0;
    let second = 0;
    const firstPos = [[8, 0], [8, 1], [8, 2], [8, 3], [8, 4], [8, 5], [8, 7], [8, 8], [7, 8], [5, 8], [4, 8], [3, 8], [2, 8], [1, 8], [0, 8]];
    firstPos.forEach(([x, y], i) => (first |= at(code, x ?? 0, y ?? 0) << i));
    for (let i = 0; i < 8; i++) second |= at(code, s - 1 - i, 8) << i;
    for (let i = 8; i < 15; i++) second |= at(code, 8, s - 15 + i) << i;
    assert.equal(first, second);
    assert.ok(FORMAT_M.includes(first), `format bits ${first.toString(2)} are not level M`);
  });

  test("encodeQr() gives the same symbol for the same data", () => {
    assert.deepEqual(encodeQr("same"), encodeQr(new TextEncoder().encode("same")));
  });

  const texts = [
    { what: "a short text (version 1)", input: "KSeF" },
    { what: "the KSeF verification link (version 6)", input: "https://qr.ksef.mf.gov.pl/invoice/5260250274/20-11-2026/q-Xe2UzPeXIqX8nUgW08kZ50JaRjm6QckIPe3qPy8MQ" },
    { what: "UTF-8 text", input: "Zażółć gęślą jaźń € Příliš žluťoučký kůň" },
    { what: "text needing version 7 (version information)", input: "v".repeat(120) },
    { what: "text needing version 14", input: Array.from({ length: 40 }, (_, i) => `line ${i}`).join(",").padEnd(400, ".") },
    { what: "text needing version 27", input: Array.from({ length: 1100 }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join("") },
    { what: "the longest text (version 40)", input: Array.from({ length: 2331 }, (_, i) => String.fromCharCode(48 + ((i * 13) % 43))).join("") },
  ];
  for (const { what, input } of texts) {
    test(`encodeQr() encodes ${what} so that zbarimg reads it back`, { skip: skipZbar }, async () => {
      const r = await run("zbarimg", ["--raw", "-q", pbm(encodeQr(input))], { maxBuffer: 1 << 20 });
      assert.equal(r.stdout.replace(/\n$/, ""), input);
    });
  }
});
