/**
 * The files sources.json names for a KSeF sign-in (certificate, key, pkcs12, key_passphrase_file, and the expiry
 * watch's certificates): only regular files, read from one handle up to their cap, so a FIFO, /dev/zero or a huge
 * file is refused at once, at startup, on a re-read and in the watch. Without the checks a FIFO holds the thread
 * that reads it until a writer comes: such a test would hang rather than fail (the server test bounds its wait).
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { SourceError } from "../../../../lib/contracts/document_source.ts";
import { watchedCertificates } from "../../../../storage/ksef/certificates/expiry_watch.ts";
import { readConfiguredFile } from "../../../../storage/ksef/connection/configured_file.ts";
import { createSignerCache, loadFileSigner, type SignerFiles } from "../../../../storage/ksef/connection/credentials.ts";
import { MAX_KEY_FILE_BYTES } from "../../../../storage/ksef/connection/key_files.ts";
import { readConfiguredSources, SOURCE_TYPES } from "../../../../storage/registry.ts";
import { readSourcesFile } from "../../../../storage/sources/sources_file.ts";
import { childEnv, serverCommand } from "../../../support/child.ts";
import { makeKsefCertificate } from "../../../support/ksef_certificates.ts";

const NIP = "5265877635";
const PASS = "a passphrase";
const dir = mkdtempSync(join(tmpdir(), "configured-file-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string) => join(dir, name);

const cert = makeKsefCertificate(dir, "good", { nip: NIP, key: "ec", passphrase: PASS });
const plain = makeKsefCertificate(dir, "plain", { nip: NIP, key: "ec" });
execFileSync("mkfifo", [f("fifo")]);
writeFileSync(f("huge"), "");
truncateSync(f("huge"), 300 * 1024 * 1024); // sparse: 300 MB that take no disk
writeFileSync(f("pass.txt"), `${PASS}\n`, { mode: 0o600 });
mkdirSync(f("a-directory"));
/** The bad files: a FIFO, a device that never ends, a file far over the cap, a directory. */
const BAD = [
  { what: "a FIFO", path: f("fifo"), says: /is not a regular file/ },
  { what: "/dev/zero", path: "/dev/zero", says: /is not a regular file/ },
  { what: "a 300 MB file", path: f("huge"), says: /is larger than \d+ bytes/ },
  { what: "a directory", path: f("a-directory"), says: /is not a regular file/ },
];

test("readConfiguredFile() reads a regular file and refuses a FIFO, a device, a directory and a file over its cap, naming the field", () => {
  const { bytes, mode } = readConfiguredFile("key", cert.keyFile, MAX_KEY_FILE_BYTES, "not a key");
  assert.ok(bytes.length > 100);
  assert.equal(mode & 0o777, 0o600);
  for (const { what, path, says } of BAD) {
    const started = performance.now();
    assert.throws(() => readConfiguredFile("certificate", path, MAX_KEY_FILE_BYTES, "not a certificate"), (e) => e instanceof RangeError && e.message.startsWith(`certificate ${path} `) && says.test(e.message), what);
    assert.ok(performance.now() - started < 1000, what);
  }
  writeFileSync(f("five"), "12345");
  assert.throws(() => readConfiguredFile("key_passphrase_file", f("five"), 4, "not a passphrase"), /^RangeError: key_passphrase_file .*five is larger than 4 bytes: not a passphrase$/);
  assert.equal(readConfiguredFile("key_passphrase_file", f("five"), 5, "not a passphrase").bytes.length, 5);
});

test("loadFileSigner() refuses a FIFO, /dev/zero or a huge file as certificate, key, pkcs12 or key_passphrase_file at once, naming the field and the file", () => {
  for (const bad of BAD) {
    const cases: { field: string; files: SignerFiles }[] = [
      { field: "certificate", files: { certificateFile: bad.path, keyFile: cert.keyFile, passphrase: { file: f("pass.txt") } } },
      { field: "key", files: { certificateFile: cert.certificateFile, keyFile: bad.path, passphrase: { file: f("pass.txt") } } },
      { field: "pkcs12", files: { pkcs12File: bad.path, passphrase: { file: f("pass.txt") } } },
      { field: "key_passphrase_file", files: { pkcs12File: cert.pkcs12File!, passphrase: { file: bad.path } } },
    ];
    for (const { field, files } of cases) {
      const what = `${bad.what} as ${field}`;
      const started = performance.now();
      assert.throws(() => loadFileSigner(files, { now: Date.now(), cache: createSignerCache() }), (e) => e instanceof RangeError && e.message.startsWith(`${field} ${bad.path} `) && bad.says.test(e.message), what);
      assert.ok(performance.now() - started < 1000, what);
    }
  }
});

/** A data directory whose tenant acme signs in with `signIn`'s files. */
function dataDir(name: string, signIn: Record<string, string>): string {
  const data = f(name);
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: "test", nip: NIP, ...signIn }] }));
  return data;
}

test("a server whose certificate is a FIFO stops at startup at once, naming the file, instead of waiting for a writer", () => {
  const data = dataDir("start", { certificate: f("fifo"), key: cert.keyFile });
  const [cmd, ...pre] = serverCommand();
  // The bound is a hang's, not a measure: a start that reads the FIFO never ends.
  const r = spawnSync(cmd!, [...pre, "serve", "--port", "0", "--data", data, "--demo", "off"], { env: childEnv(), encoding: "utf8", timeout: 60_000 });
  assert.notEqual(r.status, null, "the server hung on the FIFO");
  assert.notEqual(r.status, 0);
  assert.ok(r.stderr.includes(`certificate ${f("fifo")} is not a regular file`), r.stderr);
});

test("a re-read that finds a FIFO, /dev/zero or a huge file fails that source's runs as KSEF_CREDENTIALS_UNUSABLE, and the expiry watch leaves it out", async () => {
  for (const bad of BAD) {
    const data = f("reload");
    mkdirSync(data);
    writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: "test", nip: NIP, certificate: "auth.crt.pem", key: plain.keyFile, send: true, offline_certificate: "offline.crt.pem", offline_key: plain.keyFile }] }));
    copyFileSync(plain.certificateFile, join(data, "auth.crt.pem"));
    copyFileSync(plain.certificateFile, join(data, "offline.crt.pem"));
    assert.equal(readConfiguredSources(data, 1000).acme!.length, 1);
    assert.equal(watchedCertificates(readSourcesFile(data, SOURCE_TYPES), data, Date.now()).length, 2);
    // The certificates become the bad file (a symbolic link, as a path edited to point elsewhere would).
    for (const name of ["auth.crt.pem", "offline.crt.pem"]) {
      symlinkSync(bad.path, join(data, `${name}.new`));
      renameSync(join(data, `${name}.new`), join(data, name));
    }
    const started = performance.now();
    const heard: string[] = [];
    const [source] = readConfiguredSources(data, 1000, SOURCE_TYPES, (e) => heard.push(e.message)).acme!;
    assert.equal(heard.length, 1, bad.what);
    assert.ok(heard[0]!.includes(`certificate ${join(data, "auth.crt.pem")} `) && bad.says.test(heard[0]!), heard[0]);
    await assert.rejects(async () => {
      for await (const _ of source!.pull(new AbortController().signal)) { /* nothing comes */ }
    }, (e) => e instanceof SourceError && e.code === "KSEF_CREDENTIALS_UNUSABLE" && e.message.includes(`certificate "auth.crt.pem" `) && !e.message.includes(dir), bad.what);
    assert.deepEqual(watchedCertificates(readSourcesFile(data, SOURCE_TYPES), data, Date.now()), [], bad.what);
    assert.ok(performance.now() - started < 1000, bad.what);
    rmSync(data, { recursive: true, force: true });
  }
});
