/**
 * Enrolls a KSeF certificate (certyfikaty-KSeF.md §2–§6): a key pair made here (EC P-256 by default, KSeF's
 * advice, or RSA 2048), a PKCS#10 request with exactly the subject of KSeF's enrollment data, submitted and
 * polled until issued, the certificate retrieved. The key is written (PKCS#8, mode 600, atomically) before the
 * request goes out, so an issued certificate never lacks its key; a request KSeF refuses takes its key file away.
 * Existing files are never overwritten.
 * @module
 */
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { buildCsr, enrollmentSubject, type CertificateEnrollmentData } from "../../../lib/formats/pkcs10/csr.ts";
import { generateCsrKeyPair } from "../../../lib/formats/pkcs10/key_pair.ts";
import { encodePem } from "../../../lib/formats/asn1/pem.ts";
import { parseCertificate } from "../../../lib/formats/x509/certificate.ts";
import type { KsefCertificateType, KsefCertificatesApi } from "./certificates_api.ts";

/** What to enroll and where the files go. */
export interface EnrollOptions {
  type: KsefCertificateType;
  /** The certificate's name in KSeF and of the files (`NAME.crt.pem`, `NAME.key.pem`). */
  name: string;
  key: "rsa" | "ec";
  dir: string;
}

/** The files written and the new certificate's serial and end. */
export interface Enrolled {
  certificateFile: string;
  keyFile: string;
  serial: string;
  notAfter: number;
}

/** Key files are for their owner alone (README "KSeF": a key readable by others is warned about). */
const KEY_MODE = 0o600;

/** Enrolls one certificate through `api` and writes its two files into `o.dir`. */
export async function enrollCertificate(api: KsefCertificatesApi, o: EnrollOptions): Promise<Enrolled> {
  const certificateFile = join(o.dir, `${o.name}.crt.pem`);
  const keyFile = join(o.dir, `${o.name}.key.pem`);
  for (const f of [certificateFile, keyFile]) if (existsSync(f)) throw new RangeError(`${f} exists already: choose another --name or --out`);
  mkdirSync(o.dir, { recursive: true, mode: 0o700 }); // a new directory for keys is its owner's alone
  const subject = enrollmentSubject((await api.enrollmentData()) as unknown as CertificateEnrollmentData);
  const pair = generateCsrKeyPair(o.key);
  const csr = await buildCsr({ subject, publicKey: pair.publicKey, signer: pair.signer });
  writeFileAtomic(keyFile, pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string);
  let serial: string;
  try {
    serial = await api.enroll(o.name, o.type, csr);
  } catch (e) {
    rmSync(keyFile, { force: true }); // no certificate will ever match it
    throw e;
  }
  const der = await api.retrieve(serial);
  const info = parseCertificate(der);
  if (!Buffer.from(info.spki).equals(Buffer.from(pair.publicKey))) throw new Error(`KSeF's certificate ${serial} is not for the key made here (${keyFile})`);
  writeFileAtomic(certificateFile, encodePem("CERTIFICATE", der));
  return { certificateFile, keyFile, serial, notAfter: info.notAfter };
}

/**
 * Writes `text` to `path` whole or not at all: into a temporary file of mode 600 (created so, never widened
 * later) in the same directory, flushed, then linked to its name, which fails rather than replace a file that
 * appeared meanwhile.
 */
export function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temp, "wx", KEY_MODE);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}
