/**
 * One tenant's data in PostgreSQL. Every query names the tenant; every write
 * that appends to a change feed takes the feed's counter row FOR UPDATE first
 * (see postgres.ts for why that keeps feeds gap-free in commit order), and
 * commits the record, its change, the feed length and any idempotency record
 * in one transaction. Semantics mirror the memory and file stores.
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import { businessKey, documentJson, fieldsOf, sameFields, submissionJson } from "../../lib/contracts/record_json.ts";
import { newId } from "../../lib/contracts/ids.ts";
import type {
  BlobInfo, ChangePage, Collection, DeliveryAttempt, DeliveryState, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, IdempotencyRecord,
  IdempotencyTag, RawChange, Redelivery, Stored, StoredBlob, SubmissionInput, SubmissionRecord, SyncRunRecord, TenantStore, UpsertOutcome, WebhookRecord,
} from "../../lib/contracts/storage.ts";
import { dayNumber, NULL_DAY } from "../../lib/contracts/document_filter.ts";
import * as deliveryLog from "./delivery_log.ts";
import { byteaParam, bytesOf, inTransaction, numberOf, type PgPool, type PgQueryable } from "./client.ts";

const enc = new TextEncoder();
const SMALL_BLOB = 256 * 1024; // fetched with its metadata in one round trip below this size (as blob_dir.ts caches)
const CHUNK = 1024 * 1024; // streaming chunk: a 10 MiB download is ten 1 MiB reads, not one 10 MiB allocation
const KEEP_IDEMPOTENCY_MS = 2 * 86_400_000; // API.md §7 keeps keys 24 hours; rows live two days, as in the file store
const SWEEP_EVERY_MS = 3_600_000;
const MAX_DAY = 0x7fffffff;
// Claims are taken after the body is read, and handlers then take well under a second: a minute covers any
// stall, and is how long a node that dies mid-request keeps its keys answering 409 IDEMPOTENCY_KEY_IN_USE.
const CLAIM_LEASE_S = 30;

const ORDER: Record<DocumentSort, (t: string) => string> = {
  "issue_date": (t) => `${t}issue_day ASC NULLS LAST, ${t}ord ASC`,
  "-issue_date": (t) => `${t}issue_day DESC NULLS LAST, ${t}ord DESC`,
  "synced_at": (t) => `${t}synced_at ASC, ${t}ord ASC`,
  "-synced_at": (t) => `${t}synced_at DESC, ${t}ord DESC`,
};

/** The SQL conditions of a filter (appended after `WHERE tenant = $1`), with their parameters pushed onto `params`. */
function _filterSql(f: DocumentFilter, params: unknown[]): string {
  let sql = "";
  const add = (cond: string, value: unknown): void => {
    params.push(value);
    sql += ` AND ${cond} $${params.length}`;
  };
  if (f.type !== undefined) add("type =", f.type);
  if (f.format !== undefined) add("format =", f.format);
  if (f.xml_available !== undefined) add("xml_available =", f.xml_available);
  if (f.seller_tax_id !== undefined) add("seller_tax_id =", f.seller_tax_id);
  if (f.buyer_tax_id !== undefined) add("buyer_tax_id =", f.buyer_tax_id);
  if (f.ksef_number !== undefined) add("ksef_number =", f.ksef_number);
  // Day numbers, as the file store compares them; a document without a date never passes a date filter.
  if (f.issue_date_from !== undefined) add("issue_day >=", f.issue_date_from ? dayNumber(f.issue_date_from) : NULL_DAY);
  if (f.issue_date_to !== undefined) add("issue_day <=", f.issue_date_to ? dayNumber(f.issue_date_to) : MAX_DAY);
  return sql;
}

function _unchanged(old: DocumentRecord, input: DocumentInput): boolean {
  if (input.ksef_number != null && input.ksef_number !== old.ksef_number) return false; // a new KSeF number is a change
  return input.xml
    ? old.xml_available && old.sha256 === input.xml.sha256
    : old.xml_available || sameFields(fieldsOf(old), input.fields); // metadata never replaces XML
}

function _record<T>(json: unknown): T {
  const { links: _links, ...record } = JSON.parse(String(json)) as Record<string, unknown>;
  return record as T;
}

function _memoryBlob(key: string, bytes: Uint8Array): StoredBlob {
  return {
    sha256: key, size: bytes.length,
    bytes: async () => bytes,
    async *stream(start, end) {
      yield bytes.subarray(start, end);
    },
  };
}

/**
 * Takes the feed's counter row FOR UPDATE (creating it, and the tenant, on first use) and returns the
 * feed's length: the position the caller's change gets. The lock is held until the transaction ends.
 */
async function _lockFeed(c: PgQueryable, tenant: string, collection: Collection): Promise<number> {
  const sql = "SELECT length FROM feeds WHERE tenant = $1 AND collection = $2 FOR UPDATE";
  let r = await c.query(sql, [tenant, collection]);
  if (r.rows.length === 0) {
    await c.query(`WITH t AS (INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING)
      INSERT INTO feeds (tenant, collection) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [tenant, collection]);
    r = await c.query(sql, [tenant, collection]);
  }
  return numberOf(r.rows[0]!.length);
}

// CTEs that append a change and move the feed's length past it: $1 tenant, $2 collection, $3 position, $4 first version, $5 JSON.
const APPEND_CHANGE = `c AS (INSERT INTO changes (tenant, collection, seq, first, json) VALUES ($1, $2, $3, $4, $5)),
  f AS (UPDATE feeds SET length = $3 + 1 WHERE tenant = $1 AND collection = $2)`;

/** A tenant's store over a pool. */
export class PostgresTenantStore implements TenantStore {
  readonly tenant: string;
  #pool: PgPool;
  #sweptAt = 0;
  #claims = new Map<string, string>(); // idempotency keys this process executes, and the owner token of each lease

  constructor(tenant: string, pool: PgPool) {
    this.tenant = tenant;
    this.#pool = pool;
  }

  async putBlob(bytes: Uint8Array): Promise<BlobInfo> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    await this.#putBlob("content", sha256, bytes);
    return { sha256, size: bytes.length };
  }
  async getBlob(sha256: string): Promise<StoredBlob | null> {
    return this.#getBlob("content", sha256);
  }
  async putDerived(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    await this.#putBlob("derived", key, bytes);
    return { sha256: key, size: bytes.length };
  }
  async getDerived(key: string): Promise<StoredBlob | null> {
    return this.#getBlob("derived", key);
  }

  // Kept once made (as blob_dir.ts): content blobs are content-addressed, derived ones deterministic.
  async #putBlob(kind: string, key: string, bytes: Uint8Array): Promise<void> {
    await this.#pool.query("INSERT INTO blobs (tenant, kind, key, size, data) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
      [this.tenant, kind, key, bytes.length, byteaParam(bytes)]);
  }

  async #getBlob(kind: string, key: string): Promise<StoredBlob | null> {
    const r = await this.#pool.query("SELECT size, CASE WHEN size <= $4 THEN data END AS data FROM blobs WHERE tenant = $1 AND kind = $2 AND key = $3",
      [this.tenant, kind, key, SMALL_BLOB]);
    const row = r.rows[0];
    if (!row) return null;
    if (row.data !== null && row.data !== undefined) return _memoryBlob(key, bytesOf(row.data));
    const pool = this.#pool, where = [this.tenant, kind, key];
    return {
      sha256: key, size: numberOf(row.size),
      bytes: async () => bytesOf((await pool.query("SELECT data FROM blobs WHERE tenant = $1 AND kind = $2 AND key = $3", where)).rows[0]?.data),
      async *stream(start, end) {
        for (let at = start; at < end; at += CHUNK) {
          const n = Math.min(CHUNK, end - at);
          const q = await pool.query("SELECT substring(data FROM $4 FOR $5) AS part FROM blobs WHERE tenant = $1 AND kind = $2 AND key = $3", [...where, at + 1, n]);
          yield bytesOf(q.rows[0]?.part);
        }
      },
    };
  }

  async #findDocument(c: PgQueryable, source: string, externalId: string): Promise<DocumentRecord | null> {
    const r = await c.query("SELECT json FROM documents WHERE tenant = $1 AND source = $2 AND external_id = $3", [this.tenant, source, externalId]);
    return r.rows[0] ? _record<DocumentRecord>(r.rows[0].json) : null;
  }

  async upsertDocument(input: DocumentInput, now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }> {
    // Re-syncs mostly find nothing new: answer those without a transaction or a lock.
    const seen = await this.#findDocument(this.#pool, input.source, input.external_id);
    if (seen && _unchanged(seen, input)) return { document: seen, outcome: "unchanged" };
    return inTransaction(this.#pool, async (c) => {
      const seq = await _lockFeed(c, this.tenant, "documents");
      const old = await this.#findDocument(c, input.source, input.external_id); // again, under the lock
      if (old && _unchanged(old, input)) return { document: old, outcome: "unchanged" as const };
      const doc: DocumentRecord = {
        id: old?.id ?? newId("doc", Date.parse(now)),
        source: input.source, external_id: input.external_id, ...input.fields,
        ksef_number: input.ksef_number ?? old?.ksef_number ?? null,
        xml_available: input.xml !== null, sha256: input.xml?.sha256 ?? null, size: input.xml?.size ?? null,
        received_at: input.received_at ?? old?.received_at ?? null, synced_at: now, updated_at: now,
      };
      const json = documentJson(doc);
      const day = dayNumber(doc.issue_date);
      await c.query(`WITH d AS (
          INSERT INTO documents (tenant, id, source, external_id, seq, ord, type, format, issue_day, seller_tax_id, buyer_tax_id, xml_available, sha256, synced_at, json, ksef_number)
          VALUES ($1, $6, $7, $8, $3, $3, $9, $10, $11, $12, $13, $14, $15, $16, $5, $17)
          ON CONFLICT (tenant, source, external_id) DO UPDATE SET seq = EXCLUDED.seq, type = EXCLUDED.type, format = EXCLUDED.format,
            issue_day = EXCLUDED.issue_day, seller_tax_id = EXCLUDED.seller_tax_id, buyer_tax_id = EXCLUDED.buyer_tax_id,
            xml_available = EXCLUDED.xml_available, sha256 = EXCLUDED.sha256, synced_at = EXCLUDED.synced_at, json = EXCLUDED.json,
            ksef_number = EXCLUDED.ksef_number),
        ${APPEND_CHANGE} SELECT 1`,
      [this.tenant, "documents", seq, !old, json, doc.id, doc.source, doc.external_id, doc.type, doc.format, day === NULL_DAY ? null : day,
        doc.seller?.tax_id ?? null, doc.buyer?.tax_id ?? null, doc.xml_available, doc.sha256, now, doc.ksef_number]);
      return { document: doc, outcome: old ? "updated" as const : "created" as const };
    });
  }

  async getDocument(id: string): Promise<Stored<DocumentRecord> | null> {
    const r = await this.#pool.query("SELECT json FROM documents WHERE tenant = $1 AND id = $2", [this.tenant, id]);
    const json = r.rows[0]?.json;
    return json === undefined ? null : { record: _record<DocumentRecord>(json), json: enc.encode(String(json)) };
  }

  async documentChanges(after: number, limit: number, filter: DocumentFilter, maxScan: number): Promise<ChangePage> {
    return this.#walk("documents", after, limit, filter, maxScan);
  }

  async documentPage(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number): Promise<{ items: Uint8Array[]; total: number }> {
    const params: unknown[] = [this.tenant];
    const where = _filterSql(filter, params);
    params.push(offset, limit);
    // One statement, so the total and the page come from the same snapshot.
    const r = await this.#pool.query(`SELECT t.total, p.json
      FROM (SELECT count(*) AS total FROM documents WHERE tenant = $1${where}) t
      LEFT JOIN LATERAL (SELECT json, issue_day, synced_at, ord FROM documents WHERE tenant = $1${where}
        ORDER BY ${ORDER[sort]("")} OFFSET $${params.length - 1} LIMIT $${params.length}) p ON true
      ORDER BY ${ORDER[sort]("p.")}`, params);
    const items = r.rows.filter((row) => row.json !== null).map((row) => enc.encode(String(row.json)));
    return { items, total: numberOf(r.rows[0]?.total ?? 0) };
  }

  // A feed page: rows whose latest change lies in [after, after + maxScan), with the feed length of the same snapshot.
  async #walk(table: "documents" | "submissions", after: number, limit: number, filter: DocumentFilter, maxScan: number): Promise<ChangePage> {
    const start = Math.max(0, after);
    const end = Math.min(Number.MAX_SAFE_INTEGER, start + maxScan);
    const params: unknown[] = [this.tenant, table, start, end, limit];
    const where = _filterSql(filter, params);
    const r = await this.#pool.query(`SELECT f.length, p.seq, p.json
      FROM (SELECT coalesce(max(length), 0) AS length FROM feeds WHERE tenant = $1 AND collection = $2) f
      LEFT JOIN LATERAL (SELECT seq, json FROM ${table} WHERE tenant = $1 AND seq >= $3 AND seq < $4${where} ORDER BY seq LIMIT $5) p ON true
      ORDER BY p.seq`, params);
    const length = numberOf(r.rows[0]?.length ?? 0);
    const rows = r.rows.filter((row) => row.seq !== null);
    const next = rows.length === limit && limit > 0 ? numberOf(rows[rows.length - 1]!.seq) + 1 : Math.max(start, Math.min(length, end));
    return { items: rows.map((row) => enc.encode(String(row.json))), next, hasMore: next < length };
  }

  async createSubmission(input: SubmissionInput, now: string, idem?: IdempotencyTag): Promise<{ created: SubmissionRecord } | { duplicateOf: string }> {
    const key = createHash("sha256").update(businessKey(input.fields)).digest(); // the key holds NULs, which text cannot
    return inTransaction(this.#pool, async (c) => {
      const seq = await _lockFeed(c, this.tenant, "submissions");
      const sub: SubmissionRecord = {
        id: newId("sub", Date.parse(now)), status: "accepted", ...input.fields,
        sha256: input.xml.sha256, size: input.xml.size, created_at: now,
      };
      const json = submissionJson(sub);
      const r = await c.query(`INSERT INTO submissions (tenant, id, seq, sha256, business_key, created_at, json)
        VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`, [this.tenant, sub.id, seq, sub.sha256, key, now, json]);
      if (r.rowCount === 0) {
        // A unique constraint refused it: name the existing submission, the same bytes first (as the other stores).
        const dup = await c.query(`SELECT id FROM submissions WHERE tenant = $1 AND (sha256 = $2 OR business_key = $3)
          ORDER BY (sha256 = $2) DESC LIMIT 1`, [this.tenant, sub.sha256, key]);
        if (!dup.rows[0]) throw new Error(`Submission ${sub.id} conflicts with no duplicate`);
        return { duplicateOf: String(dup.rows[0].id) };
      }
      await c.query(`WITH ${APPEND_CHANGE} SELECT 1`, [this.tenant, "submissions", seq, true, json]);
      await this.#tag(c, idem, json, now);
      return { created: sub };
    });
  }

  async getSubmission(id: string): Promise<Stored<SubmissionRecord> | null> {
    const r = await this.#pool.query("SELECT json FROM submissions WHERE tenant = $1 AND id = $2", [this.tenant, id]);
    const json = r.rows[0]?.json;
    return json === undefined ? null : { record: _record<SubmissionRecord>(json), json: enc.encode(String(json)) };
  }

  async submissionChanges(after: number, limit: number, maxScan: number): Promise<ChangePage> {
    return this.#walk("submissions", after, limit, {}, maxScan);
  }

  async requestRun(source: string, now: string, idem?: IdempotencyTag): Promise<{ run: SyncRunRecord; created: boolean }> {
    return inTransaction(this.#pool, async (c) => {
      const seq = await _lockFeed(c, this.tenant, "runs");
      const run: SyncRunRecord = {
        id: newId("sync", Date.parse(now)), source, status: "queued", requested_at: now, started_at: null, finished_at: null,
        counts: { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 }, errors: [], error: null, waiting_until: null,
      };
      const json = JSON.stringify(run);
      const r = await c.query(`INSERT INTO runs (tenant, id, ord, source, status, json) VALUES ($1, $2, $3, $4, 'queued', $5)
        ON CONFLICT (tenant, source) WHERE status IN ('queued', 'running') DO NOTHING`, [this.tenant, run.id, seq, source, json]);
      if (r.rowCount === 0) {
        const active = await c.query("SELECT json FROM runs WHERE tenant = $1 AND source = $2 AND status IN ('queued', 'running')", [this.tenant, source]);
        return { run: JSON.parse(String(active.rows[0]!.json)) as SyncRunRecord, created: false };
      }
      await c.query(`WITH ${APPEND_CHANGE} SELECT 1`, [this.tenant, "runs", seq, true, json]);
      await this.#tag(c, idem, json, now);
      return { run, created: true };
    });
  }

  async saveRun(run: SyncRunRecord): Promise<void> {
    await inTransaction(this.#pool, async (c) => {
      const seq = await _lockFeed(c, this.tenant, "runs");
      const json = JSON.stringify(run);
      const r = await c.query("UPDATE runs SET status = $3, json = $4 WHERE tenant = $1 AND id = $2", [this.tenant, run.id, run.status, json]);
      if (r.rowCount === 0) throw new RangeError(`Unknown run ${run.id}`);
      await c.query(`WITH ${APPEND_CHANGE} SELECT 1`, [this.tenant, "runs", seq, false, json]);
    });
  }

  async getRun(id: string): Promise<SyncRunRecord | null> {
    const r = await this.#pool.query("SELECT json FROM runs WHERE tenant = $1 AND id = $2", [this.tenant, id]);
    return r.rows[0] ? (JSON.parse(String(r.rows[0].json)) as SyncRunRecord) : null;
  }

  async activeRuns(): Promise<SyncRunRecord[]> {
    const r = await this.#pool.query("SELECT json FROM runs WHERE tenant = $1 AND status IN ('queued', 'running') ORDER BY ord", [this.tenant]);
    return r.rows.map((row) => JSON.parse(String(row.json)) as SyncRunRecord);
  }

  async feedLength(collection: Collection): Promise<number> {
    const r = await this.#pool.query("SELECT length FROM feeds WHERE tenant = $1 AND collection = $2", [this.tenant, collection]);
    return numberOf(r.rows[0]?.length ?? 0);
  }

  async rawChanges(collection: Collection, from: number, limit: number): Promise<RawChange[]> {
    const r = await this.#pool.query("SELECT seq, first, json FROM changes WHERE tenant = $1 AND collection = $2 AND seq >= $3 ORDER BY seq LIMIT $4",
      [this.tenant, collection, Math.max(0, from), limit]);
    return r.rows.map((row) => ({ seq: numberOf(row.seq), json: enc.encode(String(row.json)), first: row.first === true }));
  }

  async getIdempotency(key: string, now: number, maxAgeMs: number): Promise<IdempotencyRecord | null> {
    const r = await this.#pool.query("SELECT record FROM idempotency WHERE tenant = $1 AND key = $2", [this.tenant, key]);
    const record = r.rows[0] ? (JSON.parse(String(r.rows[0].record)) as IdempotencyRecord) : null;
    return record && now - Date.parse(record.created_at) < maxAgeMs ? record : null;
  }

  async putIdempotency(record: IdempotencyRecord): Promise<void> {
    await this.#putIdempotency(this.#pool, record);
  }

  // A lease on the database's clock: taken when free or expired, so a node that died holding it blocks the key only briefly.
  async beginIdempotent(key: string): Promise<boolean> {
    const owner = randomUUID();
    const r = await this.#pool.query(`INSERT INTO idempotency_claims (tenant, key, owner, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 second')
      ON CONFLICT (tenant, key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at WHERE idempotency_claims.expires_at < now()`,
    [this.tenant, key, owner, CLAIM_LEASE_S]);
    if (r.rowCount === 0) return false;
    this.#claims.set(key, owner);
    return true;
  }

  async endIdempotent(key: string): Promise<void> {
    const owner = this.#claims.get(key);
    if (owner === undefined) return;
    this.#claims.delete(key);
    await this.#pool.query("DELETE FROM idempotency_claims WHERE tenant = $1 AND key = $2 AND owner = $3", [this.tenant, key, owner]);
  }

  // A lease on the database's clock, renewed by its owner, taken over by anyone once it has run out.
  async claimLease(name: string, owner: string, leaseMs: number): Promise<boolean> {
    const r = await this.#pool.query(`INSERT INTO leases (tenant, name, owner, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
      ON CONFLICT (tenant, name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
      WHERE leases.owner = EXCLUDED.owner OR leases.expires_at < now()`, [this.tenant, name, owner, leaseMs]);
    return r.rowCount === 1;
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await this.#pool.query("DELETE FROM leases WHERE tenant = $1 AND name = $2 AND owner = $3", [this.tenant, name, owner]);
  }

  // The key's record commits in the effect's transaction (`c`), so a crash cannot keep one without the other.
  async #tag(c: PgQueryable, idem: IdempotencyTag | undefined, json: string, now: string): Promise<void> {
    if (idem) await this.#putIdempotency(c, { key: idem.key, fingerprint: idem.fingerprint, response: idem.respond(json), created_at: now });
  }

  async #putIdempotency(c: PgQueryable, record: IdempotencyRecord): Promise<void> {
    await c.query(`INSERT INTO idempotency (tenant, key, created_at, record) VALUES ($1, $2, $3, $4)
      ON CONFLICT (tenant, key) DO UPDATE SET created_at = EXCLUDED.created_at, record = EXCLUDED.record`,
    [this.tenant, record.key, record.created_at, JSON.stringify(record)]);
    // Expired keys are deleted now and then, by the clock the records carry (tests inject it).
    const at = Date.parse(record.created_at);
    if (at - this.#sweptAt >= SWEEP_EVERY_MS) {
      this.#sweptAt = at;
      await c.query("DELETE FROM idempotency WHERE tenant = $1 AND created_at < $2", [this.tenant, new Date(at - KEEP_IDEMPOTENCY_MS).toISOString()]);
    }
  }

  async createWebhook(input: Omit<WebhookRecord, "id" | "status">, idem?: IdempotencyTag): Promise<WebhookRecord> {
    const hook: WebhookRecord = { id: newId("whk", Date.parse(input.created_at)), ...input, status: "enabled" };
    const json = JSON.stringify(hook);
    await inTransaction(this.#pool, async (c) => {
      // The tenant row makes the webhook worker find this tenant (Storage.tenants()).
      await c.query(`WITH t AS (INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING)
        INSERT INTO webhooks (tenant, id, status, json) VALUES ($1, $2, $3, $4)`, [this.tenant, hook.id, hook.status, json]);
      await this.#tag(c, idem, json, input.created_at);
    });
    return hook;
  }

  async getWebhook(id: string): Promise<WebhookRecord | null> {
    const r = await this.#pool.query("SELECT json FROM webhooks WHERE tenant = $1 AND id = $2 AND status <> 'deleted'", [this.tenant, id]);
    return r.rows[0] ? (JSON.parse(String(r.rows[0].json)) as WebhookRecord) : null;
  }

  async listWebhooks(): Promise<WebhookRecord[]> {
    const r = await this.#pool.query("SELECT json FROM webhooks WHERE tenant = $1 AND status <> 'deleted' ORDER BY ord", [this.tenant]);
    return r.rows.map((row) => JSON.parse(String(row.json)) as WebhookRecord);
  }

  async saveWebhook(record: WebhookRecord): Promise<void> {
    const r = await this.#pool.query("UPDATE webhooks SET status = $3, json = $4 WHERE tenant = $1 AND id = $2",
      [this.tenant, record.id, record.status, JSON.stringify(record)]);
    if (r.rowCount === 0) throw new RangeError(`Unknown webhook ${record.id}`);
  }

  async getDeliveryState(webhookId: string): Promise<DeliveryState | null> {
    const r = await this.#pool.query("SELECT state FROM deliveries WHERE tenant = $1 AND webhook_id = $2", [this.tenant, webhookId]);
    return r.rows[0] ? (JSON.parse(String(r.rows[0].state)) as DeliveryState) : null;
  }

  async saveDeliveryState(webhookId: string, state: DeliveryState): Promise<void> {
    await this.#pool.query(`INSERT INTO deliveries (tenant, webhook_id, state) VALUES ($1, $2, $3)
      ON CONFLICT (tenant, webhook_id) DO UPDATE SET state = EXCLUDED.state`, [this.tenant, webhookId, JSON.stringify(state)]);
  }

  appendDeliveryAttempt(webhookId: string, attempt: Omit<DeliveryAttempt, "seq">): Promise<void> {
    return deliveryLog.appendAttempt(this.#pool, this.tenant, webhookId, attempt);
  }
  deliveryAttempts(webhookId: string, after: number, limit: number, notBefore: string): Promise<{ items: DeliveryAttempt[]; hasMore: boolean }> {
    return deliveryLog.attemptPage(this.#pool, this.tenant, webhookId, after, limit, notBefore);
  }
  requestRedelivery(webhookId: string, request: Redelivery): Promise<void> {
    return deliveryLog.requestRedelivery(this.#pool, this.tenant, webhookId, request);
  }
  takeRedeliveries(webhookId: string): Promise<Redelivery[]> {
    return deliveryLog.takeRedeliveries(this.#pool, this.tenant, webhookId);
  }
}
