import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { children, parseDer, readOid, TAG } from "../../../lib/formats/asn1/der.ts";
import { buildCsr, csrToPem, ecdsaP1363ToDer, enrollmentSubject } from "../../../lib/formats/pkcs10/csr.ts";
import { generateCsrKeyPair } from "../../../lib/formats/pkcs10/key_pair.ts";

const dir = mkdtempSync(join(tmpdir(), "csr-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** openssl's reading of a CSR: whether its signature verifies, the subject with string types, and the key. */
function opensslRead(pem: string): { verified: boolean; subject: string; text: string } {
  const file = join(dir, "req.pem");
  writeFileSync(file, pem);
  // openssl writes "Certificate request self-signature verify OK" to stderr (3.x) or stdout (1.1): both are read.
  const text = execFileSync("sh", ["-c", `openssl req -in '${file}' -verify -noout -text 2>&1`], { encoding: "utf8" });
  const verified = /self-signature verify OK|^verify OK/m.test(text);
  const subject = execFileSync("openssl", ["req", "-in", file, "-noout", "-subject", "-nameopt", "sep_comma_plus_space,space_eq,utf8,-esc_msb,show_type"], { encoding: "utf8" }).trim();
  return { verified, subject, text };
}

// open-api.json CertificateEnrollmentDataResponse for a person (certyfikaty-KSeF.md §2: givenName may repeat) and a company seal.
const PERSON = { commonName: "Łukasz Żółć", givenName: ["Łukasz", "Jan"], surname: "Żółć", serialNumber: "TINPL-5265877635", countryName: "PL", uniqueIdentifier: "A1B2C3" };
const SEAL = { commonName: "Firma Sp. z o.o.", organizationName: "Firma Sp. z o.o.", organizationIdentifier: "VATPL-5265877635", countryName: "PL" };

describe("PKCS#10", () => {
  test("buildCsr() writes a request openssl verifies, with exactly the enrollment data's subject, for RSA and EC keys", async () => {
    const cases = [
      { kind: "rsa", data: PERSON, key: /rsaEncryption[\s\S]*2048 bit/, alg: /sha256WithRSAEncryption/,
        subject: "subject=CN = UTF8STRING:Łukasz Żółć, GN = UTF8STRING:Łukasz, GN = UTF8STRING:Jan, SN = UTF8STRING:Żółć, serialNumber = PRINTABLESTRING:TINPL-5265877635, C = PRINTABLESTRING:PL, x500UniqueIdentifier = UTF8STRING:A1B2C3" },
      { kind: "ec", data: SEAL, key: /id-ecPublicKey[\s\S]*256 bit[\s\S]*prime256v1/, alg: /ecdsa-with-SHA256/,
        subject: "subject=CN = UTF8STRING:Firma Sp. z o.o., O = UTF8STRING:Firma Sp. z o.o., organizationIdentifier = UTF8STRING:VATPL-5265877635, C = PRINTABLESTRING:PL" },
    ] as const;
    for (const { kind, data, key, alg, subject } of cases) {
      const pair = generateCsrKeyPair(kind);
      const der = await buildCsr({ subject: enrollmentSubject(data), publicKey: pair.publicKey, signer: pair.signer });
      const pem = csrToPem(der);
      assert.match(pem, /^-----BEGIN CERTIFICATE REQUEST-----\n([A-Za-z0-9+/=]{64}\n)*[A-Za-z0-9+/=]{1,64}\n-----END CERTIFICATE REQUEST-----\n$/);
      const read = opensslRead(pem);
      assert.ok(read.verified, `${kind}: openssl verifies the signature`);
      assert.equal(read.subject, subject, kind);
      assert.match(read.text, key, kind);
      assert.match(read.text, alg, kind);
      assert.match(read.text, /Version: 1 \(0x0\)/);
    }
  });

  test("buildCsr() signs through the callback, asking RSA for PKCS#1 v1.5 and EC for ECDSA, and a changed request fails openssl's check", async () => {
    const pair = generateCsrKeyPair("ec");
    const asked: string[] = [];
    const der = await buildCsr({ subject: enrollmentSubject(SEAL), publicKey: pair.publicKey, signer: { keyType: "ec", sign: (d, a) => (asked.push(a), pair.signer.sign(d, a)) } });
    assert.deepEqual(asked, ["ecdsa-p256-sha256"]);
    const rsa = generateCsrKeyPair("rsa");
    await buildCsr({ subject: enrollmentSubject(SEAL), publicKey: rsa.publicKey, signer: { keyType: "rsa", sign: (d, a) => (asked.push(a), rsa.signer.sign(d, a)) } });
    assert.deepEqual(asked, ["ecdsa-p256-sha256", "rsa-pkcs1-sha256"]);
    // One byte of the subject changed ("Firma" → "Firmb"): the signature no longer covers it.
    const bad = Uint8Array.from(der);
    const at = Buffer.from(bad).indexOf("Firma");
    bad[at + 4] = 0x62;
    const file = join(dir, "bad.pem");
    writeFileSync(file, csrToPem(bad));
    assert.doesNotMatch(execFileSync("sh", ["-c", `openssl req -in '${file}' -verify -noout 2>&1 || true`], { encoding: "utf8" }), /verify OK/);
  });

  test("ecdsaP1363ToDer() writes r and s as minimal positive INTEGERs", () => {
    const cases = [
      { what: "high bits set: a leading zero", r: 0xff, s: 0x80, expected: [0x02, 0x21, 0x00, 0xff], sExpected: [0x02, 0x21, 0x00, 0x80] },
      { what: "leading zero bytes: dropped", r: 0x00, s: 0x01, expected: [0x02, 0x1f, 0x01], sExpected: [0x02, 0x20, 0x01] },
    ];
    for (const { what, r, s, expected, sExpected } of cases) {
      const sig = new Uint8Array(64).fill(0x11);
      sig[0] = r;
      if (r === 0) sig[1] = 0x01;
      sig[32] = s;
      const der = ecdsaP1363ToDer(sig);
      const [ri, si] = children(parseDer(der), TAG.SEQUENCE);
      assert.deepEqual([...der.subarray(ri!.start, ri!.start + expected.length)], expected, what);
      assert.deepEqual([...der.subarray(si!.start, si!.start + sExpected.length)], sExpected, what);
    }
    assert.throws(() => ecdsaP1363ToDer(new Uint8Array(70)), /64 bytes/);
  });

  test("enrollmentSubject() keeps the fixed order, repeats givenName, and refuses what KSeF's data cannot be", () => {
    assert.deepEqual(enrollmentSubject({ countryName: "PL", surname: "Nowak", commonName: "Anna Nowak", givenName: "Anna", serialNumber: null }).map((a) => a.oid),
      ["2.5.4.3", "2.5.4.42", "2.5.4.4", "2.5.4.6"]);
    const refused = [
      { what: "no commonName", input: { countryName: "PL" }, expected: /no commonName/ },
      { what: "a bad country", input: { commonName: "A", countryName: "Polska" }, expected: /two-letter/ },
      { what: "an unknown field", input: { commonName: "A", countryName: "PL", title: "x" }, expected: /Unknown enrollment data field: title/ },
      { what: "an empty value", input: { commonName: "A", countryName: "PL", surname: "" }, expected: /surname is not a non-empty string/ },
    ];
    for (const { what, input, expected } of refused) assert.throws(() => enrollmentSubject(input as never), expected, what);
    // The subject is written with its OIDs as enrollment data names them (certyfikaty-KSeF.md §2's table).
    const oids = enrollmentSubject({ ...SEAL, ...PERSON }).map((a) => a.oid);
    assert.deepEqual(oids, ["2.5.4.3", "2.5.4.42", "2.5.4.42", "2.5.4.4", "2.5.4.5", "2.5.4.10", "2.5.4.97", "2.5.4.6", "2.5.4.45"]);
    assert.equal(readOid(parseDer(Uint8Array.of(0x06, 0x03, 0x55, 0x04, 0x61))), "2.5.4.97");
  });
});
