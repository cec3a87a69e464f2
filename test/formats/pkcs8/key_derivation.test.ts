import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { bmpPassword } from "../../../lib/formats/pkcs12/kdf.ts";
import { readPkcs12 } from "../../../lib/formats/pkcs12/read.ts";
import { deriveKeyAsync, deriveKeySync, type KdfRequest, readWithAsyncDerivation } from "../../../lib/formats/pkcs8/key_derivation.ts";
import { decryptPrivateKeyInfo } from "../../../lib/formats/pkcs8/pbes2.ts";

const dir = mkdtempSync(join(tmpdir(), "key-derivation-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
const PASS = "hasło 123";

openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", f("ec.key"), "-out", f("ec.crt"), "-days", "2", "-subj", "/CN=EC");
openssl("pkcs12", "-export", "-inkey", f("ec.key"), "-in", f("ec.crt"), "-out", f("ec.p12"), "-passout", `pass:${PASS}`);
openssl("pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", f("ec.key"), "-outform", "DER", "-out", f("ec.enc.der"), "-passout", `pass:${PASS}`);

/** How many times a 1 ms timer fired while `work` ran: none when it held the event loop throughout. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  const timer = setInterval(() => turns++, 1);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return turns;
}

test("readWithAsyncDerivation() reads a .p12 and an encrypted key as the synchronous readers do, one derivation at a time", async () => {
  const p12 = readFileSync(f("ec.p12"));
  const asked: KdfRequest["kind"][] = [];
  const derive = (r: KdfRequest) => (asked.push(r.kind), deriveKeyAsync(r));
  const read = await readWithAsyncDerivation((d) => readPkcs12(p12, PASS, d), derive);
  const sync = readPkcs12(p12, PASS);
  assert.deepEqual(read.keys.map((k) => Buffer.from(k.der)), sync.keys.map((k) => Buffer.from(k.der)));
  assert.deepEqual(read.certificates.map((c) => Buffer.from(c.der)), sync.certificates.map((c) => Buffer.from(c.der)));
  // OpenSSL 3's defaults: the MAC (PKCS#12 KDF), the certificates' encryptedData and the shrouded key (PBKDF2).
  assert.deepEqual(asked, ["pkcs12", "pbkdf2", "pbkdf2"]);
  const key = readFileSync(f("ec.enc.der"));
  assert.deepEqual(Buffer.from(await readWithAsyncDerivation((d) => decryptPrivateKeyInfo(key, PASS, d))), Buffer.from(decryptPrivateKeyInfo(key, PASS)));
  // A reader's own failure is the reader's, after the derivations it needed.
  await assert.rejects(readWithAsyncDerivation((d) => readPkcs12(p12, "wrong", d)), (e: Error) => e.name === "Pkcs12Error" && /passphrase is wrong/.test(e.message));
});

test("deriveKeyAsync() gives deriveKeySync()'s keys while the event loop goes on: PBKDF2 on the thread pool, the PKCS#12 KDF in slices", async () => {
  const requests: KdfRequest[] = [
    { kind: "pbkdf2", hash: "sha256", password: new TextEncoder().encode(PASS), salt: new Uint8Array(16).fill(1), iterations: 300_000, length: 32 },
    { kind: "pkcs12", hash: "sha256", id: 3, password: bmpPassword(PASS), salt: new Uint8Array(8).fill(2), iterations: 60_000, length: 32 },
  ];
  for (const r of requests) {
    let key: Uint8Array | null = null;
    const turns = await turnsDuring(async () => (key = await deriveKeyAsync(r)));
    assert.deepEqual(Buffer.from(key!), Buffer.from(deriveKeySync(r)), r.kind);
    // Done on the event loop in one go, no timer would fire until it ends (0 turns).
    assert.ok(turns >= 3, `${r.kind}: the event loop turned ${turns} times`);
  }
  assert.equal(await turnsDuring(async () => deriveKeySync(requests[1]!)), 0, "the synchronous derivation holds the loop: the measure can tell");
});
