import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSourcesFile } from "../../../storage/sources/sources_file.ts";
import { readConfiguredSources, SOURCE_TYPES } from "../../../storage/registry.ts";
import { spawnSync } from "node:child_process";
import { childEnv, serverCommand, startChild, waitForOutput } from "../../support/child.ts";

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
  { what: "a misspelt type", file: { acme: [{ ...GOOD, type: "htpp" }] }, message: /acme\[0\]\.type "htpp" is not a known source type \(known: http, ksef\)/ },
  { what: "a missing type", file: { acme: [{ ...GOOD, type: undefined }] }, message: /acme\[0\]\.type is required/ },
  { what: "a ksef source without a valid NIP", file: { acme: [{ name: "k", type: "ksef", environment: "test", nip: "1", token: "x".repeat(20) }] }, message: /acme\[0\]: "nip" must be/ },
  { what: "credentials in a URL, without quoting them", file: { acme: [{ ...GOOD, url: "https://user:S3cr3t@erp.example.com" }] }, message: /^(?!.*S3cr3t).*acme\[0\]\.url must not carry credentials/ },
  { what: "a user name alone in a URL", file: { acme: [{ ...GOOD, url: "https://user@erp.example.com" }] }, message: /acme\[0\]\.url must not carry credentials/ },
  { what: "plain http to another machine", file: { acme: [{ ...GOOD, url: "http://erp.example.com" }] }, message: /acme\[0\]\.url must be an https URL \(plain http only for localhost\)/ },
];

test("readSourcesFile() says where a file is not JSON without quoting its text", () => {
  const dir = mkdtempSync(join(tmpdir(), "sources-"));
  try {
    // Written as YAML by mistake: the parser's own message would quote it, token and all.
    writeFileSync(join(dir, "sources.json"), "{\"acme\": itk_SECRET}");
    assert.throws(() => readSourcesFile(dir, SOURCE_TYPES), (e: Error) => /is not valid JSON/.test(e.message) && !e.message.includes("itk_SECRET"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("readSourcesFile() takes plain http to this machine", () => {
  const dir = mkdtempSync(join(tmpdir(), "sources-"));
  try {
    const local = ["http://127.0.0.1:9", "http://localhost:8080/", "http://[::1]:1"].map((url, i) => ({ ...GOOD, name: `l${i}`, url }));
    writeFileSync(join(dir, "sources.json"), JSON.stringify({ acme: local }));
    assert.equal(readSourcesFile(dir, SOURCE_TYPES).acme!.length, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const { what, file, message } of CASES) {
  test(`readSourcesFile() refuses ${what}, naming the entry`, () => {
    const dir = mkdtempSync(join(tmpdir(), "sources-"));
    try {
      writeFileSync(join(dir, "sources.json"), JSON.stringify(file));
      assert.throws(() => readSourcesFile(dir, SOURCE_TYPES), (e: Error) => e instanceof RangeError && message.test(e.message) && e.message.includes("sources.json"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("readSourcesFile() reads a good file, and no file as none", () => {
  const dir = mkdtempSync(join(tmpdir(), "sources-"));
  try {
    assert.deepEqual(readSourcesFile(dir, SOURCE_TYPES), {});
    const ksef = { name: "ksef-1", type: "ksef", environment: "test", nip: "5265877635", token: "x".repeat(20) };
    writeFileSync(join(dir, "sources.json"), JSON.stringify({ acme: [GOOD, ksef] }));
    assert.deepEqual(readSourcesFile(dir, SOURCE_TYPES).acme!.map((s) => [s.type, s.config.name]), [["http", "erp"], ["ksef", "ksef-1"]]);
    assert.deepEqual(readConfiguredSources(dir, 1024).acme!.map((s) => s.name), ["erp", "ksef-1"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const AT_STARTUP = [
  { what: "a bad source name", entry: { ...GOOD, name: "../../../escaped" }, message: /sources\.json: acme\[0\]\.name "\.\.\/\.\.\/\.\.\/escaped" is not a valid source name/ },
  { what: "a misspelt source type", entry: { ...GOOD, type: "htpp" }, message: /sources\.json: acme\[0\]\.type "htpp" is not a known source type \(known: http, ksef\)/ },
];

for (const { what, entry, message } of AT_STARTUP) {
  test(`server.ts refuses a sources.json with ${what} at startup: a non-zero exit, one clear line, nothing written outside`, () => {
    const dir = mkdtempSync(join(tmpdir(), "sources-"));
    try {
      writeFileSync(join(dir, "sources.json"), JSON.stringify({ acme: [entry] }));
      const [cmd, ...pre] = serverCommand();
      // A server that starts anyway (the defect) is stopped after 10 s and fails the test.
      const r = spawnSync(cmd!, [...pre, "serve", "--data", dir, "--port", "0", "--demo", "off"], { env: childEnv(), encoding: "utf8", timeout: 10_000 });
      assert.notEqual(r.status, 0, r.stdout + r.stderr);
      assert.notEqual(r.status, null, "it stopped by itself");
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
      assert.ok(!existsSync(join(dir, "escaped.cursor")));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("a sources.json edited into a bad state while the server runs keeps the last valid sources, and says so in the log", { timeout: 30_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "sources-live-"));
  // Port 9 on this machine refuses: the run that the sync starts fails quickly, and nothing leaves 127.0.0.1.
  const local = { name: "erp", type: "http", url: "http://127.0.0.1:9", token: "itk_x" };
  writeFileSync(join(dir, "sources.json"), JSON.stringify({ demo: [local] }));
  const server = await startChild(["--data", dir]);
  t.after(async () => {
    server.child.kill("SIGKILL");
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  });
  const token = (await waitForOutput(server, /export TOKEN=(itk_\S+)/))[1]!;
  writeFileSync(join(dir, "sources.json"), "{ not json");
  const res = await fetch(`${server.url}/api/v1/documents/sync`, {
    method: "POST", headers: { "x-api-token": token, "content-type": "application/json" }, body: JSON.stringify({ source: "erp" }),
  });
  assert.equal(res.status, 202, await res.clone().text());
  assert.equal(((await res.json()) as { source: string }).source, "erp");
  await waitForOutput(server, /sources\.json is invalid: the last valid configuration stays in force/);
});
