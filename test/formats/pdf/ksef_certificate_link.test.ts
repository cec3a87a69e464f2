import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { constants, createHash, createPrivateKey, generateKeyPairSync, verify, X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import {
  buildKsefCertificateLink, ksefCertificateLinkPayload, signKsefCertificateLink, verifyKsefCertificateLink, type KsefCertificateLinkInput,
} from "../../../lib/formats/pdf/ksef_certificate_link.ts";
import type { SignatureAlgorithm, Signer } from "../../../lib/formats/xades/signer.ts";
import { makeOfflineCertificate } from "../../support/offline_certificates.ts";

const dir = mkdtempSync(join(tmpdir(), "kod2-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** kody-qr.md, "KOD II", the example invoice. */
const EXAMPLE = {
  environment: "test", contextType: "Nip", contextId: "1111111111", sellerNip: "1111111111",
  certificateSerial: "01F20A5D352AE590", xmlSha256: "UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE",
} as const;
const rsa = makeOfflineCertificate(dir, "rsa", { key: "rsa2048" });
const ec = makeOfflineCertificate(dir, "ec", { key: "p256" });
const keyOf = (f: { keyFile: string }) => createPrivateKey(readFileSync(f.keyFile, "utf8"));
const certOf = (f: { certificateFile: string }) => new X509Certificate(readFileSync(f.certificateFile, "utf8"));

function split(link: string): { payload: string; signature: Buffer } {
  const at = link.lastIndexOf("/");
  return { payload: link.slice("https://".length, at), signature: Buffer.from(link.slice(at + 1), "base64url") };
}

describe("KOD II", () => {
  test("ksefCertificateLinkPayload() is kody-qr.md's example string: no https://, no trailing slash", () => {
    assert.equal(ksefCertificateLinkPayload(EXAMPLE),
      "qr-test.ksef.mf.gov.pl/certificate/Nip/1111111111/1111111111/01F20A5D352AE590/UtQp9Gpc51y-u3xApZjIjgkpZ01js-J8KflSPW8WzIE");
  });

  test("ksefCertificateLinkPayload() takes the host of the environment (production by default) and the hash in any form", () => {
    const sha = createHash("sha256").update("<Faktura/>").digest();
    const { environment: _e, ...rest } = EXAMPLE;
    const cases = [
      { what: "default", input: { ...rest, xmlSha256: sha }, expected: "qr.ksef.mf.gov.pl/" },
      { what: "demo", input: { ...rest, environment: "demo" as const, xmlSha256: sha.toString("hex") }, expected: "qr-demo.ksef.mf.gov.pl/" },
      { what: "prod", input: { ...rest, environment: "prod" as const, xmlSha256: sha.toString("base64") }, expected: "qr.ksef.mf.gov.pl/" },
    ];
    for (const { what, input, expected } of cases) {
      const p = ksefCertificateLinkPayload(input);
      assert.ok(p.startsWith(`${expected}certificate/Nip/`), what);
      assert.ok(p.endsWith(`/01F20A5D352AE590/${sha.toString("base64url")}`), what);
    }
  });

  test("buildKsefCertificateLink() signs with RSASSA-PSS SHA-256, MGF1-SHA-256, 32-byte salt, as openssl verifies it", () => {
    const link = buildKsefCertificateLink({ ...EXAMPLE, privateKey: keyOf(rsa) });
    const { payload, signature } = split(link);
    assert.equal(payload, ksefCertificateLinkPayload(EXAMPLE));
    assert.equal(signature.length, 256);
    assert.match(link.slice(link.lastIndexOf("/") + 1), /^[A-Za-z0-9_-]{342}$/, "Base64URL without padding");
    // An independent check: openssl with every PSS parameter spelled out (a salt of another length fails).
    writeFileSync(join(dir, "payload"), payload);
    writeFileSync(join(dir, "sig"), signature);
    writeFileSync(join(dir, "pub.pem"), certOf(rsa).publicKey.export({ type: "spki", format: "pem" }));
    const opensslVerify = (salt: number) => {
      try {
        execFileSync("openssl", ["dgst", "-sha256", "-sigopt", "rsa_padding_mode:pss", "-sigopt", `rsa_pss_saltlen:${salt}`,
          "-sigopt", "rsa_mgf1_md:sha256", "-verify", join(dir, "pub.pem"), "-signature", join(dir, "sig"), join(dir, "payload")], { stdio: "pipe" });
        return true;
      } catch {
        return false;
      }
    };
    assert.equal(opensslVerify(32), true);
    assert.equal(opensslVerify(20), false);
    assert.equal(verifyKsefCertificateLink(link, certOf(rsa).publicKey), true);
  });

  test("buildKsefCertificateLink() signs with ECDSA P-256 SHA-256 as IEEE P1363 R || S (64 bytes)", () => {
    const link = buildKsefCertificateLink({ ...EXAMPLE, privateKey: keyOf(ec) });
    const { payload, signature } = split(link);
    assert.equal(signature.length, 64);
    assert.equal(verify("sha256", Buffer.from(payload), { key: certOf(ec).publicKey, dsaEncoding: "ieee-p1363" }, signature), true);
    assert.equal(verifyKsefCertificateLink(link, certOf(ec).publicKey), true);
    // A changed hash or NIP no longer matches the signature.
    assert.equal(verifyKsefCertificateLink(link.replace("/1111111111/01F2", "/1111111112/01F2"), certOf(ec).publicKey), false);
    assert.equal(verifyKsefCertificateLink(link, certOf(rsa).publicKey), false);
  });

  test("buildKsefCertificateLink() refuses keys KSeF does not accept", () => {
    const cases: { what: string; key: KsefCertificateLinkInput["privateKey"]; expected: RegExp }[] = [
      { what: "RSA 1024", key: generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey, expected: /RSA key of 1024 bits/ },
      { what: "P-384", key: generateKeyPairSync("ec", { namedCurve: "secp384r1" }).privateKey, expected: /EC key on secp384r1/ },
      { what: "Ed25519", key: generateKeyPairSync("ed25519").privateKey, expected: /type ed25519/ },
      { what: "a public key", key: certOf(ec).publicKey, expected: /private key/ },
    ];
    for (const { what, key, expected } of cases) {
      assert.throws(() => buildKsefCertificateLink({ ...EXAMPLE, privateKey: key }), (e: Error) => e instanceof RangeError && expected.test(e.message), what);
    }
  });

  test("ksefCertificateLinkPayload() refuses an unknown context type, a serial that is not hex and empty identifiers", () => {
    assert.throws(() => ksefCertificateLinkPayload({ ...EXAMPLE, contextType: "Pesel" as "Nip" }), /context identifier type/);
    assert.throws(() => ksefCertificateLinkPayload({ ...EXAMPLE, certificateSerial: "01:F2" }), /hexadecimal/);
    assert.throws(() => ksefCertificateLinkPayload({ ...EXAMPLE, sellerNip: " " }), /must not be empty/);
    assert.equal(ksefCertificateLinkPayload({ ...EXAMPLE, certificateSerial: "01f20a5d352ae590" }), ksefCertificateLinkPayload(EXAMPLE));
  });

  test("signKsefCertificateLink() signs through a Signer, asking RSA keys for RSASSA-PSS and EC keys for ECDSA P1363", async () => {
    for (const [files, keyType, expected] of [[rsa, "rsa", "rsa-pss-sha256"], [ec, "ec", "ecdsa-p256-sha256"]] as const) {
      const asked: SignatureAlgorithm[] = [];
      const key = keyOf(files);
      // A signer of the embedder's kind (an HSM's): it signs what it is given with the algorithm it is asked for.
      const signer: Signer = {
        certificate: certOf(files).raw, keyType,
        sign: async (data, algorithm) => {
          asked.push(algorithm);
          const options = algorithm === "rsa-pss-sha256"
            ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
            : { key, dsaEncoding: "ieee-p1363" as const };
          return (await import("node:crypto")).sign("sha256", data, options);
        },
      };
      const link = await signKsefCertificateLink({ ...EXAMPLE, signer });
      assert.deepEqual(asked, [expected]);
      assert.ok(link.startsWith(`https://${ksefCertificateLinkPayload(EXAMPLE)}/`));
      assert.equal(verifyKsefCertificateLink(link, certOf(files).publicKey), true, keyType);
      if (keyType === "ec") assert.equal(split(link).signature.length, 64);
    }
  });
});
