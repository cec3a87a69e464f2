/**
 * The built-in file signer (README "KSeF"): a KSeF or qualified certificate and its private key from files, as a
 * `Signer` for KSeF sign-in (XAdES) and KOD II (kody-qr.md), plus the certificate's facts (subject, serial,
 * validity, SHA-256 fingerprint, KSeF type). Checked at load, each failure a RangeError naming the file: a key of a
 * kind KSeF does not take (certyfikaty-KSeF.md §3: RSA of 2048 bits or more, EC P-256), a key that is not the
 * certificate's, a wrong passphrase, a certificate not yet valid or ended. Key derivations may run off the event
 * loop (loadFileSignerAsync, deferSignerLoads). It does not ask KSeF about revocation.
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import { statSync } from "node:fs";
import { DerError } from "../../../lib/formats/asn1/der.ts";
import { describeKsefSigningKey } from "../../../lib/formats/pdf/ksef_certificate_link.ts";
import { formatName, parseCertificate, type CertificateInfo, type NameAttribute } from "../../../lib/formats/x509/certificate.ts";
import { signWithKey } from "../../../lib/formats/xades/key_sign.ts";
import type { SignatureAlgorithm, Signer } from "../../../lib/formats/xades/signer.ts";
import { basename } from "node:path";
import { readWithAsyncDerivation, type DeriveKey, type KdfRequest } from "../../../lib/formats/pkcs8/key_derivation.ts";
import { SignerCache, SignerLoading } from "./signer_cache.ts";
import { isReadableByOthers, readCertificates, readPassphrase, readPkcs12File, readPrivateKey, type Passphrase, type PassphraseSource } from "./key_files.ts";

/** How long before its end a certificate is reported as ending soon: 30 days, time to request the next one in KSeF. */
export const CERTIFICATE_WARNING_MS = 30 * 86_400_000;

/** The files of a signer: a certificate and its key, or a PKCS#12 holding both; paths as the process sees them. */
export type SignerFiles =
  | { certificateFile: string; keyFile: string; passphrase?: PassphraseSource }
  | { pkcs12File: string; passphrase?: PassphraseSource };

/** How loadFileSigner() reads and names things. */
export interface LoadSignerOptions {
  /** The time the certificate must be valid at (ms). */
  now: number;
  /** Where `key_passphrase_env` is looked up; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The sources.json field names the messages use; default `certificate`, `key`, `pkcs12`. */
  fields?: { certificate?: string; key?: string; pkcs12?: string };
  /** What the key is for, as failures say it: default "sign in to KSeF" (e.g. "sign KOD II"). */
  purpose?: string;
  /** What an ended certificate's message adds (e.g. "request a new KSeF certificate of type Offline"). */
  renewHint?: string;
  /** What an encrypted key without a passphrase is told; default: give `key_passphrase_env` or `key_passphrase_file`. */
  encryptedHint?: string;
  /** How close to its end a certificate is reported in `warnings`; default 30 days. */
  warnWithinMs?: number;
  /**
   * The KSeF certificate type the use needs (sign-in: Authentication; KOD II: Offline). A certificate whose key
   * usage shows the other type is a warning, not a failure: ksefCertificateType() reads a convention, not a rule.
   */
  expectType?: "Authentication" | "Offline";
  /** Where loaded files are kept while unchanged; default the process's own (signer_cache.ts). */
  cache?: SignerCache<LoadedFiles>;
}

/**
 * The facts of a signing certificate. `ksefType` is read from the key usage, as certyfikaty-KSeF.md gives it
 * (Authentication: digitalSignature alone; Offline: nonRepudiation alone), and only for a certificate whose serial
 * has the 8 bytes (16 hex digits) of KSeF's serials (open-api.json `certificateSerialNumber`): a qualified
 * signature certificate also has nonRepudiation alone, and is no KSeF certificate. null when not told.
 */
export interface CertificateFacts {
  /** The subject, e.g. `CN=Jan Kowalski, SN=Kowalski, serialNumber=TINPL-5265877635, C=PL`, and its attributes. */
  subject: string;
  subjectAttributes: NameAttribute[];
  issuer: string;
  /** The serial number, upper-case hex without a sign octet (KSeF's form: `01F20A5D352AE590`), and in decimal. */
  serialNumber: string;
  serialDecimal: string;
  /** Validity, ms since the epoch. */
  notBefore: number;
  notAfter: number;
  /** SHA-256 of the certificate's DER, upper-case hex (the `certificateFingerprint` subject identifier). */
  sha256Fingerprint: string;
  ksefType: "Authentication" | "Offline" | null;
  /** The certificate's key: its kind and size when KSeF takes it (RSA of 2048 bits or more, EC P-256), else null. */
  keyType: "rsa" | "ec" | null;
  keyBits: number | null;
}

/** A Signer over files, with its certificate's facts and the keys (KeyObjects: never printed by accident). */
export interface FileSigner extends Signer {
  readonly facts: CertificateFacts;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** Things the operator should know that do not stop it working (ending soon, a key file others can read). */
  readonly warnings: string[];
}

/**
 * A signer's files that cannot be used here, as a RangeError whose message names the files by their paths (for
 * the operator: the startup error, the log) and `publicMessage` by their base names (for a tenant's failed run,
 * README "KSeF": never the server's paths). `expired`: the certificate has ended or is not valid yet.
 */
export class CredentialsError extends RangeError {
  readonly publicMessage: string;
  readonly expired: boolean;
  constructor(message: string, paths: readonly string[], expired = false) {
    super(message);
    this.name = "CredentialsError";
    this.expired = expired;
    // The longest first: one path may begin another (acme.key, acme.key.pass).
    const byLength = [...new Set(paths)].sort((a, b) => b.length - a.length);
    this.publicMessage = byLength.reduce((m, path) => m.split(path).join(JSON.stringify(basename(path))), message);
  }
}

/**
 * Reads and checks the files; CredentialsError naming the file at fault when they cannot sign. Once the process's
 * loads are deferred (deferSignerLoads()), files not loaded yet are loaded in the background and this throws
 * SignerLoading (a RangeError) meanwhile; loadFileSignerAsync() awaits instead.
 */
export function loadFileSigner(files: SignerFiles, options: LoadSignerOptions): FileSigner {
  return _credentialsErrors(files, () => {
    const { secret, passphrase, purpose, paths, what } = _prepare(files, options);
    const load = () => _load(files, passphrase, purpose, options);
    const cache = options.cache ?? _cache;
    const loadAsync = () => readWithAsyncDerivation((derive) => _load(files, passphrase, purpose, options, derive), cache.deriveAsync);
    return _signerOf(files, options, secret, cache.get(what, paths, passphrase, load, loadAsync));
  });
}

/** loadFileSigner() with its key derivations off the event loop (the cache's deriveAsync), awaited. */
export function loadFileSignerAsync(files: SignerFiles, options: LoadSignerOptions): Promise<FileSigner> {
  return _credentialsErrorsAsync(files, async () => {
    const { secret, passphrase, purpose, paths, what } = _prepare(files, options);
    const cache = options.cache ?? _cache;
    const loadAsync = () => readWithAsyncDerivation((derive) => _load(files, passphrase, purpose, options, derive), cache.deriveAsync);
    return _signerOf(files, options, secret, await cache.getAsync(what, paths, passphrase, loadAsync));
  });
}

/**
 * From now on the process's signers are loaded in the background when their files change, their key derivations
 * done by `derive` (server.ts calls it once its start has read them all, with storage/process/kdf_thread.ts's): a
 * sync or /readyz then never waits out a key derivation on the event loop.
 */
export function deferSignerLoads(derive?: (r: KdfRequest) => Promise<Uint8Array>): void {
  _cache.deferLoads = true;
  if (derive !== undefined) _cache.deriveAsync = derive;
}

function _prepare(files: SignerFiles, options: LoadSignerOptions) {
  const env = options.env ?? process.env;
  const secret = files.passphrase === undefined ? undefined : readPassphrase(files.passphrase, env);
  const passphrase = secret?.value;
  const purpose = options.purpose ?? "sign in to KSeF";
  const paths = "pkcs12File" in files ? [files.pkcs12File] : [files.certificateFile, files.keyFile];
  const what = JSON.stringify([options.fields ?? null, purpose, options.encryptedHint ?? null, "pkcs12File" in files]);
  return { secret, passphrase, purpose, paths, what };
}

// Every path the files' messages may name: theirs and the passphrase file's.
function _pathsOf(files: SignerFiles): string[] {
  const own = "pkcs12File" in files ? [files.pkcs12File] : [files.certificateFile, files.keyFile];
  return files.passphrase !== undefined && "file" in files.passphrase ? [...own, files.passphrase.file] : own;
}

function _asCredentialsError(files: SignerFiles, e: unknown): unknown {
  if (!(e instanceof RangeError) || e instanceof CredentialsError || e instanceof SignerLoading) return e;
  return new CredentialsError(e.message, _pathsOf(files));
}

function _credentialsErrors<T>(files: SignerFiles, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw _asCredentialsError(files, e);
  }
}

async function _credentialsErrorsAsync<T>(files: SignerFiles, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw _asCredentialsError(files, e);
  }
}

// The checks that depend on the time and the use, on what reading the files gave.
function _signerOf(files: SignerFiles, options: LoadSignerOptions, secret: Passphrase | undefined, l: LoadedFiles): FileSigner {
  const purpose = options.purpose ?? "sign in to KSeF";
  const { certField, certPath, keyField, keyPath, info } = l;
  // An RSA-PSS key (openssl genpkey -algorithm RSA-PSS) signs only with PSS padding. Sign-in's XAdES signature is
  // RSA PKCS#1 v1.5 or ECDSA (podpis-xades.md), so such a key would fail every sign-in; KOD II is RSASSA-PSS
  // (kody-qr.md, "Algorytmy podpisu") and works with it.
  if (l.privateKey.asymmetricKeyType === "rsa-pss" && options.expectType !== "Offline") {
    throw new RangeError(`${keyField} ${keyPath}: an RSA-PSS key cannot ${purpose} (KSeF's XAdES signature uses RSA PKCS#1 v1.5 or ECDSA): use a plain RSA or EC P-256 key`);
  }
  const when = (ms: number) => new Date(ms).toISOString();
  const hint = options.renewHint === undefined ? "" : `: ${options.renewHint}`;
  // RFC 5280 §4.1.2.5: the validity period includes notAfter itself.
  if (!(options.now <= info.notAfter)) throw new CredentialsError(`${certField} ${certPath} expired on ${when(info.notAfter)}${hint}`, _pathsOf(files), true);
  if (!(info.notBefore <= options.now)) throw new CredentialsError(`${certField} ${certPath} is valid only from ${when(info.notBefore)}`, _pathsOf(files), true);
  const warnings: string[] = [];
  if (info.notAfter - options.now < (options.warnWithinMs ?? CERTIFICATE_WARNING_MS)) warnings.push(`${certField} ${certPath} expires on ${when(info.notAfter)}${hint}`);
  if (l.readableByOthers) warnings.push(`${keyField} ${keyPath} can be read by other users of this machine: chmod 600 it`);
  if (secret?.readableByOthers && files.passphrase !== undefined && "file" in files.passphrase) {
    warnings.push(`key_passphrase_file ${files.passphrase.file} can be read by other users of this machine: chmod 600 it`);
  }
  const facts = l.facts;
  if (options.expectType !== undefined && facts.ksefType !== null && facts.ksefType !== options.expectType) {
    warnings.push(`${certField} ${certPath} looks like a KSeF certificate of type ${facts.ksefType} (by its key usage), which cannot ${purpose}: use one of type ${options.expectType}`);
  }
  return { ...l.signer, facts, privateKey: l.privateKey, publicKey: l.publicKey, warnings };
}

/** A cache of loaded files for loadFileSigner()'s `cache` option (tests count its `loads`). */
export function createSignerCache(): SignerCache<LoadedFiles> {
  return new SignerCache<LoadedFiles>();
}

/** What reading the files gives, before the checks that depend on the time and the use. */
export interface LoadedFiles {
  certField: string;
  certPath: string;
  keyField: string;
  keyPath: string;
  info: CertificateInfo;
  facts: CertificateFacts;
  privateKey: KeyObject;
  publicKey: KeyObject;
  signer: Signer;
  readableByOthers: boolean;
}

// The process's cache: every caller (sources, senders, /readyz, the expiry watch) asks for the same few signers,
// and reading them again costs a key derivation each time (signer_cache.ts).
const _cache = createSignerCache();

function _load(files: SignerFiles, passphrase: string | undefined, purpose: string, options: LoadSignerOptions, derive?: DeriveKey): LoadedFiles {
  let certField: string, certPath: string, keyField: string, keyPath: string;
  let privateKey: KeyObject;
  let candidates: Uint8Array[];
  if ("pkcs12File" in files) {
    certField = keyField = options.fields?.pkcs12 ?? "pkcs12";
    certPath = keyPath = files.pkcs12File;
    if (passphrase === undefined) throw new RangeError(`${certField} ${certPath} needs its passphrase: give "key_passphrase_env" or "key_passphrase_file"`);
    const p12 = readPkcs12File(certField, certPath, passphrase, derive);
    if (p12.keys.length > 1) throw new RangeError(`${certField} ${certPath} holds ${p12.keys.length} private keys: export the one to sign with alone`);
    privateKey = p12.keys[0]!;
    candidates = p12.certificates;
  } else {
    certField = options.fields?.certificate ?? "certificate";
    keyField = options.fields?.key ?? "key";
    certPath = files.certificateFile;
    keyPath = files.keyFile;
    candidates = readCertificates(certField, certPath);
    privateKey = readPrivateKey(keyField, keyPath, {
      ...(passphrase === undefined ? {} : { passphrase }),
      ...(derive === undefined ? {} : { derive }),
      encryptedHint: options.encryptedHint ?? `give its passphrase with "key_passphrase_env" or "key_passphrase_file"`,
    });
  }
  const kind = describeKsefSigningKey(privateKey);
  if ("error" in kind) throw new RangeError(`${keyField} ${keyPath}: ${kind.error} cannot ${purpose}`);
  // The certificate is the one whose public key is the key's: a PEM chain or a PKCS#12 may hold CA certificates too.
  const publicKey = createPublicKey(privateKey);
  let certificate: Uint8Array | undefined;
  let info: CertificateInfo | undefined;
  for (const der of candidates) {
    let parsed: CertificateInfo;
    try {
      parsed = parseCertificate(der);
    } catch (e) {
      if (e instanceof DerError) throw new RangeError(`${certField} ${certPath} holds a certificate that cannot be read (${e.message})`);
      throw e;
    }
    if (_isKeyOf(parsed.spki, publicKey)) {
      certificate = der;
      info = parsed;
      break;
    }
  }
  if (certificate === undefined || info === undefined) {
    throw new RangeError("pkcs12File" in files
      ? `${certField} ${certPath} holds no certificate of its private key`
      : `${keyField} ${keyPath} is not the private key of ${certField} ${certPath}`);
  }
  return {
    certField, certPath, keyField, keyPath, info, facts: _facts(certificate, info), privateKey,
    publicKey, signer: createKeySigner(certificate, privateKey), readableByOthers: _readableByOthers(keyPath),
  };
}

/**
 * The facts of a certificate alone (DER), e.g. for a command that shows a certificate file; DerError when it is
 * not one. It checks nothing: validity and key are loadFileSigner()'s to judge.
 */
export function describeCertificate(der: Uint8Array): CertificateFacts {
  return _facts(der, parseCertificate(der));
}

function _facts(der: Uint8Array, info: CertificateInfo): CertificateFacts {
  let key: { kind: "rsa" | "ec"; bits: number } | { error: string };
  try {
    key = describeKsefSigningKey(createPublicKey({ key: Buffer.from(info.spki), format: "der", type: "spki" }));
  } catch {
    key = { error: "a key this runtime cannot read" };
  }
  return {
    subject: formatName(info.subject), subjectAttributes: info.subject, issuer: formatName(info.issuer),
    serialNumber: info.serialHex, serialDecimal: info.serialDecimal, notBefore: info.notBefore, notAfter: info.notAfter,
    sha256Fingerprint: createHash("sha256").update(der).digest("hex").toUpperCase(),
    ksefType: ksefCertificateType(info),
    keyType: "error" in key ? null : key.kind, keyBits: "error" in key ? null : key.bits,
  };
}

/** A Signer over a key held in memory, for `certificate` (DER); the key must be one describeKsefSigningKey() takes. */
export function createKeySigner(certificate: Uint8Array, privateKey: KeyObject): Signer {
  const kind = describeKsefSigningKey(privateKey);
  if ("error" in kind) throw new RangeError(`A signer cannot use ${kind.error}`);
  const keyType = kind.kind;
  return {
    certificate,
    keyType,
    sign(data: Uint8Array, algorithm: SignatureAlgorithm): Promise<Uint8Array> {
      return new Promise((resolve) => resolve(signWithKey(privateKey, keyType, data, algorithm)));
    },
  };
}

/** The KSeF certificate type the certificate's key usage shows (see CertificateFacts), or null. */
export function ksefCertificateType(info: CertificateInfo): "Authentication" | "Offline" | null {
  if (info.keyUsage === null || info.serialHex.length !== 16) return null;
  const usage = info.keyUsage.join(",");
  return usage === "digitalSignature" ? "Authentication" : usage === "nonRepudiation" ? "Offline" : null;
}

/**
 * Whether the certificate's SubjectPublicKeyInfo is `publicKey`, compared as keys, not bytes: the same EC key may be
 * written with a compressed or an uncompressed point (SEC 1 §2.3.3), an RSA key's parameters with or without NULL.
 */
function _isKeyOf(spki: Uint8Array, publicKey: KeyObject): boolean {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" });
  } catch {
    return false; // a key this runtime cannot read: not one it can sign with either
  }
  // Keys of two types are not compared: Node's equals() then leaves an error on OpenSSL's queue, which the next
  // key operation (another file's createPrivateKey) reports as its own ("different key types").
  return key.asymmetricKeyType === publicKey.asymmetricKeyType && key.equals(publicKey);
}

function _readableByOthers(path: string): boolean {
  return isReadableByOthers(statSync(path).mode);
}
