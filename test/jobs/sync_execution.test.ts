import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { DocumentSource } from "../../lib/contracts/document_source.ts";
import { fieldsFromInvoice } from "../../lib/contracts/record_json.ts";
import type { ImportedFields } from "../../lib/contracts/storage.ts";
import { formatKsefNumber } from "../../lib/formats/invoice/ksef_number.ts";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import { createSyncRunner } from "../../lib/jobs/sync_runner.ts";
import { silentLogger } from "../../lib/observe/log.ts";
import { MemoryStorage } from "../../storage/memory.ts";
import { httpSource } from "../../storage/sources/http.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

describe("a sync run takes an upstream's KSeF number only when it is one", () => {
  let up: Server;
  let s: TestServer;
  const good = formatKsefNumber("5260250274", "20251104", "0100001F2E1E");
  before(async () => {
    up = createServer((_req, res) => res.end(JSON.stringify({
      data: [
        { id: "ok", xml_available: false, number: "FV/1", ksef_number: good },
        { id: "bad-checksum", xml_available: false, number: "FV/2", ksef_number: `${good.slice(0, 33)}00` },
        { id: "not-a-number", xml_available: false, number: "FV/3", ksef_number: "../../etc/passwd" },
      ],
      has_more: false, next_cursor: "c1",
    })));
    await new Promise<void>((r) => up.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(up.address() as { port: number }).port}`;
    s = await startServer({
      sources: (tenant) => [httpSource({ name: "upstream", url, token: "t", positionFile: join(s.dataDir, `${tenant}.cursor`), retryDelays: [], maxXmlBytes: 10 * 1024 * 1024 })],
    });
  });
  after(async () => {
    await s.close();
    await new Promise<void>((r) => up.close(() => r()));
  });

  test("a malformed or wrong-checksum ksef_number fails its item; a valid one is kept", async () => {
    const { token } = await s.token("acme");
    const run = (await s.sync(token)) as { counts: Record<string, number>; errors: { external_id: string; code: string }[] };
    assert.equal(run.counts.created, 1);
    assert.equal(run.counts.failed, 2);
    assert.deepEqual(run.errors.map((e) => [e.external_id, e.code]), [["bad-checksum", "VALIDATION_ERROR"], ["not-a-number", "VALIDATION_ERROR"]]);
    const list = (await (await s.fetch("/api/v1/documents?page=1", token)).json()) as { data: { external_id: string; ksef_number: string | null }[] };
    assert.deepEqual(list.data.map((d) => [d.external_id, d.ksef_number]), [["ok", good]]);
  });
});

describe("a sync run reads items a few at a time while the batch before is stored", () => {
  const TOTAL = 600; // more than two batches
  const xml = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"));
  const turns = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };

  test("reads overlap each other and the storing of the batch before; each item is acknowledged only once stored and counted", async () => {
    const storage = new MemoryStorage();
    const tenant = storage.tenant("acme");
    const stored = new Set<string>();
    let storing = 0;
    let exhausted = false;
    // A store that takes a while, as a flush does: until a read starts meanwhile (what overlapping means), the
    // source has nothing left to read, or 5 s pass (then the assertion below fails). Counting event-loop turns
    // instead raced with the runner's own yields to the timer phase on a loaded machine.
    let storeMayEnd: (() => void) | null = null;
    const upsert = tenant.upsertDocuments.bind(tenant);
    tenant.upsertDocuments = async (inputs, now) => {
      storing++;
      if (!exhausted) {
        await new Promise<void>((resolve) => {
          const bound = setTimeout(resolve, 5_000);
          storeMayEnd = () => {
            clearTimeout(bound);
            resolve();
          };
        });
      }
      storeMayEnd = null;
      const out = await upsert(inputs, now);
      for (const i of inputs) stored.add(i.external_id);
      storing--;
      return out;
    };
    const acked: string[] = [];
    const problems: string[] = [];
    const source: DocumentSource = {
      name: "inbox",
      async *pull() {
        for (let i = 0; i < TOTAL; i++) {
          const id = `item-${String(i).padStart(3, "0")}`;
          yield {
            external_id: id, xml, metadata: null,
            ack: async () => {
              if (!stored.has(id)) problems.push(`${id} acknowledged before it was stored`);
              acked.push(id);
            },
            reject: async () => void problems.push(`${id} rejected`),
          };
        }
        exhausted = true;
        storeMayEnd?.();
      },
    };
    let reading = 0, most = 0, whileStoring = 0;
    const readFields = async (bytes: Uint8Array): Promise<ImportedFields> => {
      most = Math.max(most, ++reading);
      if (storing > 0) {
        whileStoring++;
        storeMayEnd?.();
      }
      await turns(2); // a read on another thread answers later
      reading--;
      return { fields: fieldsFromInvoice(readInvoiceXml(bytes)), valid: null };
    };
    const runner = createSyncRunner({ storage, sources: () => [source], now: Date.now, logger: silentLogger, nodeId: "n1", readFields });
    const { run } = await runner.request(tenant, null);
    await runner.idle();
    const done = (await tenant.getRun(run.id))!;
    assert.equal(done.status, "succeeded");
    assert.deepEqual(done.counts, { fetched: TOTAL, created: TOTAL, updated: 0, unchanged: 0, failed: 0 });
    assert.deepEqual(problems, []);
    assert.equal(acked.length, TOTAL);
    assert.deepEqual(acked, [...acked].sort(), "acknowledged in the source's order");
    assert.ok(most > 1, `reads at once: ${most}`);
    assert.ok(most <= 64, `reads at once are bounded: ${most}`);
    assert.ok(whileStoring > 0, "the next batch is read while the one before is stored");
  });

  test("an item whose XML cannot be read fails alone, counted in its batch", async () => {
    const storage = new MemoryStorage();
    const tenant = storage.tenant("acme");
    const rejected: string[] = [];
    const source: DocumentSource = {
      name: "inbox",
      async *pull() {
        for (let i = 0; i < 300; i++) {
          const id = `item-${String(i).padStart(3, "0")}`;
          yield { external_id: id, xml: i === 257 ? Buffer.from("<Faktura>") : xml, metadata: null, ack: async () => {}, reject: async () => void rejected.push(id) };
        }
      },
    };
    const runner = createSyncRunner({ storage, sources: () => [source], now: Date.now, logger: silentLogger, nodeId: "n1" });
    const { run } = await runner.request(tenant, null);
    await runner.idle();
    const done = (await tenant.getRun(run.id))!;
    assert.equal(done.status, "succeeded");
    assert.deepEqual(done.counts, { fetched: 300, created: 299, updated: 0, unchanged: 0, failed: 1 });
    assert.deepEqual(rejected, ["item-257"]);
    assert.equal(done.errors[0]!.code, "VALIDATION_ERROR");
  });
});
