import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { readZip } from "../../../lib/formats/zip/read.ts";
import { ZipWriter } from "../../../lib/formats/zip/write.ts";

const samples = join(import.meta.dirname, "../../fixtures/samples/ksef-fa3");
const invoices = ["FA_3_Przyklad_1_KOR.xml", "FA_3_Przyklad_23_USD.xml"].map((name) => ({ name, bytes: readFileSync(join(samples, name)) }));
const hasUnzip = spawnSync("unzip", ["-v"]).status === 0;

function archive(level: number | undefined): Buffer {
  const zip = new ZipWriter(level === undefined ? {} : { level });
  return Buffer.concat([...invoices.map((f) => zip.add(f.name, f.bytes)), zip.finish()]);
}

test("ZipWriter at every level writes what the reader gives back byte for byte; a lower level is larger", () => {
  const sizes = [1, undefined, 9].map((level) => {
    const zip = archive(level);
    assert.deepEqual(readZip(zip).map((e) => [e.name, Buffer.from(e.bytes())]), invoices.map((f) => [f.name, f.bytes]));
    return zip.length;
  });
  assert.ok(sizes[0]! > sizes[2]!, `level 1 (${sizes[0]} bytes) compresses less than level 9 (${sizes[2]} bytes)`);
});

test("unzip -t finds every entry of a level-1 archive intact", { skip: hasUnzip ? false : "unzip is not installed (apt-get install unzip)" }, () => {
  const dir = mkdtempSync(join(tmpdir(), "zip-"));
  try {
    writeFileSync(join(dir, "a.zip"), archive(1));
    const run = spawnSync("unzip", ["-t", join(dir, "a.zip")], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    for (const f of invoices) assert.match(run.stdout, new RegExp(`testing: ${f.name.replace(".", "\\.")} +OK`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
