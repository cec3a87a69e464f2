/**
 * Reads and checks the KSeF certificate of type Offline that signs KOD II (certyfikaty-KSeF.md, kody-qr.md): the
 * `offline_certificate` (X.509, PEM or DER) and `offline_key` (PKCS#8, encrypted PKCS#8 with a passphrase, PKCS#1
 * or SEC1; PEM or DER) files of a `ksef` source, through the same file signer as sign-in (credentials.ts). The key
 * must be RSA of 2048 bits or more or EC P-256, must be the certificate's, and the certificate must be valid now;
 * each failure is a RangeError naming the file (for startup to stop on), and no message ever holds the key's
 * content. A certificate that ends within 30 days, or a key file others can read, is a warning the caller logs and
 * shows (e.g. on /readyz). It does not ask KSeF whether the certificate is revoked.
 * @module
 */
import type { KeyObject } from "node:crypto";
import type { Signer } from "../../../lib/formats/xades/signer.ts";
import { CERTIFICATE_WARNING_MS, loadFileSigner, type CertificateFacts } from "../connection/credentials.ts";
import type { PassphraseSource } from "../connection/key_files.ts";

export { CERTIFICATE_WARNING_MS };

/** Where the two files are. */
export interface OfflineCertificateFiles {
  /** The certificate (`offline_certificate`): the one KSeF issued (GET /certificates/retrieve), PEM or DER. */
  certificateFile: string;
  /** Its private key (`offline_key`): the key the CSR was made with. */
  keyFile: string;
  /** The passphrase of an encrypted key, when there is one. */
  passphrase?: PassphraseSource;
}

/** A usable Offline certificate: what KOD II needs, and warnings for the operator. */
export interface OfflineCertificate {
  /** The serial number in upper-case hex, as the KOD II link carries it (kody-qr.md: `01F20A5D352AE590`). */
  serialNumber: string;
  /** What signs KOD II (ksef_certificate_link.ts signs through it). */
  signer: Signer;
  /** The private key (kept as a KeyObject: it is not printed or serialised by accident). */
  privateKey: KeyObject;
  /** The certificate's public key, to verify a link with. */
  publicKey: KeyObject;
  keyKind: "rsa" | "ec";
  /** Validity of the certificate, ms since epoch. */
  validFrom: number;
  validTo: number;
  /** The certificate's facts (subject, fingerprint, KSeF type). */
  facts: CertificateFacts;
  /** Things the operator should know that do not stop it working (ending soon, a key file others can read). */
  warnings: string[];
}

/**
 * Reads both files and checks them at `now` (ms); RangeError naming the file at fault when the certificate cannot
 * sign KOD II. `warnWithinMs` (default 30 days) is how close to its end a certificate is reported.
 */
export function loadOfflineCertificate(files: OfflineCertificateFiles, now: number, warnWithinMs = CERTIFICATE_WARNING_MS): OfflineCertificate {
  const signer = loadFileSigner(files, {
    now, warnWithinMs, fields: { certificate: "offline_certificate", key: "offline_key" }, purpose: "sign KOD II",
    renewHint: "request a new KSeF certificate of type Offline", expectType: "Offline",
    encryptedHint: files.passphrase === undefined ? "store it unencrypted, readable by the server's user only" : "",
  });
  const f = signer.facts;
  return {
    serialNumber: f.serialNumber, signer, privateKey: signer.privateKey, publicKey: signer.publicKey, keyKind: signer.keyType,
    validFrom: f.notBefore, validTo: f.notAfter, facts: f, warnings: signer.warnings,
  };
}
