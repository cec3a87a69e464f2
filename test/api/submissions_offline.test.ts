/**
 * Offline invoices at upload (README "Offline invoices"): `ksef_mode=offline` through real `curl -F`, the submission's
 * `ksef.mode` and deadline, and its PDF with KOD I labelled OFFLINE and KOD II signed with the tenant's KSeF
 * certificate of type Offline (RSA and EC), decoded by zbarimg and verified with the certificate's public key.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { verifyKsefCertificateLink } from "../../lib/formats/pdf/ksef_certificate_link.ts";
import { loadOfflineCertificate } from "../../storage/ksef/offline/offline_certificate.ts";
import type { KsefSendConfig } from "../../storage/ksef/send/job.ts";
import { createKsefSendHook, OfflineCertificates } from "../../storage/ksef/send/send_hook.ts";
import { curl } from "../support/curl.ts";
import { makeOfflineCertificate } from "../support/offline_certificates.ts";
import { pdfPages, pdfQrCodes } from "../support/pdf_text.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

const NIP = "5451824119"; // the seller of the sample, also the tenants' KSeF context
// No ksef source serves these tenants' documents here: their QR codes link to production (README "Offline invoices").
const SAMPLE = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"), "utf8");
/** The FA(3) sample (issued Thursday 2025-12-04) with its own number. */
const invoiceXml = (number: string): Buffer => Buffer.from(SAMPLE.replace(/<P_2>[^<]*<\/P_2>/, `<P_2>${number}</P_2>`));

/** The server's clock: the day the sample invoices are issued, 10:00 UTC, unless a test moves it. */
let clock = Date.parse("2025-12-04T10:00:00Z");

describe("offline uploads", () => {
  let s: TestServer;
  let dir: string;
  const tokens: Record<string, string> = {};
  const files: Record<string, { certificateFile: string; keyFile: string }> = {};

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "offline-upload-"));
    files.acme = makeOfflineCertificate(dir, "rsa", { key: "rsa2048" });
    files.beta = makeOfflineCertificate(dir, "ec", { key: "p256", serial: "0A1B2C3D" });
    files.soon = makeOfflineCertificate(dir, "soon", { key: "p256", days: 5 });
    const base = { baseUrl: "https://api-test.ksef.mf.gov.pl/v2", nip: NIP, token: "t".repeat(32) };
    const configs: KsefSendConfig[] = [
      { tenant: "acme", ...base, offline: files.acme }, { tenant: "beta", ...base, offline: files.beta },
      { tenant: "soon", ...base, offline: files.soon }, { tenant: "nocert", ...base },
    ];
    const certificates = new OfflineCertificates();
    certificates.load(configs);
    s = await startServer({ now: () => clock, ksefSend: createKsefSendHook({ configs: () => configs, certificates, sender: () => null, wake: () => {} }) });
    for (const t of ["acme", "beta", "soon", "nocert", "plain"]) tokens[t] = (await s.token(t)).token;
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const upload = (tenant: string, number: string, fields: string[] = []) => {
    const path = join(dir, `${tenant}-${number.replace(/\W/g, "_")}.xml`);
    writeFileSync(path, invoiceXml(number));
    return curl(`${s.url}/api/v1/submissions`, tokens[tenant]!, ["-F", `xml=@${path}`, ...fields.flatMap((f) => ["-F", f])]);
  };

  for (const [tenant, what] of [["acme", "RSA 2048"], ["beta", "EC P-256"]] as const) {
    test(`ksef_mode=offline issues the invoice offline; its PDF carries KOD I (OFFLINE) and KOD II signed with the ${what} certificate`, async () => {
      const r = await upload(tenant, `OFF/${tenant}/1`, ["ksef_mode=offline"]);
      assert.equal(r.status, 201, r.body.toString());
      const sub = JSON.parse(r.body.toString()) as { id: string; ksef: Record<string, unknown> };
      assert.equal(sub.ksef.status, "queued");
      assert.equal(sub.ksef.mode, "offline");
      assert.equal(sub.ksef.invoicing_mode, null);
      assert.equal(sub.ksef.deadline, "2025-12-05"); // offline24: the next working day after Thursday 4 December
      const pdf = await s.fetch(`/api/v1/submissions/${sub.id}/pdf`, tokens[tenant]!);
      assert.equal(pdf.status, 200);
      const bytes = new Uint8Array(await pdf.arrayBuffer());
      const codes = pdfQrCodes(bytes);
      const hash = createHash("sha256").update(invoiceXml(`OFF/${tenant}/1`)).digest("base64url");
      assert.deepEqual(codes.filter((c) => c.includes("/invoice/")), [`https://qr.ksef.mf.gov.pl/invoice/${NIP}/04-12-2025/${hash}`]);
      const kod2 = codes.filter((c) => c.includes("/certificate/"));
      assert.equal(kod2.length, 1);
      const cert = loadOfflineCertificate(files[tenant]!, Date.now());
      assert.ok(kod2[0]!.startsWith(`https://qr.ksef.mf.gov.pl/certificate/Nip/${NIP}/${NIP}/${cert.serialNumber}/${hash}/`), kod2[0]);
      assert.ok(verifyKsefCertificateLink(kod2[0]!, cert.publicKey), "KOD II verifies with the certificate's public key");
      const text = pdfPages(bytes).join("\n");
      assert.match(text, /OFFLINE/);
      assert.match(text, /CERTYFIKAT/);
      // The link is signed once: a second rendering (another language) carries the same KOD II.
      const again = pdfQrCodes(new Uint8Array(await (await s.fetch(`/api/v1/submissions/${sub.id}/pdf?lang=en`, tokens[tenant]!)).arrayBuffer()));
      assert.deepEqual(again.filter((c) => c.includes("/certificate/")), kod2);
    });
  }

  test("without ksef_mode an upload is online: no deadline, KOD I alone", async () => {
    const r = await upload("acme", "ON/1");
    assert.equal(r.status, 201);
    const sub = JSON.parse(r.body.toString()) as { id: string; ksef: Record<string, unknown> };
    assert.deepEqual([sub.ksef.mode, sub.ksef.deadline, sub.ksef.invoicing_mode], ["online", null, null]);
    const codes = pdfQrCodes(new Uint8Array(await (await s.fetch(`/api/v1/submissions/${sub.id}/pdf`, tokens.acme!)).arrayBuffer()));
    assert.equal(codes.length, 1);
    assert.match(codes[0]!, /\/invoice\//);
  });

  test("ksef_mode is strict: a bad or repeated value is 400 naming it", async () => {
    for (const fields of [["ksef_mode=Offline"], ["ksef_mode="], ["ksef_mode=offline", "ksef_mode=offline"]]) {
      const r = await upload("acme", "BAD/1", fields);
      assert.equal(r.status, 400, fields.join(" "));
      const e = JSON.parse(r.body.toString()).error;
      assert.equal(e.code, "BAD_REQUEST");
      assert.equal(e.details.field, "ksef_mode");
    }
  });

  test("offline without a certificate, or for a tenant that does not send, is 422 naming what is missing", async () => {
    const r = await upload("nocert", "NC/1", ["ksef_mode=offline"]);
    assert.equal(r.status, 422);
    const e = JSON.parse(r.body.toString()).error;
    assert.deepEqual([e.code, e.details.field, e.details.issue], ["VALIDATION_ERROR", "ksef_mode", "offline_certificate_missing"]);
    assert.match(e.message, /offline_certificate and offline_key/);
    const plain = await upload("plain", "PL/1", ["ksef_mode=offline"]);
    assert.equal(plain.status, 422);
    assert.equal(JSON.parse(plain.body.toString()).error.details.issue, "not_sent");
    // online, the default, is accepted from a tenant that does not send: its `ksef` stays null.
    const online = await upload("plain", "PL/2", ["ksef_mode=online"]);
    assert.equal(online.status, 201);
    assert.equal(JSON.parse(online.body.toString()).ksef, null);
  });

  test("/readyz shows a certificate that ends soon", async () => {
    const r = await fetch(`${s.url}/readyz`);
    const body = await r.json() as { status: string; warnings?: string[] };
    assert.equal(body.status, "ready");
    assert.equal(body.warnings?.length, 1);
    assert.match(body.warnings![0]!, /^soon: /);
  });

  test("the feed filters by ksef_mode and by overdue=true (offline, not accepted, deadline past or within 12 hours); both strict", async () => {
    const off = JSON.parse((await upload("beta", "FEED/OFF", ["ksef_mode=offline"])).body.toString()).id as string;
    const on = JSON.parse((await upload("beta", "FEED/ON")).body.toString()).id as string;
    const ids = async (query: string) => {
      const r = await s.fetch(`/api/v1/submissions?${query}`, tokens.beta!);
      assert.equal(r.status, 200, query);
      return ((await r.json()) as { data: { id: string }[] }).data.map((d) => d.id);
    };
    assert.ok((await ids("ksef_mode=offline")).includes(off));
    assert.ok(!(await ids("ksef_mode=offline")).includes(on));
    assert.ok((await ids("ksef_mode=online")).includes(on));
    // The deadline 2025-12-05 ends at midnight Warsaw time (23:00 UTC): not near on the 4th, near from 11:00 UTC on the 5th.
    clock = Date.parse("2025-12-05T10:59:00Z");
    assert.ok(!(await ids("overdue=true")).includes(off));
    clock = Date.parse("2025-12-05T11:01:00Z");
    assert.ok((await ids("overdue=true")).includes(off));
    assert.ok(!(await ids("overdue=true")).includes(on));
    clock = Date.parse("2025-12-09T08:00:00Z");
    assert.ok((await ids("overdue=true&ksef_mode=offline")).includes(off));
    for (const bad of ["overdue=false", "ksef_mode=batch", "ksef_mode=offline&ksef_mode=online"]) {
      const r = await s.fetch(`/api/v1/submissions?${bad}`, tokens.beta!);
      assert.equal(r.status, 400, bad);
      assert.match(((await r.json()) as { error: { details: { field: string } } }).error.details.field, /^(overdue|ksef_mode)$/);
    }
  });
});
