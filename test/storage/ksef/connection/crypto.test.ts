import assert from "node:assert/strict";
import { constants, createCipheriv, privateDecrypt, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { challengeMillis, decryptPart, encryptKsefToken, newPackageKey, pickCertificate, type PublicKeyCertificate } from "../../../../storage/ksef/connection/crypto.ts";
import { SourceError } from "../../../../lib/contracts/document_source.ts";
import { fixturePath } from "../../../support/server.ts";

const certPem = readFileSync(fixturePath("ksef", "simulator_cert.pem"), "utf8");
const keyPem = readFileSync(fixturePath("ksef", "simulator_key.pem"), "utf8");
const der = new X509Certificate(certPem).raw.toString("base64");
const cert = (usage: string, validFrom: string, validTo: string): PublicKeyCertificate => ({ certificate: der, validFrom, validTo, usage: [usage] });
const oaep = (b64: string): Buffer => privateDecrypt({ key: keyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(b64, "base64"));

test("encryptKsefToken() sends token|timestampMs under RSA-OAEP SHA-256, readable with the certificate's key", () => {
  const ms = challengeMillis("2025-07-11T12:23:56.0154302+00:00");
  assert.equal(ms, Date.UTC(2025, 6, 11, 12, 23, 56, 15));
  const c = cert("KsefTokenEncryption", "2020-01-01T00:00:00Z", "2099-01-01T00:00:00Z");
  assert.equal(oaep(encryptKsefToken(c, "ref|nip-5265877635|secret", ms)).toString(), `ref|nip-5265877635|secret|${ms}`);
});

test("pickCertificate() takes the valid one with the latest validFrom, and names an expired set", () => {
  const now = Date.parse("2026-06-01T00:00:00Z");
  const list = [
    cert("KsefTokenEncryption", "2024-01-01T00:00:00Z", "2027-01-01T00:00:00Z"),
    { ...cert("KsefTokenEncryption", "2026-01-01T00:00:00Z", "2028-01-01T00:00:00Z"), publicKeyId: "newer" },
    { ...cert("SymmetricKeyEncryption", "2026-05-01T00:00:00Z", "2028-01-01T00:00:00Z"), publicKeyId: "sym" },
  ];
  assert.equal(pickCertificate(list, "KsefTokenEncryption", now).publicKeyId, "newer");
  assert.equal(pickCertificate(list, "SymmetricKeyEncryption", now).publicKeyId, "sym");
  assert.throws(() => pickCertificate(list, "SymmetricKeyEncryption", Date.parse("2029-01-01T00:00:00Z")), (e: unknown) => e instanceof SourceError && e.code === "KSEF_CERTIFICATE_EXPIRED");
});

test("newPackageKey() wraps a fresh AES-256 key; decryptPart() reverses AES-256-CBC and refuses a wrong key", () => {
  const c = cert("SymmetricKeyEncryption", "2020-01-01T00:00:00Z", "2099-01-01T00:00:00Z");
  const k = newPackageKey(c);
  assert.deepEqual(oaep(k.encryption.encryptedSymmetricKey), Buffer.from(k.key));
  assert.deepEqual(Buffer.from(k.encryption.initializationVector, "base64"), Buffer.from(k.iv));
  const plain = Buffer.from("PK\u0003\u0004 some zip bytes that span more than one block");
  const e = createCipheriv("aes-256-cbc", k.key, k.iv);
  const enc = Buffer.concat([e.update(plain), e.final()]);
  assert.deepEqual(Buffer.from(decryptPart(enc, k, "p1")), plain);
  // Fixed keys: a wrong key gives valid padding by chance (about 1 in 256), so random ones would make this fail by luck.
  const right = { ...k, key: new Uint8Array(32).fill(1), iv: new Uint8Array(16) };
  const wrong = { ...right, key: new Uint8Array(32).fill(2) };
  const fixed = createCipheriv("aes-256-cbc", right.key, right.iv);
  const sealed = Buffer.concat([fixed.update(plain), fixed.final()]);
  assert.deepEqual(Buffer.from(decryptPart(sealed, right, "p1")), plain);
  assert.throws(() => decryptPart(sealed, wrong, "p1"), (err: unknown) => err instanceof SourceError && err.code === "KSEF_PACKAGE_UNDECRYPTABLE");
});
