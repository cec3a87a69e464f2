/**
 * KSeF FA_RR(1) and PEF(3) through the API (README "Formats", "Validation"): uploads to POST /api/v1/submissions
 * and POST /api/v1/validate, documents of both forms from the inbox, their invoice JSON against the OpenAPI
 * document's Invoice schema, the `format` filter, and their PDF, all against a real server.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { errorOf } from "../support/api.ts";
import { validate, type Schema } from "../support/json_schema.ts";
import { pdfPages } from "../support/pdf_text.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

const RR = readFileSync(fixturePath("ksef-rr", "fa_rr1_vat_rr.xml"));
const RR_KOR = readFileSync(fixturePath("ksef-rr", "fa_rr1_kor_vat_rr.xml"));
const RR_INVALID = readFileSync(fixturePath("ksef-rr", "fa_rr1_invalid.xml"));
const PEF = readFileSync(fixturePath("ksef-pef", "pef3_invoice.xml"));
const PEF_KOR = readFileSync(fixturePath("ksef-pef", "pef3_kor_credit_note.xml"));
const PEF_INVALID = readFileSync(fixturePath("ksef-pef", "pef3_invalid.xml"));

function form(bytes: Uint8Array): FormData {
  const f = new FormData();
  f.append("xml", new Blob([new Uint8Array(bytes)], { type: "application/xml" }), "invoice.xml");
  return f;
}

interface Doc { id: string; format: string; type: string; number: string; seller: { tax_id: string | null }; buyer: { tax_id: string | null }; totals: Record<string, string | null>; invoice: Record<string, unknown>; validation: { valid: boolean; checks: string[] } }

describe("FA_RR(1) and PEF(3) at the API", () => {
  let s: TestServer;
  let token: string;
  let openapi: Record<string, unknown>;
  const invoiceSchema = (): Schema => ((openapi.components as Record<string, Record<string, Schema>>).schemas!.Invoice as Schema);
  before(async () => {
    s = await startServer();
    token = (await s.token("farm")).token;
    openapi = (await (await s.fetch("/api/v1/openapi.json", null)).json()) as Record<string, unknown>;
  });
  after(() => s.close());

  test("an FA_RR(1) upload is accepted with the farmer as seller and the issuing buyer as buyer", async () => {
    const res = await s.fetch("/api/v1/submissions", token, { method: "POST", body: form(RR) });
    assert.equal(res.status, 201);
    const sub = (await res.json()) as Doc & { links: { pdf: string } };
    assert.deepEqual([sub.format, sub.type, sub.number], ["ksef-fa-rr1", "invoice", "RR/2026/11/0042"]);
    assert.equal(sub.seller.tax_id, "7251801126");
    assert.equal(sub.buyer.tax_id, "5260250274");
    assert.deepEqual([sub.totals.net, sub.totals.tax, sub.totals.gross], ["20275.00", "1419.25", "21694.25"]);
    assert.deepEqual(sub.validation.checks, ["KSEF-FILE", "XSD:FA_RR(1) 1-1E"]);
    const full = (await (await s.fetch(`/api/v1/submissions/${sub.id}`, token)).json()) as Doc;
    assert.deepEqual(validate(invoiceSchema(), full.invoice, openapi), []);
    assert.equal((full.invoice.lines as { quality_class: string }[])[0]!.quality_class, "klasa I");
    const pdf = await s.fetch(sub.links.pdf, token);
    assert.equal(pdf.headers.get("content-type"), "application/pdf");
    const text = pdfPages(new Uint8Array(await pdf.arrayBuffer())).join(" ");
    assert.match(text, /Faktura VAT RR/);
    assert.match(text, /Dostawca \(rolnik ryczałtowy\)/);
    assert.match(text, /KOD I/);
  });

  test("an FA_RR(1) upload that breaks its schema is 422 naming each violation", async () => {
    const error = await errorOf(await s.fetch("/api/v1/submissions", token, { method: "POST", body: form(RR_INVALID) }), 422, "VALIDATION_ERROR");
    assert.equal(error.details.field, "xml:/Faktura/FakturaRR/FakturaRRWiersz/P_9");
    assert.deepEqual((error.details.violations as { path: string }[]).map((v) => v.path), [
      "/Faktura/FakturaRR/FakturaRRWiersz/P_9", "/Faktura/FakturaRR/Platnosc/FormaPlatnosci",
    ]);
  });

  test("POST /api/v1/validate gives the verdict on FA_RR(1) and PEF(3) documents", async () => {
    const verdict = async (bytes: Uint8Array) => {
      const res = await s.fetch("/api/v1/validate", token, { method: "POST", body: new Uint8Array(bytes), headers: { "content-type": "application/xml" } });
      assert.equal(res.status, 200);
      return (await res.json()) as { valid: boolean; format: string; checks: string[]; errors: { rule: string }[] };
    };
    const rr = await verdict(RR_KOR);
    assert.deepEqual([rr.valid, rr.format, rr.checks], [true, "ksef-fa-rr1", ["KSEF-FILE", "XSD:FA_RR(1) 1-1E"]]);
    const pef = await verdict(PEF);
    assert.deepEqual([pef.valid, pef.format, pef.checks], [true, "ksef-pef3", ["XSD:PEF(3) 2-1", "EN16931:1.3.16"]]);
    const bad = await verdict(PEF_INVALID);
    assert.equal(bad.valid, false);
    assert.deepEqual(bad.errors.map((e) => e.rule).slice(0, 2), ["XSD", "BR-CO-10"]);
  });

  test("a PEF(3) upload is accepted as ksef-pef3 and a PEF_KOR(3) credit note as a credit note", async () => {
    const t = (await s.token("school")).token;
    const res = await s.fetch("/api/v1/submissions", t, { method: "POST", body: form(PEF) });
    assert.equal(res.status, 201);
    const sub = (await res.json()) as Doc;
    assert.deepEqual([sub.format, sub.type, sub.seller.tax_id], ["ksef-pef3", "invoice", "PL5731121005"]);
    const kor = (await (await s.fetch("/api/v1/submissions", t, { method: "POST", body: form(PEF_KOR) })).json()) as Doc;
    assert.deepEqual([kor.format, kor.type], ["ksef-pef3", "credit_note"]);
    const full = (await (await s.fetch(`/api/v1/submissions/${sub.id}`, t)).json()) as Doc;
    assert.deepEqual(validate(invoiceSchema(), full.invoice, openapi), []);
  });

  test("documents of both forms sync from the inbox with their formats, JSON, filter and PDF", async () => {
    const t = (await s.token("inbox")).token;
    s.drop("inbox", "rr.xml", RR);
    s.drop("inbox", "pef.xml", PEF);
    const run = await s.sync(t);
    assert.equal((run.counts as { created: number }).created, 2);
    const list = (await (await s.fetch("/api/v1/documents?expand=invoice", t)).json()) as { data: Doc[] };
    const byFormat = new Map(list.data.map((d) => [d.format, d]));
    assert.deepEqual([...byFormat.keys()].sort(), ["ksef-fa-rr1", "ksef-pef3"]);
    for (const d of list.data) assert.deepEqual(validate(invoiceSchema(), d.invoice, openapi), [], d.format);
    const only = (await (await s.fetch("/api/v1/documents?format=ksef-fa-rr1", t)).json()) as { data: Doc[] };
    assert.deepEqual(only.data.map((d) => d.number), ["RR/2026/11/0042"]);
    const rr = byFormat.get("ksef-fa-rr1")!;
    const doc = (await (await s.fetch(`/api/v1/documents/${rr.id}`, t)).json()) as Doc;
    assert.deepEqual([doc.validation.valid, doc.validation.checks], [true, ["KSEF-FILE", "XSD:FA_RR(1) 1-1E"]]);
    const en = pdfPages(new Uint8Array(await (await s.fetch(`/api/v1/documents/${rr.id}/pdf?lang=en`, t)).arrayBuffer())).join(" ");
    assert.match(en, /VAT RR invoice/);
    assert.match(en, /Flat-rate refund/);
    const pef = pdfPages(new Uint8Array(await (await s.fetch(`/api/v1/documents/${byFormat.get("ksef-pef3")!.id}/pdf`, t)).arrayBuffer())).join(" ");
    assert.match(pef, /PEF\/2026\/11\/015/);
    assert.match(pef, /Szkoła Podstawowa nr 3 w Kutnie/);
    assert.match(pef, /Sprzedawca/, "Polish by default: KSeF carried it");
  });
});
