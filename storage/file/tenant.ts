/**
 * One tenant's data in the file store: documents, submissions, sync runs and webhooks in
 * record logs (see record_log.ts), blobs in a content-addressed directory.
 * All mutations run synchronously between awaits, so concurrent requests of
 * one process never interleave inside a write.
 * @module
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { businessKey, documentJson, fieldsOf, sameFields, submissionJson } from "../../lib/contracts/record_json.ts";
import { decodeOrdinalId, encodeOrdinalId } from "../../lib/contracts/ids.ts";
import type {
  ChangePage, Collection, DeliveryAttempt, DeliveryState, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, IdempotencyRecord,
  IdempotencyTag, RawChange, Redelivery, Stored, SubmissionInput, SubmissionRecord, SyncRunRecord, TenantStore, UpsertOutcome, WebhookRecord,
} from "../../lib/contracts/storage.ts";
import { writeFileAtomic } from "../atomic.ts";
import { DeliveryLogFiles } from "./delivery_log.ts";
import { IdempotencyFiles } from "./idempotency.ts";
import { withFileLock } from "./lock.ts";
import { BlobDir } from "./blob_dir.ts";
import {
  docColumns, idemMeta, parseRecord, RUN_STATUS, runColumns, subColumns, walkFeed, WEBHOOK_STATUS, webhookColumns, type IdemMeta,
} from "./columns.ts";
import { hash32 } from "./crc32.ts";
import { dayNumber, FORMAT_CODES, matchesFilter, NULL_DAY, TYPE_CODES } from "../../lib/contracts/document_filter.ts";
import { HashIndex } from "./hash_index.ts";
import { RecordLog } from "./record_log.ts";
import { selectPage } from "../../lib/contracts/page_selection.ts";
import { LocalLeases } from "../../lib/contracts/local_leases.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
/** A tenant's store in `dir`. */
export class FileTenantStore implements TenantStore {
  readonly tenant: string;
  #docs: RecordLog;
  #subs: RecordLog;
  #runs: RecordLog;
  #webhooks: RecordLog;
  #idem: IdempotencyFiles;
  #attempts: DeliveryLogFiles;
  #dir: string;
  #blobs: BlobDir;
  #derived: BlobDir;
  #byExternalId = new HashIndex();
  #bySha = new HashIndex();
  #byBusinessKey = new HashIndex();
  /** Other processes write to the same directory (WORKERS > 1): writes take the lock, reads catch up first. */
  #shared: boolean;

  constructor(tenant: string, dir: string, durable: boolean, shared = false) {
    this.tenant = tenant;
    this.#shared = shared;
    mkdirSync(dir, { recursive: true });
    this.#docs = new RecordLog(dir, "documents", { durable, columnsOf: docColumns });
    this.#subs = new RecordLog(dir, "submissions", { durable, columnsOf: subColumns });
    this.#runs = new RecordLog(dir, "runs", { durable, columnsOf: runColumns });
    this.#webhooks = new RecordLog(dir, "webhooks", { durable, columnsOf: webhookColumns });
    this.#dir = dir;
    this.#idem = new IdempotencyFiles(join(dir, "idempotency"));
    this.#attempts = new DeliveryLogFiles(join(dir, "delivery"));
    // A crash may fall between an effect and its key's record: the effect carries the record, restore it.
    for (const log of [this.#subs, this.#runs, this.#webhooks]) {
      const meta = log.lastMeta ? (JSON.parse(dec.decode(log.lastMeta)) as IdemMeta) : null;
      if (meta && !this.#idem.has(meta.key)) this.#idem.put(meta);
    }
    this.#blobs = new BlobDir(join(dir, "blobs"));
    this.#derived = new BlobDir(join(dir, "derived"));
    this.#index(0, 0);
  }

  // Adds ordinals from these on to the in-memory hash indexes.
  #index(docsFrom: number, subsFrom: number): void {
    for (let o = docsFrom; o < this.#docs.count; o++) this.#byExternalId.add(this.#docs.u32[o * 12 + 9]!, o);
    for (let o = subsFrom; o < this.#subs.count; o++) {
      this.#bySha.add(this.#subs.u32[o * 12 + 8]!, o);
      this.#byBusinessKey.add(this.#subs.u32[o * 12 + 9]!, o);
    }
  }

  // On a shared directory: takes in what other processes wrote (one fstat per log when nothing changed).
  #catchUp(writer: boolean): void {
    const docsFrom = this.#docs.catchUp(docColumns, writer);
    const subsFrom = this.#subs.catchUp(subColumns, writer);
    this.#runs.catchUp(runColumns, writer);
    this.#webhooks.catchUp(webhookColumns, writer);
    this.#index(docsFrom, subsFrom);
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
    this.#docs.close();
    this.#subs.close();
    this.#runs.close();
    this.#webhooks.close();
  }

  /** Makes non-durable bulk writes durable (benchmarks and imports). */
  flush(): void {
    this.#docs.flush();
    this.#subs.flush();
    this.#runs.flush();
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
    return this.#write(() => this.#upsert(input, now));
  }

  #upsert(input: DocumentInput, now: string): { document: DocumentRecord; outcome: UpsertOutcome } {
    const key = hash32(`${input.source}\u0000${input.external_id}`);
    let ordinal = -1;
    let old: DocumentRecord | null = null;
    for (const o of this.#byExternalId.find(key)) {
      const d = parseRecord<DocumentRecord>(this.#docs.read(o));
      if (d.source === input.source && d.external_id === input.external_id) {
        ordinal = o;
        old = d;
        break;
      }
    }
    if (old) {
      const unchanged = input.xml
        ? old.xml_available && old.sha256 === input.xml.sha256
        : old.xml_available || sameFields(fieldsOf(old), input.fields); // metadata never replaces XML
      if (unchanged && (input.ksef_number == null || input.ksef_number === old.ksef_number)) return { document: old, outcome: "unchanged" };
    }
    const isNew = ordinal < 0;
    if (isNew) ordinal = this.#docs.count;
    const doc: DocumentRecord = {
      id: old?.id ?? encodeOrdinalId("doc", Date.parse(now), ordinal),
      source: input.source,
      external_id: input.external_id,
      ...input.fields,
      ksef_number: input.ksef_number ?? old?.ksef_number ?? null,
      xml_available: input.xml !== null,
      sha256: input.xml?.sha256 ?? null,
      size: input.xml?.size ?? null,
      received_at: input.received_at ?? old?.received_at ?? null,
      synced_at: now,
      updated_at: now,
    };
    const json = enc.encode(documentJson(doc));
    this.#docs.write(ordinal, json, docColumns(json));
    if (isNew) this.#byExternalId.add(key, ordinal);
    return { document: doc, outcome: isNew ? "created" : "updated" };
  }

  async getDocument(id: string): Promise<Stored<DocumentRecord> | null> {
    this.#look();
    const o = decodeOrdinalId("doc", id);
    if (o < 0 || o >= this.#docs.count) return null;
    const json = this.#docs.read(o);
    const record = parseRecord<DocumentRecord>(json);
    return record.id === id ? { record, json } : null;
  }

  async documentChanges(after: number, limit: number, filter: DocumentFilter, maxScan: number): Promise<ChangePage> {
    this.#look();
    const pass = this.#columnFilter(filter);
    const exact = filter.seller_tax_id !== undefined || filter.buyer_tax_id !== undefined || filter.ksef_number !== undefined;
    return walkFeed(this.#docs, after, limit, maxScan, pass, exact ? (j) => matchesFilter(parseRecord(j), filter) : null);
  }

  async documentPage(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number) {
    this.#look();
    const pass = this.#columnFilter(filter);
    const log = this.#docs;
    const exact = filter.seller_tax_id !== undefined || filter.buyer_tax_id !== undefined || filter.ksef_number !== undefined;
    const byDay = sort === "-issue_date" || sort === "issue_date";
    const key = (o: number): number => (byDay ? log.i32[o * 12 + 6]! : log.f64[o * 6 + 2]!);
    const isExact = (o: number): boolean => matchesFilter(parseRecord(log.read(o)), filter);
    // Tax ids are filtered by their 32-bit hash (so a total may count a colliding tax id: odds ~n²/2³³ for n ids);
    // the page's own items are checked exactly, and in the rare
    // case of a hash collision among them the page is selected again with the exact check on every candidate.
    let page = selectPage(log.count, offset + limit, sort.startsWith("-"), pass, key);
    if (exact && !page.ordinals.every(isExact)) page = selectPage(log.count, offset + limit, sort.startsWith("-"), (o) => pass(o) && isExact(o), key);
    return { items: log.readMany(page.ordinals.slice(offset)), total: page.total };
  }

  async createSubmission(input: SubmissionInput, now: string, idem?: IdempotencyTag): Promise<{ created: SubmissionRecord } | { duplicateOf: string }> {
    return this.#write(() => {
      const shaHash = hash32(input.xml.sha256);
      const bk = businessKey(input.fields);
      const bkHash = hash32(bk);
      for (const o of this.#bySha.find(shaHash)) {
        const s = parseRecord<SubmissionRecord>(this.#subs.read(o));
        if (s.sha256 === input.xml.sha256) return { duplicateOf: s.id };
      }
      for (const o of this.#byBusinessKey.find(bkHash)) {
        const s = parseRecord<SubmissionRecord>(this.#subs.read(o));
        if (businessKey(s) === bk) return { duplicateOf: s.id };
      }
      const ordinal = this.#subs.count;
      const sub: SubmissionRecord = {
        id: encodeOrdinalId("sub", Date.parse(now), ordinal),
        status: "accepted",
        ...input.fields,
        sha256: input.xml.sha256,
        size: input.xml.size,
        created_at: now,
      };
      const text = submissionJson(sub);
      const json = enc.encode(text);
      const meta = idemMeta(idem, text, now);
      this.#subs.write(ordinal, json, subColumns(json), meta && enc.encode(JSON.stringify(meta)));
      if (meta) this.#idem.put(meta);
      this.#bySha.add(shaHash, ordinal);
      this.#byBusinessKey.add(bkHash, ordinal);
      return { created: sub };
    });
  }

  async getSubmission(id: string): Promise<Stored<SubmissionRecord> | null> {
    this.#look();
    const o = decodeOrdinalId("sub", id);
    if (o < 0 || o >= this.#subs.count) return null;
    const json = this.#subs.read(o);
    const record = parseRecord<SubmissionRecord>(json);
    return record.id === id ? { record, json } : null;
  }

  async submissionChanges(after: number, limit: number, maxScan: number): Promise<ChangePage> {
    this.#look();
    return walkFeed(this.#subs, after, limit, maxScan, () => true, null);
  }

  async requestRun(source: string, now: string, idem?: IdempotencyTag): Promise<{ run: SyncRunRecord; created: boolean }> {
    return this.#write(() => {
      const active = this.#activeRuns().find((r) => r.source === source);
      if (active) return { run: active, created: false };
      const ordinal = this.#runs.count;
      const run: SyncRunRecord = {
        id: encodeOrdinalId("sync", Date.parse(now), ordinal),
        source, status: "queued", requested_at: now, started_at: null, finished_at: null,
        counts: { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 }, errors: [], error: null, waiting_until: null,
      };
      const text = JSON.stringify(run);
      const json = enc.encode(text);
      const meta = idemMeta(idem, text, now);
      this.#runs.write(ordinal, json, runColumns(json), meta && enc.encode(JSON.stringify(meta)));
      if (meta) this.#idem.put(meta);
      return { run, created: true };
    });
  }

  async saveRun(run: SyncRunRecord): Promise<void> {
    return this.#write(() => {
      const o = decodeOrdinalId("sync", run.id);
      if (o < 0 || o >= this.#runs.count) throw new RangeError(`Unknown run ${run.id}`);
      const json = enc.encode(JSON.stringify(run));
      this.#runs.write(o, json, runColumns(json));
    });
  }

  async getRun(id: string): Promise<SyncRunRecord | null> {
    this.#look();
    const o = decodeOrdinalId("sync", id);
    if (o < 0 || o >= this.#runs.count) return null;
    const run = parseRecord<SyncRunRecord>(this.#runs.read(o));
    return run.id === id ? run : null;
  }

  async activeRuns(): Promise<SyncRunRecord[]> {
    this.#look();
    return this.#activeRuns();
  }

  #log(c: Collection): RecordLog {
    return c === "documents" ? this.#docs : c === "submissions" ? this.#subs : this.#runs;
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

  async beginIdempotent(key: string) {
    return this.#idem.begin(key);
  }

  async endIdempotent(key: string) {
    this.#idem.end(key);
  }

  #leases = new LocalLeases();
  async claimLease(name: string, owner: string, leaseMs: number) {
    return this.#leases.claim(name, owner, leaseMs);
  }
  async releaseLease(name: string, owner: string) {
    this.#leases.release(name, owner);
  }

  async putIdempotency(record: IdempotencyRecord) {
    return this.#write(() => {
      this.#idem.put(record);
    });
  }

  async createWebhook(input: Omit<WebhookRecord, "id" | "status">, idem?: IdempotencyTag): Promise<WebhookRecord> {
    return this.#write(() => {
      const ordinal = this.#webhooks.count;
      const hook: WebhookRecord = { id: encodeOrdinalId("whk", Date.parse(input.created_at), ordinal), ...input, status: "enabled" };
      const text = JSON.stringify(hook);
      const json = enc.encode(text);
      const meta = idemMeta(idem, text, input.created_at);
      this.#webhooks.write(ordinal, json, webhookColumns(json), meta && enc.encode(JSON.stringify(meta)));
      if (meta) this.#idem.put(meta);
      return hook;
    });
  }

  async getWebhook(id: string): Promise<WebhookRecord | null> {
    this.#look();
    const o = decodeOrdinalId("whk", id);
    if (o < 0 || o >= this.#webhooks.count) return null;
    const w = parseRecord<WebhookRecord>(this.#webhooks.read(o));
    return w.id === id && w.status !== "deleted" ? w : null;
  }

  async listWebhooks(): Promise<WebhookRecord[]> {
    this.#look();
    const out: WebhookRecord[] = [];
    for (let o = 0; o < this.#webhooks.count; o++) {
      if (this.#webhooks.u8[o * 48 + 44] !== WEBHOOK_STATUS.deleted) out.push(parseRecord(this.#webhooks.read(o)));
    }
    return out;
  }

  async saveWebhook(record: WebhookRecord): Promise<void> {
    return this.#write(() => {
      const o = decodeOrdinalId("whk", record.id);
      if (o < 0 || o >= this.#webhooks.count) throw new RangeError(`Unknown webhook ${record.id}`);
      const json = enc.encode(JSON.stringify(record));
      this.#webhooks.write(o, json, webhookColumns(json));
    });
  }

  async getDeliveryState(webhookId: string): Promise<DeliveryState | null> {
    const path = join(this.#dir, "delivery", `${webhookId}.json`);
    return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as DeliveryState) : null;
  }

  async saveDeliveryState(webhookId: string, state: DeliveryState): Promise<void> {
    if (!/^whk_[0-9A-Z]{26}$/.test(webhookId)) throw new RangeError(`Bad webhook id ${webhookId}`);
    mkdirSync(join(this.#dir, "delivery"), { recursive: true });
    writeFileAtomic(join(this.#dir, "delivery", `${webhookId}.json`), JSON.stringify(state));
  }

  async appendDeliveryAttempt(webhookId: string, attempt: Omit<DeliveryAttempt, "seq">): Promise<void> {
    this.#attempts.append(webhookId, attempt);
  }

  async deliveryAttempts(webhookId: string, after: number, limit: number, notBefore: string): Promise<{ items: DeliveryAttempt[]; hasMore: boolean }> {
    return this.#attempts.page(webhookId, after, limit, notBefore);
  }

  async requestRedelivery(webhookId: string, request: Redelivery): Promise<void> {
    this.#attempts.request(webhookId, request);
  }

  async takeRedeliveries(webhookId: string): Promise<Redelivery[]> {
    return this.#attempts.take(webhookId);
  }

  // Active runs are few and recent: scan the status column from the newest run backwards.
  #activeRuns(): SyncRunRecord[] {
    const out: SyncRunRecord[] = [];
    for (let o = this.#runs.count - 1; o >= 0; o--) {
      const status = this.#runs.u8[o * 48 + 44];
      if (status === RUN_STATUS.queued || status === RUN_STATUS.running) out.push(parseRecord(this.#runs.read(o)));
    }
    return out;
  }

  #columnFilter(f: DocumentFilter): (o: number) => boolean {
    const log = this.#docs;
    const type = f.type ? TYPE_CODES[f.type] : 0;
    const format = f.format ? FORMAT_CODES[f.format] : 0;
    const xml = f.xml_available === undefined ? -1 : f.xml_available ? 1 : 0;
    const seller = f.seller_tax_id ? hash32(f.seller_tax_id) : 0;
    const buyer = f.buyer_tax_id ? hash32(f.buyer_tax_id) : 0;
    const ksef = f.ksef_number ? hash32(f.ksef_number) : 0;
    const from = f.issue_date_from ? dayNumber(f.issue_date_from) : NULL_DAY;
    const to = f.issue_date_to ? dayNumber(f.issue_date_to) : 0x7fffffff;
    const dated = f.issue_date_from !== undefined || f.issue_date_to !== undefined;
    const { u8, u32, i32 } = log;
    return (o) => {
      const b = o * 48, w = o * 12;
      if (type && u8[b + 44] !== type) return false;
      if (format && u8[b + 45] !== format) return false;
      if (xml >= 0 && u8[b + 46] !== xml) return false;
      if (seller && u32[w + 7] !== seller) return false;
      if (buyer && u32[w + 8] !== buyer) return false;
      if (ksef && u32[w + 10] !== ksef) return false;
      if (dated) {
        const day = i32[w + 6]!;
        if (day === NULL_DAY || day < from || day > to) return false;
      }
      return true;
    };
  }
}
