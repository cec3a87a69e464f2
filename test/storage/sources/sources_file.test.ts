import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSourcesFile } from "../../../storage/sources/sources_file.ts";
import { spawnSync } from "node:child_process";
import { childEnv, serverCommand } from "../../support/child.ts";

const GOOD = { name: "erp", type: "http", url: "https://erp.example.com", token: "itk_x" };
const CASES = [
  { what: "a name that climbs out of the tenant's folder", file: { acme: [{ ...GOOD, name: "../x" }] }, message: /acme\[0\]\.name "\.\.\/x" is not a valid source name/ },
  { what: "a name with a slash", file: { acme: [{ ...GOOD, name: "a/b" }] }, message: /acme\[0\]\.name "a\/b"/ },
  { what: "an upper-case name", file: { acme: [{ ...GOOD, name: "ERP" }] }, message: /acme\[0\]\.name "ERP"/ },
  { what: "a missing name", file: { acme: [{ type: "http", url: GOOD.url, token: "t" }] }, message: /acme\[0\]\.name undefined/ },
  { what: "a name used twice", file: { acme: [GOOD, GOOD] }, message: /acme\[1\]\.name "erp" is used twice/ },
  { what: "the inbox's name", file: { acme: [{ ...GOOD, name: "inbox" }] }, message: /acme\[0\]\.name "inbox"/ },
  { what: "a bad tenant id", file: { "../acme": [GOOD] }, message: /"\.\.\/acme" is not a valid tenant id/ },
  { what: "an http source without a URL", file: { acme: [{ ...GOOD, url: "ftp://x" }] }, message: /acme\[0\]\.url must be an http or https URL/ },
  { what: "an http source without a token", file: { acme: [{ ...GOOD, token: "" }] }, message: /acme\[0\]\.token is required/ },
  { what: "a list that is not one", file: { acme: GOOD }, message: /acme must be a list/ },
];

for (const { what, file, message } of CASES) {
  test(`readSourcesFile() refuses ${what}, naming the entry`, () => {
    const dir = mkdtempSync(join(tmpdir(), "sources-"));
    try {
      writeFileSync(join(dir, "sources.json"), JSON.stringify(file));
      assert.throws(() => readSourcesFile(dir), (e: Error) => e instanceof RangeError && message.test(e.message) && e.message.includes("sources.json"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("readSourcesFile() reads a good file, and no file as none", () => {
  const dir = mkdtempSync(join(tmpdir(), "sources-"));
  try {
    assert.deepEqual(readSourcesFile(dir), {});
    writeFileSync(join(dir, "sources.json"), JSON.stringify({ acme: [GOOD, { name: "ksef-1", type: "ksef", nip: "1" }] }));
    assert.deepEqual(readSourcesFile(dir).acme!.map((s) => s.name), ["erp", "ksef-1"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("server.ts refuses a sources.json with a bad source name at startup: a non-zero exit, one clear line, nothing written outside", () => {
  const dir = mkdtempSync(join(tmpdir(), "sources-"));
  try {
    writeFileSync(join(dir, "sources.json"), JSON.stringify({ acme: [{ ...GOOD, name: "../../../escaped" }] }));
    const [cmd, ...pre] = serverCommand();
    // A server that starts anyway (the defect) is stopped after 10 s and fails the test.
    const r = spawnSync(cmd!, [...pre, "serve", "--data", dir, "--port", "0", "--demo", "off"], { env: childEnv(), encoding: "utf8", timeout: 10_000 });
    assert.notEqual(r.status, 0, r.stdout + r.stderr);
    assert.notEqual(r.status, null, "it stopped by itself");
    assert.match(r.stderr, /sources\.json: acme\[0\]\.name "\.\.\/\.\.\/\.\.\/escaped" is not a valid source name/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    assert.ok(!existsSync(join(dir, "escaped.cursor")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
