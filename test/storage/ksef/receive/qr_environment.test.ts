import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { KSEF_ENVIRONMENTS } from "../../../../storage/ksef/connection/config.ts";
import { ksefSource } from "../../../../storage/ksef/receive/source.ts";
import { pdfPages } from "../../../support/pdf_text.ts";
import { startServer } from "../../../support/server.ts";
import { inboxSource } from "../../../../storage/sources/inbox.ts";
import { startKsefSimulator } from "../../../support/ksef_simulator.ts";
import { FAST, invoiceXml, NIP, TOKEN } from "./ksef_setup.ts";

// kody-qr.md, "Środowiska": a test or demo invoice links to its own environment's QR host, never to production's.
const HOSTS = /https:\/\/(qr(?:-test|-demo)?\.ksef\.mf\.gov\.pl)\//g;

async function uploadPdfText(server: { fetch(path: string, token: string | null, init?: RequestInit): Promise<Response> }, token: string, number: string): Promise<string> {
  const form = new FormData();
  form.append("xml", new Blob([new Uint8Array(invoiceXml(number))], { type: "application/xml" }), "invoice.xml");
  const res = await server.fetch("/api/v1/submissions", token, { method: "POST", body: form });
  assert.equal(res.status, 201, await res.clone().text());
  const sub = (await res.json()) as { id: string; ksef: unknown };
  assert.equal(sub.ksef, null, "a tenant without send is never sent");
  const pdf = await server.fetch(`/api/v1/submissions/${sub.id}/pdf`, token);
  assert.equal(pdf.status, 200);
  return pdfPages(new Uint8Array(await pdf.arrayBuffer())).join(" ");
}

function qrHosts(text: string): string[] {
  return [...text.matchAll(HOSTS)].map((m) => m[1]!);
}

describe("KOD I of a tenant whose ksef source does not send", () => {
  test("an upload, a synced document and an inbox document of a test-environment tenant link to qr-test, never to production", async () => {
    // The simulator listens on loopback: the test environment (README "KSeF").
    const sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead"] }] });
    const server = await startServer({
      sources: (tenant) => [
        inboxSource(join(server.dataDir, "inbox"), tenant),
        ksefSource({ name: "ksef", baseUrl: sim.url, nip: NIP, token: TOKEN, subjects: ["Subject1"], stateFile: join(server.dataDir, "acme-ksef.json"), tuning: FAST }),
      ],
    });
    try {
      const token = (await server.token("acme")).token;
      const sold = sim.add({ seller: NIP, buyer: "7762811692", xml: invoiceXml("S-QR"), invoiceNumber: "S-QR" });
      // A KSeF invoice dropped in the same tenant's inbox is of that tenant's environment as well.
      server.drop("acme", "inbox-qr.xml", invoiceXml("I-QR"));
      for (const source of ["inbox", "ksef"]) {
        const res = await server.fetch("/api/v1/documents/sync", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ source }) });
        assert.equal(res.status, 202);
      }
      await server.app.sync.idle();
      const docs = ((await (await server.fetch("/api/v1/documents?limit=50", token)).json()) as { data: Record<string, unknown>[] }).data;
      const synced = docs.find((d) => d.ksef_number === sold.ksefNumber)!;
      const dropped = docs.find((d) => d.external_id === "inbox-qr")!;
      assert.ok(synced && dropped, JSON.stringify(docs.map((d) => [d.source, d.external_id])));
      for (const doc of [synced, dropped]) {
        const pdf = await server.fetch(`/api/v1/documents/${String(doc.id)}/pdf`, token);
        assert.equal(pdf.status, 200);
        assert.deepEqual(qrHosts(pdfPages(new Uint8Array(await pdf.arrayBuffer())).join(" ")), ["qr-test.ksef.mf.gov.pl"], String(doc.source));
      }
      assert.deepEqual(qrHosts(await uploadPdfText(server, token, "U-QR")), ["qr-test.ksef.mf.gov.pl"]);
    } finally {
      await server.close();
      await sim.close();
    }
  });

  for (const [environment, host] of [["demo", "qr-demo.ksef.mf.gov.pl"], ["test", "qr-test.ksef.mf.gov.pl"], ["prod", "qr.ksef.mf.gov.pl"]] as const) {
    test(`an upload of a tenant on ${environment} without send links to ${host}`, async () => {
      // Nothing is synced or sent: no request leaves the machine.
      const server = await startServer({
        sources: () => [ksefSource({ name: "ksef", baseUrl: KSEF_ENVIRONMENTS[environment], nip: NIP, token: TOKEN, subjects: ["Subject1"], stateFile: join(server.dataDir, "acme-ksef.json") })],
      });
      try {
        const token = (await server.token("acme")).token;
        assert.deepEqual(qrHosts(await uploadPdfText(server, token, `E-${environment}`)), [host]);
      } finally {
        await server.close();
      }
    });
  }
});
