/**
 * Decrypts an EncryptedPrivateKeyInfo (RFC 5958 §3) protected with PBES2 (RFC 8018 §6.2): PBKDF2 with HMAC-SHA-1,
 * -SHA-224, -SHA-256, -SHA-384 or -SHA-512 and AES-128/192/256-CBC, what `openssl pkcs8 -topk8 -v2 aes-256-cbc`
 * and OpenSSL 3's `pkcs12 -export` write. The older schemes (PBES1, PKCS#12's pbeWithSHAAnd3-KeyTripleDES-CBC and
 * RC2, DES-EDE3 under PBES2) are refused with a KeyDecryptError of reason "legacy-cipher", so the caller can say
 * how to convert the file. The password is the passphrase's UTF-8 bytes, as OpenSSL uses it for PBES2. AES is
 * node:crypto's, or aes_cbc.ts's where the runtime lacks a key size; PBKDF2 is the caller's DeriveKey
 * (key_derivation.ts), by default done at once.
 * @module
 */
import { createDecipheriv } from "node:crypto";
import { aesCbcDecrypt } from "./aes_cbc.ts";
import { deriveKeySync, type DeriveKey } from "./key_derivation.ts";
import { child, children, content, DerError, parseDer, readOctetString, readOid, readSmallInt, TAG, type DerNode } from "../asn1/der.ts";

/** Why a protected key or file could not be opened; the message never holds the passphrase or key material. */
export class KeyDecryptError extends Error {
  /**
   * "wrong-passphrase" (or a corrupted file: the two cannot be told apart), "legacy-cipher", "too-costly" (more
   * key-derivation iterations than MAX_KDF_ITERATIONS, or than a file's own limit), "unsupported".
   */
  readonly reason: "wrong-passphrase" | "legacy-cipher" | "too-costly" | "unsupported";
  constructor(reason: KeyDecryptError["reason"], message: string) {
    super(message);
    this.name = "KeyDecryptError";
    this.reason = reason;
  }
}

/**
 * The most PBKDF2 or PKCS#12 KDF iterations accepted: OWASP's 2023 advice for PBKDF2-HMAC-SHA-256 is 600,000 and
 * OpenSSL writes 2,048; above 2,000,000 a file would take seconds to open, so it is refused as unreasonable.
 */
export const MAX_KDF_ITERATIONS = 2_000_000;

/** RFC 8018 Appendix B and C, RFC 3565 (AES OIDs), RFC 7292 Appendix C (PKCS#12 PBE OIDs). */
export const OID = {
  PBES2: "1.2.840.113549.1.5.13",
  PBKDF2: "1.2.840.113549.1.5.12",
  HMAC_SHA1: "1.2.840.113549.2.7",
  DES_EDE3_CBC: "1.2.840.113549.3.7",
} as const;
const _PRFS: Readonly<Record<string, string>> = {
  "1.2.840.113549.2.7": "sha1", "1.2.840.113549.2.8": "sha224", "1.2.840.113549.2.9": "sha256",
  "1.2.840.113549.2.10": "sha384", "1.2.840.113549.2.11": "sha512",
};
const _AES_CBC: Readonly<Record<string, { cipher: string; keyLength: number }>> = {
  "2.16.840.1.101.3.4.1.2": { cipher: "aes-128-cbc", keyLength: 16 },
  "2.16.840.1.101.3.4.1.22": { cipher: "aes-192-cbc", keyLength: 24 },
  "2.16.840.1.101.3.4.1.42": { cipher: "aes-256-cbc", keyLength: 32 },
};
// PBES1 (RFC 8018 §6.1, 1.2.840.113549.1.5.{1,3,4,6,10,11}) and PKCS#12 PBE (RFC 7292 App. C, 1.2.840.113549.1.12.1.{1-6}).
const _LEGACY = /^1\.2\.840\.113549\.1\.(5\.(1|3|4|6|10|11)|12\.1\.[1-6])$/;

/** What a file may still spend on key derivations, in iterations; each derivation takes its count from `left`. */
export interface KdfBudget {
  left: number;
}

/** Takes `iterations` from `budget`, or KeyDecryptError "unsupported" when it has not that many left. */
export function chargeKdf(budget: KdfBudget | undefined, iterations: number): void {
  if (budget === undefined) return;
  if (iterations > budget.left) throw new KeyDecryptError("too-costly", "the file asks for more key-derivation iterations in all than are allowed");
  budget.left -= iterations;
}

/** The PBKDF2 iteration count of a PBES2 AlgorithmIdentifier, read without deriving; 0 when it is not PBES2. */
export function pbes2Iterations(algorithm: DerNode): number {
  const alg = children(algorithm, TAG.SEQUENCE);
  if (readOid(child(alg, 0)) !== OID.PBES2) return 0;
  const kdf = children(child(children(child(alg, 1, TAG.SEQUENCE)), 0, TAG.SEQUENCE));
  if (readOid(child(kdf, 0)) !== OID.PBKDF2) return 0;
  return readSmallInt(child(children(child(kdf, 1, TAG.SEQUENCE)), 1), Number.MAX_SAFE_INTEGER);
}

/**
 * Decrypts `encrypted` (the bytes) protected by the algorithm `algorithm` (an AlgorithmIdentifier) with
 * `passphrase`; the derivation's iterations are taken from `budget` first, when given.
 */
export function decryptPbes2(algorithm: DerNode, encrypted: Uint8Array, passphrase: string, budget?: KdfBudget, derive: DeriveKey = deriveKeySync): Uint8Array {
  const alg = children(algorithm, TAG.SEQUENCE);
  const oid = readOid(child(alg, 0));
  if (_LEGACY.test(oid)) throw new KeyDecryptError("legacy-cipher", `encrypted with a legacy cipher (${oid})`);
  if (oid !== OID.PBES2) throw new KeyDecryptError("unsupported", `encrypted with an unknown scheme (${oid})`);
  const params = children(child(alg, 1, TAG.SEQUENCE));
  const kdf = children(child(params, 0, TAG.SEQUENCE));
  const scheme = children(child(params, 1, TAG.SEQUENCE));
  const schemeOid = readOid(child(scheme, 0));
  if (schemeOid === OID.DES_EDE3_CBC) throw new KeyDecryptError("legacy-cipher", "encrypted with a legacy cipher (DES-EDE3-CBC)");
  const aes = _AES_CBC[schemeOid];
  if (aes === undefined) throw new KeyDecryptError("unsupported", `encrypted with an unsupported cipher (${schemeOid})`);
  const iv = readOctetString(child(scheme, 1));
  if (iv.length !== 16) throw new DerError("AES-CBC parameters are not a 16-byte IV");
  if (readOid(child(kdf, 0)) !== OID.PBKDF2) throw new KeyDecryptError("unsupported", "key derivation is not PBKDF2");
  const p = children(child(kdf, 1, TAG.SEQUENCE));
  const salt = readOctetString(child(p, 0)); // RFC 8018 A.2: `specified` salt; otherSource is reserved
  const iterations = readSmallInt(child(p, 1), Number.MAX_SAFE_INTEGER);
  if (iterations < 1) throw new KeyDecryptError("unsupported", "PBKDF2 iteration count is 0");
  if (iterations > MAX_KDF_ITERATIONS) throw new KeyDecryptError("too-costly", `PBKDF2 iteration count ${iterations} is more than ${MAX_KDF_ITERATIONS}`);
  chargeKdf(budget, iterations);
  let k = 2;
  if (p[k]?.tag === TAG.INTEGER) {
    if (readSmallInt(p[k]!, 64) !== aes.keyLength) throw new DerError("PBKDF2 key length does not match the cipher");
    k++;
  }
  const prf = p[k] === undefined ? "sha1" : _PRFS[readOid(child(children(p[k]!, TAG.SEQUENCE), 0))];
  if (prf === undefined) throw new KeyDecryptError("unsupported", "PBKDF2 uses an unsupported PRF");
  const key = derive({ kind: "pbkdf2", hash: prf, password: new TextEncoder().encode(passphrase), salt, iterations, length: aes.keyLength });
  let decipher;
  try {
    decipher = createDecipheriv(aes.cipher, key, iv);
  } catch {
    // Deno 2's node:crypto has no AES-192 ("Unknown cipher"): FIPS 197 in TypeScript instead.
    const plain = aesCbcDecrypt(key, iv, encrypted);
    if (plain === null) throw new KeyDecryptError("wrong-passphrase", "the passphrase is wrong");
    return plain;
  }
  try {
    const head = decipher.update(encrypted);
    const tail = decipher.final();
    const out = new Uint8Array(head.length + tail.length);
    out.set(head);
    out.set(tail, head.length);
    return out;
  } catch {
    // A bad padding: a wrong passphrase, 255 times in 256 (the caller checks what decrypts for the rest).
    throw new KeyDecryptError("wrong-passphrase", "the passphrase is wrong");
  }
}

/**
 * The PrivateKeyInfo (PKCS#8 DER) inside an EncryptedPrivateKeyInfo; KeyDecryptError "wrong-passphrase" when it
 * does not decrypt to one.
 */
export function decryptPrivateKeyInfo(der: Uint8Array, passphrase: string, derive: DeriveKey = deriveKeySync): Uint8Array {
  const info = children(parseDer(der), TAG.SEQUENCE);
  return decryptShroudedKey(child(info, 0, TAG.SEQUENCE), readOctetString(child(info, 1)), passphrase, undefined, derive);
}

/** Decrypts a key and checks that the result is a PrivateKeyInfo (RFC 5958 §2) by its outline. */
export function decryptShroudedKey(algorithm: DerNode, encrypted: Uint8Array, passphrase: string, budget?: KdfBudget, derive: DeriveKey = deriveKeySync): Uint8Array {
  const plain = decryptPbes2(algorithm, encrypted, passphrase, budget, derive);
  try {
    const info = children(parseDer(plain), TAG.SEQUENCE);
    readSmallInt(child(info, 0), 1);
    child(info, 1, TAG.SEQUENCE);
    content(child(info, 2, TAG.OCTET_STRING));
  } catch {
    throw new KeyDecryptError("wrong-passphrase", "the passphrase is wrong");
  }
  return plain;
}

/** True when `der` is an EncryptedPrivateKeyInfo rather than a PrivateKeyInfo (its first element is a SEQUENCE). */
export function isEncryptedPrivateKeyInfo(der: Uint8Array): boolean {
  try {
    const info = children(parseDer(der), TAG.SEQUENCE);
    return info.length === 2 && info[0]!.tag === TAG.SEQUENCE && info[1]!.tag === TAG.OCTET_STRING;
  } catch {
    return false;
  }
}
