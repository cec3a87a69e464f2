/**
 * Large inputs through the API (README "Validation": no input within the limits makes validation fail with
 * anything but a verdict or a 4xx): invoices with attachments of 1, 3 and 9 MB (a 9 MB one fills the upload limit),
 * a 5 MB text node, deep nesting and many attributes, validated, uploaded and synchronized, with their invoice JSON
 * and PDF. The server reads them on worker threads as server.ts does, so a failure in a thread is seen as a client
 * would see it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { errorOf } from "../support/api.ts";
import {
  LARGEST_UPLOAD, repeated, withAttachment, withAttributes, withKsefAttachment, withLongText, withNesting,
} from "../support/large_inputs.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { createInvoiceWorkers, type InvoiceWorkers } from "../../storage/process/invoice_workers.ts";
import { readPdfFontFiles } from "../../storage/fonts/font_files.ts";
import { readSchemaFiles } from "../../storage/schemas/schema_files.ts";
import type { AppOptions } from "../../lib/app.ts";

const MB = 1_000_000;

/** Threads as server.ts starts them (Node only: Deno reads on the main thread, in the large-read slots). */
function _threads(): { options: Partial<AppOptions>; close: () => Promise<void> } {
  if ("Deno" in globalThis) return { options: {}, close: async () => {} };
  const reading: InvoiceWorkers = createInvoiceWorkers(1, readPdfFontFiles());
  const parsing: InvoiceWorkers = createInvoiceWorkers(1, undefined, readSchemaFiles());
  return {
    options: {
      readInvoiceOffThread: reading.read, readInvoiceJsonOffThread: reading.json, renderPdfOffThread: reading.pdf,
      readFieldsOffThread: parsing.fields, checkUploadOffThread: parsing.check, validateOffThread: parsing.validate,
    },
    close: async () => void (await Promise.all([reading.close(), parsing.close()])),
  };
}

function _form(xml: Uint8Array): FormData {
  const f = new FormData();
  f.append("xml", new Blob([new Uint8Array(xml)], { type: "application/xml" }), "invoice.xml");
  return f;
}

interface Verdict { valid: boolean; format: string; checks: string[]; errors: { rule: string; message: string }[] }

/** Valid invoices of every size, each with its attachment; the one of the upload limit in each format. */
const ATTACHED = [
  ...[1, 3].flatMap((mb) => [false, true].flatMap((wrapped) => (["ubl", "cii"] as const).map((format) => ({
    what: `${format} with a ${mb} MB attachment${wrapped ? " in lines of 76" : ""}`, xml: withAttachment(format, mb * MB, wrapped),
  })))),
  { what: "ubl with a 9 MB attachment in lines of 76", xml: withAttachment("ubl", LARGEST_UPLOAD, true) },
  { what: "cii with a 9 MB attachment", xml: withAttachment("cii", LARGEST_UPLOAD, false) },
];

describe("large inputs through the API", () => {
  let s: TestServer;
  let token: string;
  let threads: { close: () => Promise<void> };
  before(async () => {
    const t = _threads();
    threads = t;
    s = await startServer({ ...t.options, storage: "memory" });
    token = (await s.token("acme")).token;
  });
  after(async () => {
    await s.close();
    await threads.close();
  });

  test("POST /validate judges invoices with attachments of 1, 3 and 9 MB, with and without line breaks", { timeout: 120_000 }, async () => {
    for (const c of ATTACHED) {
      const res = await s.fetch("/api/v1/validate", token, { method: "POST", body: _form(c.xml) });
      const text = await res.text();
      assert.equal(res.status, 200, `${c.what}: ${text.slice(0, 300)}`);
      const verdict = JSON.parse(text) as Verdict;
      assert.deepEqual(verdict.errors, [], c.what);
      assert.equal(verdict.valid, true, c.what);
    }
  });

  test("an upload with a 9 MB attachment is accepted; its invoice names the attachment and its PDF renders", { timeout: 120_000 }, async () => {
    const xml = withAttachment("ubl", LARGEST_UPLOAD, false);
    const res = await s.fetch("/api/v1/submissions", token, { method: "POST", body: _form(xml) });
    const text = await res.text();
    assert.equal(res.status, 201, text.slice(0, 300));
    const id = (JSON.parse(text) as { id: string }).id;
    const one = (await (await s.fetch(`/api/v1/submissions/${id}`, token)).json()) as { invoice: { attachments: Record<string, unknown>[] } };
    const attachment = one.invoice.attachments.find((a) => a.filename === "test.pdf");
    assert.ok(attachment, JSON.stringify(one.invoice.attachments));
    assert.equal(attachment.description, "EHF specification");
    assert.ok(JSON.stringify(one).length < 100_000, "the attachment's content is not copied into the invoice");
    const pdf = await s.fetch(`/api/v1/submissions/${id}/pdf`, token);
    assert.equal(pdf.status, 200);
    assert.equal(new TextDecoder().decode(new Uint8Array(await pdf.arrayBuffer()).subarray(0, 5)), "%PDF-");
  });

  test("a 9 MB FA(3) Zalacznik, 5 MB text nodes, deep nesting and many attributes get a verdict or a 422", { timeout: 120_000 }, async () => {
    const cases = [
      { what: "FA(3) Zalacznik of 9 MB", xml: withKsefAttachment(LARGEST_UPLOAD), status: 200, rule: "KSEF-FILE" },
      ...(["ubl", "cii", "ksef-fa3"] as const).map((format) => ({ what: `${format} 5 MB note`, xml: withLongText(format, repeated("lorem ipsum ", 5 * MB)), status: 200, rule: null })),
      { what: "10,000 levels of nesting", xml: withNesting("ubl", 10_000), status: 422, rule: null },
      { what: "100,000 attributes on one element", xml: withAttributes("cii", 100_000), status: 422, rule: null },
      { what: "100,000 attributes on 1,000 elements", xml: withAttributes("ksef-fa3", 100_000, 100), status: 200, rule: "XSD" },
    ];
    for (const c of cases) {
      const res = await s.fetch("/api/v1/validate", token, { method: "POST", body: _form(c.xml) });
      if (c.status === 422) {
        await errorOf(res, 422, "VALIDATION_ERROR");
        continue;
      }
      const text = await res.text();
      assert.equal(res.status, 200, `${c.what}: ${text.slice(0, 300)}`);
      const verdict = JSON.parse(text) as Verdict;
      if (c.rule !== null) assert.ok(verdict.errors.some((e) => e.rule === c.rule), `${c.what}: ${text.slice(0, 300)}`);
    }
  });

  test("a sync imports every large document with a verdict; a run fails for none of them", { timeout: 120_000 }, async () => {
    const t = (await s.token("syncing")).token;
    const files = [
      ["ubl-9mb", withAttachment("ubl", LARGEST_UPLOAD, true)], ["cii-3mb", withAttachment("cii", 3 * MB, false)],
      ["ksef-9mb", withKsefAttachment(LARGEST_UPLOAD)], ["ubl-note", withLongText("ubl", repeated("x", 5 * MB))],
      ["nested", withNesting("cii", 10_000)],
    ] as const;
    for (const [name, xml] of files) s.drop("syncing", `${name}.xml`, xml);
    const run = (await s.sync(t)) as { status: string; counts: Record<string, number>; errors: { external_id: string; code: string }[] };
    assert.equal(run.status, "succeeded", JSON.stringify(run));
    assert.equal(run.counts.created, 4, JSON.stringify(run));
    assert.deepEqual(run.errors.map((e) => [e.external_id, e.code]), [["nested", "VALIDATION_ERROR"]]);
    const list = (await (await s.fetch("/api/v1/documents?limit=10", t)).json()) as { data: { id: string; external_id: string }[] };
    for (const d of list.data) {
      const res = await s.fetch(`/api/v1/documents/${d.id}`, t);
      assert.equal(res.status, 200, d.external_id);
      const doc = (await res.json()) as { validation: { valid: boolean; checks: string[] } | null };
      assert.ok(doc.validation !== null, `${d.external_id} has a verdict`);
      assert.equal(doc.validation.valid, d.external_id !== "ksef-9mb", `${d.external_id}: ${JSON.stringify(doc.validation)}`);
    }
  });
});

describe("a failure in a worker thread is answered as the same failure in-process", () => {
  let threaded: TestServer;
  let inProcess: TestServer;
  let threads: { close: () => Promise<void> };
  before(async () => {
    const t = _threads();
    threads = t;
    threaded = await startServer({ ...t.options, storage: "memory" });
    inProcess = await startServer({ storage: "memory" });
  });
  after(async () => {
    await Promise.all([threaded.close(), inProcess.close()]);
    await threads.close();
  });

  const cut = withAttachment("ubl", 3 * MB, true);
  const CASES = [
    { what: "a document cut short", xml: cut.subarray(0, cut.length - 100) },
    { what: "10,000 levels of nesting", xml: withNesting("ksef-fa3", 10_000) },
    { what: "100,000 attributes on one element", xml: withAttributes("ubl", 100_000) },
    { what: "XML that is no invoice", xml: new TextEncoder().encode(`<recipe xmlns="urn:x"><step>${"stir ".repeat(100_000)}</step></recipe>`) },
  ];

  test("POST /validate and POST /submissions answer a thread's XmlError or InvoiceError with the same 422 as in-process", { timeout: 60_000 }, async () => {
    const tokens = [(await threaded.token("acme")).token, (await inProcess.token("acme")).token];
    for (const c of CASES) {
      for (const path of ["/api/v1/validate", "/api/v1/submissions"]) {
        const [a, b] = await Promise.all([threaded, inProcess].map(async (s, i) => {
          const e = await errorOf(await s.fetch(path, tokens[i]!, { method: "POST", body: _form(c.xml) }), 422, "VALIDATION_ERROR");
          return { ...e, request_id: null };
        }));
        assert.deepEqual(a, b, `${c.what}, ${path}`);
      }
    }
  });

  test("a sync counts a document a thread cannot read as the same failed item as in-process; the run succeeds", { timeout: 60_000 }, async () => {
    const runs = await Promise.all([threaded, inProcess].map(async (s) => {
      const token = (await s.token("syncing")).token;
      CASES.forEach((c, i) => s.drop("syncing", `case-${i}.xml`, c.xml));
      return (await s.sync(token)) as { status: string; counts: Record<string, number>; errors: unknown[] };
    }));
    assert.equal(runs[0]!.status, "succeeded", JSON.stringify(runs[0]));
    assert.equal(runs[0]!.counts.failed, CASES.length);
    assert.deepEqual(runs[0]!.errors, runs[1]!.errors);
  });
});
