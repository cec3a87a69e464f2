import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { buildKsefCertificateLink, signKsefCertificateLink, verifyKsefCertificateLink } from "../../../../lib/formats/pdf/ksef_certificate_link.ts";
import { loadOfflineCertificate } from "../../../../storage/ksef/offline/offline_certificate.ts";
import { makeOfflineCertificate } from "../../../support/offline_certificates.ts";

const dir = mkdtempSync(join(tmpdir(), "offline-cert-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const DAY = 86_400_000;

const rsa = makeOfflineCertificate(dir, "rsa", { key: "rsa2048", serial: "01F20A5D352AE590" });
const ec = makeOfflineCertificate(dir, "ec", { key: "p256", serial: "0A1B2C3D" });
const validTo = (f: { certificateFile: string }) => Date.parse(new X509Certificate(readFileSync(f.certificateFile)).validTo);
const now = Date.now();

/** The message of the RangeError `fn` throws. */
function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof RangeError, String(e));
    return e.message;
  }
  assert.fail("did not throw");
}

/** Base64 lines of a PEM file: no message may contain any of them. */
function secretLines(path: string): string[] {
  return readFileSync(path, "utf8").split("\n").filter((l) => l.length >= 16 && !l.startsWith("-----"));
}

describe("loadOfflineCertificate()", () => {
  test("loadOfflineCertificate() reads an RSA and an EC certificate whose KOD II signatures the certificates verify", () => {
    for (const [files, kind, serial] of [[rsa, "rsa", "01F20A5D352AE590"], [ec, "ec", "0A1B2C3D"]] as const) {
      const c = loadOfflineCertificate(files, now);
      assert.equal(c.keyKind, kind);
      assert.equal(c.serialNumber, serial);
      assert.deepEqual(c.warnings, []);
      assert.equal(c.validTo, validTo(files));
      const link = buildKsefCertificateLink({
        environment: "test", contextType: "Nip", contextId: "5265877635", sellerNip: "5265877635",
        certificateSerial: c.serialNumber, xmlSha256: new Uint8Array(32).fill(7), privateKey: c.privateKey,
      });
      assert.ok(link.startsWith(`https://qr-test.ksef.mf.gov.pl/certificate/Nip/5265877635/5265877635/${serial}/`));
      const cert = new X509Certificate(readFileSync(files.certificateFile));
      assert.equal(verifyKsefCertificateLink(link, cert.publicKey), true);
    }
  });

  test("loadOfflineCertificate() refuses keys KSeF does not accept, naming the key file", () => {
    const cases = [
      { what: "RSA 1024", key: "rsa1024", expected: /RSA key of 1024 bits .*2048/ },
      { what: "EC P-384", key: "p384", expected: /EC key on secp384r1 .*P-256/ },
      { what: "Ed25519", key: "ed25519", expected: /type ed25519/ },
    ] as const;
    for (const { what, key, expected } of cases) {
      const files = makeOfflineCertificate(dir, key, { key });
      const msg = failure(() => loadOfflineCertificate(files, now));
      assert.match(msg, expected, what);
      assert.ok(msg.startsWith(`offline_key ${files.keyFile}:`), msg);
    }
  });

  test("loadOfflineCertificate() refuses a key that is not the certificate's, naming both files", () => {
    const msg = failure(() => loadOfflineCertificate({ certificateFile: rsa.certificateFile, keyFile: ec.keyFile }, now));
    assert.equal(msg, `offline_key ${ec.keyFile} is not the private key of offline_certificate ${rsa.certificateFile}`);
    const other = makeOfflineCertificate(dir, "rsa-other", { key: "rsa2048" });
    assert.match(failure(() => loadOfflineCertificate({ certificateFile: rsa.certificateFile, keyFile: other.keyFile }, now)), /is not the private key/);
  });

  test("loadOfflineCertificate() refuses an expired certificate and warns within 30 days of its end", () => {
    const end = validTo(rsa);
    assert.match(failure(() => loadOfflineCertificate(rsa, end + 1000)), new RegExp(`^offline_certificate ${rsa.certificateFile} expired on `));
    const near = loadOfflineCertificate(rsa, end - 10 * DAY);
    assert.equal(near.warnings.length, 1);
    assert.match(near.warnings[0]!, new RegExp(`^offline_certificate ${rsa.certificateFile} expires on ${new Date(end).toISOString()}`));
    assert.deepEqual(loadOfflineCertificate(rsa, end - 31 * DAY).warnings, []);
    assert.deepEqual(loadOfflineCertificate(rsa, end - 20 * DAY, 7 * DAY).warnings, [], "warnWithinMs");
    assert.match(failure(() => loadOfflineCertificate(rsa, now - 2 * DAY)), /is valid only from/);
  });

  test("loadOfflineCertificate() warns about a key file other users can read", () => {
    const files = { certificateFile: join(dir, "open.crt.pem"), keyFile: join(dir, "open.key.pem") };
    copyFileSync(ec.certificateFile, files.certificateFile);
    copyFileSync(ec.keyFile, files.keyFile);
    chmodSync(files.keyFile, 0o644);
    assert.deepEqual(loadOfflineCertificate(files, now).warnings, [`offline_key ${files.keyFile} can be read by other users of this machine: chmod 600 it`]);
  });

  test("loadOfflineCertificate() names the file that is missing, not PEM or encrypted, and never prints key material", () => {
    const garbled = join(dir, "garbled.key.pem");
    const text = readFileSync(rsa.keyFile, "utf8");
    writeFileSync(garbled, text.replace(/\n[A-Za-z0-9+/]{20}/, "\n!!!!!!!!!!!!!!!!!!!!"));
    const encrypted = join(dir, "encrypted.key.pem");
    writeFileSync(encrypted, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----\n");
    const cases = [
      { what: "missing certificate", files: { ...rsa, certificateFile: join(dir, "none.pem") }, expected: `offline_certificate ${join(dir, "none.pem")} cannot be read: ENOENT` },
      { what: "a key as the certificate", files: { ...rsa, certificateFile: rsa.keyFile }, expected: `offline_certificate ${rsa.keyFile} is not a PEM certificate (-----BEGIN CERTIFICATE-----)` },
      { what: "missing key", files: { ...rsa, keyFile: join(dir, "none.key") }, expected: `offline_key ${join(dir, "none.key")} cannot be read: ENOENT` },
      { what: "the certificate as the key", files: { ...rsa, keyFile: rsa.certificateFile }, expected: `offline_key ${rsa.certificateFile} is not a PEM private key (PKCS#8, PKCS#1 or SEC1)` },
      { what: "a damaged key", files: { ...rsa, keyFile: garbled }, expected: `offline_key ${garbled} is not a PEM private key (PKCS#8, PKCS#1 or SEC1)` },
      { what: "an encrypted key", files: { ...rsa, keyFile: encrypted }, expected: `offline_key ${encrypted} is encrypted: store it unencrypted, readable by the server's user only` },
    ];
    const secrets = [...secretLines(rsa.keyFile), ...secretLines(ec.keyFile)];
    for (const { what, files, expected } of cases) {
      const msg = failure(() => loadOfflineCertificate(files, now));
      assert.equal(msg, expected, what);
      for (const s of secrets) assert.ok(!msg.includes(s.slice(0, 16)), `${what}: key material in the message`);
    }
  });

  test("loadOfflineCertificate() takes a DER certificate and an encrypted or DER key, and its signer signs KOD II", async () => {
    const der = { certificateFile: join(dir, "ec.crt.der"), keyFile: join(dir, "ec.key.der") };
    execFileSync("openssl", ["x509", "-in", ec.certificateFile, "-outform", "DER", "-out", der.certificateFile]);
    execFileSync("openssl", ["ec", "-in", ec.keyFile, "-outform", "DER", "-out", der.keyFile], { stdio: "pipe" });
    const encrypted = join(dir, "rsa.enc.pem");
    execFileSync("openssl", ["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", rsa.keyFile, "-out", encrypted, "-passout", "pass:offline pass"]);
    writeFileSync(join(dir, "offline-pass.txt"), "offline pass\n");
    const cases = [
      { files: der, serial: "0A1B2C3D", certificateFile: ec.certificateFile },
      { files: { ...rsa, keyFile: encrypted, passphrase: { file: join(dir, "offline-pass.txt") } }, serial: "01F20A5D352AE590", certificateFile: rsa.certificateFile },
    ];
    for (const { files, serial, certificateFile } of cases) {
      const c = loadOfflineCertificate(files, now);
      assert.equal(c.serialNumber, serial);
      const link = await signKsefCertificateLink({
        environment: "test", contextType: "Nip", contextId: "5265877635", sellerNip: "5265877635",
        certificateSerial: c.serialNumber, xmlSha256: new Uint8Array(32).fill(7), signer: c.signer,
      });
      assert.equal(verifyKsefCertificateLink(link, new X509Certificate(readFileSync(certificateFile)).publicKey), true);
    }
    assert.equal(failure(() => loadOfflineCertificate({ ...rsa, keyFile: encrypted, passphrase: { env: "NO_SUCH_PASSPHRASE_VARIABLE" } }, now)),
      "key_passphrase_env: the environment variable NO_SUCH_PASSPHRASE_VARIABLE is not set");
  });
});
