import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ApiError } from "../../lib/http/errors.ts";
import type { Invoice } from "../../lib/formats/invoice/model.ts";
import { createInvoiceReader, createLargeReads } from "../../lib/api/invoice_reader.ts";
import { invoiceJson } from "../../lib/api/documents/invoice_json.ts";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import type { ValidationReport } from "../../lib/formats/validation/invoice_validation.ts";
import type { ImportedFields } from "../../lib/contracts/storage.ts";
import { fixturePath } from "../support/server.ts";

const XML = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"));

/** An off-thread reader whose reads finish when the test says so. */
function heldReader() {
  const held: (() => void)[] = [];
  let started = 0;
  return {
    held, started: () => started,
    read: async (_xml: Uint8Array): Promise<Invoice> => {
      started++;
      await new Promise<void>((r) => held.push(r));
      return { number: "held" } as Invoice;
    },
  };
}

test("createInvoiceReader() reads small inputs at once, without a slot", async () => {
  const off = heldReader();
  const read = createInvoiceReader({ offThread: off.read, largeBytes: XML.length + 1, maxLarge: 1, maxWaiting: 0 });
  const invoices = await Promise.all([read(XML), read(XML), read(XML)]);
  assert.deepEqual(invoices.map((i) => i.number), ["Snippet1", "Snippet1", "Snippet1"]);
  assert.equal(off.started(), 0);
});

test("createInvoiceReader() runs at most maxLarge large reads at once, queues maxWaiting, and answers 503 beyond", async () => {
  const off = heldReader();
  const read = createInvoiceReader({ offThread: off.read, largeBytes: 1, maxLarge: 2, maxWaiting: 1 });
  const running = [read(XML), read(XML)];
  const queued = read(XML);
  await assert.rejects(read(XML), (e: unknown) => e instanceof ApiError && e.status === 503 && e.headers["retry-after"] === "1");
  while (off.held.length < 2) await new Promise((r) => setImmediate(r));
  assert.equal(off.started(), 2, "the third waits for a slot");
  off.held.shift()!();
  await running[0];
  while (off.held.length < 2) await new Promise((r) => setImmediate(r));
  assert.equal(off.started(), 3, "a finished read hands its slot to the one waiting");
  for (const r of off.held.splice(0)) r();
  await Promise.all([running[1], queued]);
});

test("createInvoiceReader() without a thread reads large inputs inline, one slot at a time, and passes errors on", async () => {
  const read = createInvoiceReader({ largeBytes: 1, maxLarge: 1 });
  assert.equal((await read(XML)).number, "Snippet1");
  await assert.rejects(read(new TextEncoder().encode("<a>")), /not closed/);
});

test("createInvoiceReader() queues a background read ({ wait: true }) where a request would get 503", async () => {
  const off = heldReader();
  const read = createInvoiceReader({ offThread: off.read, largeBytes: 1, maxLarge: 1, maxWaiting: 0 });
  const running = read(XML);
  await assert.rejects(read(XML), (e: unknown) => e instanceof ApiError && e.status === 503);
  const background = read(XML, { wait: true });
  while (off.held.length < 1) await new Promise((r) => setImmediate(r));
  off.held.shift()!();
  await running;
  while (off.held.length < 1) await new Promise((r) => setImmediate(r));
  assert.equal(off.started(), 2, "the background read got the slot instead of a refusal");
  off.held.shift()!();
  assert.equal((await background).number, "held");
});

test("createInvoiceReader() lets one tenant queue only its share, and hands slots to the waiting tenants in turn", async () => {
  const off = heldReader();
  const read = createInvoiceReader({ offThread: off.read, largeBytes: 1, maxLarge: 1, maxWaiting: 16, maxWaitingPerTenant: 4 });
  const order: string[] = [];
  const track = (tenant: string) => read(XML, { tenant }).then(() => void order.push(tenant));
  // The hostile tenant: one read running, four waiting, and the fifth refused although the queue has room.
  const hostile = [track("hostile"), track("hostile"), track("hostile"), track("hostile"), track("hostile")];
  await assert.rejects(read(XML, { tenant: "hostile" }), (e: unknown) => e instanceof ApiError && e.status === 429 && e.headers["retry-after"] === "1");
  // Another tenant's upload is queued, not refused, and goes right after the read that is running.
  const other = track("other");
  for (let served = 0; served < 6; served++) {
    while (off.held.length < 1) await new Promise((r) => setImmediate(r));
    off.held.shift()!();
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all([...hostile, other]);
  assert.deepEqual(order, ["hostile", "other", "hostile", "hostile", "hostile", "hostile"]);
});

test("createLargeReads() builds large invoices' JSON in the same slots as reads, and drops one whose client went away while it waited", async () => {
  const off = heldReader();
  const built: number[] = [];
  const reads = createLargeReads({
    offThread: off.read, largeBytes: 1, maxLarge: 1,
    offThreadJson: async (xml) => (built.push(xml.length), new TextEncoder().encode("{}")),
  });
  const running = reads.read(XML);
  let gone = false;
  const waiting = reads.json(XML, { tenant: "a", gone: () => gone });
  const other = reads.json(XML, { tenant: "b" });
  while (off.held.length < 1) await new Promise((r) => setImmediate(r));
  assert.deepEqual(built, [], "the JSON waits for the slot the read holds");
  gone = true;
  off.held.shift()!();
  await running;
  await assert.rejects(waiting, /went away/);
  assert.deepEqual(new TextDecoder().decode(await other), "{}");
  assert.equal(built.length, 1, "only the JSON whose client is still there was built");
});

test("createLargeReads() builds small invoices' JSON at once, as invoiceJson() makes it", async () => {
  const reads = createLargeReads({ largeBytes: XML.length + 1, offThreadJson: () => assert.fail("a small invoice is not sent to a thread") });
  assert.equal(new TextDecoder().decode(await reads.json(XML)), invoiceJson(readInvoiceXml(XML)));
});

test("createLargeReads() gives a large invoice's verdict in the same slots as reads, and a small one's off the loop at once", async () => {
  const off = heldReader();
  const judged: string[] = [];
  const report = { valid: true, format: "ubl", checks: [], errors: [], warnings: [] } as unknown as ValidationReport;
  const reads = createLargeReads({
    offThread: off.read, largeBytes: XML.length, maxLarge: 1, maxWaiting: 0,
    offThreadValidate: async (xml) => (judged.push(xml.length === XML.length ? "large" : "small"), report),
  });
  const running = reads.read(XML);
  while (off.held.length < 1) await new Promise((r) => setImmediate(r));
  assert.equal(await reads.validate(XML.subarray(0, 100)), report, "a small one needs no slot");
  await assert.rejects(reads.validate(XML), (e: unknown) => e instanceof ApiError && e.status === 503, "no slot and no room to wait");
  off.held.shift()!();
  await running;
  assert.equal(await reads.validate(XML), report);
  assert.deepEqual(judged, ["small", "large"]);
});

test("createLargeReads() without a thread gives the verdict here: an invalid invoice is a verdict, an unsupported one an error", async () => {
  const reads = createLargeReads({ largeBytes: 1, maxLarge: 1 });
  assert.equal((await reads.validate(XML)).valid, true);
  const noNumber = new TextEncoder().encode(new TextDecoder().decode(XML).replace("<cbc:ID>Snippet1</cbc:ID>", ""));
  const verdict = await reads.validate(noNumber);
  assert.equal(verdict.valid, false);
  assert.ok(verdict.errors.length > 0);
  await assert.rejects(reads.validate(new TextEncoder().encode("<a/>")), /not a supported|format/i);
});

test("createLargeReads() reads a large invoice's fields in a slot (a sync waits for it) and takes only the fields from the thread", async () => {
  const off = heldReader();
  const asked: number[] = [];
  const fields = { fields: { number: "from the thread" }, valid: false } as unknown as ImportedFields;
  const reads = createLargeReads({
    offThread: off.read, largeBytes: XML.length, maxLarge: 1, maxWaiting: 0,
    offThreadFields: async (xml) => (asked.push(xml.length), fields),
  });
  const running = reads.read(XML);
  while (off.held.length < 1) await new Promise((r) => setImmediate(r));
  const waiting = reads.fields(XML); // a background read: it waits for the slot rather than being refused
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(asked, [], "it waits for the slot the read holds");
  off.held.shift()!();
  await running;
  assert.equal(await waiting, fields);
  assert.equal(off.started(), 1, "the whole invoice is not read for its fields");
  assert.deepEqual(asked, [XML.length]);
});
