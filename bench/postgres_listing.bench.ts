/**
 * Page mode and filtered feeds of the PostgreSQL store at 1M documents: for each scenario of
 * bench/listing.bench.ts, the statement the adapter sends, its EXPLAIN (ANALYZE, BUFFERS) plan, and the time
 * per page in the database (median execution time of five EXPLAIN ANALYZE runs) and through the adapter (client round trip, median and
 * p99 of repeated calls). Seeds a tenant with INSERT … SELECT generate_series (deterministic: setseed) into the
 * adapter's own tables, skewed like the listing bench; reused while its row count matches (--reseed rebuilds).
 *
 *   DATABASE_URL=postgres://… npx tsx bench/postgres_listing.bench.ts [--runs=50] [--reseed] [--plans]
 * @module
 */
import process from "node:process";
import pg from "pg";
import { documentJson } from "../lib/contracts/record_json.ts";
import type { DocumentFilter, DocumentSort, TenantStore } from "../lib/contracts/storage.ts";
import type { PgPool, PgResult } from "../storage/postgres/client.ts";
import { COUNTS_BACKFILL } from "../storage/postgres/schema.ts";
import { PostgresStorage } from "../storage/postgres/store.ts";
import { fmtMs, parseBenchArgs, printTable } from "./support.ts";

const TENANT = "listing1m";
const N = 1_000_000;
const TARGET_MS = 5; // the target README "Several nodes on PostgreSQL" sets: ≤ 5 ms per page in the database
const opts = parseBenchArgs(process.argv.slice(2), { duration: 1, runs: 1 });
const runs = Number(opts.flags.get("runs") ?? 50);
const url = process.env.DATABASE_URL;
if (!url) throw new TypeError("Set DATABASE_URL (bash test/support/start_postgres.sh prints one)");

// The top seller (rand² skew over 2000, as in listing.bench.ts) has ~2.2% of the documents, seller 2 ~0.7%.
const TOP = "S000000000", SELECTIVE = "S000000002";

async function seed(pool: pg.Pool): Promise<void> {
  const have = await pool.query("SELECT count(*)::int AS n FROM documents WHERE tenant = $1", [TENANT]);
  if (have.rows[0].n === N && !opts.flags.has("reseed")) return;
  const t0 = performance.now();
  const json = documentJson({
    id: "doc_00000000000000000000000000", source: "inbox", external_id: "E0", type: "invoice", format: "ksef-fa3",
    number: "FV/2024/03/000001", issue_date: "2024-03-01", currency: "PLN", seller: { name: "Handel Kraków Sp. z o.o.", tax_id: TOP },
    buyer: { name: "IT Serwis Poznań S.A.", tax_id: "B1" }, totals: { net: "1000.00", tax: "230.00", gross: "1230.00" },
    ksef_number: null, xml_available: true, sha256: "0".repeat(64), size: 10000, received_at: null, synced_at: "2024-01-01T00:00:00.000Z", updated_at: "2024-01-01T00:00:00.000Z",
  });
  const c = await pool.connect();
  try {
    await c.query("BEGIN");
    for (const table of ["documents", "document_counts", "document_tax_counts", "document_day_counts", "feeds"]) await c.query(`DELETE FROM ${table} WHERE tenant = $1`, [TENANT]);
    await c.query("INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING", [TENANT]);
    await c.query("SELECT setseed(0.16)");
    await c.query(`INSERT INTO documents (tenant, id, source, external_id, seq, ord, type, format, issue_day, seller_tax_id, buyer_tax_id, xml_available, sha256, synced_at, json)
      SELECT $1, 'doc_' || lpad(i::text, 26, '0'), 'inbox', 'E' || i, i, i,
        CASE WHEN r1 < 0.8 THEN 'invoice' WHEN r1 < 0.9 THEN 'credit_note' WHEN r1 < 0.97 THEN 'correction' ELSE 'other' END,
        CASE WHEN r2 < 0.5 THEN 'ksef-fa3' WHEN r2 < 0.7 THEN 'ksef-fa2' WHEN r2 < 0.9 THEN 'ubl' ELSE 'cii' END,
        17897 + floor(r3 * 2737)::int, 'S' || lpad(floor(r4 * r4 * 2000)::int::text, 9, '0'), 'B' || floor(r5 * 300)::int,
        r6 < 0.85, NULL, timestamptz '2024-01-01T00:00:00Z' + i * interval '10 seconds', $3
      FROM (SELECT i, random() r1, random() r2, random() r3, random() r4, random() r5, random() r6 FROM generate_series(0, $2 - 1) i) g`,
    [TENANT, N, json]);
    for (const sql of COUNTS_BACKFILL) await c.query(sql.replaceAll("$WHERE", "WHERE tenant = $1"), [TENANT]);
    await c.query("INSERT INTO feeds (tenant, collection, length) VALUES ($1, 'documents', $2)", [TENANT, N]);
    await c.query("COMMIT");
  } finally {
    c.release();
  }
  for (const table of ["documents", "document_counts", "document_tax_counts", "document_day_counts"]) await pool.query(`VACUUM ANALYZE ${table}`);
  console.log(`seeded ${N.toLocaleString("en-US")} documents in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

// A pool that remembers the last statement, so that the adapter's own SQL can be explained.
function recording(pool: pg.Pool): { pool: PgPool; last: () => { text: string; params: unknown[] } } {
  let last = { text: "", params: [] as unknown[] };
  const wrapped: PgPool = {
    query: async (text: string, params?: unknown[]): Promise<PgResult> => {
      last = { text, params: params ?? [] };
      return pool.query(text, params) as unknown as PgResult;
    },
    connect: () => pool.connect() as never,
  };
  return { pool: wrapped, last: () => last };
}

interface Scenario {
  name: string;
  call: (t: TenantStore) => Promise<unknown>;
}

const page = (filter: DocumentFilter, sort: DocumentSort, pageNo: number) => (t: TenantStore) => t.documentPage(filter, sort, (pageNo - 1) * 50, 50);
const SCENARIOS: Scenario[] = [
  { name: "page 3, type=invoice, -issue_date", call: page({ type: "invoice" }, "-issue_date", 3) },
  { name: "page 1, seller_tax_id, -synced_at", call: page({ seller_tax_id: TOP }, "-synced_at", 1) },
  { name: "page 1, issue dates 2024-03, issue_date", call: page({ issue_date_from: "2024-03-01", issue_date_to: "2024-03-31" }, "issue_date", 1) },
  { name: "page 1, xml_available=false, -synced_at", call: page({ xml_available: false }, "-synced_at", 1) },
  { name: "page 2, seller_tax_id + type, -issue_date", call: page({ seller_tax_id: TOP, type: "invoice" }, "-issue_date", 2) },
  { name: "page 200 of 50, -synced_at", call: page({}, "-synced_at", 200) },
  { name: "cursor, selective seller (0.7%), mid-feed", call: (t) => t.documentChanges(N / 2, 50, { seller_tax_id: SELECTIVE }, 10_000) },
  { name: "cursor, type=invoice (80%), mid-feed", call: (t) => t.documentChanges(N / 2, 50, { type: "invoice" }, 10_000) },
];

const raw = new pg.Pool({ connectionString: url, max: 2 });
const { pool, last } = recording(raw);
const storage = await PostgresStorage.open(pool);
await seed(raw);
const t = storage.tenant(TENANT);
console.log(`PostgreSQL ${(await raw.query("SHOW server_version")).rows[0].server_version}, ${N.toLocaleString("en-US")} documents, ${runs} calls per scenario`);
const rows: string[][] = [];
for (const s of SCENARIOS) {
  await s.call(t); // warm: plan cache, buffers
  const { text, params } = last();
  // The database's own time: the median execution time of five EXPLAIN ANALYZE runs (one plan shown).
  let lines: string[] = [];
  const execs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const plan = await raw.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    lines = plan.rows.map((r) => String(r["QUERY PLAN"]));
    execs.push(Number(/Execution Time: ([\d.]+)/.exec(lines.join("\n"))?.[1] ?? NaN));
  }
  const exec = execs.sort((a, b) => a - b)[2]!;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await s.call(t);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const seqScan = lines.some((l) => l.includes("Seq Scan on documents")); // a few-row counts table may be read whole
  rows.push([s.name, fmtMs(exec), fmtMs(times[Math.floor(times.length / 2)]!), fmtMs(times[Math.floor(times.length * 0.99)]!), seqScan ? "SEQ SCAN" : "indexes", exec <= TARGET_MS ? "ok" : "MISSED"]);
  if (opts.flags.has("plans")) console.log(`\n### ${s.name}\n${lines.join("\n")}`);
}
console.log("");
printTable(["scenario", "in database ms", "adapter median ms", "adapter p99 ms", "documents read by", `≤ ${TARGET_MS} ms`], rows);
await storage.close();
