/**
 * One tenant's data in the file store: the shell that holds its collections (documents.ts, submissions.ts,
 * sync_runs.ts, webhooks.ts, each in a record log, see record_log.ts), its blobs in content-addressed
 * directories, its idempotency keys and leases.
 *
 * Writes are group-committed (README "How data is kept (file store)"): a write queues its change; the changes
 * queued while the previous group was being flushed run together, each synchronously (so two never interleave),
 * then every log they touched is written and flushed once, off the event loop, and only then is each writer
 * answered. Reads wait while a group is between its changes and their flush, so nothing unflushed is ever
 * shown. With WORKERS > 1, a group takes the directory's lock file.
 * @module
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import type {
  BlobInfo, ChangePage, Collection, DeliveryAttempt, DeliveryState, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, DocumentVerdict, IdempotencyRecord,
  IdempotencyTag, NoticeRecord, RawChange, Redelivery, Stored, StoredBlob, SubmissionFilter, SubmissionInput, SubmissionKsef, SubmissionRecord, SyncRunRecord, TenantStore,
  UnjudgedPage, UpsertOutcome, WebhookRecord,
} from "../../lib/contracts/storage.ts";
import { LocalLeases } from "../../lib/contracts/local_leases.ts";
import { BlobDir } from "./blob_dir.ts";
import type { IdemMeta } from "./columns.ts";
import { FileDocuments } from "./documents.ts";
import { IdempotencyFiles } from "./idempotency.ts";
import { FileNotices } from "./notices.ts";
import { withFileLockAsync } from "./lock.ts";
import type { RecordLog } from "./record_log.ts";
import { FileSubmissions } from "./submissions.ts";
import { FileSyncRuns } from "./sync_runs.ts";
import { FileWebhooks } from "./webhooks.ts";

const dec = new TextDecoder();
/**
 * Changes in one group at most: bounds the bytes of one flush (a sync run's batch of 30 KB invoices is ~10 MB of
 * records) and so how long a read waits for a group in flight.
 */
const MAX_GROUP = 512;

interface _Queued {
  fn: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/** A tenant's store in `dir`. */
export class FileTenantStore implements TenantStore {
  readonly tenant: string;
  #documents: FileDocuments;
  #submissions: FileSubmissions;
  #runs: FileSyncRuns;
  #webhooks: FileWebhooks;
  #notices: FileNotices;
  #idem: IdempotencyFiles;
  #leases = new LocalLeases();
  #dir: string;
  #blobs: BlobDir;
  #derived: BlobDir;
  /** Other processes write to the same directory (WORKERS > 1): writes take the lock, reads catch up first. */
  #shared: boolean;
  #durable: boolean;
  /** Changes waiting for the next group. */
  #queue: _Queued[] = [];
  #committing = false;
  /** Set while a group's changes are in memory but not yet flushed: reads wait for it. */
  #unflushed: Promise<void> | null = null;

  constructor(tenant: string, dir: string, durable: boolean, shared = false) {
    this.tenant = tenant;
    this.#shared = shared;
    this.#durable = durable;
    mkdirSync(dir, { recursive: true });
    this.#dir = dir;
    this.#blobs = new BlobDir(join(dir, "blobs"), { packed: true });
    // Derived blobs (renderings, KSeF's UPOs, batch parts) are packed too: a batch session's thousands of UPOs are a few
    // packs, not a file, a flush and a rename each.
    this.#derived = new BlobDir(join(dir, "derived"), { packed: true });
    [this.#idem, this.#documents, this.#submissions, this.#runs, this.#webhooks, this.#notices] = this.#open();
  }

  // Opens the collections from the files (at start, and after a failed flush left memory ahead of the files).
  #open(): [IdempotencyFiles, FileDocuments, FileSubmissions, FileSyncRuns, FileWebhooks, FileNotices] {
    const dir = this.#dir, durable = this.#durable;
    const idem = new IdempotencyFiles(join(dir, "idempotency"));
    const opened = [idem, new FileDocuments(dir, durable, {}, this.#shared), new FileSubmissions(dir, durable, idem), new FileSyncRuns(dir, durable, idem), new FileWebhooks(dir, durable, idem), new FileNotices(dir, durable)] as const;
    // A crash may fall between a group's effects and their keys' records (flushed after them): the effects carry
    // the records, restore those of the last group.
    for (const log of [opened[2].log, opened[3].log, opened[4].log]) {
      for (const raw of log.recentMetas(MAX_GROUP)) {
        const meta = JSON.parse(dec.decode(raw)) as IdemMeta;
        if (!idem.has(meta.key)) idem.put(meta);
      }
    }
    return [...opened];
  }

  // On a shared directory: takes in what other processes wrote (one fstat per log when nothing changed).
  #catchUp(writer: boolean): void {
    this.#documents.catchUp(writer);
    this.#submissions.catchUp(writer);
    this.#runs.catchUp(writer);
    this.#webhooks.catchUp(writer);
    this.#notices.catchUp(writer);
  }

  // Before a read: waits while a group is unflushed (never shows what a crash could still take back), then, on a
  // shared directory, takes in what other processes wrote. Without a group in flight, nothing to wait for: no
  // promise is made (a read per request).
  #look(): Promise<void> | undefined {
    if (this.#unflushed) return this.#lookAfterFlush();
    if (this.#shared) this.#catchUp(false);
    return undefined;
  }

  async #lookAfterFlush(): Promise<void> {
    while (this.#unflushed) await this.#unflushed;
    if (this.#shared) this.#catchUp(false);
  }

  // Queues a change for the next group; resolves with its result once the group is flushed.
  #write<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (this.#committing) return;
      this.#committing = true;
      setImmediate(() => void this.#commitGroups()); // the changes of this turn of the event loop join the group
    });
  }

  async #commitGroups(): Promise<void> {
    while (this.#queue.length > 0) {
      await this.#commitGroup(this.#queue.splice(0, MAX_GROUP));
      // A turn of the event loop between groups: reads that waited for this one run before the next begins.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#committing = false;
  }

  async #commitGroup(group: _Queued[]): Promise<void> {
    const results: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    let done!: () => void;
    const run = async (): Promise<void> => {
      if (this.#shared) this.#catchUp(true);
      this.#unflushed = new Promise((resolve) => (done = resolve));
      for (const q of group) {
        try {
          results.push({ ok: true, value: q.fn() });
        } catch (error) {
          results.push({ ok: false, error });
        }
      }
      const logs = [this.#documents.log, this.#submissions.log, this.#runs.log, this.#webhooks.log, this.#notices.log];
      await Promise.all(logs.map((log) => log.commit()));
      // After the documents log: a verdict is kept only once the version it names is (a crash cannot leave it naming
      // a version that was lost, whose seq a later version could take).
      await this.#documents.verdicts.commit();
      await this.#idem.commit(); // after the effects: recovery restores keys from effects, never the other way
    };
    try {
      if (this.#shared) await withFileLockAsync(join(this.#dir, ".lock"), run);
      else await run();
    } catch (e) {
      // The flush failed (disk full): every change of the group fails (none was answered), and since memory is
      // ahead of the files, the collections are read again from them. Should that fail too, the closed logs
      // fail the writes that follow until a restart.
      for (const q of group) q.reject(e);
      try {
        this.close();
        [this.#idem, this.#documents, this.#submissions, this.#runs, this.#webhooks, this.#notices] = this.#open();
      } catch {
        // reported by the next write
      } finally {
        this.#unflushed = null;
        done?.();
      }
      return;
    }
    this.#unflushed = null;
    done();
    group.forEach((q, i) => {
      const r = results[i]!;
      if (r.ok) q.resolve(r.value);
      else q.reject(r.error);
    });
  }

  close(): void {
    this.#documents.log.close();
    this.#documents.verdicts.close();
    this.#submissions.log.close();
    this.#runs.log.close();
    this.#webhooks.log.close();
    this.#notices.log.close();
  }

  /** Makes non-durable bulk writes durable, blocking (benchmarks and imports with `durable: false`). */
  flush(): void {
    this.#documents.log.flush();
    this.#submissions.log.flush();
    this.#runs.log.flush();
    this.#notices.log.flush();
  }

  async putBlob(bytes: Uint8Array): Promise<BlobInfo> {
    return this.#blobs.putContent(bytes);
  }
  async getBlob(sha256: string): Promise<StoredBlob | null> {
    return this.#blobs.get(sha256);
  }
  async putDerived(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    return this.#derived.put(key, bytes);
  }
  async getDerived(key: string): Promise<StoredBlob | null> {
    return this.#derived.get(key);
  }

  async upsertDocument(input: DocumentInput, now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }> {
    return this.#write(() => this.#documents.upsert(input, now));
  }

  async upsertDocuments(inputs: DocumentInput[], now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }[]> {
    return this.#write(() => inputs.map((input) => this.#documents.upsert(input, now)));
  }

  /**
   * upsertDocument for bulk seeding with `durable: false` (benchmarks): blocking, written without a flush; call
   * flush() at the end. Never on a server's path.
   */
  upsertDocumentSync(input: DocumentInput, now: string): { document: DocumentRecord; outcome: UpsertOutcome } {
    if (this.#durable || this.#shared) throw new Error("upsertDocumentSync is for bulk seeding of a store opened with durable: false");
    const result = this.#documents.upsert(input, now);
    this.#documents.log.commitSync();
    return result;
  }

  async getDocument(id: string): Promise<Stored<DocumentRecord> | null> {
    await this.#look();
    return this.#documents.get(id);
  }

  async documentChanges(after: number, limit: number, filter: DocumentFilter, maxScan: number): Promise<ChangePage> {
    await this.#look();
    return this.#documents.changes(after, limit, filter, maxScan);
  }

  async documentPage(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number): Promise<{ items: Uint8Array[]; total: number }> {
    await this.#look();
    return this.#documents.page(filter, sort, offset, limit);
  }

  async unjudgedDocuments(from: number, limit: number): Promise<UnjudgedPage> {
    await this.#look();
    return this.#documents.unjudged(from, limit);
  }

  async saveVerdicts(verdicts: readonly DocumentVerdict[]): Promise<number> {
    return this.#write(() => this.#documents.saveVerdicts(verdicts));
  }

  async createSubmission(input: SubmissionInput, now: string, idem?: IdempotencyTag): Promise<{ created: SubmissionRecord } | { duplicateOf: string }> {
    return this.#write(() => this.#submissions.create(input, now, idem));
  }

  async getSubmission(id: string): Promise<Stored<SubmissionRecord> | null> {
    await this.#look();
    return this.#submissions.get(id);
  }

  async submissionChanges(after: number, limit: number, maxScan: number, filter?: SubmissionFilter): Promise<ChangePage> {
    await this.#look();
    return this.#submissions.changes(after, limit, maxScan, filter);
  }

  async saveSubmissionKsef(id: string, ksef: SubmissionKsef): Promise<Stored<SubmissionRecord> | null> {
    return this.#write(() => this.#submissions.saveKsef(id, ksef));
  }

  async pendingKsefSubmissions(limit: number): Promise<SubmissionRecord[]> {
    await this.#look();
    return this.#submissions.pending(limit);
  }

  async requestRun(source: string, now: string, idem?: IdempotencyTag): Promise<{ run: SyncRunRecord; created: boolean }> {
    return this.#write(() => this.#runs.request(source, now, idem));
  }

  async saveRun(run: SyncRunRecord): Promise<void> {
    return this.#write(() => this.#runs.save(run));
  }

  async getRun(id: string): Promise<SyncRunRecord | null> {
    await this.#look();
    return this.#runs.get(id);
  }

  async activeRuns(): Promise<SyncRunRecord[]> {
    await this.#look();
    return this.#runs.active();
  }

  async lastRun(source: string): Promise<SyncRunRecord | null> {
    await this.#look();
    return this.#runs.last(source);
  }

  async summaryCounts(keys: readonly string[], prefixes: readonly string[]): Promise<Map<string, number>> {
    await this.#look();
    const docs = this.#documents.counts.read(keys, prefixes);
    for (const [k, n] of this.#submissions.counts.read(keys, prefixes)) docs.set(k, n);
    return docs;
  }

  #log(c: Collection): RecordLog {
    return c === "documents" ? this.#documents.log : c === "submissions" ? this.#submissions.log : c === "runs" ? this.#runs.log : this.#notices.log;
  }

  async feedLength(c: Collection): Promise<number> {
    await this.#look();
    return this.#log(c).feedLength;
  }

  async rawChanges(c: Collection, from: number, limit: number): Promise<RawChange[]> {
    await this.#look();
    const log = this.#log(c);
    return log.rawFeed(from, limit).map((e) => ({ seq: e.seq, json: log.readVersion(e), first: e.first }));
  }

  async appendNotice(notice: NoticeRecord): Promise<number> {
    return this.#write(() => this.#notices.append(notice));
  }

  async getIdempotency(key: string, now: number, maxAgeMs: number): Promise<IdempotencyRecord | null> {
    await this.#look();
    if (this.#shared) this.#idem.refresh(); // keys that another process committed
    return this.#idem.get(key, now, maxAgeMs);
  }

  async putIdempotency(record: IdempotencyRecord): Promise<void> {
    return this.#write(() => {
      this.#idem.put(record);
    });
  }

  async beginIdempotent(key: string): Promise<boolean> {
    return this.#idem.begin(key);
  }

  async endIdempotent(key: string) {
    await this.#idem.end(key);
  }

  async claimLease(name: string, owner: string, leaseMs: number): Promise<boolean> {
    return this.#leases.claim(name, owner, leaseMs);
  }

  async releaseLease(name: string, owner: string) {
    this.#leases.release(name, owner);
  }

  async createWebhook(input: Omit<WebhookRecord, "id" | "status">, idem?: IdempotencyTag): Promise<WebhookRecord> {
    return this.#write(() => this.#webhooks.create(input, idem));
  }

  async getWebhook(id: string): Promise<WebhookRecord | null> {
    await this.#look();
    return this.#webhooks.get(id);
  }

  async listWebhooks(): Promise<WebhookRecord[]> {
    await this.#look();
    return this.#webhooks.list();
  }

  async saveWebhook(record: WebhookRecord): Promise<WebhookRecord | null> {
    return this.#write(() => this.#webhooks.save(record));
  }

  async getDeliveryState(webhookId: string): Promise<DeliveryState | null> {
    return this.#webhooks.deliveryState(webhookId);
  }

  async saveDeliveryState(webhookId: string, state: DeliveryState): Promise<void> {
    await this.#webhooks.saveDeliveryState(webhookId, state);
  }

  async appendDeliveryAttempt(webhookId: string, attempt: Omit<DeliveryAttempt, "seq">): Promise<void> {
    await this.#webhooks.attempts.append(webhookId, attempt);
  }

  async deliveryAttempts(webhookId: string, after: number, limit: number, notBefore: string): Promise<{ items: DeliveryAttempt[]; hasMore: boolean }> {
    return this.#webhooks.attempts.page(webhookId, after, limit, notBefore);
  }

  async requestRedelivery(webhookId: string, request: Redelivery): Promise<void> {
    await this.#webhooks.attempts.request(webhookId, request);
  }

  async pendingRedeliveries(webhookId: string): Promise<Redelivery[]> {
    return this.#webhooks.attempts.pending(webhookId);
  }

  async completeRedelivery(webhookId: string, eventId: string): Promise<void> {
    await this.#webhooks.attempts.complete(webhookId, eventId);
  }
}
