/**
 * A sync run's writes on PostgreSQL in few statements (storage/postgres/blob_group.ts, documents.ts): blobs put
 * together share one INSERT and each put is answered after it commits (or fails with it); a batch of documents
 * gives the outcomes, feed order and counts of upserts one by one, and of the memory store (what every store's batch
 * must do is the contract suite's, storage_contract_batch.ts). Skips without a server, as store.test.ts does.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, describe, test } from "node:test";
import type { Pool as PgPoolClass } from "pg";
import type { DocumentInput, Storage } from "../../../lib/contracts/storage.ts";
import { MemoryStorage } from "../../../storage/memory.ts";
import { PostgresStorage, type PgPool } from "../../../storage/postgres/store.ts";
import { GROUP_BYTES, GROUP_ROWS, LANES } from "../../../storage/postgres/blob_group.ts";
import { fields } from "../../support/storage_contract.ts";
import { answers, BATCH_OUTCOMES, batchInputs, observed, xmlOf } from "../../support/storage_contract_batch.ts";
import { reachPostgres, redactedDatabaseUrl, Schemas } from "../../support/postgres.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");
const NOW = "2026-11-01T00:00:00.000Z", LATER = "2026-11-02T00:00:00.000Z";
const doc = (id: string, over: Partial<DocumentInput> = {}): DocumentInput =>
  ({ source: "inbox", external_id: id, fields: fields({ number: id }), xml: null, received_at: null, ...over });
const { seed: SEED, batch: BATCH } = batchInputs(fields);

/** The kept counts that are not zero, and the same counts computed from the documents table: they must agree. */
async function counts(pool: PgPoolClass): Promise<{ kept: unknown[]; actual: unknown[] }> {
  const q = async (sql: string): Promise<unknown[]> => (await pool.query(sql)).rows.map((r) => JSON.stringify(r));
  const kept = [
    ...await q("SELECT type, format, xml_available, n::int FROM document_counts WHERE n <> 0 ORDER BY 1, 2, 3"),
    ...await q("SELECT role, tax_id, type, format, xml_available, n::int FROM document_tax_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5"),
    ...await q("SELECT issue_day, type, format, xml_available, n::int FROM document_day_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4"),
  ];
  const actual = [
    ...await q("SELECT coalesce(type, '') AS type, coalesce(format, '') AS format, xml_available, count(*)::int AS n FROM documents GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"),
    ...await q(`SELECT role, tax_id, type, format, xml_available, count(*)::int AS n FROM (
      SELECT 'seller' AS role, seller_tax_id AS tax_id, coalesce(type, '') AS type, coalesce(format, '') AS format, xml_available FROM documents
      UNION ALL SELECT 'buyer', buyer_tax_id, coalesce(type, ''), coalesce(format, ''), xml_available FROM documents) p
      WHERE tax_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`),
    ...await q(`SELECT issue_day, coalesce(type, '') AS type, coalesce(format, '') AS format, xml_available, count(*)::int AS n
      FROM documents WHERE issue_day IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
  ];
  return { kept, actual };
}

const reached = await reachPostgres();

/** A pool whose pool-level queries are logged and run `hook` first (to hold or fail a statement); transactions pass through. */
function watched(pool: PgPoolClass, hook: (text: string) => Promise<void> = async () => {}): { pool: PgPool; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    pool: {
      query: async (text, params) => {
        statements.push(text);
        await hook(text);
        return pool.query(text, params);
      },
      connect: () => pool.connect(),
    },
  };
}

const blobInserts = (statements: string[]): number => statements.filter((s) => s.startsWith("INSERT INTO blobs")).length;

if ("why" in reached) {
  const message = `PostgreSQL is not reachable at ${redactedDatabaseUrl()}: ${reached.why}`;
  if (process.env.CI) test("the PostgreSQL batch tests find their server (CI requires it)", () => assert.fail(message));
  else test("PostgreSQL batches", { skip: message }, () => {});
} else {
  const schemas = new Schemas(reached);
  after(() => schemas.dropAll());

  describe("postgres blob groups", () => {
    test("blobs put in one turn share one statement, and every put reads back after it resolves", async () => {
      const { pool } = await schemas.pool();
      const w = watched(pool);
      const storage = await PostgresStorage.open(w.pool);
      const t = storage.tenant("acme");
      const blobs = Array.from({ length: 40 }, (_, i) => enc.encode(`<x n="${i}"/>`));
      const puts = [...blobs.map((b) => t.putBlob(b)), t.putBlob(blobs[0]!), t.putDerived("pdf-1", enc.encode("%PDF"))];
      const infos = await Promise.all(puts);
      assert.equal(blobInserts(w.statements), 1);
      assert.deepEqual(infos.slice(0, 40), blobs.map((b) => ({ sha256: sha(b), size: b.length })));
      assert.deepEqual(infos[40], infos[0]);
      for (const b of blobs) assert.deepEqual(new Uint8Array(await (await t.getBlob(sha(b)))!.bytes()), b);
      assert.equal(new TextDecoder().decode(await (await t.getDerived("pdf-1"))!.bytes()), "%PDF");
      assert.equal((await pool.query("SELECT count(*)::int AS n FROM blobs")).rows[0].n, 41, "a blob put twice is one row");
      await storage.close();
    });

    test("a turn's puts go as statements of at most GROUP_ROWS rows, side by side", async () => {
      const { pool } = await schemas.pool();
      const w = watched(pool);
      const storage = await PostgresStorage.open(w.pool);
      const t = storage.tenant("acme");
      const n = GROUP_ROWS * LANES;
      await Promise.all(Array.from({ length: n }, (_, i) => t.putBlob(enc.encode(`blob ${i}`))));
      assert.equal(blobInserts(w.statements), LANES);
      assert.equal((await pool.query("SELECT count(*)::int AS n FROM blobs")).rows[0].n, n);
      await storage.close();
    });

    test("puts that arrive while every lane is busy form one group; none is answered before its statement commits", async () => {
      const { pool } = await schemas.pool();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let held = 0, allHeld!: () => void;
      const lanesBusy = new Promise<void>((r) => (allHeld = r));
      const w = watched(pool, async (text) => {
        if (!text.startsWith("INSERT INTO blobs")) return;
        if (++held === LANES) allHeld();
        await gate;
      });
      const storage = await PostgresStorage.open(w.pool);
      const t = storage.tenant("acme");
      const answered: string[] = [];
      const put = (s: string): Promise<unknown> => t.putBlob(enc.encode(s)).then(() => answered.push(s));
      const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
      const first: Promise<unknown>[] = [];
      for (let i = 0; i < LANES; i++) {
        first.push(put(`first ${i}`)); // each in its own turn: each takes a lane of its own
        await turn();
      }
      await lanesBusy;
      const later: Promise<unknown>[] = [];
      for (let i = 0; i < 30; i++) {
        later.push(put(`later ${i}`));
        await turn();
      }
      assert.equal(blobInserts(w.statements), LANES, "no lane was free for the later puts");
      assert.deepEqual(answered, [], "nothing is answered while its statement has not committed");
      release();
      await Promise.all([...first, ...later]);
      assert.equal(blobInserts(w.statements), LANES + 1, "the later puts went together");
      assert.equal(answered.length, LANES + 30);
      assert.equal((await pool.query("SELECT count(*)::int AS n FROM blobs")).rows[0].n, LANES + 30);
      await storage.close();
    });

    test("a failing group rejects every put of it, stores none of them, and the next group is written", async () => {
      const { pool } = await schemas.pool();
      let fail = true;
      const w = watched(pool, async (text) => {
        if (fail && text.startsWith("INSERT INTO blobs")) throw new Error("disk full");
      });
      const storage = await PostgresStorage.open(w.pool);
      const t = storage.tenant("acme");
      const results = await Promise.allSettled([t.putBlob(enc.encode("a")), t.putBlob(enc.encode("b")), t.putDerived("k", enc.encode("c"))]);
      assert.deepEqual(results.map((r) => r.status), ["rejected", "rejected", "rejected"]);
      for (const r of results) assert.match(String((r as PromiseRejectedResult).reason), /disk full/);
      assert.equal(blobInserts(w.statements), 1);
      assert.equal(await t.getBlob(sha(enc.encode("a"))), null);
      fail = false;
      assert.equal((await t.putBlob(enc.encode("a"))).size, 1);
      assert.ok(await t.getBlob(sha(enc.encode("a"))));
      await storage.close();
    });

    test("two nodes putting the same blobs in opposite orders at once both succeed (no deadlock)", async () => {
      const { pool, schema } = await schemas.pool();
      const { pool: other } = await schemas.pool({}, schema);
      const [a, b] = [await PostgresStorage.open(pool), await PostgresStorage.open(other)];
      for (let round = 0; round < 3; round++) {
        const blobs = Array.from({ length: GROUP_ROWS * LANES }, (_, i) => enc.encode(`round ${round} blob ${i} `.repeat(50)));
        const reversed = [...blobs].reverse();
        await Promise.all([...blobs.map((x) => a.tenant("acme").putBlob(x)), ...reversed.map((x) => b.tenant("acme").putBlob(x))]);
      }
      assert.equal((await pool.query("SELECT count(*)::int AS n FROM blobs")).rows[0].n, 3 * GROUP_ROWS * LANES);
      for (const s of [a, b]) await s.close();
    });

    test("a blob larger than a group's byte bound goes alone; the others still share a statement", async () => {
      const { pool } = await schemas.pool();
      const w = watched(pool);
      const storage = await PostgresStorage.open(w.pool);
      const t = storage.tenant("acme");
      const size = Math.floor(GROUP_BYTES * 0.75);
      const big = new Uint8Array(size).fill(7), big2 = new Uint8Array(size).fill(8);
      await Promise.all([t.putBlob(enc.encode("s1")), t.putBlob(big), t.putBlob(big2), t.putBlob(enc.encode("s2"))]);
      // s1 and big fit GROUP_BYTES; big2 would not, so it starts the next group, with s2.
      assert.equal(blobInserts(w.statements), 2);
      assert.equal((await t.getBlob(sha(big2)))!.size, big2.length);
      assert.equal((await t.getBlob(sha(big)))!.size, big.length);
      await storage.close();
    });
  });

  /** A pool whose transactions' statements are logged (pool-level queries too). */
  const logged = (pool: PgPoolClass): { pool: PgPool; statements: string[] } => {
    const statements: string[] = [];
    return {
      statements,
      pool: {
        query: (text, params) => (statements.push(text), pool.query(text, params)),
        connect: async () => {
          const c = await pool.connect();
          return { query: (text: string, params?: unknown[]) => (statements.push(text), c.query(text, params)), release: (d?: Error | boolean) => c.release(d) };
        },
      },
    };
  };
  const fresh = async (): Promise<{ storage: Storage; pool: PgPoolClass }> => {
    const { pool } = await schemas.pool();
    return { storage: await PostgresStorage.open(pool), pool };
  };
  const rows = async (pool: PgPoolClass): Promise<unknown[]> =>
    (await pool.query("SELECT source, external_id, seq::int, ord::int FROM documents ORDER BY seq")).rows;

  describe("postgres document batches", () => {
    test("a batch of new, changed and unchanged documents answers, feeds and counts as upserts one by one", async () => {
      const one = await fresh(), many = await fresh();
      const memory = new MemoryStorage();
      for (const s of [one.storage, many.storage, memory]) for (const d of SEED) await s.tenant("acme").upsertDocument(d, NOW);
      const byOne = [], byMemory = [];
      for (const d of BATCH) byOne.push(await one.storage.tenant("acme").upsertDocument(d, LATER));
      for (const d of BATCH) byMemory.push(await memory.tenant("acme").upsertDocument(d, LATER));
      const byMany = await many.storage.tenant("acme").upsertDocuments(BATCH, LATER);
      assert.deepEqual(byMany.map((r) => r.outcome), BATCH_OUTCOMES);
      assert.deepEqual(answers(byMany), answers(byOne));
      assert.deepEqual(answers(byMany), answers(byMemory));
      const seen = await observed(many.storage.tenant("acme"));
      assert.equal(seen, await observed(one.storage.tenant("acme")));
      assert.equal(seen, await observed(memory.tenant("acme")));
      assert.deepEqual(await rows(many.pool), await rows(one.pool), "feed positions and page-order ties (ord) as one by one");
      const kept = await counts(many.pool);
      assert.deepEqual(kept.kept, kept.actual);
      assert.deepEqual(kept.kept, (await counts(one.pool)).kept);
      for (const s of [one.storage, many.storage, memory]) await s.close();
    });

    test("a key repeated within a batch is one row, created at its first position and kept at its last", async () => {
      const { storage, pool } = await fresh();
      const t = storage.tenant("acme");
      await t.upsertDocument(doc("Z"), NOW);
      await t.upsertDocuments([doc("X"), doc("X", { xml: xmlOf("x1") }), doc("Y"), doc("X", { xml: xmlOf("x2") }), doc("X", { xml: xmlOf("x2") })], LATER);
      // Its outcomes and feed entries are the contract suite's (storage_contract_batch.ts); here, the rows and counts.
      assert.deepEqual(await rows(pool), [
        { source: "inbox", external_id: "Z", seq: 0, ord: 0 }, { source: "inbox", external_id: "Y", seq: 3, ord: 3 },
        { source: "inbox", external_id: "X", seq: 4, ord: 1 },
      ]);
      const c = await counts(pool);
      assert.deepEqual(c.kept, c.actual);
      await storage.close();
    });

    test("a batch takes the same few statements whatever its size; one with nothing new takes no transaction", async () => {
      const { pool } = await schemas.pool();
      const log = logged(pool);
      const storage = await PostgresStorage.open(log.pool);
      const t = storage.tenant("acme");
      await t.upsertDocument(doc("first"), NOW); // the feed's row exists: the steady state
      const batch = Array.from({ length: 200 }, (_, i) => doc(`D${i}`, { xml: xmlOf(`d${i}`) }));
      log.statements.length = 0;
      assert.ok((await t.upsertDocuments(batch, LATER)).every((r) => r.outcome === "created"));
      // The unlocked look, BEGIN, the feed's lock, the look under it, the write, COMMIT.
      assert.equal(log.statements.length, 6, log.statements.join("\n---\n"));
      log.statements.length = 0;
      assert.ok((await t.upsertDocuments(batch, LATER)).every((r) => r.outcome === "unchanged"));
      assert.equal(log.statements.length, 1);
      assert.equal((await t.documentPage({}, "synced_at", 0, 0)).total, 201);
      await storage.close();
    });

    test("batches and single upserts from two nodes at once keep the feed gap-free and the counts exact", async () => {
      const { pool, schema } = await schemas.pool({ max: 6 });
      const { pool: other } = await schemas.pool({ max: 6 }, schema);
      const nodes = [await PostgresStorage.open(pool), await PostgresStorage.open(other)];
      const changed: string[] = [];
      const writers = Array.from({ length: 6 }, async (_, w) => {
        const t = nodes[w % 2]!.tenant("acme");
        for (let round = 0; round < 6; round++) {
          // Own documents, plus shared ones that every writer updates (a new number, sometimes a new type or day).
          const inputs = [
            ...Array.from({ length: 8 }, (_, i) => doc(`w${w}-${round}-${i}`)),
            ...Array.from({ length: 3 }, (_, i) => doc(`shared-${i}`, { fields: fields({ number: `w${w}-${round}`, type: round % 2 ? "invoice" : "correction", issue_date: `2026-01-0${1 + (w % 3)}` }) })),
          ];
          const results = w === 5 ? await Promise.all(inputs.map((d) => t.upsertDocument(d, LATER))) : await t.upsertDocuments(inputs, LATER);
          for (const r of results) if (r.outcome !== "unchanged") changed.push(JSON.stringify(r.document));
        }
      });
      await Promise.all(writers);
      const t = nodes[0]!.tenant("acme");
      const raw = await t.rawChanges("documents", 0, 10_000);
      assert.deepEqual(raw.map((c) => c.seq), raw.map((_, i) => i), "gap-free");
      assert.equal(raw.length, changed.length);
      assert.equal(await t.feedLength("documents"), changed.length);
      const docs = (await pool.query("SELECT external_id, seq::int FROM documents")).rows as { external_id: string; seq: number }[];
      assert.equal(docs.length, 6 * 6 * 8 + 3);
      const lastSeq = new Map<string, number>();
      for (const c of raw) lastSeq.set((JSON.parse(dec.decode(c.json)) as { external_id: string }).external_id, c.seq);
      for (const d of docs) assert.equal(d.seq, lastSeq.get(d.external_id), `${d.external_id} sits at its latest change`);
      const c = await counts(pool);
      assert.deepEqual(c.kept, c.actual);
      for (const n of nodes) await n.close();
    });
  });
}
