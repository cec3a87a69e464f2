/**
 * Group commit in the file store (README "How data is kept (file store)"): writes queued in one turn of the event
 * loop are flushed together and each answered after the flush; queued records are read from memory before their
 * bytes reach the file. What upsertDocuments answers is the contract suite's (test/support/storage_contract_batch.ts).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { DocumentInput } from "../../../lib/contracts/storage.ts";
import { FileStorage } from "../../../storage/file/store.ts";
import { NO_DAY, RecordLog, type SlotColumns } from "../../../storage/file/record_log.ts";
import { fields } from "../../support/storage_contract.ts";

const dec = new TextDecoder();
const enc = new TextEncoder();
const cols = (): SlotColumns => ({ time: 0, day: NO_DAY, h: [0, 0, 0, 0], c: [0, 0, 0, 0] });
const input = (id: string): DocumentInput => ({ source: "inbox", external_id: id, fields: fields({ number: id }), xml: { sha256: "a".repeat(64), size: 1 }, received_at: null });
const NOW = "2026-11-01T00:00:00.000Z";

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), "group-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("the file store answers concurrent writers together, and what it answered is there after a reopen", async (t) => {
  const dir = tempDir(t);
  let storage = new FileStorage(dir);
  const tenant = storage.tenant("acme");
  const ids = Array.from({ length: 300 }, (_, i) => `D${i}`);
  const results = await Promise.all(ids.map((id) => tenant.upsertDocument(input(id), NOW)));
  assert.ok(results.every((r) => r.outcome === "created"));
  await storage.close();
  storage = new FileStorage(dir);
  const page = await storage.tenant("acme").documentChanges(0, 500, {}, 1000);
  assert.equal(page.items.length, ids.length);
  await storage.close();
});

test("RecordLog reads queued records from memory, and commit() writes them for a reopen", async (t) => {
  const dir = tempDir(t);
  let log = new RecordLog(dir, "t", { columnsOf: cols });
  for (let i = 0; i < 5; i++) log.write(i, enc.encode(`{"i":${i}}`), cols());
  log.write(2, enc.encode('{"i":"two"}'), cols());
  assert.equal(log.dirty, true);
  assert.equal(dec.decode(log.read(2)), '{"i":"two"}');
  assert.deepEqual(log.readMany([0, 4]).map((b) => dec.decode(b)), ['{"i":0}', '{"i":4}']);
  assert.deepEqual([...log.feedOrdinals(3, 10)], [3, 4, 2]);
  await log.commit();
  assert.equal(log.dirty, false);
  log.close();
  log = new RecordLog(dir, "t", { columnsOf: cols });
  assert.equal(log.count, 5);
  assert.equal(log.feedLength, 6);
  assert.equal(dec.decode(log.read(2)), '{"i":"two"}');
  assert.equal(dec.decode(log.readVersion(log.rawFeed(2, 1)[0]!)), '{"i":2}');
  log.close();
});
