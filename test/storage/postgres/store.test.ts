/**
 * The storage contract suite against a real PostgreSQL server (DATABASE_URL, or
 * postgres://postgres@127.0.0.1:5432/integrator_test), one fresh schema per store,
 * and what only a shared database has to get right: concurrent writers from
 * separate connections, feed positions in commit order, constraints that refuse
 * duplicates, migrations run by two nodes at once. Without a server the tests
 * skip, unless CI is set: then they fail. Start one with test/support/start_postgres.sh.
 */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, describe, test } from "node:test";
import type { Pool as PgPoolClass, PoolConfig } from "pg";
import { documentJson } from "../../../lib/contracts/record_json.ts";
import type { DocumentInput, IdempotencyTag, Storage, StoredResponse } from "../../../lib/contracts/storage.ts";
import { MemoryStorage } from "../../../storage/memory.ts";
import { migrate, MIGRATIONS, PostgresStorage, type PgPool } from "../../../storage/postgres/store.ts";
import { fields, storageContract } from "../../support/storage_contract.ts";
import { reachPostgres, redactedDatabaseUrl, Schemas } from "../../support/postgres.ts";

const dec = new TextDecoder();
const sha = (s: string): string => createHash("sha256").update(s).digest("hex");
const at = (n: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString();
const parse = (b: Uint8Array): Record<string, unknown> => JSON.parse(dec.decode(b)) as Record<string, unknown>;
const doc = (externalId: string, number = externalId): DocumentInput =>
  ({ source: "inbox", external_id: externalId, fields: fields({ number }), xml: null, received_at: null });

const reached = await reachPostgres();

if ("why" in reached) {
  const message = `PostgreSQL is not reachable at ${redactedDatabaseUrl()}: ${reached.why}. ` +
    "Start one with: export DATABASE_URL=$(bash test/support/start_postgres.sh)";
  if (process.env.CI) {
    test("the PostgreSQL storage tests find their server (CI requires it)", () => assert.fail(message));
  } else {
    test("PostgreSQL storage", { skip: message }, () => {});
  }
} else {
  const { admin } = reached;
  const schemas = new Schemas(reached);
  /** A pool on a new empty schema of the test database. */
  const freshPool = (config: PoolConfig = {}, schema?: string) => schemas.pool(config, schema);
  const fresh = async (config: PoolConfig = {}): Promise<{ storage: PostgresStorage; pool: PgPoolClass; schema: string }> => {
    const { pool, schema } = await freshPool(config);
    return { storage: await PostgresStorage.open(pool), pool, schema };
  };

  after(() => schemas.dropAll());

  storageContract("postgres", async () => (await fresh()).storage);

  /** A pool whose connections run `hook` before each query (to hold a COMMIT, or to fail a statement). */
  const hooked = (pool: PgPoolClass, hook: (text: string) => Promise<void>): PgPool => ({
    query: (text, params) => pool.query(text, params),
    connect: async () => {
      const c = await pool.connect();
      return {
        query: async (text: string, params?: unknown[]) => {
          await hook(text);
          return c.query(text, params);
        },
        release: (destroy?: Error | boolean) => c.release(destroy),
      };
    },
  });

  const tag = (key: string): IdempotencyTag =>
    ({ key, fingerprint: `fp-${key}`, respond: (json: string): StoredResponse => ({ status: 201, location: null, body: json }) });

  describe("postgres storage", () => {
    test("open() migrates once when two nodes start at the same time, and again is a no-op", async () => {
      const { pool: a, schema } = await freshPool();
      const { pool: b } = await freshPool({}, schema);
      await Promise.all([PostgresStorage.open(a), PostgresStorage.open(b)]);
      const versions = (await a.query("SELECT version FROM schema_migrations ORDER BY version")).rows.map((r) => r.version);
      assert.deepEqual(versions, MIGRATIONS.map((m) => m.version));
      assert.deepEqual(await migrate(a), []);
      await a.query("INSERT INTO schema_migrations (version, name) VALUES (999, 'from the future')");
      await assert.rejects(PostgresStorage.open(b), /schema is at version 999, newer than this code knows/);
    });

    test("a feed writer waits for an uncommitted earlier one, so positions become visible in order", async () => {
      const app = `commit-order-${randomBytes(4).toString("hex")}`;
      const { pool } = await freshPool({ application_name: app });
      let hold: { reached: () => void; gate: Promise<void> } | null = null;
      const storage = await PostgresStorage.open(hooked(pool, async (text) => {
        if (text !== "COMMIT" || !hold) return;
        const h = hold;
        hold = null;
        h.reached();
        await h.gate;
      }));
      const t = storage.tenant("acme");
      await t.upsertDocument(doc("Z"), at(0)); // the feed exists: the steady state, not its first write
      let reachedCommit!: () => void, release!: () => void;
      const atCommit = new Promise<void>((r) => (reachedCommit = r));
      hold = { reached: reachedCommit, gate: new Promise<void>((r) => (release = r)) };
      const a = t.upsertDocument(doc("A"), at(1));
      await atCommit; // A has its position and holds the feed's row lock, not yet committed
      const b = t.upsertDocument(doc("B"), at(2));
      let waiting = false;
      for (const deadline = Date.now() + 10_000; !waiting && Date.now() < deadline;) {
        const r = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [app]);
        waiting = r.rows[0].n === 1;
      }
      assert.ok(waiting, "B waits on the feed lock that A holds");
      assert.equal(await t.feedLength("documents"), 1);
      assert.deepEqual(await t.rawChanges("documents", 1, 10), []);
      assert.equal((await t.documentChanges(1, 10, {}, 100)).items.length, 0);
      release();
      assert.equal((await a).outcome, "created");
      assert.equal((await b).outcome, "created");
      const raw = await t.rawChanges("documents", 0, 10);
      assert.deepEqual(raw.map((c) => [c.seq, parse(c.json).external_id, c.first]), [[0, "Z", true], [1, "A", true], [2, "B", true]]);
      await storage.close();
    });

    test("eight concurrent writers leave a gap-free feed that a cursor walks once, in order", async () => {
      const { storage } = await fresh({ max: 12 });
      const t = storage.tenant("acme");
      const written: string[] = [];
      let done = false;
      const writers = Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 15; i++) {
          // Every third write updates one of two documents that all writers share.
          const r = await t.upsertDocument(i % 3 === 0 ? doc(`shared-${i % 2}`, `w${w}-${i}`) : doc(`w${w}-${i}`), at(i));
          if (r.outcome !== "unchanged") written.push(documentJson(r.document));
        }
      });
      // A reader follows the raw feed while the writers run: it must never find a position missing.
      const raw: string[] = [];
      const firsts = new Map<string, number>();
      const reader = (async () => {
        let pos = 0;
        for (;;) {
          const finished = done;
          const page = await t.rawChanges("documents", pos, 16);
          for (const c of page) {
            assert.equal(c.seq, pos, "no position is skipped");
            pos++;
            raw.push(dec.decode(c.json));
            if (c.first) firsts.set(String(parse(c.json).external_id), (firsts.get(String(parse(c.json).external_id)) ?? 0) + 1);
          }
          if (finished && page.length === 0) break;
        }
      })();
      await Promise.all(writers);
      done = true;
      await reader;
      assert.equal(written.length, 8 * 15, "every write changed something");
      assert.deepEqual([...raw].sort(), [...written].sort(), "every change exactly once");
      assert.equal(await t.feedLength("documents"), written.length);
      assert.ok([...firsts.values()].every((n) => n === 1), "one creation per document");
      // The cursor walk lists each document once, at its latest change, in feed order.
      const latest = new Map<string, number>();
      raw.forEach((j, i) => latest.set(String((JSON.parse(j) as { id: string }).id), i));
      const expected = [...latest.entries()].sort((x, y) => x[1] - y[1]).map(([id]) => id);
      const walked: string[] = [];
      for (let next = 0, more = true; more;) {
        const page = await t.documentChanges(next, 7, {}, 1000);
        walked.push(...page.items.map((b) => String(parse(b).id)));
        next = page.next;
        more = page.hasMore;
      }
      assert.deepEqual(walked, expected);
      assert.equal(walked.length, 8 * 10 + 2);
      await storage.close();
    });

    test("eight concurrent submissions of one invoice create one; the constraints refuse the rest", async () => {
      const { storage, pool } = await fresh({ max: 12 });
      const t = storage.tenant("acme");
      const sameBytes = await Promise.all(Array.from({ length: 8 }, (_, i) =>
        t.createSubmission({ fields: fields({ number: `N${i}` }), xml: { sha256: sha("same"), size: 4 } }, at(i))));
      const created = sameBytes.flatMap((r) => ("created" in r ? [r.created.id] : []));
      assert.equal(created.length, 1);
      assert.deepEqual(sameBytes.filter((r) => "duplicateOf" in r), Array(7).fill({ duplicateOf: created[0] }));
      const sameKey = await Promise.all(Array.from({ length: 8 }, (_, i) =>
        t.createSubmission({ fields: fields({ number: "KEY" }), xml: { sha256: sha(`bytes-${i}`), size: 7 } }, at(i))));
      assert.equal(sameKey.filter((r) => "created" in r).length, 1);
      assert.equal(await t.feedLength("submissions"), 2);
      assert.deepEqual((await t.rawChanges("submissions", 0, 10)).map((c) => c.seq), [0, 1]);
      // The database itself refuses a duplicate, whoever writes it.
      await assert.rejects(
        pool.query(`INSERT INTO submissions (tenant, id, seq, created_seq, sha256, business_key, created_at, json)
          SELECT tenant, 'sub_other', 99, 99, sha256, '\\x00', created_at, json FROM submissions LIMIT 1`),
        (e: { code?: string; constraint?: string }) => e.code === "23505" && e.constraint === "submissions_same_bytes",
      );
      await storage.close();
    });

    test("eight concurrent sync requests for one source coalesce into one queued run", async () => {
      const { storage, pool } = await fresh({ max: 12 });
      const t = storage.tenant("acme");
      const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => t.requestRun("inbox", at(i))));
      assert.equal(runs.filter((r) => r.created).length, 1);
      assert.equal(new Set(runs.map((r) => r.run.id)).size, 1);
      assert.equal((await t.activeRuns()).length, 1);
      await assert.rejects(
        pool.query("INSERT INTO runs (tenant, id, ord, source, status, json) VALUES ('acme', 'sync_other', 9, 'inbox', 'running', '{}')"),
        (e: { code?: string; constraint?: string }) => e.code === "23505" && e.constraint === "runs_one_active",
      );
      await storage.close();
    });

    test("an idempotency key commits with its effect, and is lost with it", async () => {
      const { pool } = await freshPool();
      let failKeyWrite = true;
      const storage = await PostgresStorage.open(hooked(pool, async (text) => {
        if (failKeyWrite && text.includes("INSERT INTO idempotency")) throw new Error("disk full");
      }));
      const t = storage.tenant("acme");
      const input = { fields: fields(), xml: { sha256: sha("x"), size: 1 } };
      await assert.rejects(t.createSubmission(input, at(1), tag("k1")), /disk full/);
      assert.equal(await t.feedLength("submissions"), 0, "the submission rolled back with its key");
      assert.equal(await t.getIdempotency("k1", Date.parse(at(2)), 86_400_000), null);
      failKeyWrite = false;
      const r = await t.createSubmission(input, at(3), tag("k1"));
      assert.ok("created" in r);
      const kept = await t.getIdempotency("k1", Date.parse(at(4)), 86_400_000);
      assert.equal(kept?.fingerprint, "fp-k1");
      assert.equal(JSON.parse(kept!.response.body).id, r.created.id);
      assert.deepEqual((await t.rawChanges("submissions", 0, 10)).map((c) => c.seq), [0]);
      await storage.close();
    });

    test("an executing idempotency key is held for every node until released or its lease expires", async () => {
      const { pool, schema } = await freshPool();
      const { pool: other } = await freshPool({}, schema);
      const [a, b] = await Promise.all([PostgresStorage.open(pool), PostgresStorage.open(other)]);
      const nodeA = a.tenant("acme"), nodeB = b.tenant("acme");
      assert.equal(await nodeA.beginIdempotent("k"), true);
      assert.equal(await nodeB.beginIdempotent("k"), false);
      assert.equal(await b.tenant("other").beginIdempotent("k"), true, "another tenant's key of the same name is free");
      await nodeB.endIdempotent("k"); // not B's claim: A keeps it
      assert.equal(await nodeB.beginIdempotent("k"), false);
      await nodeA.endIdempotent("k");
      assert.equal(await nodeB.beginIdempotent("k"), true);
      // B dies holding it: once the lease has run out, A may take the key.
      await pool.query("UPDATE idempotency_claims SET expires_at = now() - interval '1 second'");
      assert.equal(await nodeA.beginIdempotent("k"), true);
    });

    test("a large blob streams in chunks of at most 1 MiB and reads back whole", async () => {
      const { storage } = await fresh();
      const t = storage.tenant("acme");
      const bytes = randomBytes(2.5 * 1024 * 1024);
      const info = await t.putBlob(bytes);
      const blob = await t.getBlob(info.sha256);
      assert.ok(blob);
      assert.equal(blob.size, bytes.length);
      const chunks: Uint8Array[] = [];
      for await (const c of blob.stream(0, bytes.length)) chunks.push(c);
      assert.deepEqual(chunks.map((c) => c.length), [1048576, 1048576, 524288]);
      assert.ok(Buffer.concat(chunks).equals(bytes));
      const range: Uint8Array[] = [];
      for await (const c of blob.stream(1_000_000, 2_100_000)) range.push(c);
      assert.ok(Buffer.concat(range).equals(bytes.subarray(1_000_000, 2_100_000)));
      assert.ok(Buffer.from(await blob.bytes()).equals(bytes));
      assert.equal((await t.putDerived("pdf-key", bytes)).size, bytes.length);
      assert.equal((await t.getDerived("pdf-key"))?.size, bytes.length);
      await storage.close();
    });

    test("runs, webhooks, delivery state, raw changes and idempotency records behave as in the memory store", async () => {
      const scenario = async (s: Storage): Promise<string> => {
        const t = s.tenant("acme");
        const out: unknown[] = [];
        const run = await t.requestRun("inbox", at(1), tag("k-run"));
        out.push(run, await t.requestRun("inbox", at(2), tag("k-coalesced")));
        await t.saveRun({ ...run.run, status: "running", started_at: at(2) });
        await t.saveRun({ ...run.run, status: "succeeded", started_at: at(2), finished_at: at(3) });
        out.push(await t.getRun(run.run.id), await t.activeRuns(), await t.requestRun("inbox", at(4)));
        await t.upsertDocument(doc("A"), at(5));
        await t.upsertDocument(doc("A", "A2"), at(6));
        await t.createSubmission({ fields: fields(), xml: { sha256: sha("s"), size: 1 } }, at(7), tag("k-sub"));
        const hook = { url: "https://example.test/h", events: ["*"], description: null, secret: "whsec_x", created_at: at(8) };
        const w1 = await t.createWebhook(hook, tag("k-hook"));
        const w2 = await t.createWebhook({ ...hook, description: "second", created_at: at(9) });
        await t.saveWebhook({ ...w1, status: "deleted" });
        assert.equal(await t.saveWebhook({ ...w1, description: "late" }), null); // compare-and-set: w1 was replaced
        await assert.rejects(t.saveWebhook({ ...w1, id: "whk_00000000000000000000000000" }), RangeError);
        await assert.rejects(t.saveRun({ ...run.run, id: "sync_00000000000000000000000000" }), RangeError);
        out.push(w1, await t.listWebhooks(), await t.getWebhook(w1.id), await t.getWebhook(w2.id), await t.getDeliveryState(w2.id));
        await t.saveDeliveryState(w2.id, { positions: { documents: 1, submissions: 0, runs: 2 }, retries: [] });
        await t.saveDeliveryState(w2.id, { positions: { documents: 2, submissions: 1, runs: 3 }, retries: [{ event_id: "evt_1", type: "sync.completed", collection: "runs", seq: 2, attempts: 1, next_at: 5 }] });
        out.push(await t.getDeliveryState(w2.id));
        for (const c of ["documents", "submissions", "runs"] as const) {
          out.push(c, await t.feedLength(c), (await t.rawChanges(c, 0, 100)).map((x) => ({ ...x, json: dec.decode(x.json) })), (await t.rawChanges(c, 1, 1)).map((x) => x.seq));
        }
        for (const key of ["k-run", "k-coalesced", "k-sub", "k-hook"]) out.push(key, await t.getIdempotency(key, Date.parse(at(10)), 86_400_000));
        out.push(await t.getIdempotency("k-run", Date.parse(at(1)) + 86_400_000, 86_400_000)); // expired
        await t.putIdempotency({ key: "k-put", fingerprint: "f", response: { status: 422, location: null, body: "{}" }, created_at: at(11) });
        await t.putIdempotency({ key: "k-put", fingerprint: "g", response: { status: 400, location: "/x", body: "[]" }, created_at: at(12) });
        out.push(await t.getIdempotency("k-put", Date.parse(at(13)), 86_400_000), await s.tenants());
        out.push(await t.beginIdempotent("k-busy"), await t.beginIdempotent("k-busy"), await t.beginIdempotent("k-other"));
        await t.endIdempotent("k-busy");
        await t.endIdempotent("k-never-begun");
        out.push(await t.beginIdempotent("k-busy"));
        // Ids are random: name them by order of first appearance.
        const names = new Map<string, string>();
        return JSON.stringify(out).replace(/\b(doc|sub|whk|sync)_[0-9A-Z]{26}\b/g, (id, p: string) => {
          if (!names.has(id)) names.set(id, `${p}#${names.size}`);
          return names.get(id)!;
        });
      };
      const { storage } = await fresh();
      const expected = await scenario(new MemoryStorage());
      assert.equal(await scenario(storage), expected);
      await storage.close();
    });
  });
}
