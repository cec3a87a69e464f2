import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHmac, createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { children, content, parseDer, type DerNode } from "../../../lib/formats/asn1/der.ts";
import { derContext, derInteger, derOctetString, derOid, derSequence } from "../../../lib/formats/asn1/der_writer.ts";
import { decodePem } from "../../../lib/formats/asn1/pem.ts";
import { bmpPassword, PKCS12_MAC_ID, pkcs12Kdf } from "../../../lib/formats/pkcs12/kdf.ts";
import { MAX_PKCS12_CONTENTS, Pkcs12Error, readPkcs12 } from "../../../lib/formats/pkcs12/read.ts";
import { decryptPrivateKeyInfo, KeyDecryptError } from "../../../lib/formats/pkcs8/pbes2.ts";

const dir = mkdtempSync(join(tmpdir(), "pkcs12-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
const PASS = "hasło ąę 123";

openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f("rsa.key"), "-out", f("rsa.crt"), "-days", "2", "-subj", "/CN=RSA");
openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", f("ec.key"), "-out", f("ec.crt"), "-days", "2", "-subj", "/CN=EC");
openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", f("ca.key"), "-out", f("ca.crt"), "-days", "2", "-subj", "/CN=CA");
const p12 = (name: string, key: string, ...more: string[]) => {
  openssl("pkcs12", "-export", "-inkey", f(`${key}.key`), "-in", f(`${key}.crt`), "-out", f(name), "-passout", `pass:${PASS}`, ...more);
  return readFileSync(f(name));
};
const spki = (pem: string) => createPublicKey(readFileSync(f(pem))).export({ type: "spki", format: "der" });
const keySpki = (der: Uint8Array) => createPublicKey(createPrivateKey({ key: Buffer.from(der), format: "der", type: "pkcs8" })).export({ type: "spki", format: "der" });

/** The reason of the KeyDecryptError (decryptPrivateKeyInfo) or Pkcs12Error (readPkcs12) `fn` throws. */
function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof KeyDecryptError || e instanceof Pkcs12Error, String(e));
    assert.ok(!e.message.includes(PASS));
    return e.reason;
  }
  assert.fail("did not throw");
}

describe("readPkcs12()", () => {
  test("readPkcs12() opens what OpenSSL 3 writes: RSA and EC, SHA-256 and SHA-1 MACs, AES-128 and AES-256 bags", () => {
    const cases = [
      { what: "RSA, defaults", bytes: p12("rsa.p12", "rsa"), key: "rsa.crt" },
      { what: "EC, defaults", bytes: p12("ec.p12", "ec"), key: "ec.crt" },
      { what: "EC, SHA-1 MAC, AES-128 key, AES-256 certificates, many iterations", bytes: p12("ec-sha1.p12", "ec", "-macalg", "sha1", "-keypbe", "aes-128-cbc", "-certpbe", "aes-256-cbc", "-iter", "10000"), key: "ec.crt" },
      { what: "RSA, AES-192 (which Deno's node:crypto lacks)", bytes: p12("rsa-aes192.p12", "rsa", "-keypbe", "aes-192-cbc", "-certpbe", "aes-192-cbc"), key: "rsa.crt" },
      { what: "RSA, SHA-512 MAC, certificates not encrypted", bytes: p12("rsa-plain-certs.p12", "rsa", "-macalg", "sha512", "-certpbe", "NONE"), key: "rsa.crt" },
    ];
    for (const { what, bytes, key } of cases) {
      const c = readPkcs12(bytes, PASS);
      assert.equal(c.keys.length, 1, what);
      assert.equal(c.certificates.length, 1, what);
      assert.deepEqual(keySpki(c.keys[0]!.der), spki(key), what);
      assert.deepEqual(new X509Certificate(c.certificates[0]!.der).raw, new X509Certificate(readFileSync(f(key))).raw, what);
      // openssl pairs a key and its certificate by localKeyId.
      assert.ok(c.keys[0]!.localKeyId !== undefined && Buffer.from(c.keys[0]!.localKeyId).equals(Buffer.from(c.certificates[0]!.localKeyId!)), what);
    }
  });

  test("readPkcs12() returns every certificate of a chain, with the key's alone holding its localKeyId", () => {
    const c = readPkcs12(p12("chain.p12", "ec", "-certfile", f("ca.crt"), "-name", "KSeF auth"), PASS);
    assert.equal(c.certificates.length, 2);
    const own = c.certificates.filter((x) => x.localKeyId !== undefined);
    assert.equal(own.length, 1);
    assert.equal(new X509Certificate(own[0]!.der).subject, "CN=EC");
    assert.equal(c.keys[0]!.friendlyName, "KSeF auth");
  });

  test("readPkcs12() tells a wrong passphrase, a damaged file, legacy ciphers and a missing MAC apart", () => {
    const good = readFileSync(f("rsa.p12"));
    assert.equal(reason(() => readPkcs12(good, "wrong")), "wrong-passphrase");
    const damaged = Uint8Array.from(good);
    damaged[Math.floor(damaged.length / 2)]! ^= 1;
    assert.equal(reason(() => readPkcs12(damaged, PASS)), "wrong-passphrase", "a changed byte fails the MAC");
    const legacy = p12("legacy.p12", "rsa", "-legacy");
    assert.equal(reason(() => readPkcs12(legacy, PASS)), "legacy-cipher");
    assert.equal(reason(() => readPkcs12(legacy, "wrong")), "wrong-passphrase", "the MAC is checked first");
    const des3 = p12("des3.p12", "rsa", "-keypbe", "PBE-SHA1-3DES", "-certpbe", "aes-256-cbc");
    assert.equal(reason(() => readPkcs12(des3, PASS)), "legacy-cipher");
    assert.equal(reason(() => readPkcs12(p12("nomac.p12", "rsa", "-nomac"), PASS)), "unsupported");
  });

  test("readPkcs12() reads a file in BER: indefinite lengths and an authSafe split into segments", () => {
    const der = readFileSync(f("ec.p12"));
    // Every constructed element of the PFX with an indefinite length, and every OCTET STRING in two segments.
    const toBer = (n: DerNode): number[] => {
      const c = content(n);
      if (n.tag === 0x04 && c.length > 16) {
        const half = c.length >> 1;
        return [0x24, 0x80, ...toBerPrimitive(0x04, c.subarray(0, half)), ...toBerPrimitive(0x04, c.subarray(half)), 0, 0];
      }
      if ((n.tag & 0x20) === 0) return [...n.bytes.subarray(n.start, n.end)];
      return [n.tag, 0x80, ...children(n).flatMap(toBer), 0, 0];
    };
    const toBerPrimitive = (tag: number, c: Uint8Array) => [tag, 0x82, c.length >> 8, c.length & 0xff, ...c]; // a long form DER would not use
    const ber = Uint8Array.from(toBer(parseDer(der)));
    assert.equal(ber[1], 0x80);
    const a = readPkcs12(der, PASS);
    const b = readPkcs12(ber, PASS);
    assert.deepEqual(b.certificates.map((x) => Buffer.from(x.der)), a.certificates.map((x) => Buffer.from(x.der)));
    assert.deepEqual(b.keys.map((x) => Buffer.from(x.der)), a.keys.map((x) => Buffer.from(x.der)));
    assert.equal(reason(() => readPkcs12(ber, "wrong")), "wrong-passphrase");
  });

  test("readPkcs12() refuses an iteration count that would take seconds, before deriving anything", () => {
    const authSafe = derSequence([derOid("1.2.840.113549.1.7.1"), derContext(0, derOctetString(derSequence([])))]);
    const mac = derSequence([derSequence([derSequence([derOid("2.16.840.1.101.3.4.2.1")]), derOctetString(new Uint8Array(32))]), derOctetString(new Uint8Array(8)), derInteger(100_000_000)]);
    const started = performance.now();
    assert.equal(reason(() => readPkcs12(derSequence([derInteger(3), authSafe, mac]), PASS)), "too-costly");
    assert.ok(performance.now() - started < 1000);
  });

  /** A PFX whose AuthenticatedSafe holds `contents` (ContentInfos) and whose MAC says `macIterations`; the MAC is not valid. */
  const craftedPfx = (contents: Uint8Array[], macIterations: number) => {
    const authSafe = derSequence([derOid("1.2.840.113549.1.7.1"), derContext(0, derOctetString(derSequence(contents)))]);
    const mac = derSequence([derSequence([derSequence([derOid("2.16.840.1.101.3.4.2.1")]), derOctetString(new Uint8Array(32))]), derOctetString(new Uint8Array(8)), derInteger(macIterations)]);
    return derSequence([derInteger(3), authSafe, mac]);
  };
  /** An encryptedData ContentInfo under PBES2 (PBKDF2-HMAC-SHA-256, AES-256-CBC) with `iterations`. */
  const encryptedContent = (iterations: number) => {
    const pbkdf2 = derSequence([derOid("1.2.840.113549.1.5.12"), derSequence([derOctetString(new Uint8Array(8)), derInteger(iterations), derSequence([derOid("1.2.840.113549.2.9")])])]);
    const alg = derSequence([derOid("1.2.840.113549.1.5.13"), derSequence([pbkdf2, derSequence([derOid("2.16.840.1.101.3.4.1.42"), derOctetString(new Uint8Array(16))])])]);
    const eci = derSequence([derOid("1.2.840.113549.1.7.1"), alg, derContext(0, new Uint8Array(16), true)]);
    return derSequence([derOid("1.2.840.113549.1.7.6"), derContext(0, derSequence([derInteger(0), eci]))]);
  };
  const plainContent = () => derSequence([derOid("1.2.840.113549.1.7.1"), derContext(0, derOctetString(derSequence([])))]);

  test("readPkcs12() refuses more than 16 contents in the AuthenticatedSafe, before its MAC", () => {
    assert.equal(MAX_PKCS12_CONTENTS, 16);
    // The MAC is not valid: a refusal for anything else than the count would be "wrong-passphrase".
    assert.throws(() => readPkcs12(craftedPfx(Array.from({ length: 17 }, plainContent), 1), PASS), (e) => e instanceof Pkcs12Error && e.reason === "too-many-bags" && /more than 16 contents/.test(e.message));
    assert.equal(reason(() => readPkcs12(craftedPfx(Array.from({ length: 16 }, plainContent), 1), PASS)), "wrong-passphrase");
  });

  test("readPkcs12() refuses a file whose derivations add up to more than 4,000,000 iterations, before deriving any", () => {
    // Each count alone is allowed (2,000,000 at most); together they are not. The MAC is not valid, so a file that
    // got as far as deriving would be "wrong-passphrase".
    const cases = [
      { what: "three encrypted contents", pfx: craftedPfx([encryptedContent(1_500_000), encryptedContent(1_500_000), encryptedContent(1_500_000)], 1) },
      { what: "the MAC and two encrypted contents", pfx: craftedPfx([encryptedContent(2_000_000), encryptedContent(1)], 2_000_000) },
    ];
    for (const { what, pfx } of cases) {
      assert.throws(() => readPkcs12(pfx, PASS), (e) => e instanceof Pkcs12Error && e.reason === "too-costly" && /key-derivation iterations in all/.test(e.message), what);
    }
    assert.equal(reason(() => readPkcs12(craftedPfx([encryptedContent(1), encryptedContent(1)], 1), PASS)), "wrong-passphrase");
  });

  test("readPkcs12() says what is wrong with a file: not PKCS#12 at all, cut short, nested too deep, too many bags, damaged inside", () => {
    const good = readFileSync(f("ec.p12"));
    // A valid MAC over `contents` (PKCS#12 KDF, HMAC-SHA-256, one iteration): what is refused is then past the MAC.
    const signedPfx = (contents: Uint8Array[]) => {
      const safe = derSequence(contents);
      const salt = new Uint8Array(8).fill(7);
      const key = pkcs12Kdf("sha256", PKCS12_MAC_ID, bmpPassword(PASS), salt, 1, 32);
      const mac = derSequence([derSequence([derSequence([derOid("2.16.840.1.101.3.4.2.1")]), derOctetString(createHmac("sha256", key).update(safe).digest())]), derOctetString(salt), derInteger(1)]);
      return derSequence([derInteger(3), derSequence([derOid("1.2.840.113549.1.7.1"), derContext(0, derOctetString(safe))]), mac]);
    };
    const certBag = derSequence([derOid("1.2.840.113549.1.12.10.1.3"), derContext(0, derSequence([derOid("1.2.840.113549.1.9.22.1"), derContext(0, derOctetString(new Uint8Array(4)))]))]);
    const bags = (n: number) => derSequence([derOid("1.2.840.113549.1.7.1"), derContext(0, derOctetString(derSequence(Array.from({ length: n }, () => certBag))))]);
    let deep: Uint8Array = new Uint8Array([0x05, 0x00]);
    for (let i = 0; i < 5000; i++) deep = derSequence([deep]);
    const cases = [
      { what: "a certificate (DER)", bytes: new X509Certificate(readFileSync(f("rsa.crt"))).raw, reason: "not-pkcs12" },
      { what: "a PEM file", bytes: readFileSync(f("rsa.crt")), reason: "not-pkcs12" },
      { what: "a text file", bytes: new TextEncoder().encode("hello\n"), reason: "not-pkcs12" },
      { what: "an empty file", bytes: new Uint8Array(0), reason: "not-pkcs12" },
      { what: "half of a file", bytes: good.subarray(0, good.length >> 1), reason: "truncated" },
      { what: "all of a file but its last byte", bytes: good.subarray(0, good.length - 1), reason: "truncated" },
      { what: "5,000 levels deep", bytes: deep, reason: "too-deep" },
      { what: "1,001 bags", bytes: signedPfx([bags(1001)]), reason: "too-many-bags" },
      { what: "a PFX of version 2", bytes: derSequence([derInteger(2), derSequence([])]), reason: "not-pkcs12" },
      { what: "a PFX whose bag is not a bag", bytes: signedPfx([derSequence([derOid("1.2.840.113549.1.7.1"), derContext(0, derOctetString(derSequence([derInteger(1)])))])]), reason: "damaged" },
    ];
    for (const c of cases) assert.equal(reason(() => readPkcs12(c.bytes, PASS)), c.reason, c.what);
    assert.equal(readPkcs12(signedPfx([bags(200)]), PASS).certificates.length, 200, "under the limit the same bags are read");
  });

  test("readPkcs12() throws only Pkcs12Error on damaged and truncated files", () => {
    const good = readFileSync(f("ec.p12"));
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let i = 0; i < 300; i++) {
      const bytes = Uint8Array.from(good).subarray(0, i % 3 === 0 ? rand(good.length) : good.length);
      if (i % 3 !== 0) bytes[rand(bytes.length)] = rand(256);
      try {
        readPkcs12(bytes, PASS);
      } catch (e) {
        assert.ok(e instanceof Pkcs12Error, String(e));
      }
    }
  });
});

describe("decryptPrivateKeyInfo()", () => {
  test("decryptPrivateKeyInfo() opens PBES2 keys openssl pkcs8 writes, and names legacy schemes", () => {
    const der = (...args: string[]) => {
      openssl("pkcs8", "-topk8", "-in", f("rsa.key"), "-out", f("k.der"), "-outform", "DER", "-passout", `pass:${PASS}`, ...args);
      return readFileSync(f("k.der"));
    };
    const plain = decodePem(readFileSync(f("rsa.key"), "utf8"))[0]!.der;
    for (const args of [["-v2", "aes-256-cbc"], ["-v2", "aes-128-cbc", "-v2prf", "hmacWithSHA512"], ["-v2", "aes-256-cbc", "-v2prf", "hmacWithSHA1", "-iter", "1"]]) {
      assert.deepEqual(keySpki(decryptPrivateKeyInfo(der(...args), PASS)), keySpki(plain), args.join(" "));
    }
    assert.equal(reason(() => decryptPrivateKeyInfo(der("-v2", "aes-256-cbc"), "wrong")), "wrong-passphrase");
    assert.equal(reason(() => decryptPrivateKeyInfo(der("-v2", "des3"), PASS)), "legacy-cipher");
    assert.equal(reason(() => decryptPrivateKeyInfo(der("-v1", "PBE-SHA1-3DES"), PASS)), "legacy-cipher");
  });
});
