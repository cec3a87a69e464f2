/**
 * Reads and checks the KSeF certificate of type Offline that signs KOD II (certyfikaty-KSeF.md, kody-qr.md): the
 * `offline_certificate` (X.509, PEM) and `offline_key` (unencrypted PKCS#8, PKCS#1 or SEC1 PEM) files of a `ksef`
 * source. The key must be RSA of 2048 bits or more or EC P-256, must be the certificate's, and the certificate must
 * be valid now; each failure is a RangeError naming the file (for startup to stop on), and no message ever holds
 * the key's content. A certificate that ends within 30 days, or a key file others can read, is a warning the
 * caller logs and shows (e.g. on /readyz). It does not ask KSeF whether the certificate is revoked.
 * @module
 */
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { describeKsefSigningKey } from "../../../lib/formats/pdf/ksef_certificate_link.ts";

/** How long before its end a certificate is reported as ending soon: 30 days, time to request the next one in KSeF. */
export const CERTIFICATE_WARNING_MS = 30 * 86_400_000;
/** Files larger than this are not a PEM certificate or key (a 4096-bit RSA key is about 3.3 KB). */
const _MAX_PEM_BYTES = 64 * 1024;

/** Where the two files are. */
export interface OfflineCertificateFiles {
  /** The certificate (`offline_certificate`): PEM `CERTIFICATE`, the one KSeF issued (GET /certificates/retrieve). */
  certificateFile: string;
  /** Its private key (`offline_key`): the key the CSR was made with, unencrypted PEM. */
  keyFile: string;
}

/** A usable Offline certificate: what KOD II needs, and warnings for the operator. */
export interface OfflineCertificate {
  /** The serial number in upper-case hex, as the KOD II link carries it (kody-qr.md: `01F20A5D352AE590`). */
  serialNumber: string;
  /** The private key (kept as a KeyObject: it is not printed or serialised by accident). */
  privateKey: KeyObject;
  /** The certificate's public key, to verify a link with. */
  publicKey: KeyObject;
  keyKind: "rsa" | "ec";
  /** Validity of the certificate, ms since epoch. */
  validFrom: number;
  validTo: number;
  /** Things the operator should know that do not stop it working (ending soon, a key file others can read). */
  warnings: string[];
}

/**
 * Reads both files and checks them at `now` (ms); RangeError naming the file at fault when the certificate cannot
 * sign KOD II. `warnWithinMs` (default 30 days) is how close to its end a certificate is reported.
 */
export function loadOfflineCertificate(files: OfflineCertificateFiles, now: number, warnWithinMs = CERTIFICATE_WARNING_MS): OfflineCertificate {
  const cert = _readCertificate(files.certificateFile);
  const privateKey = _readKey(files.keyFile);
  const kind = describeKsefSigningKey(privateKey);
  if ("error" in kind) throw new RangeError(`offline_key ${files.keyFile}: ${kind.error} cannot sign KOD II`);
  const publicKey = cert.publicKey;
  const der = (k: KeyObject) => k.export({ type: "spki", format: "der" });
  if (!der(createPublicKey(privateKey)).equals(der(publicKey))) {
    throw new RangeError(`offline_key ${files.keyFile} is not the private key of offline_certificate ${files.certificateFile}`);
  }
  const validFrom = Date.parse(cert.validFrom);
  const validTo = Date.parse(cert.validTo);
  if (!(validTo > now)) throw new RangeError(`offline_certificate ${files.certificateFile} expired on ${new Date(validTo).toISOString()}: request a new KSeF certificate of type Offline`);
  if (!(validFrom <= now)) throw new RangeError(`offline_certificate ${files.certificateFile} is valid only from ${new Date(validFrom).toISOString()}`);
  const warnings: string[] = [];
  if (validTo - now < warnWithinMs) {
    warnings.push(`offline_certificate ${files.certificateFile} expires on ${new Date(validTo).toISOString()}: request a new KSeF certificate of type Offline`);
  }
  if (_readableByOthers(files.keyFile)) warnings.push(`offline_key ${files.keyFile} can be read by other users of this machine: chmod 600 it`);
  return { serialNumber: _serialHex(cert.serialNumber), privateKey, publicKey, keyKind: kind.kind, validFrom, validTo, warnings };
}

function _readPem(path: string, what: string): string {
  let text: string;
  try {
    if (statSync(path).size > _MAX_PEM_BYTES) throw new RangeError(`${what} ${path} is larger than ${_MAX_PEM_BYTES} bytes: not a PEM file`);
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw new RangeError(`${what} ${path} cannot be read: ${(e as NodeJS.ErrnoException).code ?? "error"}`);
  }
  return text;
}

function _readCertificate(path: string): X509Certificate {
  const text = _readPem(path, "offline_certificate");
  const block = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/.exec(text);
  try {
    if (block === null) throw new Error("no PEM block");
    return new X509Certificate(block[0]);
  } catch {
    throw new RangeError(`offline_certificate ${path} is not a PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
}

function _readKey(path: string): KeyObject {
  const text = _readPem(path, "offline_key");
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(text)) {
    throw new RangeError(`offline_key ${path} is encrypted: store it unencrypted, readable by the server's user only`);
  }
  try {
    return createPrivateKey({ key: text, format: "pem" });
  } catch {
    // The runtime's message is not passed on: nothing of the file's content may reach a log.
    throw new RangeError(`offline_key ${path} is not a PEM private key (PKCS#8, PKCS#1 or SEC1)`);
  }
}

// X509Certificate.serialNumber is upper-case hex without the DER sign byte; an odd length gets its leading zero.
function _serialHex(serial: string): string {
  const hex = serial.toUpperCase().replace(/:/g, "");
  return hex.length % 2 === 1 ? `0${hex}` : hex;
}

function _readableByOthers(path: string): boolean {
  if (process.platform === "win32") return false; // modes mean nothing there
  return (statSync(path).mode & 0o077) !== 0;
}
