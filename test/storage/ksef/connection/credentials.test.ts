import assert from "node:assert/strict";
import { execFileSync, execSync } from "node:child_process";
import { constants, createPublicKey, verify, X509Certificate } from "node:crypto";
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createSignerCache, CredentialsError, describeCertificate, loadFileSigner, loadFileSignerAsync, type SignerFiles } from "../../../../storage/ksef/connection/credentials.ts";
import { SignerLoading } from "../../../../storage/ksef/connection/signer_cache.ts";
import { PKCS12_CONVERT_COMMAND, PKCS8_CONVERT_COMMAND } from "../../../../storage/ksef/connection/key_files.ts";

const dir = mkdtempSync(join(tmpdir(), "credentials-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const PASS = "Zażółć gęślą jaźń 42!";
const env = { KSEF_KEY_PASS: PASS, EMPTY_VARIABLE: "" };
const DAY = 86_400_000;
const f = (name: string) => join(dir, name);

function openssl(...args: string[]): void {
  execFileSync("openssl", args, { stdio: "pipe" });
}

/** A self-signed certificate and its key (PKCS#8 PEM), with KSeF's key usage for `type`. */
function makeCertificate(name: string, key: string[], o: { usage: string; serial: string; subj?: string; days?: number }): void {
  openssl("req", "-x509", ...key, "-nodes", "-keyout", f(`${name}.key.pem`), "-out", f(`${name}.crt.pem`), "-days", String(o.days ?? 30),
    "-subj", o.subj ?? "/CN=Jan Kowalski/SN=Kowalski/serialNumber=TINPL-5265877635/C=PL", "-set_serial", o.serial,
    "-addext", `keyUsage=critical,${o.usage}`);
  chmodSync(f(`${name}.key.pem`), 0o600);
}

const RSA = ["-newkey", "rsa:2048"];
const P256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"];
makeCertificate("rsa", RSA, { usage: "digitalSignature", serial: "0x01F20A5D352AE590" });
makeCertificate("ec", P256, { usage: "nonRepudiation", serial: "0x0A1B2C3D4E5F6071" });
makeCertificate("pss", ["-newkey", "rsa-pss", "-pkeyopt", "rsa_keygen_bits:2048"], { usage: "nonRepudiation", serial: "0x0B1B2C3D4E5F6071" });
makeCertificate("ca", P256, { usage: "keyCertSign", serial: "0x77", subj: "/CN=Some CA/C=PL" });
// Every form of the RSA key and of the EC key.
openssl("pkey", "-in", f("rsa.key.pem"), "-outform", "DER", "-out", f("rsa.key.der"));
openssl("pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", f("rsa.key.pem"), "-out", f("rsa.enc.pem"), "-passout", `pass:${PASS}`);
openssl("pkcs8", "-topk8", "-v2", "aes-128-cbc", "-v2prf", "hmacWithSHA1", "-in", f("ec.key.pem"), "-outform", "DER", "-out", f("ec.enc.der"), "-passout", `pass:${PASS}`);
openssl("rsa", "-in", f("rsa.key.pem"), "-traditional", "-out", f("rsa.pkcs1.pem"));
openssl("rsa", "-in", f("rsa.key.pem"), "-traditional", "-outform", "DER", "-out", f("rsa.pkcs1.der"));
openssl("ec", "-in", f("ec.key.pem"), "-out", f("ec.sec1.pem"));
openssl("ec", "-in", f("ec.key.pem"), "-outform", "DER", "-out", f("ec.sec1.der"));
openssl("rsa", "-in", f("rsa.key.pem"), "-traditional", "-aes256", "-passout", `pass:${PASS}`, "-out", f("rsa.traditional-enc.pem"));
openssl("x509", "-in", f("rsa.crt.pem"), "-outform", "DER", "-out", f("rsa.crt.der"));
writeFileSync(f("chain.crt.pem"), readFileSync(f("ca.crt.pem"), "utf8") + readFileSync(f("ec.crt.pem"), "utf8"));
// PKCS#12 as OpenSSL 3 writes it by default (PBES2, AES-256-CBC, HMAC-SHA-256 MAC), with a CA certificate before the key's.
openssl("pkcs12", "-export", "-inkey", f("rsa.key.pem"), "-in", f("rsa.crt.pem"), "-out", f("rsa.p12"), "-passout", `pass:${PASS}`);
openssl("pkcs12", "-export", "-inkey", f("ec.key.pem"), "-in", f("ec.crt.pem"), "-certfile", f("ca.crt.pem"), "-out", f("ec.p12"), "-passout", `pass:${PASS}`);
openssl("pkcs12", "-export", "-inkey", f("ec.key.pem"), "-in", f("ec.crt.pem"), "-macalg", "sha1", "-keypbe", "aes-128-cbc", "-certpbe", "aes-256-cbc", "-out", f("ec-sha1.p12"), "-passout", `pass:${PASS}`);
openssl("pkcs12", "-export", "-legacy", "-inkey", f("rsa.key.pem"), "-in", f("rsa.crt.pem"), "-out", f("legacy.p12"), "-passout", `pass:${PASS}`);
writeFileSync(f("pass.txt"), `${PASS}\n`);
const passFile = { file: f("pass.txt") };
const now = Date.now(); // after the certificates are made: their notBefore is this second or earlier

/** Every secret a message must not hold: the passphrase and 16-character pieces of each key file's base64. */
const secrets = [PASS, ...["rsa.key.pem", "ec.key.pem", "rsa.enc.pem"].flatMap((name) =>
  readFileSync(f(name), "utf8").split("\n").filter((l) => !l.startsWith("-----") && l.length >= 16).map((l) => l.slice(0, 16))),
  ...["rsa.p12", "rsa.key.der"].map((name) => readFileSync(f(name)).toString("base64").slice(40, 56))];

/** The RangeError `fn` throws, checked to carry no secret in its message or any property. */
function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof RangeError, String(e));
    const all = [e.message, String(e.stack), JSON.stringify(e), ...Object.getOwnPropertyNames(e).map((k) => String((e as unknown as Record<string, unknown>)[k]))].join("\n");
    for (const s of secrets) assert.ok(!all.includes(s), `a secret in: ${e.message}`);
    return e.message;
  }
  assert.fail("did not throw");
}

describe("loadFileSigner()", () => {
  test("loadFileSigner() reads every key form and signs with each algorithm of its key type", async () => {
    const rsaCert = f("rsa.crt.pem");
    const ecCert = f("ec.crt.pem");
    const cases: { what: string; files: SignerFiles; keyType: "rsa" | "ec" }[] = [
      { what: "PKCS#8 PEM", files: { certificateFile: rsaCert, keyFile: f("rsa.key.pem") }, keyType: "rsa" },
      { what: "PKCS#8 DER, certificate DER", files: { certificateFile: f("rsa.crt.der"), keyFile: f("rsa.key.der") }, keyType: "rsa" },
      { what: "encrypted PKCS#8 PEM, passphrase from the environment", files: { certificateFile: rsaCert, keyFile: f("rsa.enc.pem"), passphrase: { env: "KSEF_KEY_PASS" } }, keyType: "rsa" },
      { what: "encrypted PKCS#8 DER (AES-128, HMAC-SHA-1), passphrase from a file", files: { certificateFile: ecCert, keyFile: f("ec.enc.der"), passphrase: passFile }, keyType: "ec" },
      { what: "PKCS#1 PEM", files: { certificateFile: rsaCert, keyFile: f("rsa.pkcs1.pem") }, keyType: "rsa" },
      { what: "PKCS#1 DER", files: { certificateFile: rsaCert, keyFile: f("rsa.pkcs1.der") }, keyType: "rsa" },
      { what: "SEC1 PEM", files: { certificateFile: ecCert, keyFile: f("ec.sec1.pem") }, keyType: "ec" },
      { what: "SEC1 DER", files: { certificateFile: ecCert, keyFile: f("ec.sec1.der") }, keyType: "ec" },
      { what: "a PEM chain with a CA certificate first", files: { certificateFile: f("chain.crt.pem"), keyFile: f("ec.key.pem") }, keyType: "ec" },
      { what: "PKCS#12 RSA", files: { pkcs12File: f("rsa.p12"), passphrase: { env: "KSEF_KEY_PASS" } }, keyType: "rsa" },
      { what: "PKCS#12 EC with a CA certificate", files: { pkcs12File: f("ec.p12"), passphrase: passFile }, keyType: "ec" },
      { what: "PKCS#12 with a SHA-1 MAC and AES-128 key", files: { pkcs12File: f("ec-sha1.p12"), passphrase: passFile }, keyType: "ec" },
    ];
    for (const { what, files, keyType } of cases) {
      const s = loadFileSigner(files, { now, env });
      assert.equal(s.keyType, keyType, what);
      const certFile = keyType === "rsa" ? rsaCert : ecCert;
      const x509 = new X509Certificate(readFileSync(certFile));
      assert.deepEqual(Buffer.from(s.certificate), x509.raw, `${what}: the key's own certificate`);
      const data = new TextEncoder().encode("qr-test.ksef.mf.gov.pl/certificate/Nip/5265877635");
      const pub = x509.publicKey;
      if (keyType === "rsa") {
        assert.ok(verify("sha256", data, { key: pub, padding: constants.RSA_PKCS1_PADDING }, await s.sign(data, "rsa-pkcs1-sha256")), what);
        assert.ok(verify("sha256", data, { key: pub, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, await s.sign(data, "rsa-pss-sha256")), what);
        await assert.rejects(s.sign(data, "ecdsa-p256-sha256"), /An RSA key cannot sign ecdsa-p256-sha256/);
      } else {
        const sig = await s.sign(data, "ecdsa-p256-sha256");
        assert.equal(sig.length, 64, `${what}: r || s`);
        assert.ok(verify("sha256", data, { key: pub, dsaEncoding: "ieee-p1363" }, sig), what);
        await assert.rejects(s.sign(data, "rsa-pss-sha256"), /An EC key cannot sign rsa-pss-sha256/);
      }
    }
  });

  test("loadFileSigner()'s PSS signature is what openssl verifies with MGF1-SHA-256 and a 32-byte salt", async () => {
    const s = loadFileSigner({ certificateFile: f("rsa.crt.pem"), keyFile: f("rsa.key.pem") }, { now });
    writeFileSync(f("data.bin"), "payload");
    writeFileSync(f("sig.bin"), await s.sign(new TextEncoder().encode("payload"), "rsa-pss-sha256"));
    writeFileSync(f("rsa.pub.pem"), createPublicKey(readFileSync(f("rsa.crt.pem"))).export({ type: "spki", format: "pem" }));
    const out = execFileSync("openssl", ["dgst", "-sha256", "-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:32", "-sigopt", "rsa_mgf1_md:sha256",
      "-verify", f("rsa.pub.pem"), "-signature", f("sig.bin"), f("data.bin")], { encoding: "utf8" });
    assert.match(out, /Verified OK/);
  });

  test("loadFileSigner() gives the certificate's facts as openssl reads them, and its KSeF type from its key usage", () => {
    const rsa = loadFileSigner({ certificateFile: f("rsa.crt.pem"), keyFile: f("rsa.key.pem") }, { now }).facts;
    const x509 = new X509Certificate(readFileSync(f("rsa.crt.pem")));
    assert.equal(rsa.serialNumber, "01F20A5D352AE590");
    assert.equal(rsa.serialDecimal, BigInt("0x01F20A5D352AE590").toString());
    assert.equal(rsa.subject, "CN=Jan Kowalski, SN=Kowalski, serialNumber=TINPL-5265877635, C=PL");
    assert.deepEqual(rsa.subjectAttributes.map((a) => a.oid), ["2.5.4.3", "2.5.4.4", "2.5.4.5", "2.5.4.6"]);
    assert.equal(rsa.sha256Fingerprint, x509.fingerprint256.replace(/:/g, ""));
    assert.equal(rsa.notAfter, Date.parse(x509.validTo));
    assert.equal(rsa.notBefore, Date.parse(x509.validFrom));
    assert.equal(rsa.ksefType, "Authentication");
    assert.deepEqual([rsa.keyType, rsa.keyBits], ["rsa", 2048]);
    const ec = loadFileSigner({ certificateFile: f("ec.crt.pem"), keyFile: f("ec.key.pem") }, { now }).facts;
    assert.equal(ec.ksefType, "Offline");
    assert.deepEqual([ec.keyType, ec.keyBits], ["ec", 256]);
    // A certificate whose serial is not KSeF's 16 hex digits (a qualified one) has no KSeF type, whatever its usage.
    makeCertificate("qualified", P256, { usage: "nonRepudiation", serial: "0x0102030405060708090A0B0C" });
    assert.equal(loadFileSigner({ certificateFile: f("qualified.crt.pem"), keyFile: f("qualified.key.pem") }, { now: Date.now() }).facts.ksefType, null);
  });

  test("loadFileSigner() refuses each unusable file with a message naming it and nothing secret", () => {
    makeCertificate("rsa1024", ["-newkey", "rsa:1024"], { usage: "digitalSignature", serial: "0x01" });
    makeCertificate("p384", ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"], { usage: "digitalSignature", serial: "0x02" });
    writeFileSync(f("wrong-pass.txt"), "not it\n");
    writeFileSync(f("garbage.der"), new Uint8Array(300).fill(0x30));
    const rsaCert = f("rsa.crt.pem");
    const cases: { what: string; files: SignerFiles; at?: number; expected: string | RegExp }[] = [
      { what: "wrong passphrase, encrypted PEM", files: { certificateFile: rsaCert, keyFile: f("rsa.enc.pem"), passphrase: { file: f("wrong-pass.txt") } }, expected: `key ${f("rsa.enc.pem")}: the passphrase is wrong` },
      { what: "wrong passphrase, encrypted DER", files: { certificateFile: f("ec.crt.pem"), keyFile: f("ec.enc.der"), passphrase: { file: f("wrong-pass.txt") } }, expected: `key ${f("ec.enc.der")}: the passphrase is wrong` },
      { what: "wrong passphrase, PKCS#12", files: { pkcs12File: f("rsa.p12"), passphrase: { file: f("wrong-pass.txt") } }, expected: `pkcs12 ${f("rsa.p12")}: the passphrase is wrong (or the file is damaged)` },
      { what: "encrypted key, no passphrase", files: { certificateFile: rsaCert, keyFile: f("rsa.enc.pem") }, expected: `key ${f("rsa.enc.pem")} is encrypted: give its passphrase with "key_passphrase_env" or "key_passphrase_file"` },
      { what: "PKCS#12, no passphrase", files: { pkcs12File: f("rsa.p12") }, expected: /^pkcs12 .*rsa\.p12 needs its passphrase/ },
      { what: "traditional encrypted PEM", files: { certificateFile: rsaCert, keyFile: f("rsa.traditional-enc.pem"), passphrase: passFile }, expected: `key ${f("rsa.traditional-enc.pem")} is encrypted the traditional OpenSSL way: convert it with ${PKCS8_CONVERT_COMMAND}` },
      { what: "legacy PKCS#12", files: { pkcs12File: f("legacy.p12"), passphrase: passFile }, expected: `pkcs12 ${f("legacy.p12")} is encrypted with a legacy cipher (RC2 or 3DES): convert it with ${PKCS12_CONVERT_COMMAND}` },
      { what: "not PKCS#12", files: { pkcs12File: f("rsa.crt.pem"), passphrase: passFile }, expected: /^pkcs12 .*rsa\.crt\.pem is not a PKCS#12 file \(\.p12, \.pfx\): it does not start with an ASN\.1 SEQUENCE/ },
      { what: "another key", files: { certificateFile: rsaCert, keyFile: f("ec.key.pem") }, expected: `key ${f("ec.key.pem")} is not the private key of certificate ${rsaCert}` },
      { what: "only a CA certificate", files: { certificateFile: f("ca.crt.pem"), keyFile: f("ec.key.pem") }, expected: /is not the private key of certificate/ },
      { what: "expired", files: { certificateFile: rsaCert, keyFile: f("rsa.key.pem") }, at: now + 31 * DAY, expected: /^certificate .*rsa\.crt\.pem expired on \d{4}-/ },
      { what: "not yet valid", files: { certificateFile: rsaCert, keyFile: f("rsa.key.pem") }, at: now - 2 * DAY, expected: /^certificate .*rsa\.crt\.pem is valid only from \d{4}-/ },
      { what: "RSA 1024", files: { certificateFile: f("rsa1024.crt.pem"), keyFile: f("rsa1024.key.pem") }, expected: `key ${f("rsa1024.key.pem")}: an RSA key of 1024 bits (KSeF needs 2048 or more) cannot sign in to KSeF` },
      { what: "RSA-PSS key", files: { certificateFile: f("pss.crt.pem"), keyFile: f("pss.key.pem") }, expected: `key ${f("pss.key.pem")}: an RSA-PSS key cannot sign in to KSeF (KSeF's XAdES signature uses RSA PKCS#1 v1.5 or ECDSA): use a plain RSA or EC P-256 key` },
      { what: "P-384", files: { certificateFile: f("p384.crt.pem"), keyFile: f("p384.key.pem") }, expected: /^key .*p384\.key\.pem: an EC key on secp384r1 \(KSeF needs P-256\)/ },
      { what: "no such key file", files: { certificateFile: rsaCert, keyFile: f("none.pem") }, expected: `key ${f("none.pem")} cannot be read: ENOENT` },
      { what: "garbage DER key", files: { certificateFile: rsaCert, keyFile: f("garbage.der") }, expected: `key ${f("garbage.der")} is not a DER private key (PKCS#8, PKCS#1 or SEC1)` },
      { what: "garbage DER certificate", files: { certificateFile: f("garbage.der"), keyFile: f("rsa.key.pem") }, expected: /^certificate .*garbage\.der holds a certificate that cannot be read/ },
      { what: "a key as the certificate", files: { certificateFile: f("rsa.key.pem"), keyFile: f("rsa.key.pem") }, expected: `certificate ${f("rsa.key.pem")} is not a PEM certificate (-----BEGIN CERTIFICATE-----)` },
      { what: "unset variable", files: { certificateFile: rsaCert, keyFile: f("rsa.enc.pem"), passphrase: { env: "NO_SUCH_VARIABLE" } }, expected: "key_passphrase_env: the environment variable NO_SUCH_VARIABLE is not set" },
      { what: "empty variable", files: { certificateFile: rsaCert, keyFile: f("rsa.enc.pem"), passphrase: { env: "EMPTY_VARIABLE" } }, expected: "key_passphrase_env: the environment variable EMPTY_VARIABLE is empty" },
      { what: "the passphrase itself as the variable's name", files: { certificateFile: rsaCert, keyFile: f("rsa.enc.pem"), passphrase: { env: PASS } }, expected: "key_passphrase_env: the environment variable named in key_passphrase_env is not set" },
      { what: "missing passphrase file", files: { certificateFile: rsaCert, keyFile: f("rsa.enc.pem"), passphrase: { file: f("none.txt") } }, expected: `key_passphrase_file ${f("none.txt")} cannot be read: ENOENT` },
    ];
    for (const { what, files, at, expected } of cases) {
      const msg = failure(() => loadFileSigner(files, { now: at ?? now, env }));
      if (typeof expected === "string") assert.equal(msg, expected, what);
      else assert.match(msg, expected, what);
    }
  });

  test("the conversion commands the refusals give turn the refused files into ones that load", () => {
    const sh = (cmd: string) => execSync(`set -o pipefail; ${cmd}`, { cwd: dir, stdio: "pipe", shell: "/bin/bash", env: { ...process.env, P: PASS } });
    // The commands prompt for passphrases; the test gives them as -passin/-passout arguments instead.
    sh(PKCS12_CONVERT_COMMAND.replace("OLD.p12", "legacy.p12").replaceAll("OLD.pem", "legacy.pem")
      .replace("-out legacy.pem", "-out legacy.pem -passin env:P -passout env:P").replace("-out NEW.p12", "-out converted.p12 -passin env:P -passout env:P"));
    assert.equal(loadFileSigner({ pkcs12File: f("converted.p12"), passphrase: passFile }, { now }).keyType, "rsa");
    sh(`${PKCS8_CONVERT_COMMAND.replace("OLD.key.pem", "rsa.traditional-enc.pem").replace("NEW.key.pem", "converted.key.pem")} -passin env:P -passout env:P`);
    assert.equal(loadFileSigner({ certificateFile: f("rsa.crt.pem"), keyFile: f("converted.key.pem"), passphrase: passFile }, { now }).keyType, "rsa");
  });

  test("loadFileSigner() warns about a certificate near its end and a key file others can read", () => {
    const files = { certificateFile: f("rsa.crt.pem"), keyFile: f("rsa.key.pem") };
    assert.deepEqual(loadFileSigner(files, { now }).warnings, [`certificate ${f("rsa.crt.pem")} expires on ${new Date(new X509Certificate(readFileSync(f("rsa.crt.pem"))).validTo).toISOString()}`]);
    assert.deepEqual(loadFileSigner(files, { now, warnWithinMs: DAY }).warnings, []);
    chmodSync(f("rsa.pkcs1.pem"), 0o644);
    assert.ok(loadFileSigner({ ...files, keyFile: f("rsa.pkcs1.pem") }, { now, warnWithinMs: DAY }).warnings.includes(`key ${f("rsa.pkcs1.pem")} can be read by other users of this machine: chmod 600 it`));
  });

  test("loadFileSigner() warns when the certificate's key usage shows the other KSeF type than the use needs", () => {
    const rsa = { certificateFile: f("rsa.crt.pem"), keyFile: f("rsa.key.pem") }; // digitalSignature: Authentication
    const ec = { certificateFile: f("ec.crt.pem"), keyFile: f("ec.key.pem") }; // nonRepudiation: Offline
    const o = { now, warnWithinMs: DAY };
    assert.deepEqual(loadFileSigner(rsa, { ...o, expectType: "Authentication" }).warnings, []);
    assert.deepEqual(loadFileSigner(ec, { ...o, expectType: "Authentication" }).warnings,
      [`certificate ${f("ec.crt.pem")} looks like a KSeF certificate of type Offline (by its key usage), which cannot sign in to KSeF: use one of type Authentication`]);
    assert.deepEqual(loadFileSigner(rsa, { ...o, expectType: "Offline", purpose: "sign KOD II" }).warnings,
      [`certificate ${f("rsa.crt.pem")} looks like a KSeF certificate of type Authentication (by its key usage), which cannot sign KOD II: use one of type Offline`]);
  });
});

test("loadFileSigner() takes a certificate at its notAfter and its notBefore, and not a millisecond outside", () => {
  const files = { certificateFile: f("rsa.crt.pem"), keyFile: f("rsa.key.pem") };
  const x = new X509Certificate(readFileSync(f("rsa.crt.pem")));
  const [from, to] = [Date.parse(x.validFrom), Date.parse(x.validTo)];
  assert.equal(loadFileSigner(files, { now: to }).facts.notAfter, to);
  assert.equal(loadFileSigner(files, { now: from }).facts.notBefore, from);
  assert.match(failure(() => loadFileSigner(files, { now: to + 1 })), /expired on/);
  assert.match(failure(() => loadFileSigner(files, { now: from - 1 })), /is valid only from/);
});

test("loadFileSigner() matches the key and the certificate as keys: a certificate with the EC point compressed is the key's", () => {
  openssl("ec", "-in", f("ec.key.pem"), "-pubout", "-conv_form", "compressed", "-out", f("ec-compressed.pub.pem"));
  openssl("req", "-new", "-key", f("ec.key.pem"), "-subj", "/CN=Compressed", "-out", f("ec.csr"));
  openssl("x509", "-req", "-in", f("ec.csr"), "-signkey", f("ec.key.pem"), "-force_pubkey", f("ec-compressed.pub.pem"), "-days", "2", "-out", f("ec-compressed.crt.pem"));
  // Made just now, valid from this second: the file's shared `now` may be earlier.
  const at = Date.now();
  const s = loadFileSigner({ certificateFile: f("ec-compressed.crt.pem"), keyFile: f("ec.key.pem") }, { now: at });
  assert.equal(s.facts.subject, "CN=Compressed");
  assert.match(failure(() => loadFileSigner({ certificateFile: f("ec-compressed.crt.pem"), keyFile: f("rsa.key.pem") }, { now: at })), /is not the private key of certificate/);
});

test("loadFileSigner() takes an RSA-PSS key for KOD II, whose signature is PSS", async () => {
  const s = loadFileSigner({ certificateFile: f("pss.crt.pem"), keyFile: f("pss.key.pem") }, { now, expectType: "Offline", purpose: "sign KOD II" });
  const data = new TextEncoder().encode("payload");
  assert.ok(verify("sha256", data, { key: s.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, await s.sign(data, "rsa-pss-sha256")));
});

test("loadFileSigner() decrypts unchanged files once, and again when a file or the passphrase changes", () => {
  const cache = createSignerCache();
  copyFileSync(f("rsa.p12"), f("cached.p12"));
  writeFileSync(f("cached-pass.txt"), PASS, { mode: 0o600 });
  const files = { pkcs12File: f("cached.p12"), passphrase: { file: f("cached-pass.txt") } };
  const first = loadFileSigner(files, { now, cache });
  const second = loadFileSigner(files, { now: now + DAY, cache, warnWithinMs: 0 });
  assert.equal(cache.loads, 1);
  assert.equal(second.privateKey, first.privateKey);
  // Warnings and validity are the call's own, at its `now`, from the cached facts.
  assert.equal(first.warnings.length, 1);
  assert.deepEqual(second.warnings, []);
  assert.match(failure(() => loadFileSigner(files, { now: now + 31 * DAY, cache })), /expired on/);
  assert.equal(cache.loads, 1);
  const t = statSync(f("cached.p12")).mtimeMs / 1000 + 5;
  utimesSync(f("cached.p12"), t, t);
  loadFileSigner(files, { now, cache });
  assert.equal(cache.loads, 2, "a touched file is read again");
  writeFileSync(f("cached-pass.txt"), "not it");
  assert.match(failure(() => loadFileSigner(files, { now, cache })), /the passphrase is wrong/);
  assert.match(failure(() => loadFileSigner(files, { now, cache })), /the passphrase is wrong/);
  assert.equal(cache.loads, 3, "a failure is remembered too, until something changes");
  const byEnv = { pkcs12File: f("cached.p12"), passphrase: { env: "KSEF_KEY_PASS" } };
  loadFileSigner(byEnv, { now, cache, env });
  loadFileSigner(byEnv, { now, cache, env });
  assert.equal(cache.loads, 4);
  assert.match(failure(() => loadFileSigner(byEnv, { now, cache, env: { KSEF_KEY_PASS: "other" } })), /the passphrase is wrong/);
  assert.equal(cache.loads, 5, "another value of the variable is another passphrase");
});

test("describeCertificate() gives a certificate's facts without its key, its key null when KSeF would not take it", () => {
  const der = (name: string) => new X509Certificate(readFileSync(f(name))).raw;
  const ec = describeCertificate(der("ec.crt.pem"));
  assert.deepEqual([ec.serialNumber, ec.ksefType, ec.keyType, ec.keyBits], ["0A1B2C3D4E5F6071", "Offline", "ec", 256]);
  assert.equal(ec.sha256Fingerprint, new X509Certificate(der("ec.crt.pem")).fingerprint256.replace(/:/g, ""));
  makeCertificate("small", ["-newkey", "rsa:1024"], { usage: "digitalSignature", serial: "0x03" });
  const small = describeCertificate(der("small.crt.pem"));
  assert.deepEqual([small.keyType, small.keyBits, small.ksefType], [null, null, null]);
});

test("loadFileSigner() says what is wrong with a .p12 that cannot be read, and gives the openssl conversion only for a legacy cipher", () => {
  const p12 = readFileSync(f("rsa.p12"));
  writeFileSync(f("cut.p12"), p12.subarray(0, p12.length >> 1));
  writeFileSync(f("text.p12"), "not a certificate\n");
  // 5,000 SEQUENCEs one in another (BER's indefinite length: each opens with 30 80 and ends with 00 00).
  writeFileSync(f("deep.p12"), Uint8Array.from([...Array(5000).fill([0x30, 0x80]).flat(), 0x05, 0x00, ...Array(5000).fill([0, 0]).flat()]));
  const cases = [
    { name: "cut.p12", expected: /^pkcs12 .*cut\.p12 is cut short \(its end is missing\): copy the whole file again$/ },
    { name: "text.p12", expected: /^pkcs12 .*text\.p12 is not a PKCS#12 file \(\.p12, \.pfx\): it does not start with an ASN\.1 SEQUENCE/ },
    { name: "deep.p12", expected: /^pkcs12 .*deep\.p12 nests deeper than 32 levels, which no PKCS#12 file of a certificate does/ },
    { name: "legacy.p12", expected: new RegExp(`^pkcs12 .*legacy\\.p12 is encrypted with a legacy cipher \\(RC2 or 3DES\\): convert it with ${PKCS12_CONVERT_COMMAND.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) },
  ];
  for (const { name, expected } of cases) {
    const msg = failure(() => loadFileSigner({ pkcs12File: f(name), passphrase: passFile }, { now }));
    assert.match(msg, expected, name);
    assert.equal(msg.includes("openssl"), name === "legacy.p12", `${name}: ${msg}`);
  }
});

test("loadFileSigner() warns about a key_passphrase_file others can read, as about such a key file", () => {
  writeFileSync(f("open-pass.txt"), `${PASS}\n`, { mode: 0o644 });
  chmodSync(f("open-pass.txt"), 0o644);
  writeFileSync(f("closed-pass.txt"), `${PASS}\n`, { mode: 0o600 });
  const warnings = (file: string) => loadFileSigner({ pkcs12File: f("rsa.p12"), passphrase: { file: f(file) } }, { now, warnWithinMs: 0 }).warnings;
  assert.deepEqual(warnings("open-pass.txt"), [`key_passphrase_file ${f("open-pass.txt")} can be read by other users of this machine: chmod 600 it`]);
  assert.deepEqual(warnings("closed-pass.txt"), []);
});

test("with loads deferred, files not read yet are read in the background: loadFileSigner() throws SignerLoading until then, loadFileSignerAsync() awaits", async () => {
  const cache = createSignerCache();
  cache.deferLoads = true;
  copyFileSync(f("ec.p12"), f("deferred.p12"));
  const files = { pkcs12File: f("deferred.p12"), passphrase: passFile };
  const loading = (() => {
    try {
      loadFileSigner(files, { now, cache });
    } catch (e) {
      return e;
    }
    assert.fail("loaded at once");
  })();
  assert.ok(loading instanceof SignerLoading && loading instanceof RangeError);
  await loading.ready;
  const signer = loadFileSigner(files, { now, cache });
  assert.equal(signer.keyType, "ec");
  assert.equal(cache.loads, 1);
  // Changed: read again in the background; loadFileSignerAsync() waits for that read, which ends in a refusal.
  copyFileSync(f("rsa.crt.pem"), f("deferred.p12"));
  assert.throws(() => loadFileSigner(files, { now, cache }), SignerLoading);
  await assert.rejects(loadFileSignerAsync(files, { now, cache }), (e) => e instanceof CredentialsError && /deferred\.p12 is not a PKCS#12 file/.test(e.message) && e.publicMessage.startsWith(`pkcs12 "deferred.p12" is not a PKCS#12 file`));
  assert.equal(cache.loads, 2, "one read for both");
  assert.throws(() => loadFileSigner(files, { now, cache }), CredentialsError, "the refusal is kept until the file changes");
});

test("loadFileSigner() refuses a key file that asks for more key-derivation iterations than the cap, at once and saying so", () => {
  openssl("pkcs12", "-export", "-inkey", f("ec.key.pem"), "-in", f("ec.crt.pem"), "-keypbe", "NONE", "-certpbe", "NONE", "-iter", "2000001", "-out", f("costly.p12"), "-passout", `pass:${PASS}`);
  openssl("pkcs8", "-topk8", "-v2", "aes-256-cbc", "-iter", "2000001", "-in", f("ec.key.pem"), "-out", f("costly.key.pem"), "-passout", `pass:${PASS}`);
  const cases = [
    { files: { pkcs12File: f("costly.p12"), passphrase: passFile }, expected: /^pkcs12 .*costly\.p12 asks for more key-derivation work than is allowed \(PFX MAC iteration count 2000001 is more than 2000000\): export it again with fewer iterations/ },
    { files: { certificateFile: f("ec.crt.pem"), keyFile: f("costly.key.pem"), passphrase: passFile }, expected: /^key .*costly\.key\.pem asks for more key-derivation work than is allowed \(PBKDF2 iteration count 2000001 is more than 2000000\): encrypt it again with fewer iterations/ },
  ];
  for (const { files, expected } of cases) {
    const started = performance.now();
    assert.match(failure(() => loadFileSigner(files, { now, cache: createSignerCache() })), expected);
    assert.ok(performance.now() - started < 500, "refused before deriving");
  }
});

test("an encrypted PKCS#8 key of 1,000,000 PBKDF2 iterations, loaded in the background, lets the event loop turn throughout", async () => {
  openssl("pkcs8", "-topk8", "-v2", "aes-256-cbc", "-iter", "1000000", "-in", f("ec.key.pem"), "-out", f("slow.key.pem"), "-passout", `pass:${PASS}`);
  const files = { certificateFile: f("ec.crt.pem"), keyFile: f("slow.key.pem"), passphrase: passFile };
  let turns = 0;
  const timer = setInterval(() => turns++, 1);
  const signer = await loadFileSignerAsync(files, { now, cache: createSignerCache() }).finally(() => clearInterval(timer));
  assert.equal(signer.keyType, "ec");
  // Derived on the event loop in one go (0.3-1 s), no timer would fire until it ends.
  assert.ok(turns >= 10, `the event loop turned ${turns} times`);
});
