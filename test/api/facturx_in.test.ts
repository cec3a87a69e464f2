/**
 * Factur-X and ZUGFeRD PDFs in (README "EU formats"), through a real server: an upload whose `xml` part is a PDF
 * made by another tool is stored as its embedded invoice, the PDF kept as `/source` and served as `/pdf`; the same
 * for an inbox file `NAME.pdf`; a PDF without an invoice is 422 NO_EMBEDDED_INVOICE; a hostile PDF a 4xx in bounded
 * time while another tenant is served; and our own Factur-X output uploaded back gives the same invoice.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { readInvoice } from "../../lib/formats/invoice/read.ts";
import { parseXml } from "../../lib/formats/xml/parse.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

const FX = (name: string) => readFileSync(fixturePath("facturx", name));
const ELEKTRON = "XML-Rechnung_FX_EN16931_Elektron.pdf";
const PLAIN = "unstructured_RE-E-974-Hetzner_2016-01-19_R0005532486.pdf";

/** What pdfdetach extracts as the embedded invoice: the reference the stored XML must equal. */
function pdfdetach(pdf: Uint8Array): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "fx-in-"));
  writeFileSync(join(dir, "in.pdf"), pdf);
  const list = execFileSync("pdfdetach", ["-list", join(dir, "in.pdf")], { encoding: "utf8" });
  const n = list.split("\n").findIndex((l) => /factur-x\.xml|zugferd-invoice\.xml|xrechnung\.xml/i.test(l));
  execFileSync("pdfdetach", ["-save", String(n), "-o", join(dir, "out.xml"), join(dir, "in.pdf")]);
  return readFileSync(join(dir, "out.xml"));
}

// pdfdetach (poppler-utils, which CI installs) is the reference for the embedded bytes; PDF_TOOLS=skip runs without it.
const skip = process.env["PDF_TOOLS"] === "skip" ? "PDF_TOOLS=skip: pdfdetach is not used" : false;

describe("Factur-X and ZUGFeRD PDFs in", { skip }, () => {
  let s: TestServer;
  let token = "";
  before(async () => {
    s = await startServer({ storage: "memory" });
    token = (await s.token("acme")).token;
  });
  after(() => s.close());

  const upload = (bytes: Uint8Array, name: string, t = token) => {
    const form = new FormData();
    form.set("xml", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), name);
    return s.fetch("/api/v1/submissions", t, { method: "POST", body: form });
  };

  test("an upload of a Factur-X PDF stores its embedded CII; /xml is that XML, /source and /pdf the PDF as received", async () => {
    const pdf = FX(ELEKTRON);
    const res = await upload(pdf, ELEKTRON);
    assert.equal(res.status, 201, (await res.clone().text()).slice(0, 500));
    const sub = (await res.json()) as Record<string, any>;
    assert.equal(sub.format, "cii");
    assert.equal(sub.source.media_type, "application/pdf");
    const xml = Buffer.from(await (await s.fetch(sub.links.xml, token)).arrayBuffer());
    assert.ok(xml.equals(pdfdetach(pdf)), "the embedded XML, as pdfdetach extracts it");
    for (const link of [sub.links.source, sub.links.pdf]) {
      const r = await s.fetch(link, token);
      assert.equal(r.headers.get("content-type"), "application/pdf");
      assert.ok(Buffer.from(await r.arrayBuffer()).equals(pdf), `${link}: the PDF as received`);
    }
    // With lang (or as=factur-x) the answer is our own rendering.
    const ours = Buffer.from(await (await s.fetch(`${sub.links.pdf}?lang=en`, token)).arrayBuffer());
    assert.ok(!ours.equals(pdf) && ours.subarray(0, 5).toString() === "%PDF-");
  });

  test("a PDF without an embedded invoice is 422 NO_EMBEDDED_INVOICE, and nothing is stored", async () => {
    const before = ((await (await s.fetch("/api/v1/submissions?limit=500", token)).json()) as { data: unknown[] }).data.length;
    const res = await upload(FX(PLAIN), PLAIN);
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, "NO_EMBEDDED_INVOICE");
    const after = ((await (await s.fetch("/api/v1/submissions?limit=500", token)).json()) as { data: unknown[] }).data.length;
    assert.equal(after, before);
  });

  test("POST /validate takes a Factur-X PDF and judges its embedded invoice", async () => {
    const form = new FormData();
    form.set("xml", new Blob([new Uint8Array(FX(ELEKTRON))]), ELEKTRON);
    const res = await s.fetch("/api/v1/validate", token, { method: "POST", body: form });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { format: string }).format, "cii");
  });

  test("an inbox file NAME.pdf is a document: its XML the embedded invoice, its /pdf and /source the PDF", async () => {
    const pdf = FX("ZUGFeRDv2_correct_intarsys_EN16931_zugferd_2p0_EN16931_Einfach.pdf");
    s.drop("acme", "zugferd-einfach.pdf", pdf);
    s.drop("acme", "plain.pdf", FX(PLAIN));
    const run = (await s.sync(token)) as { counts: { created: number; failed: number }; errors: { external_id: string; code: string }[] };
    assert.equal(run.counts.created, 1);
    assert.deepEqual(run.errors.map((e) => [e.external_id, e.code]), [["plain", "NO_EMBEDDED_INVOICE"]]);
    const docs = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string; external_id: string; links: { xml: string; pdf: string } }[] };
    const doc = docs.data.find((d) => d.external_id === "zugferd-einfach")!;
    const xml = Buffer.from(await (await s.fetch(doc.links.xml, token)).arrayBuffer());
    assert.ok(xml.equals(pdfdetach(pdf)));
    for (const path of [doc.links.pdf, `/api/v1/documents/${doc.id}/source`]) {
      assert.ok(Buffer.from(await (await s.fetch(path, token)).arrayBuffer()).equals(pdf), path);
    }
  });

  test("UBL → ?as=factur-x → upload that PDF gives the same invoice object", async () => {
    const ubl = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"));
    const form = new FormData();
    form.set("xml", new Blob([new Uint8Array(ubl)]), "ubl.xml");
    const first = (await (await s.fetch("/api/v1/submissions", token, { method: "POST", body: form })).json()) as { id: string; links: { pdf: string } };
    const pdf = new Uint8Array(await (await s.fetch(`${first.links.pdf}?as=factur-x`, token)).arrayBuffer());
    const other = (await s.token("globex")).token; // another tenant, so the business key is no duplicate
    const res = await upload(pdf, "factur-x.pdf", other);
    assert.equal(res.status, 201, (await res.clone().text()).slice(0, 500));
    const sub = (await res.json()) as { id: string };
    const a = (await (await s.fetch(`/api/v1/submissions/${first.id}`, token)).json()) as { invoice: Record<string, any> };
    const b = (await (await s.fetch(`/api/v1/submissions/${sub.id}`, other)).json()) as { invoice: Record<string, any> };
    assert.equal(b.invoice.format, "cii");
    for (const key of ["number", "issue_date", "currency", "totals", "vat_breakdown"]) {
      assert.deepEqual(_plain(b.invoice[key]), _plain(a.invoice[key]), key);
    }
    assert.deepEqual(b.invoice.lines.map((l: any) => [l.name, l.net_amount]), a.invoice.lines.map((l: any) => [l.name, l.net_amount]));
  });

  test("a hostile PDF (a /Prev loop; the reader's own tests hold the rest of the corpus) is a 4xx in bounded time while /healthz is served", async () => {
    const other = (await s.token("initech")).token;
    const loop = new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\nxref\n0 2\n0000000000 65535 f \n0000000009 00000 n \ntrailer\n<< /Size 2 /Root 1 0 R /Prev 52 >>\nstartxref\n52\n%%EOF\n");
    const started = performance.now();
    const probes = (async () => {
      let worst = 0;
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        assert.equal((await s.fetch("/healthz", null)).status, 200);
        worst = Math.max(worst, performance.now() - t);
      }
      return worst;
    })();
    const res = await upload(loop, "loop.pdf", other);
    assert.ok(res.status >= 400 && res.status < 500, String(res.status));
    assert.ok(performance.now() - started < 5_000);
    assert.ok((await probes) < 2_000);
  });
});

function _plain(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "string" && /^-?\d+\.\d+$/.test(x) ? String(Number(x)) : x)));
}
