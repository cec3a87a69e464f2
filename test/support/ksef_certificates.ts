/**
 * Self-signed certificates for KSeF sign-in tests and the test environment, made with the `openssl` command as
 * README "KSeF" shows: the NIP in the subject where auth/podpis-xades.md looks for it (organizationIdentifier
 * `VATPL-<NIP>` for a company seal, serialNumber `TINPL-<NIP>` for a person), key usage digitalSignature (a KSeF
 * certificate of type Authentication, certyfikaty-KSeF.md), RSA 2048 or EC P-256, any validity dates (`openssl ca`
 * takes them; `req -x509` of OpenSSL 3.0 cannot start in the past), and the key as PKCS#8, encrypted PKCS#8,
 * PKCS#1/SEC1 or a PKCS#12 file. Passphrases reach openssl through its environment, never its command line.
 */
import { execFileSync } from "node:child_process";
import { constants, createHash, createPrivateKey, randomBytes, sign, X509Certificate } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Signer } from "../../lib/formats/xades/signer.ts";

/** Options of makeKsefCertificate(). */
export interface KsefCertificateOptions {
  nip: string;
  key?: "rsa" | "ec";
  /** `organization`: organizationIdentifier VATPL-<NIP> (a company seal); `person`: serialNumber TINPL-<NIP>. */
  subject?: "organization" | "person";
  /** Validity (default: from a day ago to a year ahead). */
  notBefore?: Date;
  notAfter?: Date;
  /** The serial, hex (default 8 random bytes, KSeF's length). */
  serial?: string;
  /** A passphrase: the key file is encrypted PKCS#8 (PBES2, AES-256-CBC) and a PKCS#12 file is written too. */
  passphrase?: string;
  /** The key file in the traditional form: PKCS#1 (RSA) or SEC1 (EC) instead of PKCS#8. */
  traditional?: boolean;
}

/** A certificate made by makeKsefCertificate(). */
export interface KsefTestCertificate {
  certificateFile: string;
  keyFile: string;
  /** With a passphrase: the PKCS#12 of certificate and key. */
  pkcs12File: string | null;
  der: Uint8Array;
  /** Upper-case hex, as KSeF writes serials. */
  serial: string;
  /** SHA-256 of the DER, upper-case hex (the `certificateFingerprint` subject identifier). */
  fingerprint: string;
  subject: string;
  notAfter: Date;
}

/** Writes `<name>.crt.pem`, `<name>.key.pem` (mode 600) and with a passphrase `<name>.p12` into `dir`. */
export function makeKsefCertificate(dir: string, name: string, o: KsefCertificateOptions): KsefTestCertificate {
  mkdirSync(dir, { recursive: true });
  const work = join(dir, `.${name}.openssl`);
  mkdirSync(work, { recursive: true });
  const plainKey = join(work, "key.pem");
  const keyArgs = o.key === "ec" ? ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"] : ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"];
  _openssl(["genpkey", ...keyArgs, "-out", plainKey]);
  const subject = o.subject === "person"
    ? `/CN=Jan Kowalski/GN=Jan/SN=Kowalski/serialNumber=TINPL-${o.nip}/C=PL`
    : `/CN=Firma ${o.nip}/O=Firma ${o.nip} sp. z o.o./organizationIdentifier=VATPL-${o.nip}/C=PL`;
  const csr = join(work, "req.csr");
  _openssl(["req", "-new", "-key", plainKey, "-subj", subject, "-out", csr]);
  const serial = (o.serial ?? randomBytes(8).toString("hex").replace(/^0/, "1")).toUpperCase();
  writeFileSync(join(work, "index.txt"), "");
  writeFileSync(join(work, "serial"), `${serial}\n`);
  writeFileSync(join(work, "ca.cnf"), _CA_CONFIG.replaceAll("@DIR@", work));
  const notBefore = o.notBefore ?? new Date(Date.now() - 86_400_000);
  const notAfter = o.notAfter ?? new Date(Date.now() + 365 * 86_400_000);
  const certificateFile = join(dir, `${name}.crt.pem`);
  _openssl(["ca", "-batch", "-selfsign", "-config", join(work, "ca.cnf"), "-keyfile", plainKey, "-in", csr, "-out", certificateFile,
    "-startdate", _asn1Time(notBefore), "-enddate", _asn1Time(notAfter), "-notext", "-utf8"]);
  const keyFile = join(dir, `${name}.key.pem`);
  const env = { PASS: o.passphrase ?? "" };
  if (o.passphrase !== undefined) _openssl(["pkcs8", "-topk8", "-in", plainKey, "-out", keyFile, "-v2", "aes-256-cbc", "-passout", "env:PASS"], env);
  else if (o.traditional) _openssl([o.key === "ec" ? "ec" : "rsa", "-in", plainKey, "-out", keyFile, ...(o.key === "ec" ? [] : ["-traditional"])]);
  else writeFileSync(keyFile, readFileSync(plainKey));
  chmodSync(keyFile, 0o600);
  let pkcs12File: string | null = null;
  if (o.passphrase !== undefined) {
    pkcs12File = join(dir, `${name}.p12`);
    _openssl(["pkcs12", "-export", "-inkey", plainKey, "-in", certificateFile, "-out", pkcs12File, "-passout", "env:PASS", "-name", name], env);
    chmodSync(pkcs12File, 0o600);
  }
  const x = new X509Certificate(readFileSync(certificateFile));
  return {
    certificateFile, keyFile, pkcs12File, der: new Uint8Array(x.raw), serial: x.serialNumber.toUpperCase(),
    fingerprint: createHash("sha256").update(x.raw).digest("hex").toUpperCase(), subject: x.subject, notAfter: new Date(x.validTo),
  };
}

// A self-signing "CA" of one certificate: the dates given, key usage of a KSeF Authentication certificate.
const _CA_CONFIG = `[ca]
default_ca = ksef_test
[ksef_test]
dir = @DIR@
database = @DIR@/index.txt
serial = @DIR@/serial
new_certs_dir = @DIR@
default_md = sha256
policy = anything
x509_extensions = auth
unique_subject = no
copy_extensions = none
preserve = yes
[anything]
commonName = optional
givenName = optional
surname = optional
serialNumber = optional
organizationName = optional
organizationIdentifier = optional
countryName = optional
[auth]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
`;

function _asn1Time(d: Date): string {
  return `${d.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;
}

function _openssl(args: string[], env: Record<string, string> = {}): void {
  execFileSync("openssl", args, { stdio: "pipe", env: { ...process.env, ...env } });
}

/**
 * A Signer over a made certificate's key with node:crypto, for tests that need one without the project's key-file
 * reading (an embedder's own signer looks like this: the key stays where it is, only `sign` is called).
 */
export function testSigner(c: KsefTestCertificate, passphrase?: string): Signer {
  const key = createPrivateKey({ key: readFileSync(c.keyFile), ...(passphrase === undefined ? {} : { passphrase }) });
  const ec = key.asymmetricKeyType === "ec";
  return {
    certificate: c.der,
    keyType: ec ? "ec" : "rsa",
    async sign(data, algorithm) {
      if (algorithm === "ecdsa-p256-sha256") return new Uint8Array(sign("sha256", data, { key, dsaEncoding: "ieee-p1363" }));
      if (algorithm === "rsa-pss-sha256") return new Uint8Array(sign("sha256", data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }));
      return new Uint8Array(sign("sha256", data, key));
    },
  };
}
