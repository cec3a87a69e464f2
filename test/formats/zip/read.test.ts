import assert from "node:assert/strict";
import { test } from "node:test";
import { readZip, ZipError } from "../../../lib/formats/zip/read.ts";
import { writeZip } from "../../../lib/formats/zip/write.ts";

test("readZip() reads what a ZIP writer wrote, deflated and CRC-checked", () => {
  const files = [
    { name: "5265877635-20250826-0100001AF629-AF.xml", bytes: Buffer.from("<Faktura>".repeat(500)) },
    { name: "_metadata.json", bytes: Buffer.from('{"invoices":[]}') },
    { name: "empty.txt", bytes: new Uint8Array(0) },
  ];
  const entries = readZip(writeZip(files));
  assert.deepEqual(entries.map((e) => e.name), files.map((f) => f.name));
  for (const [i, e] of entries.entries()) assert.deepEqual(Buffer.from(e.bytes()), Buffer.from(files[i]!.bytes));
});

test("readZip() refuses damaged archives with a ZipError", () => {
  const zip = writeZip([{ name: "a.xml", bytes: Buffer.from("hello hello hello hello") }]);
  const cases = [
    { what: "not a zip", input: Buffer.from("not a zip at all, just text"), lazy: false },
    { what: "truncated", input: zip.subarray(0, zip.length - 10), lazy: false },
    { what: "flipped data byte", input: Buffer.from(zip).fill(0x41, 40, 42), lazy: true },
  ];
  for (const c of cases) {
    assert.throws(() => {
      for (const e of readZip(c.input)) e.bytes();
    }, ZipError, c.what);
  }
});
