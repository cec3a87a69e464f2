import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fieldsFromInvoice } from "../../../lib/contracts/record_json.ts";
import { InvoiceError } from "../../../lib/formats/invoice/errors.ts";
import { readInvoiceXml } from "../../../lib/formats/invoice/read_xml.ts";
import { readAndValidate, verdictOf } from "../../../lib/formats/validation/read_and_validate.ts";
import { schemaSetOf } from "../../../lib/formats/validation/schema_set.ts";
import { XmlError } from "../../../lib/formats/xml/errors.ts";
import { invoiceJson } from "../../../lib/api/documents/invoice_json.ts";
import { renderInvoicePdf } from "../../../lib/formats/pdf/invoice_pdf.ts";
import { PdfFonts } from "../../../lib/formats/pdf/pdf_fonts.ts";
import { readPdfFontFiles } from "../../../storage/fonts/font_files.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { createInvoiceWorkers } from "../../../storage/process/invoice_workers.ts";
import { INVOICE_THREAD_NICE } from "../../../storage/process/thread_priority.ts";
import { fixturePath } from "../../support/server.ts";

// server.ts uses the threads on Node only; Deno reads large invoices on the main thread, in their slots.
const NODE_ONLY = { skip: "Deno" in globalThis ? "worker threads are used on Node only" : false };
const workers = "Deno" in globalThis ? null! : createInvoiceWorkers(2, readPdfFontFiles());
before(() => workers?.warm()); // reads before a thread is ready are done on the main thread
after(() => workers?.close());

test("a worker thread reads an invoice exactly as the main thread does", NODE_ONLY, async () => {
  for (const f of [["ubl", "peppol-bis3_base-example.xml"], ["cii", "mustang_factur-x.xml"], ["ksef-fa3", "FA_3_complex.xml"]] as const) {
    const xml = readFileSync(fixturePath("samples", ...f));
    assert.deepEqual(await workers.read(xml), readInvoiceXml(xml), f.join("/"));
  }
});

test("a worker thread makes an invoice's JSON bytes exactly as the API's invoiceJson does", NODE_ONLY, async () => {
  for (const f of [["ubl", "peppol-bis3_base-example.xml"], ["ksef-fa3", "FA_3_complex.xml"]] as const) {
    const xml = readFileSync(fixturePath("samples", ...f));
    assert.equal(new TextDecoder().decode(await workers.json(xml)), invoiceJson(readInvoiceXml(xml)), f.join("/"));
  }
  const bad = await workers.json(new TextEncoder().encode("<a>\n<b>")).catch((e: unknown) => e);
  assert.ok(bad instanceof XmlError, String(bad));
});

test("a worker thread renders an invoice's PDF exactly as the main thread does", NODE_ONLY, async () => {
  const fonts = new PdfFonts(readPdfFontFiles());
  const xml = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml"));
  const job = { lang: "en" as const, xmlSha256: "ab".repeat(32) };
  assert.deepEqual(await workers.pdf(xml, job), renderInvoicePdf(readInvoiceXml(xml), { ...job, fonts }));
});

test("a worker thread renders a Factur-X PDF, with the CII it was handed embedded, exactly as the main thread does", NODE_ONLY, async () => {
  const fonts = new PdfFonts(readPdfFontFiles());
  const xml = readFileSync(fixturePath("samples", "cii", "mustang_factur-x.xml"));
  const job = { facturX: { ciiXml: xml, flavour: "factur-x" as const, date: "2026-12-06T10:00:00.000Z" } };
  const rendered = await workers.pdf(xml, job);
  assert.deepEqual(rendered, renderInvoicePdf(readInvoiceXml(xml), { ...job, fonts }));
  assert.ok(Buffer.from(rendered.bytes).includes("/EmbeddedFiles"));
});

test("a worker thread's errors come back as the XmlError or InvoiceError the API maps to 422", NODE_ONLY, async () => {
  const bad = await workers.read(new TextEncoder().encode("<a>\n<b>")).catch((e: unknown) => e);
  assert.ok(bad instanceof XmlError, String(bad));
  assert.equal(bad.line, 2);
  const other = await workers.read(new TextEncoder().encode('<recipe xmlns="urn:x"/>')).catch((e: unknown) => e);
  assert.ok(other instanceof InvoiceError, String(other));
  assert.equal(other.field, "xml");
});

test("a programmer's mistake in a thread comes back as its own class, with the stack of the thread where it was thrown", NODE_ONLY, async () => {
  const xml = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml"));
  const e = await workers.pdf(xml, { lang: "xx" as "en" }).catch((x: unknown) => x);
  assert.ok(e instanceof RangeError, String(e));
  assert.match(e.message, /Unknown PDF language/);
  assert.match(e.stack ?? "", /renderInvoicePdf[\s\S]*invoice_worker\.ts/, "the stack shows where the thread threw it");
});

test("a 10 MB document of dense elements is refused in the thread by the node budget", NODE_ONLY, async () => {
  const unit = '<a b="1" c="2" d="3"/>';
  const xml = new TextEncoder().encode(`<Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">${unit.repeat(450_000)}</Faktura>`);
  const e = await workers.read(xml).catch((x: unknown) => x);
  assert.ok(e instanceof XmlError);
  assert.match(e.message, /elements and attributes for its size/);
});

test("a worker thread reads a document's record fields and verdict exactly as the main thread does, and only those come back", NODE_ONLY, async () => {
  const schemas = readSchemaFiles();
  const judging = createInvoiceWorkers(1, undefined, schemas);
  try {
    await judging.warm();
    for (const f of [["ubl", "peppol-bis3_base-example.xml"], ["cii", "mustang_factur-x.xml"], ["ksef-fa3", "FA_3_complex.xml"], ["ksef-fa3", "FA_3_Przyklad_4_EUR.xml"]] as const) {
      const xml = readFileSync(fixturePath("samples", ...f));
      assert.deepEqual(await workers.fields(xml), { fields: fieldsFromInvoice(readInvoiceXml(xml)), valid: verdictOf(xml, null).valid }, f.join("/"));
      assert.deepEqual(await judging.fields(xml), { fields: fieldsFromInvoice(readInvoiceXml(xml)), valid: verdictOf(xml, schemaSetOf(schemas)).valid }, f.join("/"));
    }
    // An invalid invoice is judged so: its number is too long for FA(3)'s schema.
    const invalid = new TextEncoder().encode(readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml"), "utf8").replace(/<P_2>[^<]*<\/P_2>/, `<P_2>${"9".repeat(300)}</P_2>`));
    assert.equal((await judging.fields(invalid)).valid, false);
  } finally {
    await judging.close();
  }
  const bad = await workers.fields(new TextEncoder().encode("<a>\n<b>")).catch((e: unknown) => e);
  assert.ok(bad instanceof XmlError, String(bad));
});

test("threads start when reads need them, up to the pool's size; reads before one is ready are done here", NODE_ONLY, async () => {
  const pool = createInvoiceWorkers(2);
  try {
    assert.equal(pool.started(), 0, "a pool that was never used has no thread");
    const xml = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml"));
    const expected = { fields: fieldsFromInvoice(readInvoiceXml(xml)), valid: verdictOf(xml, null).valid };
    assert.deepEqual(await pool.fields(xml), expected, "read on the main thread while the first thread starts");
    assert.equal(pool.started(), 1);
    await pool.warm();
    // Reads at once keep the ready thread busy: the second starts, and no third.
    for (let round = 0; round < 500 && pool.started() < 2; round++) {
      for (const got of await Promise.all(Array.from({ length: 4 }, () => pool.fields(xml)))) assert.deepEqual(got, expected);
    }
    assert.equal(pool.started(), 2);
    await Promise.all(Array.from({ length: 8 }, () => pool.fields(xml)));
    assert.equal(pool.started(), 2);
  } finally {
    await pool.close();
  }
});

test("a worker thread checks an upload, and gives a verdict alone, exactly as the main thread does, with the same errors", NODE_ONLY, async () => {
  const files = readSchemaFiles();
  const pool = createInvoiceWorkers(1, undefined, files);
  const ops = [
    { name: "check", thread: pool.check, here: (xml: Uint8Array) => readAndValidate(xml, schemaSetOf(files)) },
    { name: "validate", thread: pool.validate, here: (xml: Uint8Array) => verdictOf(xml, schemaSetOf(files)) },
  ];
  try {
    await pool.warm();
    // A valid invoice, two that fail their schema, and UBL.
    const samples = [["ksef-fa3", "FA_3_complex.xml"], ["ksef-fa3", "FA_3_Przyklad_1_KOR.xml"], ["ksef-fa3", "FA_3_Przyklad_3_KOR_EUR.xml"], ["ubl", "peppol-bis3_base-example.xml"]] as const;
    for (const op of ops) {
      for (const f of samples) {
        const xml = readFileSync(fixturePath("samples", ...f));
        assert.deepEqual(await op.thread(xml), op.here(xml), `${op.name} ${f.join("/")}`);
      }
      const notXml = await op.thread(new TextEncoder().encode("<a>\n<b>")).catch((e: unknown) => e);
      assert.ok(notXml instanceof XmlError, `${op.name}: ${String(notXml)}`);
      const notInvoice = await op.thread(new TextEncoder().encode("<a/>")).catch((e: unknown) => e);
      assert.ok(notInvoice instanceof InvoiceError, `${op.name}: ${String(notInvoice)}`);
    }
    assert.equal((await pool.validate(readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_3_KOR_EUR.xml")))).valid, false);
  } finally {
    await pool.close();
  }
});

test("a large upload waits for a thread that is starting rather than being read on the event loop", NODE_ONLY, async () => {
  // A 9 MB FA(3): over KSeF's 1,000,000-byte limit, refused (422) after a parse that takes the thread ~0.3 s.
  const { minimalLinesKsef } = await import("../../support/large_invoice.ts");
  const big = minimalLinesKsef(9_000_000, "BIG/1");
  const cold = createInvoiceWorkers(1, undefined, readSchemaFiles()); // no thread yet
  try {
    let settled = false;
    const checked = cold.check(big).finally(() => (settled = true));
    // Read here, the check would be done by the time check() returns; a thread answers in a later message.
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false, "the upload was read on the main thread");
    assert.equal(cold.started(), 1);
    const r = await checked;
    assert.equal(r.report.valid, false);
    assert.deepEqual(r.report.errors.map((e) => e.rule).slice(0, 1), ["KSEF-FILE"]);
    // A small one is still read here while no thread is ready (a few milliseconds, and no wait for a thread).
    const small = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"));
    const fresh = createInvoiceWorkers(1, undefined, readSchemaFiles());
    let smallSettled = false;
    const s = fresh.check(small).finally(() => (smallSettled = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(smallSettled, true);
    assert.equal((await s).report.valid, readAndValidate(small, schemaSetOf(readSchemaFiles())).report.valid);
    await fresh.close();
  } finally {
    await cold.close();
  }
});

test("the invoice threads run at a lower priority than the event loop (Linux: their own nice value)", {
  skip: "Deno" in globalThis ? "worker threads are used on Node only" : process.platform !== "linux" ? "per-thread nice values are Linux's" : false,
}, async (t) => {
  const nice = (tid: string): number => Number(readFileSync(`/proc/${process.pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
  const own = nice(String(process.pid));
  if (own >= INVOICE_THREAD_NICE) return t.skip(`this process already runs at nice ${own}`);
  const pool = createInvoiceWorkers(1);
  try {
    const before = readdirSync(`/proc/${process.pid}/task`).filter((tid) => nice(tid) === INVOICE_THREAD_NICE);
    await pool.warm();
    const lowered = readdirSync(`/proc/${process.pid}/task`).filter((tid) => nice(tid) === INVOICE_THREAD_NICE && !before.includes(tid));
    assert.equal(lowered.length, 1, "the started thread took the invoice threads' nice value");
    assert.equal(nice(String(process.pid)), own, "the event loop's thread keeps its own");
  } finally {
    await pool.close();
  }
});
