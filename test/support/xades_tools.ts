/**
 * For the XAdES tests: self-signed certificates made with the `openssl` command (subjects as KSeF's guide
 * "Testowe certyfikaty i podpisy XAdES" builds them), a Signer over node:crypto, and verification of a signed
 * file by `xmlsec1`, an XML-DSig implementation independent of ours.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createPrivateKey, sign, X509Certificate } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SignatureAlgorithm, Signer } from "../../lib/formats/xades/signer.ts";

/** A personal certificate's subject (givenName, surname, serialNumber TINPL-NIP, CN, C) and a company seal's. */
export const PERSON_SUBJECT = "/GN=Jan/SN=Kowalski/serialNumber=TINPL-5265877635/CN=Jan Kowalski/C=PL";
export const SEAL_SUBJECT = "/O=Kowalski sp. z o.o/organizationIdentifier=VATPL-5265877635/CN=Kowalski/C=PL";

const KEYS = {
  rsa2048: ["-newkey", "rsa:2048"],
  p256: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
} as const;

export interface TestCertificate {
  certificateFile: string;
  keyFile: string;
  /** The certificate, DER. */
  der: Uint8Array;
}

/** Writes `<name>.crt.pem` and `<name>.key.pem` into `dir`: a self-signed certificate of `subject`. */
export function makeSigningCertificate(
  dir: string,
  name: string,
  o: { key: keyof typeof KEYS; subject: string; serial?: string; multivalue?: boolean },
): TestCertificate {
  const certificateFile = join(dir, `${name}.crt.pem`);
  const keyFile = join(dir, `${name}.key.pem`);
  execFileSync("openssl", [
    "req", "-x509", ...KEYS[o.key], "-nodes", "-keyout", keyFile, "-out", certificateFile, "-days", "30", "-utf8",
    ...(o.multivalue === true ? ["-multivalue-rdn"] : []), "-subj", o.subject, "-set_serial", o.serial ?? "0x01F20A5D352AE590",
  ], { stdio: "pipe" });
  return { certificateFile, keyFile, der: new Uint8Array(new X509Certificate(readFileSync(certificateFile)).raw) };
}

/** A Signer over node:crypto with the certificate's key; `calls` records what it was asked to sign. */
export function testSigner(cert: TestCertificate, keyType: "rsa" | "ec"): Signer & { calls: { data: Uint8Array; algorithm: SignatureAlgorithm }[] } {
  const key = createPrivateKey(readFileSync(cert.keyFile));
  const calls: { data: Uint8Array; algorithm: SignatureAlgorithm }[] = [];
  return {
    certificate: cert.der,
    keyType,
    calls,
    sign(data, algorithm) {
      calls.push({ data, algorithm });
      // XML-DSig wants ECDSA as r || s (IEEE P1363), not DER.
      return Promise.resolve(new Uint8Array(sign("sha256", data, keyType === "ec" ? { key, dsaEncoding: "ieee-p1363" } : key)));
    },
  };
}

let _verified = 0;

/**
 * `xmlsec1 --verify` of a signed document with the public key of `certificateFile`: the key comes from that
 * file, not from the signature's KeyInfo, and SignedProperties' `Id` is registered for the `#…` reference.
 */
export function xmlsecVerify(dir: string, signed: Uint8Array, certificateFile: string): { ok: boolean; output: string } {
  const file = join(dir, `signed-${_verified++}.xml`);
  writeFileSync(file, signed);
  const r = spawnSync("xmlsec1", [
    "--verify", "--enabled-reference-uris", "empty,same-doc", "--id-attr:Id", "http://uri.etsi.org/01903/v1.3.2#:SignedProperties",
    // Only key names from KeyInfo: the key is the one given, never the certificate the signature carries.
    "--pubkey-cert-pem", certificateFile, "--enabled-key-data", "key-name", file,
  ], { encoding: "utf8" });
  if (r.error) throw r.error;
  const output = `${r.stdout}${r.stderr}`;
  return { ok: r.status === 0 && /^OK$/m.test(output), output };
}
