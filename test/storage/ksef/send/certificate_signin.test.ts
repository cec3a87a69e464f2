/**
 * Sending to KSeF signed in with a certificate (README "KSeF", "Sending to KSeF"): a batch of submissions goes to the
 * simulator, which verified the sign-in's XAdES signature with xmlsec1, with the certificate and key in each form
 * sources.json takes, read by the built-in file signer; every submission ends accepted with its UPO.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { loadFileSigner, type SignerFiles } from "../../../../storage/ksef/connection/credentials.ts";
import { makeKsefCertificate } from "../../../support/ksef_certificates.ts";
import { fa3, NIP, sendSetup } from "./send_setup.ts";

const dir = mkdtempSync(join(tmpdir(), "ksef-send-cert-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const PASS = "send passphrase";

const forms: { what: string; files: () => SignerFiles }[] = [
  { what: "an RSA-2048 certificate and its PKCS#8 key", files: () => { const c = makeKsefCertificate(dir, "rsa", { nip: NIP, key: "rsa" }); return { certificateFile: c.certificateFile, keyFile: c.keyFile }; } },
  { what: "an EC P-256 certificate and its SEC1 key", files: () => { const c = makeKsefCertificate(dir, "ec", { nip: NIP, key: "ec", subject: "person", traditional: true }); return { certificateFile: c.certificateFile, keyFile: c.keyFile }; } },
  { what: "an encrypted PKCS#8 key, its passphrase from an environment variable", files: () => { const c = makeKsefCertificate(dir, "enc", { nip: NIP, key: "ec", passphrase: PASS }); return { certificateFile: c.certificateFile, keyFile: c.keyFile, passphrase: { env: "KSEF_SEND_TEST_PASS" } }; } },
  { what: "a PKCS#12 file", files: () => { const c = makeKsefCertificate(dir, "p12", { nip: NIP, key: "rsa", passphrase: PASS }); return { pkcs12File: c.pkcs12File!, passphrase: { env: "KSEF_SEND_TEST_PASS" } }; } },
];

for (const f of forms) {
  test(`a batch send signs in with ${f.what}; every submission ends accepted`, async () => {
    const signer = loadFileSigner(f.files(), { now: Date.now(), env: { KSEF_SEND_TEST_PASS: PASS } });
    const s = await sendSetup({}, { gatherMs: 0 }, undefined, "batch", {}, { signer });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await s.upload("acme", fa3(`CERT/${i}`))).id as string);
      await s.settle();
      assert.ok(s.sender.batchesOpened("acme") >= 1, "a batch session");
      for (const id of ids) {
        const k = (await s.get("acme", id)).ksef as Record<string, unknown>;
        assert.equal(k.status, "accepted", id);
        assert.equal(k.session_type, "batch");
      }
      assert.ok(s.sim.xades.bodies.length >= 1 && s.sim.stats.authentications === s.sim.xades.bodies.length, "signed in with the certificate only");
      assert.ok(!s.sim.log.some((e) => e.path.startsWith("/auth/ksef-token")), "no token sign-in");
    } finally {
      await s.close();
    }
  });
}
