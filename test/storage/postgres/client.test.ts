/**
 * Lookups by a unique key (storage/postgres/client.ts, TENANT_KEY) take their unique index even for a tenant that
 * the table's statistics have not seen yet (its first import, before autovacuum's ANALYZE), instead of walking all
 * the tenant's rows through another index. Each lookup is EXPLAINed with the parameters it ran with.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, test } from "node:test";
import type { Pool as PgPoolClass } from "pg";
import type { DocumentInput, SubmissionKsef } from "../../../lib/contracts/storage.ts";
import { PostgresStorage, type PgPool } from "../../../storage/postgres/store.ts";
import { fields } from "../../support/storage_contract.ts";
import { reachPostgres, redactedDatabaseUrl, Schemas } from "../../support/postgres.ts";

const NOW = "2026-11-01T00:00:00.000Z";
const sha = (s: string): string => createHash("sha256").update(s).digest("hex");
const doc = (id: string, number = id): DocumentInput => ({ source: "inbox", external_id: id, fields: fields({ number }), xml: null, received_at: null });
const UNIQUE = new Set(["documents_pkey", "documents_external_id", "submissions_pkey", "submissions_same_bytes", "submissions_same_business_key"]);
const ROWS = 300;

const reached = await reachPostgres();

/** A pool that logs every statement with its parameters. */
function logged(pool: PgPoolClass): { pool: PgPool; statements: [string, unknown[]][] } {
  const statements: [string, unknown[]][] = [];
  const log = (text: string, params?: unknown[]): void => void statements.push([text, params ?? []]);
  return {
    statements,
    pool: {
      query: (text, params) => (log(text, params), pool.query(text, params)),
      connect: async () => {
        const c = await pool.connect();
        return { query: (text: string, params?: unknown[]) => (log(text, params), c.query(text, params)), release: (d?: Error | boolean) => c.release(d) };
      },
    },
  };
}

if ("why" in reached) {
  const message = `PostgreSQL is not reachable at ${redactedDatabaseUrl()}: ${reached.why}`;
  if (process.env.CI) test("the PostgreSQL lookup tests find their server (CI requires it)", () => assert.fail(message));
  else test("PostgreSQL lookups", { skip: message }, () => {});
} else {
  const schemas = new Schemas(reached);
  after(() => schemas.dropAll());

  test("lookups by a unique key take its index for a tenant newer than the statistics", async () => {
    const { pool } = await schemas.pool();
    const log = logged(pool);
    const storage = await PostgresStorage.open(log.pool);
    for (const table of ["documents", "submissions"]) await pool.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    const fill = async (tenant: string): Promise<string[]> => {
      const t = storage.tenant(tenant);
      await t.upsertDocuments(Array.from({ length: ROWS }, (_, i) => doc(`D${i}`)), NOW);
      const ids: string[] = [];
      for (let i = 0; i < ROWS; i++) {
        const r = await t.createSubmission({ fields: fields({ number: `S${i}` }), xml: { sha256: sha(`${tenant} ${i}`), size: 1 } }, NOW);
        if ("created" in r) ids.push(r.created.id);
      }
      return ids;
    };
    await fill("old");
    await pool.query("ANALYZE documents, submissions"); // the statistics know "old" only
    const submissions = await fill("new");
    const t = storage.tenant("new");
    const [first] = await t.upsertDocuments([doc("D0")], NOW);
    log.statements.length = 0;
    await t.upsertDocuments([doc("D1"), doc("D2", "changed")], NOW);
    await t.upsertDocument(doc("D3", "changed"), NOW);
    await t.getDocument(first!.document.id);
    await t.getSubmission(submissions[7]!);
    const ksef: SubmissionKsef = { status: "sending", ksef_number: null, acquired_at: null, session: "S", reference: "R", attempts: 1, error: null, updated_at: NOW };
    await t.saveSubmissionKsef(submissions[8]!, ksef);
    assert.ok("duplicateOf" in await t.createSubmission({ fields: fields({ number: "S9" }), xml: { sha256: sha("other"), size: 1 } }, NOW));
    const lookups = log.statements.filter(([text]) => text.includes("(SELECT $1::text)"));
    // The batch's two looks, the single upsert's two, the document's, the submission's, saveKsef's two, the duplicate's.
    assert.equal(lookups.length, 9);
    for (const [text, params] of lookups) {
      const plan = JSON.stringify((await pool.query(`EXPLAIN (FORMAT JSON) ${text}`, params)).rows);
      const used = [...plan.matchAll(/"Index Name":"([a-z_]+)"/g)].map((m) => m[1]!);
      assert.ok(used.length > 0 && used.every((name) => UNIQUE.has(name)), `${text}\n${used.join(", ")}`);
    }
    await storage.close();
  });
}
