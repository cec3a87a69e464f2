/**
 * The simulator's certificate enrollment refuses what KSeF refuses (open-api.json POST /certificates/enrollments):
 * a request whose subject is not the enrollment data (25003), one whose signature does not verify under
 * `openssl req -verify` (25004), a key of another size (25010); and a token's session gets 25001/25002.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync, createPublicKey, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { buildCsr, enrollmentSubject, type CertificateEnrollmentData } from "../../lib/formats/pkcs10/csr.ts";
import { generateCsrKeyPair } from "../../lib/formats/pkcs10/key_pair.ts";
import { loadFileSigner } from "../../storage/ksef/connection/credentials.ts";
import { CertificatesNeedSignature, KsefCertificatesApi } from "../../storage/ksef/certificates/certificates_api.ts";
import { makeKsefCertificate } from "./ksef_certificates.ts";
import { startKsefSimulator, type KsefSimulator } from "./ksef_simulator.ts";

const NIP = "5265877635";
const TOKEN = `20251010-EC-0000000000-0000000000-00|nip-${NIP}|${"5".repeat(64)}`;
let sim: KsefSimulator;
let dir: string;
let api: KsefCertificatesApi;

before(async () => {
  sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead"] }], certificates: [{ nip: NIP, permissions: ["InvoiceRead"] }] });
  dir = mkdtempSync(join(tmpdir(), "ksef-sim-certs-"));
  const seal = makeKsefCertificate(dir, "seal", { nip: NIP, key: "ec" });
  api = new KsefCertificatesApi({ baseUrl: sim.url, nip: NIP, signer: loadFileSigner({ certificateFile: seal.certificateFile, keyFile: seal.keyFile }, { now: Date.now() }), pollDelays: [10] });
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a request with the enrollment data's subject is issued; another subject is 25003, a spoilt signature 25004", async () => {
  const data = (await api.enrollmentData()) as unknown as CertificateEnrollmentData;
  assert.equal(data.organizationIdentifier, `VATPL-${NIP}`);
  const pair = generateCsrKeyPair("ec");
  const good = await buildCsr({ subject: enrollmentSubject(data), publicKey: pair.publicKey, signer: pair.signer });
  const serial = await api.enroll("good one", "Authentication", good);
  assert.match(serial, /^[0-9A-F]{16}$/);

  const other = await buildCsr({ subject: enrollmentSubject({ ...data, commonName: "Someone Else" }), publicKey: pair.publicKey, signer: pair.signer });
  await assert.rejects(api.enroll("other subject", "Authentication", other), /25003/);
  const spoilt = new Uint8Array(good);
  spoilt[spoilt.length - 5]! ^= 0xff;
  await assert.rejects(api.enroll("spoilt signature", "Offline", spoilt), /25004/);

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 3072 });
  const big = await buildCsr({
    subject: enrollmentSubject(data), publicKey: new Uint8Array(createPublicKey(privateKey).export({ type: "spki", format: "der" })),
    signer: { keyType: "rsa", sign: async (d) => new Uint8Array(sign("sha256", d, privateKey)) },
  });
  await assert.rejects(api.enroll("rsa 3072", "Authentication", big), /25010/);
  assert.equal(sim.certificates.issued.length, 1, "only the good request was issued");
});

test("a session signed in with a KSeF token gets 25001 for the enrollment data", async () => {
  const tokenApi = new KsefCertificatesApi({ baseUrl: sim.url, nip: NIP, token: TOKEN });
  await assert.rejects(tokenApi.enrollmentData(), CertificatesNeedSignature);
  assert.ok(sim.log.some((e) => e.path === "/certificates/enrollments/data" && e.status === 400));
});
