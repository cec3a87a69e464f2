import { test } from "node:test";
import assert from "node:assert/strict";
import type { DocumentSource } from "../../lib/contracts/document_source.ts";
import { StorageUnavailableError } from "../../lib/contracts/storage_errors.ts";
import { silentLogger } from "../../lib/observe/log.ts";
import { createSyncRunner } from "../../lib/jobs/sync_runner.ts";
import { MemoryStorage } from "../../storage/memory.ts";

test("a run whose process dies mid-run is resumed with counts that add up: nothing acknowledged went uncounted", { timeout: 10_000 }, async () => {
  const TOTAL = 120;
  const HANG_AT = "item-075";
  const storage = new MemoryStorage();
  const tenant = storage.tenant("acme");
  const left = new Set(Array.from({ length: TOTAL }, (_, i) => `item-${String(i).padStart(3, "0")}`));
  // Like the inbox: an acknowledged item is gone from the source, the others come again on the next pull.
  const source: DocumentSource = {
    name: "inbox",
    async *pull() {
      for (const id of [...left].sort()) {
        yield { external_id: id, xml: null, metadata: { number: id }, ack: async () => void left.delete(id), reject: async () => void left.delete(id) };
      }
    },
  };
  // The first process "dies" at item 75: its write never returns, and it does nothing more.
  let hung = false;
  const upsert = tenant.upsertDocument.bind(tenant);
  tenant.upsertDocument = (input, now) => {
    if (input.external_id === HANG_AT && !hung) {
      hung = true;
      return new Promise(() => {});
    }
    return upsert(input, now);
  };
  const opts = { storage, sources: () => [source], now: Date.now, logger: silentLogger, nodeId: "n1" };
  const first = createSyncRunner(opts);
  const { run } = await first.request(tenant, null);
  while (!hung) await new Promise((r) => setImmediate(r));
  const second = createSyncRunner(opts); // the restarted process (same node name, so it takes the lease over)
  await second.resume();
  await second.idle();
  const done = (await tenant.getRun(run.id))!;
  assert.equal(done.status, "succeeded");
  const { fetched, created, updated, unchanged, failed } = done.counts;
  assert.equal(fetched, TOTAL, JSON.stringify(done.counts));
  assert.equal(created + updated + unchanged + failed, TOTAL, JSON.stringify(done.counts));
  assert.equal(left.size, 0);
});

test("a queued run whose source was removed meanwhile fails with SOURCE_NOT_CONFIGURED instead of staying queued", async () => {
  const storage = new MemoryStorage();
  const tenant = storage.tenant("acme");
  const erp: DocumentSource = { name: "erp", async *pull() {} };
  // Recorded by a process that does not execute runs (a WORKERS > 1 HTTP worker), then sources.json changed.
  const recorder = createSyncRunner({ storage, sources: () => [erp], now: Date.now, logger: silentLogger, nodeId: "w1", execute: false });
  const { run } = await recorder.request(tenant, "erp");
  const executor = createSyncRunner({ storage, sources: () => [], now: Date.now, logger: silentLogger, nodeId: "p1" });
  await executor.resume();
  await executor.idle();
  const done = (await tenant.getRun(run.id))!;
  assert.equal(done.status, "failed");
  assert.equal(done.error?.code, "SOURCE_NOT_CONFIGURED");
  assert.ok(done.finished_at);
  assert.deepEqual(await tenant.activeRuns(), []);
});

test("a run stopped by storage that cannot be written fails as SERVICE_UNAVAILABLE, not as the source's fault", async () => {
  const storage = new MemoryStorage();
  const tenant = storage.tenant("acme");
  tenant.upsertDocument = async () => {
    throw new StorageUnavailableError("ENOSPC", "no space left on device");
  };
  const source: DocumentSource = {
    name: "inbox",
    async *pull() {
      yield { external_id: "A", xml: null, metadata: { number: "A" }, ack: async () => {}, reject: async () => {} };
    },
  };
  const runner = createSyncRunner({ storage, sources: () => [source], now: Date.now, logger: silentLogger, nodeId: "n1" });
  const { run } = await runner.request(tenant, null);
  await runner.idle();
  const done = (await tenant.getRun(run.id))!;
  assert.equal(done.status, "failed");
  assert.equal(done.error?.code, "SERVICE_UNAVAILABLE");
});

test("a run requested while the one before is finishing (saved, not yet let go) starts when that one lets go, with no poll", async () => {
  const storage = new MemoryStorage();
  const tenant = storage.tenant("acme");
  const items = ["A"];
  const source: DocumentSource = {
    name: "inbox",
    async *pull() {
      for (const id of items.splice(0)) yield { external_id: id, xml: null, metadata: { number: id }, ack: async () => {}, reject: async () => {} };
    },
  };
  // The first run's lease is let go only when the test says so: the gap between its final save and its end.
  let letGo!: () => void;
  const held = new Promise<void>((r) => (letGo = r));
  let holding = false;
  const release = tenant.releaseLease.bind(tenant);
  tenant.releaseLease = async (name, owner) => {
    if (!holding) {
      holding = true;
      await held;
    }
    return release(name, owner);
  };
  const runner = createSyncRunner({ storage, sources: () => [source], now: Date.now, logger: silentLogger, nodeId: "n1" });
  const { run: first } = await runner.request(tenant, null);
  while (!holding) await new Promise((r) => setImmediate(r));
  assert.equal((await tenant.getRun(first.id))!.status, "succeeded");
  items.push("B"); // new in the source after the first run listed it
  const { run: second, created } = await runner.request(tenant, null);
  assert.equal(created, true, "the first run is over: a new one is recorded");
  letGo();
  await runner.idle();
  assert.equal((await tenant.getRun(second.id))!.status, "succeeded");
  const numbers = (await tenant.documentChanges(0, 10, {}, 100)).items.map((b) => (JSON.parse(new TextDecoder().decode(b)) as { number: string }).number);
  assert.deepEqual(numbers.sort(), ["A", "B"]);
});
