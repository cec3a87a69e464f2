/**
 * One tenant's data in PostgreSQL: the shell that holds its collections (documents.ts, submissions.ts,
 * sync_runs.ts, webhooks.ts), its blobs, idempotency keys (idempotency.ts) and leases. Every query names the
 * tenant; every write that appends to a change feed takes the feed's counter row FOR UPDATE first (feed.ts;
 * store.ts says why that keeps feeds gap-free in commit order). Semantics mirror the memory and file stores.
 * @module
 */
import { createHash } from "node:crypto";
import type {
  NoticeRecord,
  BlobInfo, ChangePage, Collection, DeliveryAttempt, DeliveryState, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, DocumentVerdict, IdempotencyRecord,
  IdempotencyTag, RawChange, Redelivery, Stored, StoredBlob, SubmissionFilter, SubmissionInput, SubmissionKsef, SubmissionRecord, SyncRunRecord, TenantStore, UnjudgedPage, UpsertOutcome, WebhookRecord,
} from "../../lib/contracts/storage.ts";
import { bytesOf, numberOf, type PgPool } from "./client.ts";
import { BlobGroups } from "./blob_group.ts";
import * as deliveryLog from "./delivery_log.ts";
import { PostgresDocuments } from "./documents.ts";
import { PostgresIdempotency } from "./idempotency.ts";
import { appendNotice } from "./notices.ts";
import { PostgresSubmissions } from "./submissions.ts";
import { PostgresSyncRuns } from "./sync_runs.ts";
import { PostgresWebhooks } from "./webhooks.ts";

const enc = new TextEncoder();
const SMALL_BLOB = 256 * 1024; // fetched with its metadata in one round trip below this size (as blob_dir.ts caches)
const CHUNK = 1024 * 1024; // streaming chunk: a 10 MiB download is ten 1 MiB reads, not one 10 MiB allocation

function _memoryBlob(key: string, bytes: Uint8Array): StoredBlob {
  return {
    sha256: key, size: bytes.length,
    bytes: async () => bytes,
    async *stream(start, end) {
      yield bytes.subarray(start, end);
    },
  };
}

/** A tenant's store over a pool. */
export class PostgresTenantStore implements TenantStore {
  readonly tenant: string;
  #pool: PgPool;
  #blobs: BlobGroups;
  #idem: PostgresIdempotency;
  #documents: PostgresDocuments;
  #submissions: PostgresSubmissions;
  #runs: PostgresSyncRuns;
  #webhooks: PostgresWebhooks;

  constructor(tenant: string, pool: PgPool) {
    this.tenant = tenant;
    this.#pool = pool;
    this.#blobs = new BlobGroups(tenant, pool);
    this.#idem = new PostgresIdempotency(tenant, pool);
    this.#documents = new PostgresDocuments(tenant, pool);
    const scope = { tenant, pool, idem: this.#idem };
    this.#submissions = new PostgresSubmissions(scope);
    this.#runs = new PostgresSyncRuns(scope);
    this.#webhooks = new PostgresWebhooks(scope);
  }

  async putBlob(bytes: Uint8Array): Promise<BlobInfo> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    await this.#blobs.put("content", sha256, bytes);
    return { sha256, size: bytes.length };
  }
  async getBlob(sha256: string): Promise<StoredBlob | null> {
    return this.#getBlob("content", sha256);
  }
  async putDerived(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    await this.#blobs.put("derived", key, bytes);
    return { sha256: key, size: bytes.length };
  }
  async getDerived(key: string): Promise<StoredBlob | null> {
    return this.#getBlob("derived", key);
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

  async upsertDocument(input: DocumentInput, now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }> {
    return this.#documents.upsert(input, now);
  }

  async upsertDocuments(inputs: DocumentInput[], now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }[]> {
    return this.#documents.upsertMany(inputs, now);
  }

  async getDocument(id: string): Promise<Stored<DocumentRecord> | null> {
    return this.#documents.get(id);
  }

  async documentChanges(after: number, limit: number, filter: DocumentFilter, maxScan: number): Promise<ChangePage> {
    return this.#documents.changes(after, limit, filter, maxScan);
  }

  async documentPage(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number): Promise<{ items: Uint8Array[]; total: number }> {
    return this.#documents.page(filter, sort, offset, limit);
  }

  async unjudgedDocuments(from: number, limit: number): Promise<UnjudgedPage> {
    return this.#documents.unjudged(from, limit);
  }

  async saveVerdicts(verdicts: readonly DocumentVerdict[]): Promise<number> {
    return this.#documents.saveVerdicts(verdicts);
  }

  async createSubmission(input: SubmissionInput, now: string, idem?: IdempotencyTag): Promise<{ created: SubmissionRecord } | { duplicateOf: string }> {
    return this.#submissions.create(input, now, idem);
  }

  async getSubmission(id: string): Promise<Stored<SubmissionRecord> | null> {
    return this.#submissions.get(id);
  }

  async submissionChanges(after: number, limit: number, maxScan: number, filter?: SubmissionFilter): Promise<ChangePage> {
    return this.#submissions.changes(after, limit, maxScan, filter);
  }

  async saveSubmissionKsef(id: string, ksef: SubmissionKsef): Promise<Stored<SubmissionRecord> | null> {
    return this.#submissions.saveKsef(id, ksef);
  }

  async pendingKsefSubmissions(limit: number): Promise<SubmissionRecord[]> {
    return this.#submissions.pending(limit);
  }

  async requestRun(source: string, now: string, idem?: IdempotencyTag): Promise<{ run: SyncRunRecord; created: boolean }> {
    return this.#runs.request(source, now, idem);
  }

  async saveRun(run: SyncRunRecord): Promise<void> {
    return this.#runs.save(run);
  }

  async getRun(id: string): Promise<SyncRunRecord | null> {
    return this.#runs.get(id);
  }

  async activeRuns(): Promise<SyncRunRecord[]> {
    return this.#runs.active();
  }

  async lastRun(source: string): Promise<SyncRunRecord | null> {
    return this.#runs.last(source);
  }

  async summaryCounts(keys: readonly string[], prefixes: readonly string[]): Promise<Map<string, number>> {
    const r = await this.#pool.query(
      `SELECT key, n FROM summary_counts WHERE tenant = $1 AND (key = ANY($2::text[]) OR key LIKE ANY($3::text[])) AND n <> 0`,
      [this.tenant, [...keys], prefixes.map((p) => `${p.replace(/[\\%_]/g, "\\$&")}%`)],
    );
    return new Map(r.rows.map((row) => [String(row.key), numberOf(row.n)]));
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

  async appendNotice(notice: NoticeRecord): Promise<number> {
    return appendNotice(this.#pool, this.tenant, notice);
  }

  async getIdempotency(key: string, now: number, maxAgeMs: number): Promise<IdempotencyRecord | null> {
    return this.#idem.get(key, now, maxAgeMs);
  }

  async putIdempotency(record: IdempotencyRecord): Promise<void> {
    await this.#idem.put(this.#pool, record);
  }

  async beginIdempotent(key: string): Promise<boolean> {
    return this.#idem.begin(key);
  }

  async endIdempotent(key: string): Promise<void> {
    await this.#idem.end(key);
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

  async createWebhook(input: Omit<WebhookRecord, "id" | "status">, idem?: IdempotencyTag): Promise<WebhookRecord> {
    return this.#webhooks.create(input, idem);
  }

  async getWebhook(id: string): Promise<WebhookRecord | null> {
    return this.#webhooks.get(id);
  }

  async listWebhooks(): Promise<WebhookRecord[]> {
    return this.#webhooks.list();
  }

  async saveWebhook(record: WebhookRecord): Promise<WebhookRecord | null> {
    return this.#webhooks.save(record);
  }

  async getDeliveryState(webhookId: string): Promise<DeliveryState | null> {
    return this.#webhooks.deliveryState(webhookId);
  }

  async saveDeliveryState(webhookId: string, state: DeliveryState): Promise<void> {
    return this.#webhooks.saveDeliveryState(webhookId, state);
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

  pendingRedeliveries(webhookId: string): Promise<Redelivery[]> {
    return deliveryLog.pendingRedeliveries(this.#pool, this.tenant, webhookId);
  }

  completeRedelivery(webhookId: string, eventId: string): Promise<void> {
    return deliveryLog.completeRedelivery(this.#pool, this.tenant, webhookId, eventId);
  }
}
