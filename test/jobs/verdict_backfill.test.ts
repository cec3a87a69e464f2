/**
 * Judging documents stored without a verdict (lib/jobs/verdict_backfill.ts, README "Summary"): documents written
 * the way imports wrote them before verdicts were kept (XML, no verdict) count as invalid once judged, as their
 * `validation` says; a backfill stopped in the middle goes on after a restart without judging anything twice; XML
 * that cannot be judged is passed over and the run ends. On every store (PostgreSQL where DATABASE_URL is set).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fieldsFromXml, importFields } from "../../lib/contracts/record_json.ts";
import type { DocumentRecord, Storage, TenantStore } from "../../lib/contracts/storage.ts";
import { COUNT_KEY } from "../../lib/contracts/summary_counts.ts";
import { schemaSetOf } from "../../lib/formats/validation/schema_set.ts";
import { createVerdictBackfill } from "../../lib/jobs/verdict_backfill.ts";
import { createJsonLogger, silentLogger } from "../../lib/observe/log.ts";
import { FileStorage } from "../../storage/file/store.ts";
import { MemoryStorage } from "../../storage/memory.ts";
import { readSchemaFiles } from "../../storage/schemas/schema_files.ts";
import { fixturePath, startServer } from "../support/server.ts";
import { STORES } from "../support/stores.ts";

const SAMPLE = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"), "utf8");
const enc = new TextEncoder();
/** A valid FA(3) invoice numbered `number`; with `bad`, a number longer than FA(3)'s schema allows (256). */
const invoiceXml = (number: string, bad = false): Uint8Array => enc.encode(SAMPLE.replace(/<P_2>[^<]*<\/P_2>/, `<P_2>${bad ? number + "9".repeat(300) : number}</P_2>`));
const SCHEMAS = schemaSetOf(readSchemaFiles());
const at = "2026-11-20T10:00:00.000Z";

/** Stores `n` documents as imports did before verdicts were kept (XML, fields, no verdict); every `badEvery`-th invalid. */
async function storedTheOldWay(t: TenantStore, n: number, badEvery: number): Promise<DocumentRecord[]> {
  const out: DocumentRecord[] = [];
  for (let i = 0; i < n; i++) {
    const xml = invoiceXml(`${t.tenant}/${i}`, i % badEvery === badEvery - 1);
    out.push((await t.upsertDocument({ source: "inbox", external_id: `old-${i}`, fields: fieldsFromXml(xml), xml: await t.putBlob(xml), received_at: null }, at)).document);
  }
  return out;
}

const invalidCount = async (t: TenantStore): Promise<number> => (await t.summaryCounts([COUNT_KEY.documentsInvalid], [])).get(COUNT_KEY.documentsInvalid) ?? 0;

for (const store of STORES) {
  describe(`judging documents stored without a verdict${store.label}`, () => {
    test("after the backfill the summary counts the invalid ones, as each document's validation says", async () => {
      const s = await startServer({ storage: store });
      try {
        const { token } = await s.token("acme");
        const t = s.storage.tenant("acme");
        const docs = await storedTheOldWay(t, 9, 3); // 3 invalid
        await t.upsertDocument({ source: "inbox", external_id: "meta", fields: fieldsFromXml(invoiceXml("M")), xml: null, received_at: null }, at);
        const summary = async () => ((await (await s.fetch("/api/v1/summary", token)).json()) as { documents: { total: number; invalid: number } }).documents;
        assert.deepEqual(await summary(), { ...await summary(), total: 10, invalid: 0 }, "stored before verdicts: not counted yet");
        const result = await s.app.backfill!.run();
        assert.deepEqual(result, { judged: 9, invalid: 3, skipped: 0 }, "the document without XML is not judged");
        assert.equal((await summary()).invalid, 3);
        for (const d of docs) {
          const one = (await (await s.fetch(`/api/v1/documents/${d.id}`, token)).json()) as { validation: { valid: boolean } };
          const counted = d.external_id.endsWith("2") || d.external_id.endsWith("5") || d.external_id.endsWith("8");
          assert.equal(one.validation.valid, !counted, `${d.external_id}: the count agrees with its validation`);
        }
        assert.deepEqual(await s.app.backfill!.run(), { judged: 0, invalid: 0, skipped: 0 }, "nothing is left to judge");
      } finally {
        await s.close();
      }
    });

    test("a backfill stopped in the middle goes on after a restart, and judges each document once", async () => {
      const dir = mkdtempSync(join(tmpdir(), "backfill-"));
      let storage: Storage = await store.make(dir);
      try {
        await storedTheOldWay(storage.tenant("acme"), 12, 4); // 3 invalid
        await storedTheOldWay(storage.tenant("beta"), 3, 3); // 1 invalid
        const calls = new Map<string, number>();
        let stopAt = 7;
        const judge = async (xml: Uint8Array) => {
          const sha = createHash("sha256").update(xml).digest("hex");
          calls.set(sha, (calls.get(sha) ?? 0) + 1);
          if (--stopAt === 0) void first.stop(); // the process is asked to stop while it judges
          return importFields(xml, SCHEMAS).valid;
        };
        const first = createVerdictBackfill({ storage, judge, logger: silentLogger, nodeId: "n1", batch: 5 });
        const stopped = await first.run();
        assert.equal(stopped.judged, 7, "the batch cut short keeps what it judged");
        if (store.name === "file") {
          await storage.close();
          storage = new FileStorage(dir); // a restart: only what the files hold
        }
        const lines: string[] = [];
        const second = createVerdictBackfill({ storage, judge, logger: createJsonLogger("info", (l) => lines.push(l)), nodeId: "n2", batch: 5 });
        const rest = await second.run();
        assert.equal(rest.judged, 8);
        assert.equal(stopped.invalid + rest.invalid, 4);
        assert.equal(calls.size, 15);
        assert.deepEqual([...calls.values()].filter((n) => n !== 1), [], "no document was judged twice");
        assert.equal(await invalidCount(storage.tenant("acme")), 3);
        assert.equal(await invalidCount(storage.tenant("beta")), 1);
        // Progress: a line per batch, and one when a tenant is done.
        const msgs = lines.map((l) => JSON.parse(l) as { msg: string; tenant: string; judged_so_far?: number });
        assert.ok(msgs.some((m) => m.msg === "stored documents judged" && m.tenant === "acme"), lines.join("\n"));
        assert.deepEqual(msgs.filter((m) => m.msg === "every stored document judged").map((m) => m.tenant).sort(), ["acme", "beta"]);
      } finally {
        await storage.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

describe("judging documents stored without a verdict: what cannot be judged", () => {
  test("XML that is no readable invoice, or missing from the blobs, is passed over and the run ends; a restart tries it again", async () => {
    const storage = new MemoryStorage();
    const t = storage.tenant("acme");
    const [good] = await storedTheOldWay(t, 1, 2);
    const junk = enc.encode("<not-an-invoice/>");
    await t.upsertDocument({ source: "inbox", external_id: "junk", fields: fieldsFromXml(invoiceXml("J")), xml: await t.putBlob(junk), received_at: null }, at);
    await t.upsertDocument({ source: "inbox", external_id: "lost", fields: fieldsFromXml(invoiceXml("L")), xml: { sha256: "0".repeat(64), size: 1 }, received_at: null }, at);
    let calls = 0;
    const judge = async (xml: Uint8Array) => (calls++, importFields(xml, SCHEMAS).valid);
    const lines: string[] = [];
    const backfill = createVerdictBackfill({ storage, judge, logger: createJsonLogger("warn", (l) => lines.push(l)), nodeId: "n1" });
    assert.deepEqual(await backfill.run(), { judged: 1, invalid: 0, skipped: 2 });
    assert.equal(calls, 2, "the lost XML is not judged");
    assert.deepEqual(lines.map((l) => (JSON.parse(l) as { msg: string }).msg).sort(), ["document XML missing, not judged", "document not judged"]);
    assert.deepEqual((await t.unjudgedDocuments(0, 10)).items.map((x) => x.id).includes(good!.id), false);
    assert.equal((await t.unjudgedDocuments(0, 10)).items.length, 2, "left without a verdict, to be tried after a restart");
  });
});
