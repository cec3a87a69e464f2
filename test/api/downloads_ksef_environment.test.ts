/**
 * The QR codes of a KSeF invoice's PDF link to the QR host of the KSeF environment it belongs to (kody-qr.md,
 * "Środowiska"): a document's that of its source, a submission's (and a document's from a source that is not KSeF's)
 * that of the tenant's sending ksef source, else of its first ksef source (qr_environment.test.ts: one that does not send).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { DocumentSource, KsefSourceInfo } from "../../lib/contracts/document_source.ts";
import { ksefSource } from "../../storage/ksef/receive/source.ts";
import { startKsefSimulator, type KsefSimulator } from "../support/ksef_simulator.ts";
import { checkPdf, pdfPages, pdfQrCodes } from "../support/pdf_text.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { FAST, NIP, PARTNER, TOKEN } from "../storage/ksef/receive/ksef_setup.ts";

const SAMPLE = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_3_brutto.xml"), "utf8");
/** An FA(3) invoice (seller 5451824119, issued 2025-12-02) with its own number. */
const invoiceXml = (number: string): Buffer => Buffer.from(SAMPLE.replace("<P_2>test/123/test</P_2>", `<P_2>${number}</P_2>`));

/** A source that offers one invoice, and says what a ksef source would (or nothing). */
function stubSource(name: string, xml: Uint8Array, ksef?: KsefSourceInfo): DocumentSource {
  return {
    name, ...(ksef ? { ksef } : {}),
    async *pull() {
      yield { external_id: name, xml, metadata: null, ack: async () => {}, reject: async () => {} };
    },
  };
}

/** The KOD I link of `xml` on `host`. */
function kod1(host: string, xml: Uint8Array): string {
  return `https://${host}/invoice/5451824119/02-12-2025/${createHash("sha256").update(xml).digest("base64url")}`;
}

describe("the QR host of a KSeF PDF follows the invoice's environment", () => {
  let sim: KsefSimulator;
  let s: TestServer;
  let token: string;
  let demoEnvironment: KsefSourceInfo["qrEnvironment"] = "demo";
  const xml = { sim: invoiceXml("SIM-1"), demo: invoiceXml("DEMO-1"), prod: invoiceXml("PROD-1"), plain: invoiceXml("PLAIN-1"), sub: invoiceXml("SUB-1") };
  const ids: Record<string, string> = {};

  before(async () => {
    sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead"] }] });
    sim.add({ seller: NIP, buyer: PARTNER, xml: xml.sim, invoiceNumber: "SIM-1" });
    s = await startServer({
      sources: () => [
        ksefSource({ name: "ksef", baseUrl: sim.url, nip: NIP, token: TOKEN, subjects: ["Subject1"], stateFile: join(s.dataDir, "ksef.json"), tuning: FAST }),
        // The demo source sends: the tenant's submissions belong to its environment.
        stubSource("demo", xml.demo, { qrEnvironment: demoEnvironment, sends: true }),
        stubSource("prod", xml.prod, { qrEnvironment: "prod", sends: false }),
        stubSource("plain", xml.plain),
      ],
    });
    token = (await s.token("acme")).token;
    for (const source of ["ksef", "demo", "prod", "plain"]) {
      const res = await s.fetch("/api/v1/documents/sync", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ source }) });
      assert.equal(res.status, 202, await res.text());
      await s.app.sync.idle();
    }
    const docs = (await (await s.fetch("/api/v1/documents?limit=50", token)).json()) as { data: { id: string; source: string }[] };
    for (const d of docs.data) ids[d.source] = d.id;
    const form = new FormData();
    form.append("xml", new Blob([new Uint8Array(xml.sub)], { type: "application/xml" }), "sub.xml");
    const sub = await s.fetch("/api/v1/submissions", token, { method: "POST", body: form });
    const body = await sub.text();
    assert.equal(sub.status, 201, body);
    ids.submission = (JSON.parse(body) as { id: string }).id;
  });
  after(async () => {
    await s?.close();
    await sim?.close();
  });

  async function pdf(path: string): Promise<{ codes: string[]; text: string }> {
    const res = await s.fetch(path, token);
    assert.equal(res.status, 200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    checkPdf(bytes);
    return { codes: pdfQrCodes(bytes), text: pdfPages(bytes).join(" ").replace(/\s+/g, "") };
  }

  const cases = [
    { what: "a document of a ksef source on a simulator (a loopback root: the test environment)", path: () => `/api/v1/documents/${ids.ksef}/pdf`, xml: xml.sim, host: "qr-test.ksef.mf.gov.pl" },
    { what: "a document of a source on the demo environment", path: () => `/api/v1/documents/${ids.demo}/pdf`, xml: xml.demo, host: "qr-demo.ksef.mf.gov.pl" },
    { what: "a document of a source on production", path: () => `/api/v1/documents/${ids.prod}/pdf`, xml: xml.prod, host: "qr.ksef.mf.gov.pl" },
    // A KSeF invoice from a source that is not KSeF's belongs to the tenant's environment: that of its sending source.
    { what: "a document of a source that is not KSeF's (the tenant's sending source's environment)", path: () => `/api/v1/documents/${ids.plain}/pdf`, xml: xml.plain, host: "qr-demo.ksef.mf.gov.pl" },
    { what: "a submission of a tenant whose sending ksef source is on demo", path: () => `/api/v1/submissions/${ids.submission}/pdf`, xml: xml.sub, host: "qr-demo.ksef.mf.gov.pl" },
  ];
  for (const { what, path, xml: bytes, host } of cases) {
    test(`the PDF of ${what} links KOD I to ${host}`, async () => {
      const { codes, text } = await pdf(path());
      assert.deepEqual(codes, [kod1(host, bytes)]);
      assert.ok(text.includes(kod1(host, bytes)), "the printed link");
    });
  }

  test("a source that moves to another environment gets a new rendering, not the kept one", async () => {
    const path = `/api/v1/documents/${ids.demo}/pdf`;
    assert.deepEqual((await pdf(path)).codes, [kod1("qr-demo.ksef.mf.gov.pl", xml.demo)]);
    demoEnvironment = "test";
    try {
      assert.deepEqual((await pdf(path)).codes, [kod1("qr-test.ksef.mf.gov.pl", xml.demo)]);
    } finally {
      demoEnvironment = "demo";
    }
  });
});
