/**
 * Reads a PKCS#12 file (RFC 7292; `.p12`, `.pfx`) in DER or BER (ber.ts): checks its MAC (§5.1, HMAC with the PKCS#12 KDF and
 * SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512) and takes out its private keys (keyBag, pkcs8ShroudedKeyBag) and
 * X.509 certificates (certBag), decrypting PBES2 bags and encryptedData (pbes2.ts): what OpenSSL 3 writes by
 * default. Legacy encryption (RC2, 3DES) is a KeyDecryptError "legacy-cipher"; public-key protected contents
 * (envelopedData), CRL and secret bags, and PBMAC1 (RFC 9579) are not read. Every failure is a Pkcs12Error whose
 * reason says what is wrong (not PKCS#12 at all, cut short, nested too deep, too many bags, a wrong passphrase, a
 * legacy cipher, …). Key derivations go through the caller's DeriveKey (key_derivation.ts). It does not pick the
 * key's certificate: the caller compares public keys.
 * @module
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { berToDer } from "../asn1/ber.ts";
import { concatBytes } from "../asn1/der_writer.ts";
import { child, children, content, contextTag, DerError, encoding, MAX_DER_DEPTH, parseDer, readOctetString, readOid, readSmallInt, TAG, type DerNode } from "../asn1/der.ts";
import { deriveKeySync, type DeriveKey } from "../pkcs8/key_derivation.ts";
import { chargeKdf, decryptPbes2, decryptShroudedKey, KeyDecryptError, MAX_KDF_ITERATIONS, pbes2Iterations, type KdfBudget } from "../pkcs8/pbes2.ts";
import { bmpPassword, PKCS12_MAC_ID } from "./kdf.ts";

/** What a PKCS#12 file holds: private keys as PKCS#8 DER and certificates as DER, each with its localKeyId. */
export interface Pkcs12Contents {
  keys: Pkcs12Item[];
  certificates: Pkcs12Item[];
}

/** One key or certificate and the attributes that pair them. */
export interface Pkcs12Item {
  der: Uint8Array;
  /** PKCS#9 localKeyId (RFC 2985 §5.5.2), when the bag has it. */
  localKeyId?: Uint8Array;
  /** PKCS#9 friendlyName, when the bag has it. */
  friendlyName?: string;
}

/**
 * Why a PKCS#12 file cannot be read: "not-pkcs12" (another kind of file), "truncated" (its end is missing),
 * "too-deep" (nested deeper than MAX_DER_DEPTH), "too-many-bags" (more than MAX_PKCS12_BAGS or
 * MAX_PKCS12_CONTENTS), "damaged" (a PFX whose inside does not parse), "wrong-passphrase" (or a changed byte: the
 * MAC cannot tell), "legacy-cipher" (RC2, 3DES), "too-costly" (more key-derivation iterations than allowed),
 * "unsupported" (public-key protection, no MAC, PBMAC1, an unknown algorithm).
 */
export type Pkcs12Failure = "not-pkcs12" | "truncated" | "too-deep" | "too-many-bags" | "damaged" | KeyDecryptError["reason"];

/** A PKCS#12 file that cannot be read, and why; the message never holds the passphrase or key material. */
export class Pkcs12Error extends Error {
  readonly reason: Pkcs12Failure;
  constructor(reason: Pkcs12Failure, message: string) {
    super(message);
    this.name = "Pkcs12Error";
    this.reason = reason;
  }
}

/** The most bags read from one file: a key, its certificate and a chain fit many times over. */
export const MAX_PKCS12_BAGS = 256;
/** The most ContentInfos of an AuthenticatedSafe (RFC 7292 §5.1): OpenSSL writes 2 (certificates, key). */
export const MAX_PKCS12_CONTENTS = 16;
/**
 * The most key-derivation iterations one file may ask for in all (the MAC's, each encrypted content's, each
 * shrouded key's): two derivations at MAX_KDF_ITERATIONS. Without it, 256 bags of 2,000,000 each would hold the
 * process for minutes.
 */
export const MAX_PKCS12_KDF_ITERATIONS = 4_000_000;

const _OID = {
  DATA: "1.2.840.113549.1.7.1",
  ENCRYPTED_DATA: "1.2.840.113549.1.7.6",
  KEY_BAG: "1.2.840.113549.1.12.10.1.1",
  SHROUDED_KEY_BAG: "1.2.840.113549.1.12.10.1.2",
  CERT_BAG: "1.2.840.113549.1.12.10.1.3",
  SAFE_CONTENTS_BAG: "1.2.840.113549.1.12.10.1.6",
  X509_CERTIFICATE: "1.2.840.113549.1.9.22.1",
  LOCAL_KEY_ID: "1.2.840.113549.1.9.21",
  FRIENDLY_NAME: "1.2.840.113549.1.9.20",
  PBMAC1: "1.2.840.113549.1.5.14",
} as const;
/** Digest OIDs of the MAC (RFC 8017 App. A.2.4, RFC 5754 §2). */
const _MAC_HASHES: Readonly<Record<string, { hash: string; bytes: number }>> = {
  "1.3.14.3.2.26": { hash: "sha1", bytes: 20 },
  "2.16.840.1.101.3.4.2.4": { hash: "sha224", bytes: 28 },
  "2.16.840.1.101.3.4.2.1": { hash: "sha256", bytes: 32 },
  "2.16.840.1.101.3.4.2.2": { hash: "sha384", bytes: 48 },
  "2.16.840.1.101.3.4.2.3": { hash: "sha512", bytes: 64 },
};

/**
 * The keys and certificates of the PFX `der`, opened with `passphrase`; Pkcs12Error saying why when it cannot be.
 * `derive` does the key derivations (default: at once); what it throws other than a DerError passes through.
 */
export function readPkcs12(der: Uint8Array, passphrase: string, derive: DeriveKey = deriveKeySync): Pkcs12Contents {
  const seen = { pfx: false };
  try {
    return _readPkcs12(der, passphrase, derive, seen);
  } catch (e) {
    if (e instanceof Pkcs12Error) throw e;
    if (e instanceof KeyDecryptError) throw new Pkcs12Error(e.reason, e.message);
    if (!(e instanceof DerError)) throw e;
    if (/nests deeper than/.test(e.message)) throw new Pkcs12Error("too-deep", `it nests deeper than ${MAX_DER_DEPTH} levels`);
    if (der.length === 0) throw new Pkcs12Error("not-pkcs12", "it is empty");
    if (der[0] !== TAG.SEQUENCE) throw new Pkcs12Error("not-pkcs12", "it does not start with an ASN.1 SEQUENCE, as every PKCS#12 file does");
    if (_cutShort(der, e)) throw new Pkcs12Error("truncated", "its end is missing (the file is cut short)");
    if (!seen.pfx) throw new Pkcs12Error("not-pkcs12", `it is not a PKCS#12 PFX (${e.message})`);
    throw new Pkcs12Error("damaged", `it is damaged inside (${e.message})`);
  }
}

/**
 * Whether a parse failure is the file ending early: its outer element says it is longer than the file, or (BER's
 * indefinite length, which says nothing) the parser ran out of bytes.
 */
function _cutShort(der: Uint8Array, e: DerError): boolean {
  const first = der[1];
  if (first === undefined) return true;
  if (first === 0x80) return /ends inside|no end-of-contents/.test(e.message);
  let length = first, header = 2;
  if (first > 0x80) {
    const n = first & 0x7f;
    if (n > 4 || der.length < 2 + n) return der.length < 2 + n;
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + der[2 + i]!;
    header += n;
  }
  return header + length > der.length;
}

function _readPkcs12(der: Uint8Array, passphrase: string, derive: DeriveKey, seen: { pfx: boolean }): Pkcs12Contents {
  const pfx = children(_parse(der), TAG.SEQUENCE);
  if (readSmallInt(child(pfx, 0), 255) !== 3) throw new DerError("PFX version is not 3");
  const authSafe = children(child(pfx, 1, TAG.SEQUENCE));
  if (readOid(child(authSafe, 0)) !== _OID.DATA) throw new KeyDecryptError("unsupported", "PFX is protected by public-key integrity, not a passphrase");
  seen.pfx = true;
  const safeBytes = readOctetString(child(children(child(authSafe, 1, contextTag(0))), 0));
  const macData = pfx[2];
  if (macData === undefined) throw new KeyDecryptError("unsupported", "PFX has no MAC, so its passphrase cannot be checked");
  const infos = children(_parse(safeBytes), TAG.SEQUENCE).map((info) => {
    const parts = children(info, TAG.SEQUENCE);
    return { type: readOid(child(parts, 0)), body: child(children(child(parts, 1, contextTag(0))), 0) };
  });
  if (infos.length > MAX_PKCS12_CONTENTS) throw new Pkcs12Error("too-many-bags", `it has more than ${MAX_PKCS12_CONTENTS} contents`);
  // The iterations visible before any derivation (the MAC's, each encryptedData's) are counted first, so that a file
  // asking too much is refused at once; shrouded keys, inside encrypted contents, are charged as they come.
  const budget: KdfBudget = { left: MAX_PKCS12_KDF_ITERATIONS };
  let planned = _macIterations(macData);
  for (const { type, body } of infos) if (type === _OID.ENCRYPTED_DATA) planned += pbes2Iterations(_encryptedContentInfo(body)[1]!);
  if (planned > budget.left) throw new KeyDecryptError("too-costly", `PFX asks for ${planned} key-derivation iterations in all, more than ${MAX_PKCS12_KDF_ITERATIONS}`);
  _verifyMac(macData, safeBytes, passphrase, budget, derive);
  const out: Pkcs12Contents = { keys: [], certificates: [] };
  let bags = 0;
  for (const { type, body } of infos) {
    let safeContents: Uint8Array;
    if (type === _OID.DATA) safeContents = readOctetString(body);
    else if (type === _OID.ENCRYPTED_DATA) {
      const eci = _encryptedContentInfo(body);
      const encrypted = eci[2];
      let bytes: Uint8Array;
      if (encrypted?.tag === contextTag(0, false)) bytes = content(encrypted);
      // BER writers may split the IMPLICIT OCTET STRING into segments (X.690 §8.7.3): [0] constructed.
      else if (encrypted?.tag === contextTag(0, true)) bytes = concatBytes(children(encrypted).map(readOctetString));
      else throw new DerError("PKCS#12 encryptedData has no content");
      safeContents = decryptPbes2(child(eci, 1, TAG.SEQUENCE), bytes, passphrase, budget, derive);
    } else throw new KeyDecryptError("unsupported", `PFX content of type ${type} (e.g. public-key encrypted) is not read`);
    bags = _readSafeContents(_parse(safeContents), passphrase, out, bags, budget, derive);
  }
  return out;
}

// EncryptedData (RFC 5652 §8): version, EncryptedContentInfo { contentType, algorithm, [0] IMPLICIT content }.
function _encryptedContentInfo(body: DerNode): DerNode[] {
  const eci = children(child(children(body, TAG.SEQUENCE), 1, TAG.SEQUENCE));
  child(eci, 1, TAG.SEQUENCE);
  return eci;
}

function _macIterations(node: DerNode): number {
  const mac = children(node, TAG.SEQUENCE);
  return mac[2] === undefined ? 1 : readSmallInt(mac[2], Number.MAX_SAFE_INTEGER);
}

/** BER or DER, read through berToDer(): RFC 7292 allows BER, and DER passes through it unchanged. */
function _parse(bytes: Uint8Array): DerNode {
  return parseDer(berToDer(bytes));
}

function _verifyMac(node: DerNode, data: Uint8Array, passphrase: string, budget: KdfBudget, derive: DeriveKey): void {
  const mac = children(node, TAG.SEQUENCE);
  const digestInfo = children(child(mac, 0, TAG.SEQUENCE));
  const algOid = readOid(child(children(child(digestInfo, 0, TAG.SEQUENCE)), 0));
  if (algOid === _OID.PBMAC1) throw new KeyDecryptError("unsupported", "PFX MAC is PBMAC1, which is not read");
  const alg = _MAC_HASHES[algOid];
  if (alg === undefined) throw new KeyDecryptError("unsupported", `PFX MAC uses an unknown digest (${algOid})`);
  const expected = readOctetString(child(digestInfo, 1));
  const salt = readOctetString(child(mac, 1));
  const iterations = mac[2] === undefined ? 1 : readSmallInt(mac[2], Number.MAX_SAFE_INTEGER);
  if (iterations < 1) throw new KeyDecryptError("unsupported", "PFX MAC iteration count is 0");
  if (iterations > MAX_KDF_ITERATIONS) throw new KeyDecryptError("too-costly", `PFX MAC iteration count ${iterations} is more than ${MAX_KDF_ITERATIONS}`);
  chargeKdf(budget, iterations);
  const key = derive({ kind: "pkcs12", hash: alg.hash, id: PKCS12_MAC_ID, password: bmpPassword(passphrase), salt, iterations, length: alg.bytes });
  const actual = createHmac(alg.hash, key).update(data).digest();
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw new KeyDecryptError("wrong-passphrase", "the passphrase is wrong (or the file is damaged)");
}

function _readSafeContents(node: DerNode, passphrase: string, out: Pkcs12Contents, count: number, budget: KdfBudget, derive: DeriveKey): number {
  for (const bag of children(node, TAG.SEQUENCE)) {
    if (++count > MAX_PKCS12_BAGS) throw new Pkcs12Error("too-many-bags", `it has more than ${MAX_PKCS12_BAGS} bags`);
    const parts = children(bag, TAG.SEQUENCE);
    const type = readOid(child(parts, 0));
    const value = child(children(child(parts, 1, contextTag(0))), 0);
    const attrs = parts[2] === undefined ? {} : _attributes(parts[2]);
    if (type === _OID.KEY_BAG) out.keys.push({ der: encoding(value), ...attrs });
    else if (type === _OID.SHROUDED_KEY_BAG) {
      const info = children(value, TAG.SEQUENCE);
      out.keys.push({ der: decryptShroudedKey(child(info, 0, TAG.SEQUENCE), readOctetString(child(info, 1)), passphrase, budget, derive), ...attrs });
    } else if (type === _OID.CERT_BAG) {
      const cert = children(value, TAG.SEQUENCE);
      if (readOid(child(cert, 0)) !== _OID.X509_CERTIFICATE) continue; // SDSI certificates: not X.509
      out.certificates.push({ der: readOctetString(child(children(child(cert, 1, contextTag(0))), 0)), ...attrs });
    } else if (type === _OID.SAFE_CONTENTS_BAG) count = _readSafeContents(value, passphrase, out, count, budget, derive);
    // CRL and secret bags hold nothing a signer needs.
  }
  return count;
}

function _attributes(node: DerNode): { localKeyId?: Uint8Array; friendlyName?: string } {
  const out: { localKeyId?: Uint8Array; friendlyName?: string } = {};
  for (const attr of children(node, TAG.SET)) {
    const parts = children(attr, TAG.SEQUENCE);
    const oid = readOid(child(parts, 0));
    const first = children(child(parts, 1, TAG.SET))[0];
    if (first === undefined) continue;
    if (oid === _OID.LOCAL_KEY_ID && first.tag === TAG.OCTET_STRING) out.localKeyId = content(first);
    if (oid === _OID.FRIENDLY_NAME && first.tag === TAG.BMP_STRING) {
      const c = content(first);
      let s = "";
      for (let i = 0; i + 1 < c.length; i += 2) s += String.fromCharCode((c[i]! << 8) | c[i + 1]!);
      out.friendlyName = s;
    }
  }
  return out;
}
