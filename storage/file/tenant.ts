/**
 * One tenant's data in the file store: the shell that holds its collections (documents.ts, submissions.ts,
 * sync_runs.ts, webhooks.ts, each in a record log, see record_log.ts), its blobs in content-addressed
 * directories, its idempotency keys and leases. All mutations run synchronously between awaits, so concurrent
 * requests of one process never interleave inside a write; with WORKERS > 1, writes take a file lock.
 * @module
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type {
  ChangePage, Collection, DeliveryAttempt, DeliveryState, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, IdempotencyRecord,
  IdempotencyTag, RawChange, Redelivery, Stored, SubmissionFilter, SubmissionInput, SubmissionKsef, SubmissionRecord, SyncRunRecord, TenantStore, UpsertOutcome, WebhookRecord,
} from "../../lib/contracts/storage.ts";
import { LocalLeases } from "../../lib/contracts/local_leases.ts";
import { BlobDir } from "./blob_dir.ts";
import type { IdemMeta } from "./columns.ts";
import { FileDocuments } from "./documents.ts";
import { IdempotencyFiles } from "./idempotency.ts";
import { withFileLock } from "./lock.ts";
import type { RecordLog } from "./record_log.ts";
import { FileSubmissions } from "./submissions.ts";
import { FileSyncRuns } from "./sync_runs.ts";
import { FileWebhooks } from "./webhooks.ts";

const dec = new TextDecoder();

/** A tenant's store in `dir`. */
export class FileTenantStore implements TenantStore {
  readonly tenant: string;
  #documents: FileDocuments;
  #submissions: FileSubmissions;
  #runs: FileSyncRuns;
  #webhooks: FileWebhooks;
  #idem: IdempotencyFiles;
  #leases = new LocalLeases();
  #dir: string;
  #blobs: BlobDir;
  #derived: BlobDir;
  /** Other processes write to the same directory (WORKERS > 1): writes take the lock, reads catch up first. */
  #shared: boolean;

  constructor(tenant: string, dir: string, durable: boolean, shared = false) {
    this.tenant = tenant;
    this.#shared = shared;
    mkdirSync(dir, { recursive: true });
    this.#dir = dir;
    this.#idem = new IdempotencyFiles(join(dir, "idempotency"));
    this.#documents = new FileDocuments(dir, durable);
    this.#submissions = new FileSubmissions(dir, durable, this.#idem);
    this.#runs = new FileSyncRuns(dir, durable, this.#idem);
    this.#webhooks = new FileWebhooks(dir, durable, this.#idem);
    // A crash may fall between an effect and its key's record: the effect carries the record, restore it.
    for (const log of [this.#submissions.log, this.#runs.log, this.#webhooks.log]) {
      const meta = log.lastMeta ? (JSON.parse(dec.decode(log.lastMeta)) as IdemMeta) : null;
      if (meta && !this.#idem.has(meta.key)) this.#idem.put(meta);
    }
    this.#blobs = new BlobDir(join(dir, "blobs"));
    this.#derived = new BlobDir(join(dir, "derived"));
  }

  // On a shared directory: takes in what other processes wrote (one fstat per log when nothing changed).
  #catchUp(writer: boolean): void {
    this.#documents.catchUp(writer);
    this.#submissions.catchUp(writer);
    this.#runs.catchUp(writer);
    this.#webhooks.catchUp(writer);
  }

  #look(): void {
    if (this.#shared) this.#catchUp(false);
  }

  #write<T>(fn: () => T): T {
    if (!this.#shared) return fn();
    return withFileLock(join(this.#dir, ".lock"), () => {
      this.#catchUp(true);
      return fn();
    });
  }

  close(): void {
    this.#documents.log.close();
    this.#submissions.log.close();
    this.#runs.log.close();
    this.#webhooks.log.close();
  }

  /** Makes non-durable bulk writes durable (benchmarks and imports). */
  flush(): void {
    this.#documents.log.flush();
    this.#submissions.log.flush();
    this.#runs.log.flush();
  }

  async putBlob(bytes: Uint8Array) {
    return this.#blobs.putContent(bytes);
  }
  async getBlob(sha256: string) {
    return this.#blobs.get(sha256);
  }
  async putDerived(key: string, bytes: Uint8Array) {
    return this.#derived.put(key, bytes);
  }
  async getDerived(key: string) {
    return this.#derived.get(key);
  }

  async upsertDocument(input: DocumentInput, now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }> {
    return this.upsertDocumentSync(input, now);
  }

  /** The synchronous core of upsertDocument (also used for bulk seeding). */
  upsertDocumentSync(input: DocumentInput, now: string): { document: DocumentRecord; outcome: UpsertOutcome } {
    return this.#write(() => this.#documents.upsert(input, now));
  }

  async getDocument(id: string): Promise<Stored<DocumentRecord> | null> {
    this.#look();
    return this.#documents.get(id);
  }

  async documentChanges(after: number, limit: number, filter: DocumentFilter, maxScan: number): Promise<ChangePage> {
    this.#look();
    return this.#documents.changes(after, limit, filter, maxScan);
  }

  async documentPage(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number) {
    this.#look();
    return this.#documents.page(filter, sort, offset, limit);
  }

  async createSubmission(input: SubmissionInput, now: string, idem?: IdempotencyTag): Promise<{ created: SubmissionRecord } | { duplicateOf: string }> {
    return this.#write(() => this.#submissions.create(input, now, idem));
  }

  async getSubmission(id: string): Promise<Stored<SubmissionRecord> | null> {
    this.#look();
    return this.#submissions.get(id);
  }

  async submissionChanges(after: number, limit: number, maxScan: number, filter?: SubmissionFilter): Promise<ChangePage> {
    this.#look();
    return this.#submissions.changes(after, limit, maxScan, filter);
  }

  async saveSubmissionKsef(id: string, ksef: SubmissionKsef): Promise<Stored<SubmissionRecord> | null> {
    return this.#write(() => this.#submissions.saveKsef(id, ksef));
  }

  async pendingKsefSubmissions(limit: number): Promise<SubmissionRecord[]> {
    this.#look();
    return this.#submissions.pending(limit);
  }

  async requestRun(source: string, now: string, idem?: IdempotencyTag): Promise<{ run: SyncRunRecord; created: boolean }> {
    return this.#write(() => this.#runs.request(source, now, idem));
  }

  async saveRun(run: SyncRunRecord): Promise<void> {
    return this.#write(() => this.#runs.save(run));
  }

  async getRun(id: string): Promise<SyncRunRecord | null> {
    this.#look();
    return this.#runs.get(id);
  }

  async activeRuns(): Promise<SyncRunRecord[]> {
    this.#look();
    return this.#runs.active();
  }

  #log(c: Collection): RecordLog {
    return c === "documents" ? this.#documents.log : c === "submissions" ? this.#submissions.log : this.#runs.log;
  }

  async feedLength(c: Collection): Promise<number> {
    this.#look();
    return this.#log(c).feedLength;
  }

  async rawChanges(c: Collection, from: number, limit: number): Promise<RawChange[]> {
    this.#look();
    const log = this.#log(c);
    return log.rawFeed(from, limit).map((e) => ({ seq: e.seq, json: log.readVersion(e), first: e.first }));
  }

  async getIdempotency(key: string, now: number, maxAgeMs: number) {
    this.#look();
    if (this.#shared) this.#idem.refresh(); // keys that another process committed
    return this.#idem.get(key, now, maxAgeMs);
  }

  async putIdempotency(record: IdempotencyRecord) {
    return this.#write(() => {
      this.#idem.put(record);
    });
  }

  async beginIdempotent(key: string) {
    return this.#idem.begin(key);
  }

  async endIdempotent(key: string) {
    this.#idem.end(key);
  }

  async claimLease(name: string, owner: string, leaseMs: number) {
    return this.#leases.claim(name, owner, leaseMs);
  }

  async releaseLease(name: string, owner: string) {
    this.#leases.release(name, owner);
  }

  async createWebhook(input: Omit<WebhookRecord, "id" | "status">, idem?: IdempotencyTag): Promise<WebhookRecord> {
    return this.#write(() => this.#webhooks.create(input, idem));
  }

  async getWebhook(id: string): Promise<WebhookRecord | null> {
    this.#look();
    return this.#webhooks.get(id);
  }

  async listWebhooks(): Promise<WebhookRecord[]> {
    this.#look();
    return this.#webhooks.list();
  }

  async saveWebhook(record: WebhookRecord): Promise<void> {
    return this.#write(() => this.#webhooks.save(record));
  }

  async getDeliveryState(webhookId: string): Promise<DeliveryState | null> {
    return this.#webhooks.deliveryState(webhookId);
  }

  async saveDeliveryState(webhookId: string, state: DeliveryState): Promise<void> {
    this.#webhooks.saveDeliveryState(webhookId, state);
  }

  async appendDeliveryAttempt(webhookId: string, attempt: Omit<DeliveryAttempt, "seq">): Promise<void> {
    this.#webhooks.attempts.append(webhookId, attempt);
  }

  async deliveryAttempts(webhookId: string, after: number, limit: number, notBefore: string): Promise<{ items: DeliveryAttempt[]; hasMore: boolean }> {
    return this.#webhooks.attempts.page(webhookId, after, limit, notBefore);
  }

  async requestRedelivery(webhookId: string, request: Redelivery): Promise<void> {
    this.#webhooks.attempts.request(webhookId, request);
  }

  async pendingRedeliveries(webhookId: string): Promise<Redelivery[]> {
    return this.#webhooks.attempts.pending(webhookId);
  }

  async completeRedelivery(webhookId: string, eventId: string): Promise<void> {
    this.#webhooks.attempts.complete(webhookId, eventId);
  }
}
