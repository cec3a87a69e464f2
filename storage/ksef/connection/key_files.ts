/**
 * Reads the files a signing certificate comes in (README "KSeF", sources.json `certificate`, `key`, `pkcs12`,
 * `key_passphrase_env`, `key_passphrase_file`): X.509 certificates in PEM or DER, private keys in PEM or DER as
 * PKCS#8 (RFC 5958), PBES2-encrypted PKCS#8, PKCS#1 (RFC 8017 App. A.1.2) or SEC1 (RFC 5915), and PKCS#12
 * (RFC 7292). Every failure is a RangeError naming the field and the file; no message carries the runtime's own
 * text, the passphrase or a byte of the key. Deciding which key and certificate belong together is credentials.ts's.
 * @module
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { Buffer } from "node:buffer";
import { decodePem, looksLikePem } from "../../../lib/formats/asn1/pem.ts";
import { decryptPrivateKeyInfo, isEncryptedPrivateKeyInfo, KeyDecryptError } from "../../../lib/formats/pkcs8/pbes2.ts";
import { DerError, MAX_DER_DEPTH } from "../../../lib/formats/asn1/der.ts";
import type { DeriveKey } from "../../../lib/formats/pkcs8/key_derivation.ts";
import { MAX_PKCS12_BAGS, Pkcs12Error, readPkcs12 } from "../../../lib/formats/pkcs12/read.ts";
import { readConfiguredFile } from "./configured_file.ts";

/** Where a passphrase comes from: the NAME of an environment variable, or a file whose first line it is. */
export type PassphraseSource = { env: string } | { file: string };

/**
 * Files larger than this are not a certificate, key or PKCS#12 of a signer: a 4096-bit RSA key is 3.3 KB and a
 * PKCS#12 with a certificate chain some 10 KB; 1 MiB leaves room for long chains and keeps a wrong path from
 * being read into memory.
 */
export const MAX_KEY_FILE_BYTES = 1024 * 1024;
/** A passphrase file longer than this is not one (OpenSSL's own prompt reads at most 1 KiB). */
const _MAX_PASSPHRASE_BYTES = 4096;

/**
 * How `openssl` (3.x; on 1.1 without `-legacy`) converts a legacy-encrypted PKCS#12 (RC2, 3DES) into the AES form
 * OpenSSL 3 writes. Through a file, not a pipe: `pkcs12 -export` reads its input twice (key, then certificates),
 * which a pipe cannot give; the file's key stays encrypted under the PEM pass phrase the first command asks for.
 */
export const PKCS12_CONVERT_COMMAND = "openssl pkcs12 -legacy -in OLD.p12 -out OLD.pem && openssl pkcs12 -export -in OLD.pem -keypbe AES-256-CBC -certpbe AES-256-CBC -macalg SHA256 -out NEW.p12 && rm OLD.pem";
/** How `openssl` re-encrypts a key with PBES2 and AES-256-CBC. */
export const PKCS8_CONVERT_COMMAND = "openssl pkcs8 -topk8 -v2 aes-256-cbc -in OLD.key.pem -out NEW.key.pem";

/**
 * A certificate, key or PKCS#12 file's bytes (configured_file.ts: a regular file of at most MAX_KEY_FILE_BYTES), or
 * RangeError naming it: "`field` `path` cannot be read: ENOENT" (the code only), not a regular file, too large.
 */
export function readKeyFile(field: string, path: string): Uint8Array {
  return readConfiguredFile(field, path, MAX_KEY_FILE_BYTES, "not a certificate or key").bytes;
}

/** The DER certificates of a PEM (every CERTIFICATE block, in order) or DER file; RangeError naming it when none. */
export function readCertificates(field: string, path: string): Uint8Array[] {
  const bytes = readKeyFile(field, path);
  if (!looksLikePem(bytes)) {
    if (bytes[0] === 0x30) return [bytes]; // a SEQUENCE: DER, checked when parsed
    throw new RangeError(`${field} ${path} is neither a PEM nor a DER certificate`);
  }
  const certs = decodePem(new TextDecoder().decode(bytes)).filter((b) => b.label === "CERTIFICATE").map((b) => b.der);
  if (certs.length === 0) throw new RangeError(`${field} ${path} is not a PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return certs;
}

/** What a key file needs to be read. */
export interface ReadKeyOptions {
  /** The passphrase of an encrypted key, when one is configured. */
  passphrase?: string;
  /** What an encrypted key without a passphrase is told to do (e.g. `give its passphrase with "key_passphrase_env"`). */
  encryptedHint: string;
  /** Does the key derivation of an encrypted key (default: at once, on this thread). */
  derive?: DeriveKey;
}

/** The private key of a PEM or DER key file; RangeError naming `field` and `path`. */
export function readPrivateKey(field: string, path: string, options: ReadKeyOptions): KeyObject {
  const bytes = readKeyFile(field, path);
  const where = `${field} ${path}`;
  if (looksLikePem(bytes)) {
    const text = new TextDecoder().decode(bytes);
    const block = decodePem(text).find((b) => /^(ENCRYPTED |RSA |EC )?PRIVATE KEY$/.test(b.label));
    if (block === undefined || block.hasHeaders) {
      // RFC 1421 headers (Proc-Type: 4,ENCRYPTED) are OpenSSL's traditional encryption: MD5-derived keys, refused.
      if (/Proc-Type: 4,ENCRYPTED/.test(text)) throw new RangeError(`${where} is encrypted the traditional OpenSSL way: convert it with ${PKCS8_CONVERT_COMMAND}`);
      if (/-----BEGIN ENCRYPTED PRIVATE KEY-----/.test(text)) return _decrypt(where, null, options);
      throw new RangeError(`${where} is not a PEM private key (PKCS#8, PKCS#1 or SEC1)`);
    }
    if (block.label === "ENCRYPTED PRIVATE KEY") return _decrypt(where, block.der, options);
    const type = block.label === "RSA PRIVATE KEY" ? "pkcs1" : block.label === "EC PRIVATE KEY" ? "sec1" : "pkcs8";
    const key = _createKey(block.der, [type]);
    if (key === null) throw new RangeError(`${where} is not a PEM private key (PKCS#8, PKCS#1 or SEC1)`);
    return key;
  }
  if (isEncryptedPrivateKeyInfo(bytes)) return _decrypt(where, bytes, options);
  const key = _createKey(bytes, ["pkcs8", "pkcs1", "sec1"]);
  if (key === null) throw new RangeError(`${where} is not a DER private key (PKCS#8, PKCS#1 or SEC1)`);
  return key;
}

/**
 * The keys (PKCS#8 DER) and certificates (DER) of a PKCS#12 file; RangeError naming `field` and `path` and saying
 * what is wrong (lib/formats/pkcs12/read.ts's reasons). `derive` does the key derivations (default: at once).
 */
export function readPkcs12File(field: string, path: string, passphrase: string, derive?: DeriveKey): { keys: KeyObject[]; certificates: Uint8Array[] } {
  const bytes = readKeyFile(field, path);
  const where = `${field} ${path}`;
  let contents;
  try {
    contents = readPkcs12(bytes, passphrase, derive);
  } catch (e) {
    if (!(e instanceof Pkcs12Error)) throw e;
    throw new RangeError(_pkcs12Failure(where, e));
  }
  const keys: KeyObject[] = [];
  for (const k of contents.keys) {
    const key = _createKey(k.der, ["pkcs8"]);
    if (key === null) throw new RangeError(`${where} holds a private key this runtime cannot read`);
    keys.push(key);
  }
  if (keys.length === 0) throw new RangeError(`${where} holds no private key`);
  if (contents.certificates.length === 0) throw new RangeError(`${where} holds no certificate`);
  return { keys, certificates: contents.certificates.map((c) => c.der) };
}

/** A passphrase and, when it comes from a file, whether users other than the file's owner may read that file. */
export interface Passphrase {
  value: string;
  readableByOthers: boolean;
}

/** The passphrase from `source`, or RangeError naming the variable or file (never its value). */
export function readPassphrase(source: PassphraseSource, env: Readonly<Record<string, string | undefined>>): Passphrase {
  if ("env" in source) {
    const value = env[source.env];
    // The name is echoed only when it looks like one (POSIX.1-2017 §8.1's portable names): a passphrase put in
    // key_passphrase_env by mistake would otherwise land in the log.
    const name = /^[A-Z_][A-Z0-9_]*$/.test(source.env) ? `the environment variable ${source.env}` : "the environment variable named in key_passphrase_env";
    if (value === undefined) throw new RangeError(`key_passphrase_env: ${name} is not set`);
    if (value === "") throw new RangeError(`key_passphrase_env: ${name} is empty`);
    return { value, readableByOthers: false };
  }
  const { bytes, mode } = readConfiguredFile("key_passphrase_file", source.file, _MAX_PASSPHRASE_BYTES, "not a passphrase");
  // The file is written by `echo` or an editor: one trailing line break is not part of the passphrase.
  const value = new TextDecoder().decode(bytes).replace(/\r?\n$/, "");
  if (value === "") throw new RangeError(`key_passphrase_file ${source.file} is empty`);
  return { value, readableByOthers: isReadableByOthers(mode) };
}

/** Whether a file of st_mode `mode` may be read or written by its group or others (never on Windows: modes mean nothing there). */
export function isReadableByOthers(mode: number): boolean {
  return process.platform !== "win32" && (mode & 0o077) !== 0;
}

/** What a PKCS#12 file's failure tells the operator: what is wrong, and the conversion only where it helps. */
function _pkcs12Failure(where: string, e: Pkcs12Error): string {
  switch (e.reason) {
    case "wrong-passphrase": return `${where}: the passphrase is wrong (or the file is damaged)`;
    case "legacy-cipher": return `${where} is encrypted with a legacy cipher (RC2 or 3DES): convert it with ${PKCS12_CONVERT_COMMAND}`;
    case "not-pkcs12": return `${where} is not a PKCS#12 file (.p12, .pfx): ${e.message}`;
    case "truncated": return `${where} is cut short (its end is missing): copy the whole file again`;
    case "too-deep": return `${where} nests deeper than ${MAX_DER_DEPTH} levels, which no PKCS#12 file of a certificate does: it is damaged or not one`;
    case "too-many-bags": return `${where} holds too many items (${e.message}; at most ${MAX_PKCS12_BAGS} are read): export the certificate and its key alone`;
    case "too-costly": return `${where} asks for more key-derivation work than is allowed (${e.message}): export it again with fewer iterations (openssl pkcs12 -export -iter 2048)`;
    case "damaged": return `${where} is a damaged PKCS#12 file: ${e.message}`;
    default: return `${where} cannot be read: ${e.message}`; // our own messages: no key material in them
  }
}

function _decrypt(where: string, der: Uint8Array | null, options: ReadKeyOptions): KeyObject {
  if (options.passphrase === undefined) throw new RangeError(`${where} is encrypted: ${options.encryptedHint}`);
  if (der === null) throw new RangeError(`${where} is not a PEM private key (PKCS#8, PKCS#1 or SEC1)`);
  let plain: Uint8Array;
  try {
    plain = decryptPrivateKeyInfo(der, options.passphrase, options.derive);
  } catch (e) {
    if (e instanceof KeyDecryptError && e.reason === "wrong-passphrase") throw new RangeError(`${where}: the passphrase is wrong`);
    if (e instanceof KeyDecryptError && e.reason === "legacy-cipher") throw new RangeError(`${where} is encrypted with a legacy cipher: convert it with ${PKCS8_CONVERT_COMMAND}`);
    if (e instanceof KeyDecryptError && e.reason === "too-costly") throw new RangeError(`${where} asks for more key-derivation work than is allowed (${e.message}): encrypt it again with fewer iterations (${PKCS8_CONVERT_COMMAND} -iter 600000)`);
    if (e instanceof KeyDecryptError) throw new RangeError(`${where} cannot be read: ${e.message}`);
    // A pending derivation (key_derivation.ts) passes through; a DER error is a file that is not such a key.
    if (!(e instanceof DerError)) throw e;
    throw new RangeError(`${where} is not an encrypted PKCS#8 private key`);
  }
  const key = _createKey(plain, ["pkcs8"]);
  if (key === null) throw new RangeError(`${where}: the passphrase is wrong`);
  return key;
}

function _createKey(der: Uint8Array, types: readonly ("pkcs8" | "pkcs1" | "sec1")[]): KeyObject | null {
  for (const type of types) {
    try {
      return createPrivateKey({ key: Buffer.from(der), format: "der", type });
    } catch {
      // The runtime's message is not passed on: nothing of the file's content may reach a log.
    }
  }
  return null;
}
