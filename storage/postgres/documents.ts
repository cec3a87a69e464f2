/**
 * The documents of a PostgreSQL tenant: upserts keyed by (source, external_id) that append to the documents
 * feed in the same transaction, lookups by id, the change feed and page mode (README “Parameters”) on the index
 * columns of the documents table (schema.ts). Semantics mirror the memory and file stores.
 * @module
 */
import { documentJson } from "../../lib/contracts/record_json.ts";
import { importVerdict } from "../../lib/contracts/summary_counts.ts";
import type { ChangePage, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, DocumentVerdict, Stored, UnjudgedPage } from "../../lib/contracts/storage.ts";
import { dayNumber, NULL_DAY } from "../../lib/contracts/document_filter.ts";
import { inTransaction, numberOf, TENANT_KEY, type PgPool, type PgQueryable } from "./client.ts";
import { allUnchanged, findMany, issueDay, nextDocument, recounts, unchanged, upsertBatch, type Upserted } from "./documents_batch.ts";
import { APPEND_CHANGE, lockFeed, recordOf, walkTable } from "./feed.ts";

const enc = new TextEncoder();
const MAX_DAY = 0x7fffffff;

/** The column a sort orders by (selected from the covering index with the ids). */
const SORT_COLUMN: Record<DocumentSort, string> = { "issue_date": "issue_day", "-issue_date": "issue_day", "synced_at": "synced_at", "-synced_at": "synced_at" };

const ORDER: Record<DocumentSort, (t: string) => string> = {
  "issue_date": (t) => `${t}issue_day ASC NULLS LAST, ${t}ord ASC`,
  "-issue_date": (t) => `${t}issue_day DESC NULLS LAST, ${t}ord DESC`,
  "synced_at": (t) => `${t}synced_at ASC, ${t}ord ASC`,
  "-synced_at": (t) => `${t}synced_at DESC, ${t}ord DESC`,
};

/**
 * The SQL conditions of a filter (appended after `WHERE tenant = $1`), with their parameters pushed onto `params`;
 * `codesOnly`: only those on type, format and xml_available (the columns of the kept counts).
 */
function _filterSql(f: DocumentFilter, params: unknown[], codesOnly = false): string {
  let sql = "";
  const add = (cond: string, value: unknown): void => {
    params.push(value);
    sql += ` AND ${cond} $${params.length}`;
  };
  if (f.type !== undefined) add("type =", f.type);
  if (f.format !== undefined) add("format =", f.format);
  if (f.xml_available !== undefined) add("xml_available =", f.xml_available);
  if (codesOnly) return sql;
  if (f.seller_tax_id !== undefined) add("seller_tax_id =", f.seller_tax_id);
  if (f.buyer_tax_id !== undefined) add("buyer_tax_id =", f.buyer_tax_id);
  if (f.ksef_number !== undefined) add("ksef_number =", f.ksef_number);
  // Day numbers, as the file store compares them; a document without a date never passes a date filter.
  if (f.issue_date_from !== undefined) add("issue_day >=", f.issue_date_from ? dayNumber(f.issue_date_from) : NULL_DAY);
  if (f.issue_date_to !== undefined) add("issue_day <=", f.issue_date_to ? dayNumber(f.issue_date_to) : MAX_DAY);
  return sql;
}

/**
 * The SQL of a page's total, a sum over the kept counts where one fits the filter: per (type, format,
 * xml_available); per tax id when the filter names one tax id and no dates; per issue day when it names dates
 * and no tax id. Otherwise (a tax id with dates, two tax ids, a KSeF number) a count through the most selective index.
 */
function _totalSql(f: DocumentFilter, params: unknown[]): string {
  const taxes = [["seller", f.seller_tax_id], ["buyer", f.buyer_tax_id]].filter(([, v]) => v !== undefined) as [string, string][];
  const dated = f.issue_date_from !== undefined || f.issue_date_to !== undefined;
  if (taxes.length > 1 || (taxes.length === 1 && dated) || f.ksef_number !== undefined) return `SELECT count(*) AS total FROM documents WHERE tenant = $1${_filterSql(f, params)}`;
  let sql = _filterSql(f, params, true);
  const add = (cond: string, value: unknown): void => {
    params.push(value);
    sql += ` AND ${cond} $${params.length}`;
  };
  const [tax] = taxes;
  if (tax) {
    add("role =", tax[0]);
    add("tax_id =", tax[1]);
    return `SELECT coalesce(sum(n), 0) AS total FROM document_tax_counts WHERE tenant = $1${sql}`;
  }
  if (!dated) return `SELECT coalesce(sum(n), 0) AS total FROM document_counts WHERE tenant = $1${sql}`;
  if (f.issue_date_from !== undefined) add("issue_day >=", dayNumber(f.issue_date_from));
  if (f.issue_date_to !== undefined) add("issue_day <=", dayNumber(f.issue_date_to));
  return `SELECT coalesce(sum(n), 0) AS total FROM document_day_counts WHERE tenant = $1${sql}`;
}

// Moves a document into (delta 1) or out of (-1) the kept counts of its values, in the upsert's transaction.
async function _count(c: PgQueryable, tenant: string, d: DocumentRecord, delta: number): Promise<void> {
  await c.query(`WITH a AS (INSERT INTO document_counts (tenant, type, format, xml_available, n) VALUES ($1, $2, $3, $4, $8)
      ON CONFLICT (tenant, type, format, xml_available) DO UPDATE SET n = document_counts.n + EXCLUDED.n),
    b AS (INSERT INTO document_tax_counts (tenant, role, tax_id, type, format, xml_available, n)
      SELECT $1, role, tax_id, $2, $3, $4, $8 FROM (VALUES ('seller', $5::text), ('buyer', $6::text)) v (role, tax_id) WHERE tax_id IS NOT NULL
      ON CONFLICT (tenant, role, tax_id, type, format, xml_available) DO UPDATE SET n = document_tax_counts.n + EXCLUDED.n),
    d AS (INSERT INTO document_day_counts (tenant, issue_day, type, format, xml_available, n)
      SELECT $1, $7::integer, $2, $3, $4, $8 WHERE $7::integer IS NOT NULL
      ON CONFLICT (tenant, issue_day, type, format, xml_available) DO UPDATE SET n = document_day_counts.n + EXCLUDED.n)
    SELECT 1`,
  [tenant, d.type ?? "", d.format ?? "", d.xml_available, d.seller?.tax_id ?? null, d.buyer?.tax_id ?? null, issueDay(d), delta]);
}

/** A tenant's documents over a pool. */
export class PostgresDocuments {
  #tenant: string;
  #pool: PgPool;

  constructor(tenant: string, pool: PgPool) {
    this.#tenant = tenant;
    this.#pool = pool;
  }

  async #find(c: PgQueryable, source: string, externalId: string): Promise<DocumentRecord | null> {
    const r = await c.query(`SELECT json FROM documents WHERE ${TENANT_KEY} AND source = $2 AND external_id = $3`, [this.#tenant, source, externalId]);
    return r.rows[0] ? recordOf<DocumentRecord>(r.rows[0].json) : null;
  }

  /** Creates or updates the document of (source, external_id). */
  async upsert(input: DocumentInput, now: string): Promise<Upserted> {
    // Re-syncs mostly find nothing new: answer those without a transaction or a lock.
    const seen = await this.#find(this.#pool, input.source, input.external_id);
    if (seen && unchanged(seen, input)) return { document: seen, outcome: "unchanged" };
    return inTransaction(this.#pool, (c) => this.#upsertIn(c, input, now));
  }

  /**
   * Creates or updates several documents in one transaction (a sync run's batch) as sets (documents_batch.ts):
   * one commit, so one WAL flush, and a handful of statements for the lot. Documents whose input repeats one
   * before it see it, as with upserts one by one.
   */
  async upsertMany(inputs: DocumentInput[], now: string): Promise<Upserted[]> {
    if (inputs.length === 0) return [];
    // A batch of a re-sync that finds nothing new is answered without a transaction or a lock, as a single upsert is.
    const quiet = allUnchanged(inputs, await findMany(this.#pool, this.#tenant, inputs));
    if (quiet) return quiet;
    return inTransaction(this.#pool, async (c) => {
      const seq = await lockFeed(c, this.#tenant, "documents");
      const stored = await findMany(c, this.#tenant, inputs); // again, under the lock
      return upsertBatch(c, this.#tenant, inputs, now, seq, stored);
    });
  }

  // The body of an upsert, in transaction `c`.
  async #upsertIn(c: PgQueryable, input: DocumentInput, now: string): Promise<Upserted> {
    const seq = await lockFeed(c, this.#tenant, "documents");
    const old = await this.#find(c, input.source, input.external_id); // again, under the lock
    if (old && unchanged(old, input)) return { document: old, outcome: "unchanged" as const };
    const doc = nextDocument(old, input, now);
    const json = documentJson(doc);
    await c.query(`WITH d AS (
        INSERT INTO documents (tenant, id, source, external_id, seq, ord, type, format, issue_day, seller_tax_id, buyer_tax_id, xml_available, sha256, synced_at, json, ksef_number, valid)
        VALUES ($1, $6, $7, $8, $3, $3, $9, $10, $11, $12, $13, $14, $15, $16, $5, $17, $18)
        ON CONFLICT (tenant, source, external_id) DO UPDATE SET seq = EXCLUDED.seq, type = EXCLUDED.type, format = EXCLUDED.format,
          issue_day = EXCLUDED.issue_day, seller_tax_id = EXCLUDED.seller_tax_id, buyer_tax_id = EXCLUDED.buyer_tax_id,
          xml_available = EXCLUDED.xml_available, sha256 = EXCLUDED.sha256, synced_at = EXCLUDED.synced_at, json = EXCLUDED.json,
          ksef_number = EXCLUDED.ksef_number, valid = EXCLUDED.valid),
      ${APPEND_CHANGE} SELECT 1`,
    [this.#tenant, "documents", seq, !old, json, doc.id, doc.source, doc.external_id, doc.type, doc.format, issueDay(doc),
      doc.seller?.tax_id ?? null, doc.buyer?.tax_id ?? null, doc.xml_available, doc.sha256, now, doc.ksef_number, importVerdict(input)]);
    if (!old || recounts(old, doc)) {
      if (old) await _count(c, this.#tenant, old, -1);
      await _count(c, this.#tenant, doc, 1);
    }
    return { document: doc, outcome: old ? "updated" as const : "created" as const };
  }

  /** Documents with XML and no verdict from `from` in `ord` order (TenantStore.unjudgedDocuments), from their partial index. */
  async unjudged(from: number, limit: number): Promise<UnjudgedPage> {
    const r = await this.#pool.query(`SELECT id, sha256, ord FROM documents WHERE tenant = $1 AND valid IS NULL AND xml_available AND ord >= $2
      ORDER BY ord LIMIT $3`, [this.#tenant, from, limit]);
    const items = r.rows.map((row) => ({ id: String(row.id), sha256: String(row.sha256) }));
    const last = r.rows[r.rows.length - 1];
    return { items, next: last && r.rows.length === limit ? numberOf(last.ord) + 1 : null };
  }

  /**
   * Keeps verdicts of documents that have none and still hold the judged XML (TenantStore.saveVerdicts): one
   * statement, no feed change; the summary trigger moves `doc:invalid`. An upsert of the same row meanwhile wins:
   * this update waits for its lock and then finds another sha256.
   */
  async saveVerdicts(verdicts: readonly DocumentVerdict[]): Promise<number> {
    if (verdicts.length === 0) return 0;
    const r = await this.#pool.query(`UPDATE documents d SET valid = v.valid
      FROM unnest($2::text[], $3::text[], $4::boolean[]) AS v (id, sha256, valid)
      WHERE d.tenant = $1 AND d.id = v.id AND d.sha256 = v.sha256 AND d.valid IS NULL AND d.xml_available`,
    [this.#tenant, verdicts.map((v) => v.id), verdicts.map((v) => v.sha256), verdicts.map((v) => v.valid)]);
    return r.rowCount ?? 0;
  }

  /** The document with this id, or null. */
  async get(id: string): Promise<Stored<DocumentRecord> | null> {
    const r = await this.#pool.query(`SELECT json FROM documents WHERE ${TENANT_KEY} AND id = $2`, [this.#tenant, id]);
    const json = r.rows[0]?.json;
    return json === undefined ? null : { record: recordOf<DocumentRecord>(json), json: enc.encode(String(json)) };
  }

  /** The change feed from `after` (TenantStore.documentChanges). */
  async changes(after: number, limit: number, filter: DocumentFilter, maxScan: number): Promise<ChangePage> {
    return walkTable(this.#pool, this.#tenant, "documents", after, limit, maxScan, (params) => _filterSql(filter, params), true);
  }

  /**
   * Page mode (TenantStore.documentPage): the page's ids come from an index-only scan of a covering index in
   * sort order (skipping `offset` entries of the index, not rows), then only its own rows are read.
   */
  async page(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number): Promise<{ items: Uint8Array[]; total: number }> {
    const params: unknown[] = [this.#tenant];
    const total = _totalSql(filter, params);
    const where = _filterSql(filter, params);
    params.push(offset, limit);
    const key = SORT_COLUMN[sort];
    // One statement, so the total and the page come from the same snapshot.
    const r = await this.#pool.query(`SELECT t.total, p.json
      FROM (${total}) t
      LEFT JOIN LATERAL (SELECT d.json, k.${key}, k.ord
        FROM (SELECT id, ${key}, ord FROM documents WHERE tenant = $1${where}
          ORDER BY ${ORDER[sort]("")} OFFSET $${params.length - 1} LIMIT $${params.length}) k
        JOIN documents d ON d.tenant = $1 AND d.id = k.id) p ON true
      ORDER BY ${ORDER[sort]("p.")}`, params);
    const items = r.rows.filter((row) => row.json !== null).map((row) => enc.encode(String(row.json)));
    return { items, total: numberOf(r.rows[0]?.total ?? 0) };
  }
}
