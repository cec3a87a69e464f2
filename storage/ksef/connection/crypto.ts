/**
 * The cryptography of KSeF 2.0, all through node:crypto (Node, Deno and Bun
 * implement it): the KSeF token encrypted for `/auth/ksef-token`
 * (uwierzytelnianie.md §2.2: RSA-OAEP, SHA-256 and MGF1-SHA-256 over
 * `token|timestampMs`), the AES-256 key and IV of an export sent RSA-OAEP
 * encrypted, and the AES-256-CBC/PKCS#7 decryption of package parts
 * (open-api.json, GET /invoices/exports/{referenceNumber}). Picking the
 * certificate follows bezpieczenstwo/klucze-publiczne-do-szyfrowania.md §4.1.
 * @module
 */
import { constants, createDecipheriv, createHash, publicEncrypt, randomBytes, X509Certificate } from "node:crypto";
import { KSEF_ERROR, ksefError } from "./errors.ts";

/** One entry of GET /security/public-key-certificates (open-api.json PublicKeyCertificate). */
export interface PublicKeyCertificate {
  /** DER, Base64, no PEM armour. */
  certificate: string;
  validFrom: string;
  validTo: string;
  usage: string[];
  /** Newer API versions: SHA-256 of the SubjectPublicKeyInfo, Base64 (klucze-publiczne §2). */
  publicKeyId?: string;
}

/** The usages of klucze-publiczne §2. */
export type KeyUsage = "KsefTokenEncryption" | "SymmetricKeyEncryption";

const AES_KEY_BYTES = 32; // AES-256
const AES_IV_BYTES = 16; // one AES block, CBC

/**
 * The certificate for `usage` valid at `now`, the one with the latest `validFrom` when several are (klucze-publiczne
 * §4.1); none valid fails with KSEF_CERTIFICATE_EXPIRED.
 */
export function pickCertificate(list: readonly PublicKeyCertificate[], usage: KeyUsage, now: number): PublicKeyCertificate {
  const forUsage = list.filter((c) => Array.isArray(c.usage) && c.usage.includes(usage));
  const valid = forUsage.filter((c) => Date.parse(c.validFrom) <= now && now < Date.parse(c.validTo));
  if (valid.length === 0) {
    const what = forUsage.length === 0 ? `KSeF publishes no certificate for ${usage}` : `every KSeF certificate for ${usage} is outside its validity period`;
    throw ksefError(KSEF_ERROR.certificateExpired, `Cannot encrypt for KSeF: ${what}. Check the server clock; if it is right, KSeF is rotating its keys: retry later`);
  }
  valid.sort((a, b) => Date.parse(b.validFrom) - Date.parse(a.validFrom));
  return valid[0]!;
}

/** RSA-OAEP with SHA-256 (and MGF1-SHA-256) against the certificate's public key. */
export function rsaOaepEncrypt(cert: PublicKeyCertificate, data: Uint8Array): Uint8Array {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(Buffer.from(cert.certificate, "base64"));
  } catch {
    throw ksefError(KSEF_ERROR.protocol, "KSeF sent a public-key certificate that cannot be read");
  }
  return publicEncrypt({ key: x509.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, data);
}

/** Milliseconds since the epoch of a challenge `timestamp` (7 fraction digits are cut to 3, as .NET's ToUnixTimeMilliseconds does). */
export function challengeMillis(timestamp: string): number {
  const ms = Date.parse(timestamp.replace(/(\.\d{3})\d+/, "$1"));
  if (Number.isNaN(ms)) throw ksefError(KSEF_ERROR.protocol, "KSeF sent a challenge without a readable timestamp");
  return ms;
}

/** The `encryptedToken` of POST /auth/ksef-token: Base64 of RSA-OAEP(`token|timestampMs`) (uwierzytelnianie.md §2.2.1). */
export function encryptKsefToken(cert: PublicKeyCertificate, token: string, timestampMs: number): string {
  return Buffer.from(rsaOaepEncrypt(cert, new TextEncoder().encode(`${token}|${timestampMs}`))).toString("base64");
}

/** The key of one export: kept here, sent to KSeF wrapped (open-api.json EncryptionInfo). */
export interface PackageKey {
  key: Uint8Array;
  iv: Uint8Array;
  encryption: { encryptedSymmetricKey: string; initializationVector: string };
}

/** A fresh AES-256 key and IV for an export, the key wrapped for the SymmetricKeyEncryption certificate. */
export function newPackageKey(cert: PublicKeyCertificate): PackageKey {
  const key = randomBytes(AES_KEY_BYTES);
  const iv = randomBytes(AES_IV_BYTES);
  return {
    key, iv,
    encryption: { encryptedSymmetricKey: Buffer.from(rsaOaepEncrypt(cert, key)).toString("base64"), initializationVector: iv.toString("base64") },
  };
}

/** Decrypts one package part (AES-256-CBC, PKCS#7); a wrong key or damaged bytes fail with KSEF_PACKAGE_UNDECRYPTABLE. */
export function decryptPart(bytes: Uint8Array, key: PackageKey, partName: string): Uint8Array {
  try {
    const d = createDecipheriv("aes-256-cbc", key.key, key.iv);
    return Buffer.concat([d.update(bytes), d.final()]);
  } catch {
    throw ksefError(KSEF_ERROR.packageUndecryptable, `Package part ${partName} does not decrypt with the key this source sent; the run can be retried (a new export gets a new key)`);
  }
}

/** Base64 SHA-256, the form of KSeF's `partHash` and `encryptedPartHash`. */
export function sha256Base64(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("base64");
}
