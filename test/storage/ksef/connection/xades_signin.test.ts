/**
 * Sign-in with a certificate (README "KSeF"), end to end: a real server syncs a ksef source that signs an
 * AuthTokenRequest in XAdES, against the KSeF simulator, which verifies the signature with xmlsec1 and checks
 * challenge, context, subject, dates and revocation. Each of KSeF's refusals fails the run with its code, and no
 * key ever shows in the run or the server's log.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createJsonLogger } from "../../../../lib/observe/log.ts";
import type { Signer } from "../../../../lib/formats/xades/signer.ts";
import type { XadesTools } from "../../../../storage/ksef/connection/xades_signin.ts";
import { defaultXadesTools } from "../../../../storage/ksef/connection/xades_tools.ts";
import { ksefSource, type KsefSourceOptions } from "../../../../storage/ksef/receive/source.ts";
import { readConfiguredSources } from "../../../../storage/registry.ts";
import { makeKsefCertificate, testSigner, type KsefTestCertificate } from "../../../support/ksef_certificates.ts";
import { startKsefSimulator, type SimOptions } from "../../../support/ksef_simulator.ts";
import { startChild } from "../../../support/child.ts";
import { startServer } from "../../../support/server.ts";
import { xmlsecXadesTools } from "../../../support/xmlsec_xades.ts";
import { FAST, invoiceXml, NIP, OTHER, PARTNER } from "../receive/ksef_setup.ts";

const dir = mkdtempSync(join(tmpdir(), "ksef-xades-"));
let rsa: KsefTestCertificate;
let ec: KsefTestCertificate;
let ended: KsefTestCertificate;
let other: KsefTestCertificate;
let justEnded: KsefTestCertificate;
let locked: KsefTestCertificate;

before(() => {
  rsa = makeKsefCertificate(dir, "rsa", { nip: NIP, key: "rsa" });
  ec = makeKsefCertificate(dir, "ec", { nip: NIP, key: "ec", subject: "person", traditional: true });
  locked = makeKsefCertificate(dir, "locked", { nip: NIP, key: "rsa", passphrase: "correct horse battery staple" });
  ended = makeKsefCertificate(dir, "ended", { nip: NIP, key: "ec", notBefore: new Date(Date.now() - 400 * 86_400_000), notAfter: new Date(Date.now() - 30 * 86_400_000) });
  other = makeKsefCertificate(dir, "other", { nip: OTHER, key: "ec" });
  justEnded = makeKsefCertificate(dir, "just-ended", { nip: NIP, key: "ec", notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 3_600_000) });
});
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A simulator that lets NIP's own certificates read, a server whose source signs in with `cert` (an embedder's
 * signer) or, given `entry`, as the sources.json entry with those fields says; the server's log captured.
 */
async function signedIn(cert: KsefTestCertificate, source: Partial<KsefSourceOptions> = {}, sim: Partial<SimOptions> = {}, entry?: Record<string, unknown>) {
  const s = await startKsefSimulator({ tokens: [], certificates: [{ nip: NIP, permissions: ["InvoiceRead"] }], ...sim });
  const log: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "ksef-xades-data-"));
  if (entry) writeFileSync(join(dataDir, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: s.url, nip: NIP, subjects: ["Subject1"], ...entry }] }));
  const server = await startServer({
    dataDir,
    logger: createJsonLogger("debug", (line) => log.push(line)),
    sources: (tenant) => entry
      ? (readConfiguredSources(dataDir, 10 * 1024 * 1024)[tenant] ?? [])
      : [ksefSource({
        name: "ksef", baseUrl: s.url, nip: NIP, subjects: ["Subject1"], signer: testSigner(cert),
        stateFile: join(dataDir, "acme-ksef.json"), tuning: FAST, ...source,
      })],
  });
  const apiToken = (await server.token("acme")).token;
  return {
    sim: s, log,
    sync: () => server.sync(apiToken),
    async close() {
      await server.close();
      await s.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A signer whose signatures have one byte flipped: a tampered signature. */
function flipping(signer: Signer): Signer {
  return {
    certificate: signer.certificate, keyType: signer.keyType,
    async sign(data, algorithm) {
      const out = await signer.sign(data, algorithm);
      out[5] = out[5]! ^ 0x01;
      return out;
    },
  };
}

/** Nothing of the key file's secret part is in `text`. */
function assertNoKey(text: string, cert: KsefTestCertificate): void {
  const body = readFileSync(cert.keyFile, "utf8").split("\n").filter((l) => l && !l.startsWith("-----"));
  for (const line of body) assert.ok(!text.includes(line.slice(0, 24)), "no part of the private key is shown");
}

describe("a ksef source signed in with a certificate", () => {
  const PASS = "correct horse battery staple";
  const forms = [
    { what: "an RSA-2048 certificate (NIP in organizationIdentifier) and its PKCS#8 key", cert: () => rsa, entry: () => ({ certificate: rsa.certificateFile, key: rsa.keyFile }) },
    { what: "an EC P-256 certificate (NIP in serialNumber) and its SEC1 key", cert: () => ec, entry: () => ({ certificate: ec.certificateFile, key: ec.keyFile }) },
    { what: "an encrypted PKCS#8 key, its passphrase from an environment variable", cert: () => locked, entry: () => ({ certificate: locked.certificateFile, key: locked.keyFile, key_passphrase_env: "KSEF_TEST_KEY_PASSPHRASE" }) },
    { what: "a PKCS#12 file, its passphrase from an environment variable", cert: () => locked, entry: () => ({ pkcs12: locked.pkcs12File, key_passphrase_env: "KSEF_TEST_KEY_PASSPHRASE" }) },
  ];
  for (const f of forms) {
    test(`syncs after signing in from sources.json with ${f.what}; xmlsec1 verifies the signature`, async () => {
      process.env.KSEF_TEST_KEY_PASSPHRASE = PASS;
      const t = await signedIn(f.cert(), {}, {}, f.entry());
      try {
        t.sim.add({ seller: NIP, buyer: PARTNER, xml: invoiceXml("FV/X/1"), invoiceNumber: "FV/X/1" });
        const run = await t.sync();
        assert.equal(run.status, "succeeded", JSON.stringify(run));
        assert.equal((run.counts as { created: number }).created, 1);
        assert.equal(t.sim.stats.authentications, 1);
        const sent = t.sim.xades.bodies[0]!.toString();
        assert.match(sent, /<SubjectIdentifierType>certificateSubject<\/SubjectIdentifierType>/);
        assert.match(sent, new RegExp(`<Nip>${NIP}</Nip>`));
        const shown = t.log.join("\n") + JSON.stringify(run);
        assertNoKey(shown, f.cert());
        assert.ok(!shown.includes(PASS), "the passphrase is not shown");
      } finally {
        delete process.env.KSEF_TEST_KEY_PASSPHRASE;
        await t.close();
      }
    });
  }

  test("README's openssl command for a self-signed test certificate makes one that signs in", async () => {
    const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");
    const line = readme.split("\n").map((l) => l.trim()).find((l) => l.startsWith("openssl req -x509"));
    assert.ok(line, "README shows the command");
    const args = line.match(/"[^"]*"|\S+/g)!.slice(1).map((a) => a.replace(/^"|"$/g, ""));
    const nip = /VATPL-(\d{10})/.exec(line)![1]!;
    const certs = mkdtempSync(join(tmpdir(), "ksef-readme-cert-"));
    try {
      execFileSync("openssl", args, { cwd: certs, stdio: "pipe" });
      const t = await signedIn(rsa, {}, { certificates: [{ nip, permissions: ["InvoiceRead"] }] }, { nip, certificate: join(certs, "ksef.crt.pem"), key: join(certs, "ksef.key.pem") });
      try {
        const run = await t.sync();
        assert.equal(run.status, "succeeded", JSON.stringify(run));
        assert.equal(t.sim.xades.bodies.length, 1);
      } finally {
        await t.close();
      }
    } finally {
      rmSync(certs, { recursive: true, force: true });
    }
  });

  test("the bytes sent to POST /auth/xades-signature are exactly the bytes signed, as application/xml", async () => {
    const signed: Uint8Array[] = [];
    const tools = defaultXadesTools();
    const t = await signedIn(ec, { xadesTools: { ...tools, signEnveloped: async (...a: Parameters<XadesTools["signEnveloped"]>) => {
      const out = await tools.signEnveloped(...a);
      signed.push(out);
      return out;
    } } });
    try {
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.equal(signed.length, 1);
      assert.deepEqual(new Uint8Array(t.sim.xades.bodies[0]!), signed[0]);
      const exchange = t.sim.log.find((e) => e.path.startsWith("/auth/xades-signature"))!;
      assert.equal(exchange.headers["content-type"], "application/xml");
      assert.equal(exchange.status, 202);
    } finally {
      await t.close();
    }
  });

  test("a signature made by xmlsec1 instead of this project's signer signs in the same way", async () => {
    const t = await signedIn(rsa, { xadesTools: xmlsecXadesTools(rsa.keyFile) });
    try {
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
    } finally {
      await t.close();
    }
  });

  test("signs in by the certificate's fingerprint when sources.json says certificate_fingerprint", async () => {
    const t = await signedIn(other, { subjectIdentifier: "certificate_fingerprint" }, { certificates: [{ nip: NIP, permissions: ["InvoiceRead"], fingerprint: other.fingerprint }] });
    try {
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.match(t.sim.xades.bodies[0]!.toString(), /certificateFingerprint/);
    } finally {
      await t.close();
    }
  });

  test("signs in again by itself when the refresh token has ended too", async () => {
    const t = await signedIn(rsa);
    try {
      t.sim.add({ seller: NIP, buyer: PARTNER, xml: invoiceXml("FV/R/1"), invoiceNumber: "FV/R/1" });
      t.sim.afterExport = () => {
        t.sim.expireAccessTokens();
        t.sim.expireRefreshTokens();
      };
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.equal(t.sim.stats.authentications, 2, "a second sign-in after refresh failed");
    } finally {
      await t.close();
    }
  });

  const failures = [
    {
      what: "a tampered signature", code: "KSEF_CERTIFICATE_REJECTED", says: /9105/, cert: () => rsa,
      source: () => ({ signer: flipping(testSigner(rsa)) }),
    },
    {
      what: "a request for another challenge", code: "KSEF_PROTOCOL_ERROR", says: /21111/, cert: () => rsa,
      source: () => ({ xadesTools: { ...defaultXadesTools(), authTokenRequestXml: (o: Parameters<XadesTools["authTokenRequestXml"]>[0]) => defaultXadesTools().authTokenRequestXml({ ...o, challenge: "20250101-CR-0000000000-0000000000-00" }) } }),
    },
    {
      what: "a signature without SignedProperties", code: "KSEF_CERTIFICATE_REJECTED", says: /9105/, cert: () => rsa,
      source: () => ({ xadesTools: xmlsecXadesTools(rsa.keyFile, { noSignedProperties: true }) }),
    },
    {
      what: "a SigningCertificate digest of another certificate", code: "KSEF_CERTIFICATE_REJECTED", says: /9105/, cert: () => rsa,
      source: () => ({ xadesTools: xmlsecXadesTools(rsa.keyFile, { wrongCertDigest: true }) }),
    },
    // Signatures that xmlsec1 verifies but KSeF refuses (its documented 9105): each re-signed from a changed template.
    ...([
      { what: "an RSA-SHA-1 SignatureMethod", o: { signatureMethod: "http://www.w3.org/2000/09/xmldsig#rsa-sha1" }, says: /Nieobsługiwany algorytm podpisu/ },
      { what: "SHA-1 reference digests", o: { digestMethod: "http://www.w3.org/2000/09/xmldsig#sha1" }, says: /Nieobsługiwany algorytm skrótu/ },
      { what: "inclusive C14N for SignedInfo", o: { canonicalization: "http://www.w3.org/TR/2001/REC-xml-c14n-20010315" }, says: /kanonikalizacji/ },
      { what: "inclusive C14N in the document's reference", o: { wholeTransform: "http://www.w3.org/TR/2001/REC-xml-c14n-20010315" }, says: /przekształcenia referencji dokumentu/ },
      { what: "the signature as the root's first child", o: { signatureFirst: true }, says: /ostatnim elementem/ },
      { what: "a SHA-1 CertDigest", o: { certDigestSha1: true }, says: /XAdES-BES/ },
      { what: "no IssuerSerial", o: { noIssuerSerial: true }, says: /XAdES-BES/ },
      { what: "another serial in IssuerSerial", o: { serialNumber: "1" }, says: /XAdES-BES/ },
    ] as const).map((c) => ({
      what: `a signature with ${c.what}`, code: "KSEF_CERTIFICATE_REJECTED", says: /9105/, detail: c.says, cert: () => rsa,
      source: () => ({ xadesTools: xmlsecXadesTools(rsa.keyFile, c.o) }),
    })),
    { what: "a certificate that has ended", code: "KSEF_CERTIFICATE_EXPIRED", says: /ended on/, cert: () => ended, source: () => ({}) },
    {
      what: "a certificate KSeF finds ended (the server's clock behind)", code: "KSEF_CERTIFICATE_REJECTED", says: /460 .*Nieważny certyfikat/, cert: () => justEnded,
      source: () => ({ now: () => Date.now() - 2 * 3_600_000 }),
    },
    { what: "a revoked certificate", code: "KSEF_CERTIFICATE_REJECTED", says: /460 .*Certyfikat odwołany/, cert: () => ec, revoke: true, source: () => ({}) },
    { what: "a certificate without permissions in the context", code: "KSEF_WRONG_NIP", says: /415/, cert: () => other, source: () => ({}) },
    {
      what: "a certificate whose subject lacks InvoiceRead", code: "KSEF_PERMISSION_DENIED", says: /InvoiceRead/, cert: () => rsa, source: () => ({}),
      sim: { certificates: [{ nip: NIP, permissions: ["InvoiceWrite"] }] },
    },
  ];
  for (const f of failures) {
    test(`${f.what} fails the run with ${f.code}, KSeF's words in the message and no key shown`, async () => {
      const t = await signedIn(f.cert(), f.source(), "sim" in f ? f.sim : {});
      try {
        if ("revoke" in f) t.sim.revokeCertificate(f.cert().serial);
        const run = await t.sync();
        assert.equal(run.status, "failed", JSON.stringify(run));
        const error = run.error as { code: string; message: string };
        assert.equal(error.code, f.code, error.message);
        assert.match(error.message, f.says);
        // The simulator's own words (its 400's details): the check that refused it, after xmlsec1 verified it.
        if ("detail" in f) assert.match(JSON.stringify(t.sim.log.filter((e) => e.path.endsWith("/auth/xades-signature")).at(-1)?.body), f.detail);
        assertNoKey(t.log.join("\n") + JSON.stringify(run), f.cert());
      } finally {
        await t.close();
      }
    });
  }
});

test("a server whose sources.json names an ended certificate does not start, and says which file", async () => {
  const data = mkdtempSync(join(tmpdir(), "ksef-xades-start-"));
  try {
    writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: "test", nip: NIP, certificate: ended.certificateFile, key: ended.keyFile }] }));
    const failed = await startChild(["--data", data, "--demo", "off"]).then(async (s) => {
      s.child.kill("SIGTERM");
      await s.exited;
      return null;
    }, (e: Error) => e.message);
    assert.ok(failed, "the server refused to start");
    assert.ok(failed.includes(ended.certificateFile), failed);
    assertNoKey(failed, ended);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test("a sign-in certificate that ends within 30 days is a warning on /readyz, naming the tenant and the source", async () => {
  const data = mkdtempSync(join(tmpdir(), "ksef-xades-soon-"));
  try {
    const soon = makeKsefCertificate(data, "soon", { nip: NIP, key: "ec", notAfter: new Date(Date.now() + 10 * 86_400_000) });
    writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: "test", nip: NIP, certificate: "soon.crt.pem", key: "soon.key.pem" }] }));
    const server = await startChild(["--data", data, "--demo", "off"]);
    try {
      const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { status: string; warnings?: string[] };
      // Said once, by the expiry watch (README "KSeF certificates from the command line"), with the renewing command.
      assert.equal(ready.warnings?.length, 1, JSON.stringify(ready));
      assert.match(ready.warnings![0]!, /^acme: the KSeF authentication certificate \S+ of source "ksef" \(which signs in\) ends on .*, in (9|10) days: enroll a new one with `ksef certificates enroll --tenant acme --source ksef --type authentication`$/);
      assertNoKey(server.stdout() + JSON.stringify(ready), soon);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

describe("every documented end of a certificate sign-in fails the run with a code a user can act on", () => {
  // open-api.json AuthenticationOperationStatusResponse: the statuses an operation may end with.
  const statuses = [
    { status: 415, code: "KSEF_WRONG_NIP", says: /no permissions .* NIP 5265877635/ },
    { status: 425, code: "KSEF_CERTIFICATE_REJECTED", says: /revoked the session/ },
    { status: 450, code: "KSEF_CERTIFICATE_REJECTED", says: /server clock/ },
    { status: 460, code: "KSEF_CERTIFICATE_REJECTED", says: /untrusted, revoked, suspended or ended/ },
    { status: 470, code: "KSEF_CERTIFICATE_REJECTED", says: /deceased person/ },
    { status: 480, code: "KSEF_CERTIFICATE_REJECTED", says: /contact the Ministry of Finance/ },
    { status: 500, code: "KSEF_UNAVAILABLE", says: /retry the sync later/ },
    { status: 550, code: "KSEF_UNAVAILABLE", says: /retry the sync later/ },
  ];
  for (const c of statuses) {
    test(`status ${c.status} is ${c.code}, with KSeF's code in the message`, async () => {
      const t = await signedIn(ec);
      try {
        t.sim.failNextAuthentication(c.status);
        const run = await t.sync();
        const error = run.error as { code: string; message: string };
        assert.equal(error.code, c.code, error.message);
        assert.match(error.message, new RegExp(`\\(${c.status} `));
        assert.match(error.message, c.says);
      } finally {
        await t.close();
      }
    });
  }
});
