/**
 * A sync run's writes on PostgreSQL in few statements (storage/postgres/blob_group.ts, documents.ts): blobs put
 * together share one INSERT and each put is answered after it commits (or fails with it); a batch of documents
 * gives the outcomes, feed order and counts of upserts one by one. Skips without a server, as store.test.ts does.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, describe, test } from "node:test";
import type { Pool as PgPoolClass } from "pg";
import { PostgresStorage, type PgPool } from "../../../storage/postgres/store.ts";
import { GROUP_ROWS } from "../../../storage/postgres/blob_group.ts";
import { reachPostgres, redactedDatabaseUrl, Schemas } from "../../support/postgres.ts";

const enc = new TextEncoder();
const sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

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

    test("puts that arrive while a group is written form the next group; none is answered before its statement", async () => {
      const { pool } = await schemas.pool();
      let release!: () => void, reached!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const atFirst = new Promise<void>((r) => (reached = r));
      let held = false;
      const w = watched(pool, async (text) => {
        if (held || !text.startsWith("INSERT INTO blobs")) return;
        held = true;
        reached();
        await gate;
      });
      const storage = await PostgresStorage.open(w.pool);
      const t = storage.tenant("acme");
      const answered: number[] = [];
      const first = t.putBlob(enc.encode("first")).then(() => answered.push(0));
      await atFirst;
      const later = Array.from({ length: GROUP_ROWS + 10 }, (_, i) => t.putBlob(enc.encode(`later ${i}`)).then(() => answered.push(i + 1)));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(answered, [], "nothing is answered while the first statement has not committed");
      release();
      await Promise.all([first, ...later]);
      assert.equal(answered[0], 0, "the first put is answered first");
      assert.equal(answered.length, GROUP_ROWS + 11);
      // The first group, then the later puts in groups of at most GROUP_ROWS rows.
      assert.equal(blobInserts(w.statements), 3);
      assert.equal((await pool.query("SELECT count(*)::int AS n FROM blobs")).rows[0].n, GROUP_ROWS + 11);
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

    test("a blob larger than a group's byte bound goes alone; the others still share a statement", async () => {
      const { pool } = await schemas.pool();
      const w = watched(pool);
      const storage = await PostgresStorage.open(w.pool);
      const t = storage.tenant("acme");
      const big = new Uint8Array(9 * 1024 * 1024).fill(7), big2 = new Uint8Array(9 * 1024 * 1024).fill(8);
      await Promise.all([t.putBlob(enc.encode("s1")), t.putBlob(big), t.putBlob(big2), t.putBlob(enc.encode("s2"))]);
      // s1 + big (9 MiB) fit 16 MiB; big2 would not, so it starts the next group with s2.
      assert.equal(blobInserts(w.statements), 2);
      assert.equal((await t.getBlob(sha(big2)))!.size, big2.length);
      await storage.close();
    });
  });
}
