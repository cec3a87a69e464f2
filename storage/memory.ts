/**
 * An in-memory storage for tests and for embedding without a disk. It keeps the
 * same contract as the file store (the shared contract suite runs against both)
 * and is as simple as possible: arrays and maps, nothing survives the process.
 * @module
 */
import { createHash } from "node:crypto";
import type { TokenRecord } from "../lib/contracts/tokens.ts";
import { businessKey, submissionKey, documentJson, fieldsOf, matchesSubmissionFilter, newSubmission, sameFields, submissionJson, withKsef } from "../lib/contracts/record_json.ts";
import { decodeOrdinalId, encodeOrdinalId } from "../lib/contracts/ids.ts";
import type {
  BlobInfo, ChangePage, Collection, DeliveryAttempt, DeliveryState, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, DocumentVerdict, IdempotencyRecord,
  IdempotencyTag, NoticeRecord, RawChange, Storage, Stored, StoredBlob, SubmissionFilter, SubmissionInput, SubmissionKsef, SubmissionRecord, SyncRunRecord, TenantStore, TokenStore,
  Redelivery, UnjudgedPage, UpsertOutcome, WebhookRecord,
} from "../lib/contracts/storage.ts";
import { attemptPage, keptAttempts } from "../lib/contracts/delivery_log.ts";
import { dayNumber, matchesFilter } from "../lib/contracts/document_filter.ts";
import { selectPage } from "../lib/contracts/page_selection.ts";
import { LocalLeases } from "../lib/contracts/local_leases.ts";
import { CountTally, documentCountKeys, importVerdict, submissionCountKeys } from "../lib/contracts/summary_counts.ts";

const enc = new TextEncoder();

function _blob(sha256: string, bytes: Uint8Array): StoredBlob {
  return {
    sha256, size: bytes.length,
    bytes: async () => bytes,
    async *stream(start, end) {
      yield bytes.subarray(start, end);
    },
  };
}

interface _Entry<T> {
  record: T;
  json: Uint8Array;
  seq: number;
}

class _MemoryTenant implements TenantStore {
  readonly tenant: string;
  #blobs = new Map<string, Uint8Array>();
  #derived = new Map<string, Uint8Array>();
  #docs: (_Entry<DocumentRecord> & { valid: boolean | null })[] = [];
  #docFeed: number[] = []; // seq -> index into #docs
  #subs: _Entry<SubmissionRecord>[] = [];
  #subFeed: number[] = []; // seq -> index into #subs
  #runs: SyncRunRecord[] = [];
  #raw: Record<Collection, RawChange[]> = { documents: [], submissions: [], runs: [], notices: [] };
  #idem = new Map<string, IdempotencyRecord>();
  #webhooks: WebhookRecord[] = [];
  #delivery = new Map<string, DeliveryState>();
  #attempts = new Map<string, { log: DeliveryAttempt[]; seq: number }>();
  #redeliveries = new Map<string, Redelivery[]>();
  #counts = new CountTally();

  #change(c: Collection, json: string | Uint8Array, first: boolean): void {
    const raw = this.#raw[c];
    raw.push({ seq: raw.length, json: typeof json === "string" ? enc.encode(json) : json, first });
  }

  #tag(idem: IdempotencyTag | undefined, json: string, now: string): void {
    if (idem) this.#idem.set(idem.key, { key: idem.key, fingerprint: idem.fingerprint, response: idem.respond(json), created_at: now });
  }

  constructor(tenant: string) {
    this.tenant = tenant;
  }

  async putBlob(bytes: Uint8Array): Promise<BlobInfo> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    this.#blobs.set(sha256, bytes);
    return { sha256, size: bytes.length };
  }
  async getBlob(sha256: string) {
    const b = this.#blobs.get(sha256);
    return b ? _blob(sha256, b) : null;
  }
  async putDerived(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    this.#derived.set(key, bytes);
    return { sha256: key, size: bytes.length };
  }
  async getDerived(key: string) {
    const b = this.#derived.get(key);
    return b ? _blob(key, b) : null;
  }

  async upsertDocuments(inputs: DocumentInput[], now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }[]> {
    const out: { document: DocumentRecord; outcome: UpsertOutcome }[] = [];
    for (const input of inputs) out.push(await this.upsertDocument(input, now));
    return out;
  }

  async upsertDocument(input: DocumentInput, now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }> {
    const index = this.#docs.findIndex((e) => e.record.source === input.source && e.record.external_id === input.external_id);
    const old = this.#docs[index]?.record ?? null;
    if (old) {
      const unchanged = input.xml
        ? old.xml_available && old.sha256 === input.xml.sha256
        : old.xml_available || sameFields(fieldsOf(old), input.fields);
      if (unchanged && (input.ksef_number == null || input.ksef_number === old.ksef_number)) return { document: old, outcome: "unchanged" };
    }
    const at = old ? index : this.#docs.length;
    const doc: DocumentRecord = {
      id: old?.id ?? encodeOrdinalId("doc", Date.parse(now), at),
      source: input.source, external_id: input.external_id, ...input.fields,
      ksef_number: input.ksef_number ?? old?.ksef_number ?? null,
      xml_available: input.xml !== null, sha256: input.xml?.sha256 ?? null, size: input.xml?.size ?? null,
      received_at: input.received_at ?? old?.received_at ?? null, synced_at: now, updated_at: now,
    };
    const valid = importVerdict(input);
    this.#counts.move(old && documentCountKeys(old, this.#docs[index]!.valid), documentCountKeys(doc, valid));
    this.#docs[at] = { record: doc, json: enc.encode(documentJson(doc)), seq: this.#docFeed.length, valid };
    this.#docFeed.push(at);
    this.#change("documents", this.#docs[at]!.json, !old);
    return { document: doc, outcome: old ? "updated" : "created" };
  }

  async getDocument(id: string): Promise<Stored<DocumentRecord> | null> {
    const e = this.#docs.find((d) => d.record.id === id);
    return e ? { record: e.record, json: e.json } : null;
  }

  async documentChanges(after: number, limit: number, filter: DocumentFilter, maxScan: number): Promise<ChangePage> {
    return _walk(this.#docFeed.map((i) => this.#docs[i]!), after, limit, maxScan, (d) => matchesFilter(d, filter));
  }

  async documentPage(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number) {
    const docs = this.#docs;
    const byDay = sort.endsWith("issue_date");
    const { ordinals, total } = selectPage(docs.length, offset + limit, sort.startsWith("-"),
      (o) => matchesFilter(docs[o]!.record, filter),
      (o) => (byDay ? dayNumber(docs[o]!.record.issue_date) : Date.parse(docs[o]!.record.synced_at)));
    return { items: ordinals.slice(offset).map((o) => docs[o]!.json), total };
  }

  async unjudgedDocuments(from: number, limit: number): Promise<UnjudgedPage> {
    const items: UnjudgedPage["items"] = [];
    let o = Math.max(0, from);
    for (; o < this.#docs.length && items.length < limit; o++) {
      const e = this.#docs[o]!;
      if (e.valid === null && e.record.sha256 !== null) items.push({ id: e.record.id, sha256: e.record.sha256 });
    }
    return { items, next: o < this.#docs.length ? o : null };
  }

  async saveVerdicts(verdicts: readonly DocumentVerdict[]): Promise<number> {
    let kept = 0;
    for (const v of verdicts) {
      const e = this.#docs[decodeOrdinalId("doc", v.id)];
      if (!e || e.record.id !== v.id || e.valid !== null || e.record.sha256 !== v.sha256) continue;
      this.#counts.move(documentCountKeys(e.record, null), documentCountKeys(e.record, v.valid));
      e.valid = v.valid;
      kept++;
    }
    return kept;
  }

  async createSubmission(input: SubmissionInput, now: string, idem?: IdempotencyTag): Promise<{ created: SubmissionRecord } | { duplicateOf: string }> {
    const key = submissionKey(input);
    const dup = this.#subs.find((e) => e.record.sha256 === input.xml.sha256) ?? this.#subs.find((e) => businessKey(e.record) === key);
    if (dup) return { duplicateOf: dup.record.id };
    const sub = newSubmission(encodeOrdinalId("sub", Date.parse(now), this.#subs.length), input, now);
    const json = submissionJson(sub);
    this.#counts.move(null, submissionCountKeys(sub));
    this.#subs.push({ record: sub, json: enc.encode(json), seq: this.#subFeed.length });
    this.#subFeed.push(this.#subs.length - 1);
    this.#change("submissions", json, true);
    this.#tag(idem, json, now);
    return { created: sub };
  }

  async getSubmission(id: string): Promise<Stored<SubmissionRecord> | null> {
    const e = this.#subs.find((s) => s.record.id === id);
    return e ? { record: e.record, json: e.json } : null;
  }

  async submissionChanges(after: number, limit: number, maxScan: number, filter: SubmissionFilter = {}): Promise<ChangePage> {
    return _walk(this.#subFeed.map((i) => this.#subs[i]!), after, limit, maxScan, (s) => matchesSubmissionFilter(s, filter));
  }

  async saveSubmissionKsef(id: string, ksef: SubmissionKsef): Promise<Stored<SubmissionRecord> | null> {
    const at = this.#subs.findIndex((s) => s.record.id === id);
    if (at < 0) return null;
    const sub = withKsef(this.#subs[at]!.record, ksef);
    this.#counts.move(submissionCountKeys(this.#subs[at]!.record), submissionCountKeys(sub));
    const json = enc.encode(submissionJson(sub));
    this.#subs[at] = { record: sub, json, seq: this.#subFeed.length };
    this.#subFeed.push(at);
    this.#change("submissions", json, false);
    return { record: sub, json };
  }

  async pendingKsefSubmissions(limit: number): Promise<SubmissionRecord[]> {
    const out: SubmissionRecord[] = [];
    for (const e of this.#subs) {
      if (out.length >= limit) break;
      if (e.record.ksef?.status === "queued" || e.record.ksef?.status === "sending") out.push(e.record);
    }
    return out;
  }

  async requestRun(source: string, now: string, idem?: IdempotencyTag): Promise<{ run: SyncRunRecord; created: boolean }> {
    const active = this.#runs.find((r) => r.source === source && (r.status === "queued" || r.status === "running"));
    if (active) return { run: structuredClone(active), created: false };
    const run: SyncRunRecord = {
      id: encodeOrdinalId("sync", Date.parse(now), this.#runs.length), source, status: "queued", requested_at: now,
      started_at: null, finished_at: null, counts: { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 }, errors: [], error: null, waiting_until: null, skipped: [],
    };
    this.#runs.push(run);
    this.#change("runs", JSON.stringify(run), true);
    this.#tag(idem, JSON.stringify(run), now);
    return { run: structuredClone(run), created: true };
  }

  async saveRun(run: SyncRunRecord): Promise<void> {
    const i = this.#runs.findIndex((r) => r.id === run.id);
    if (i < 0) throw new RangeError(`Unknown run ${run.id}`);
    this.#runs[i] = structuredClone(run);
    this.#change("runs", JSON.stringify(run), false);
  }

  async getRun(id: string) {
    const r = this.#runs.find((x) => x.id === id);
    return r ? structuredClone(r) : null;
  }

  async lastRun(source: string) {
    const r = this.#runs.findLast((x) => x.source === source);
    return r ? structuredClone(r) : null;
  }

  async summaryCounts(keys: readonly string[], prefixes: readonly string[]) {
    return this.#counts.read(keys, prefixes);
  }

  async activeRuns() {
    return this.#runs.filter((r) => r.status === "queued" || r.status === "running").map((r) => structuredClone(r));
  }

  async feedLength(c: Collection) {
    return this.#raw[c].length;
  }
  async rawChanges(c: Collection, from: number, limit: number) {
    return this.#raw[c].slice(from, from + limit);
  }
  async appendNotice(notice: NoticeRecord) {
    this.#change("notices", JSON.stringify(notice), true);
    return this.#raw.notices.length - 1;
  }
  async getIdempotency(key: string, now: number, maxAgeMs: number) {
    const r = this.#idem.get(key);
    return r && now - Date.parse(r.created_at) < maxAgeMs ? r : null;
  }
  async putIdempotency(record: IdempotencyRecord) {
    this.#idem.set(record.key, record);
  }
  #executing = new Set<string>();
  async beginIdempotent(key: string) {
    if (this.#executing.has(key)) return false;
    this.#executing.add(key);
    return true;
  }
  async endIdempotent(key: string) {
    this.#executing.delete(key);
  }

  #leases = new LocalLeases();
  async claimLease(name: string, owner: string, leaseMs: number) {
    return this.#leases.claim(name, owner, leaseMs);
  }
  async releaseLease(name: string, owner: string) {
    this.#leases.release(name, owner);
  }

  async createWebhook(input: Omit<WebhookRecord, "id" | "status">, idem?: IdempotencyTag) {
    const hook: WebhookRecord = { id: encodeOrdinalId("whk", Date.parse(input.created_at), this.#webhooks.length), ...input, status: "enabled" };
    this.#webhooks.push(hook);
    this.#tag(idem, JSON.stringify(hook), input.created_at);
    return structuredClone(hook);
  }
  async getWebhook(id: string) {
    const w = this.#webhooks.find((x) => x.id === id && x.status !== "deleted");
    return w ? structuredClone(w) : null;
  }
  async listWebhooks() {
    return this.#webhooks.filter((w) => w.status !== "deleted").map((w) => structuredClone(w));
  }
  async saveWebhook(record: WebhookRecord) {
    const i = this.#webhooks.findIndex((w) => w.id === record.id);
    if (i < 0) throw new RangeError(`Unknown webhook ${record.id}`);
    if ((this.#webhooks[i]!.version ?? 0) !== (record.version ?? 0)) return null; // compare-and-set
    const next = { ...structuredClone(record), version: (record.version ?? 0) + 1 };
    this.#webhooks[i] = next;
    return structuredClone(next);
  }
  async getDeliveryState(id: string) {
    const d = this.#delivery.get(id);
    return d ? structuredClone(d) : null;
  }
  async saveDeliveryState(id: string, state: DeliveryState) {
    this.#delivery.set(id, structuredClone(state));
  }
  async appendDeliveryAttempt(id: string, attempt: Omit<DeliveryAttempt, "seq">) {
    const kept = this.#attempts.get(id) ?? { log: [], seq: 0 };
    const added = { seq: ++kept.seq, ...structuredClone(attempt) };
    kept.log.push(added);
    kept.log = keptAttempts(kept.log, added);
    this.#attempts.set(id, kept);
  }
  async deliveryAttempts(id: string, after: number, limit: number, notBefore: string) {
    return structuredClone(attemptPage(this.#attempts.get(id)?.log ?? [], after, limit, notBefore));
  }
  async requestRedelivery(id: string, request: Redelivery) {
    const queue = this.#redeliveries.get(id) ?? [];
    if (!queue.some((r) => r.event_id === request.event_id)) queue.push(structuredClone(request));
    this.#redeliveries.set(id, queue);
  }
  async pendingRedeliveries(id: string) {
    return structuredClone(this.#redeliveries.get(id) ?? []).sort((a, b) => a.requested_at.localeCompare(b.requested_at));
  }
  async completeRedelivery(id: string, eventId: string) {
    const queue = (this.#redeliveries.get(id) ?? []).filter((r) => r.event_id !== eventId);
    if (queue.length > 0) this.#redeliveries.set(id, queue);
    else this.#redeliveries.delete(id);
  }
}

// A feed where entry i is live only if it is still its record's latest change.
function _walk<T>(feed: _Entry<T>[], after: number, limit: number, maxScan: number, pass: (r: T) => boolean): ChangePage {
  const items: Uint8Array[] = [];
  let seq = Math.max(0, after);
  const end = Math.min(feed.length, seq + maxScan);
  for (; seq < end && items.length < limit; seq++) {
    const e = feed[seq]!;
    if (e.seq === seq && pass(e.record)) items.push(e.json);
  }
  return { items, next: seq, hasMore: seq < feed.length };
}

class _MemoryTokens implements TokenStore {
  #tokens = new Map<string, TokenRecord>();
  async find(keyId: string) {
    return this.#tokens.get(keyId) ?? null;
  }
  async create(token: TokenRecord) {
    this.#tokens.set(token.key_id, token);
  }
  async list(tenant?: string) {
    return [...this.#tokens.values()].filter((t) => tenant === undefined || t.tenant === tenant);
  }
  async revoke(keyId: string, now: string) {
    const t = this.#tokens.get(keyId);
    if (!t) return false;
    if (t.revoked_at === null) this.#tokens.set(keyId, { ...t, revoked_at: now });
    return true;
  }
}

/** A storage that lives in memory. */
export class MemoryStorage implements Storage {
  readonly tokens: TokenStore = new _MemoryTokens();
  #tenants = new Map<string, _MemoryTenant>();
  #secrets = new Map<string, Uint8Array>();

  tenant(id: string): TenantStore {
    let t = this.#tenants.get(id);
    if (!t) this.#tenants.set(id, (t = new _MemoryTenant(id)));
    return t;
  }
  async tenants(): Promise<string[]> {
    return [...this.#tenants.keys()].sort();
  }
  async secret(name: string): Promise<Uint8Array> {
    let s = this.#secrets.get(name);
    if (!s) this.#secrets.set(name, (s = crypto.getRandomValues(new Uint8Array(32))));
    return s;
  }
  async check() {}
  async close() {}
}
