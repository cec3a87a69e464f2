/**
 * The storage contract the API is written against. Every call that touches a
 * tenant's data goes through a `TenantStore` obtained for that tenant, so a
 * handler cannot reach another tenant's data by forgetting a filter. Everything
 * is asynchronous so that a database adapter fits the same shape.
 * @module
 */
import type { ValidationSummary } from "../formats/validation/invoice_validation.ts";
import type { TokenRecord } from "./tokens.ts";
import type { UpstreamWarningRecord } from "./upstream_warnings.ts";
import type { DocumentType, InvoiceFormat } from "../formats/invoice/model.ts";

/** A party as the document JSON shows it. */
export interface PartySummary {
  name: string | null;
  tax_id: string | null;
}

/** Totals as the document JSON shows them (decimal strings). */
export interface TotalsSummary {
  net: string | null;
  tax: string | null;
  gross: string | null;
}

/** The fields of a document that come from its XML (or from source metadata before it). */
export interface DocumentFields {
  type: DocumentType | null;
  format: InvoiceFormat | null;
  number: string | null;
  issue_date: string | null;
  currency: string | null;
  seller: PartySummary | null;
  buyer: PartySummary | null;
  totals: TotalsSummary | null;
}

/** A stored document (README “Documents and the inbox”) without its links. */
export interface DocumentRecord extends DocumentFields {
  id: string;
  source: string;
  external_id: string;
  /** The number KSeF assigned (README “Documents and the inbox”), when the source knows it. */
  ksef_number: string | null;
  xml_available: boolean;
  sha256: string | null;
  size: number | null;
  received_at: string | null;
  synced_at: string;
  updated_at: string;
}

/** What a sync hands to storage for one document of a source. */
export interface DocumentInput {
  source: string;
  external_id: string;
  fields: DocumentFields;
  /** The stored XML blob, or null while the XML is not yet available. */
  xml: BlobInfo | null;
  received_at: string | null;
  /** The KSeF number, when the source knows it (absent = null). */
  ksef_number?: string | null;
  /**
   * The verdict on the XML when it was imported (README "Validation"): false counts in the summary's
   * `documents.invalid`; null or absent, not judged (no XML, or no schemas to judge with). Stored beside the record,
   * never in the document JSON.
   */
  valid?: boolean | null;
}

/** What an import reads of a document's XML: its record's fields and the verdict on it (null: not judged). */
export interface ImportedFields {
  fields: DocumentFields;
  valid: boolean | null;
}

/**
 * A document whose XML was stored without a verdict (imported before verdicts were kept): what judging it needs
 * (README "Summary": older documents are judged in the background).
 */
export interface UnjudgedDocument {
  id: string;
  /** The XML blob to judge: the verdict is kept only while the document still holds this XML. */
  sha256: string;
}

/** A page of unjudged documents, and where the next one starts (null: none lie beyond). */
export interface UnjudgedPage {
  items: UnjudgedDocument[];
  next: number | null;
}

/** The verdict on the XML a document holds, judged after it was stored. */
export interface DocumentVerdict {
  id: string;
  /** The XML that was judged (UnjudgedDocument.sha256). */
  sha256: string;
  valid: boolean;
}

/** The outcome of an upsert. */
export type UpsertOutcome = "created" | "updated" | "unchanged";

/** Filters of README “Parameters”, already validated. */
export interface DocumentFilter {
  type?: DocumentType;
  format?: InvoiceFormat;
  issue_date_from?: string;
  issue_date_to?: string;
  seller_tax_id?: string;
  buyer_tax_id?: string;
  xml_available?: boolean;
  ksef_number?: string;
}

/** Page-mode sort orders of README “Parameters” */
export type DocumentSort = "-issue_date" | "issue_date" | "-synced_at" | "synced_at";

/** A slice of a change feed: items as their JSON bytes, and where to continue. */
export interface ChangePage {
  items: Uint8Array[];
  /** Feed position after the last entry looked at; the next page starts there. */
  next: number;
  /** True when entries after `next` exist now. */
  hasMore: boolean;
}

/** A content-addressed blob. */
export interface BlobInfo {
  sha256: string;
  size: number;
}

/** A stored blob that can be read whole or streamed (a response can send it as a streamed body). */
export interface StoredBlob extends BlobInfo {
  /** Bytes [start, end) in chunks. */
  stream(start: number, end: number): AsyncIterable<Uint8Array>;
  /** The whole content; for small blobs and for parsing. */
  bytes(): Promise<Uint8Array>;
}

/** A stored item with its JSON bytes, ready to send. */
export interface Stored<T> {
  record: T;
  json: Uint8Array;
}

/** Where sending a submission to KSeF stands (README "Sending to KSeF"). */
export type KsefSendStatus = "queued" | "sending" | "accepted" | "rejected";

/** The kinds of KSeF session an invoice goes in (sesja-interaktywna.md, sesja-wsadowa.md). */
export type KsefSessionType = "online" | "batch";

/** How an invoice is issued for KSeF (tryby-offline.md): online, or offline and sent later with `offlineMode`. */
export type KsefIssueMode = "online" | "offline";

/** KSeF's verdict on a refused invoice: its status or exception code, description and details. */
export interface KsefSendError {
  code: string;
  message: string;
  details: string[];
}

/** The `ksef` object of a submission that is sent to KSeF. */
export interface SubmissionKsef {
  status: KsefSendStatus;
  ksef_number: string | null;
  /** KSeF's `acquisitionDate` (when it assigned the number). */
  acquired_at: string | null;
  /** The reference number of the KSeF session it is (or was) in. */
  session: string | null;
  /** Which kind of session that is: online (interactive) or batch; null while queued (absent in older records). */
  session_type?: KsefSessionType | null;
  /** The invoice's reference number in that session. */
  reference: string | null;
  attempts: number;
  error: KsefSendError | null;
  updated_at: string;
  /** How it was issued (README "Offline invoices"); absent in older records: online. */
  mode?: KsefIssueMode;
  /** KSeF's own verdict (`invoicingMode` of the invoice's status), null until known. */
  invoicing_mode?: KsefIssueMode | null;
  /** An offline invoice's deadline to reach KSeF (YYYY-MM-DD), null for an online one. */
  deadline?: string | null;
  /** When `submission.ksef_deadline_near` fired for it, null before (it fires once, restarts included). */
  deadline_warned_at?: string | null;
  /** A technical correction: the id of the offline submission it corrects (README "Offline invoices"). */
  corrects?: string | null;
  /** The technical correction sent for this one, once there is one. */
  corrected_by?: string | null;
  /**
   * KSeF's technical warnings (`X-System-Warning`) on the requests made for this submission: sending it, reading its
   * status and UPO (absent in records older than it, read as none).
   */
  warnings?: UpstreamWarningRecord[];
}

/** An accepted submission (the OpenAPI document) without its links. */
export interface SubmissionRecord extends DocumentFields {
  id: string;
  status: "accepted";
  /** The verdict at upload (README "Validation"); absent in records made before validation existed. */
  validation?: ValidationSummary | null;
  sha256: string;
  size: number;
  created_at: string;
  /** The last change (absent in records written before submissions changed; then created_at). */
  updated_at?: string;
  /** Sending to KSeF; null (or absent) for a submission that is not sent. */
  ksef?: SubmissionKsef | null;
  /** What was received, when it is not the stored XML itself (a created invoice's JSON, a converted original); null or absent otherwise. */
  source?: SubmissionSource | null;
  /** The conversion that made the stored XML (README "Converting invoices"); null or absent for an invoice stored as received. */
  conversion?: SubmissionConversion | null;
}

/** The bytes a submission was made from when they are not its XML: their media type and blob. */
export interface SubmissionSource {
  media_type: string;
  sha256: string;
  size: number;
}

/** A value the converted invoice had no place for (README "Converting invoices"). */
export interface ConversionLossRecord {
  /** The source's XML path of the value, when known. */
  path: string | null;
  /** Its path in the invoice object. */
  field: string;
  value: string;
  reason: string;
}

/** What a submission was converted from, and what the conversion lost. */
export interface SubmissionConversion {
  from: string;
  losses: ConversionLossRecord[];
}

/** What the submissions endpoint hands to storage. */
export interface SubmissionInput {
  /** The document fields, and the verdict that is stored with them. */
  fields: DocumentFields & { validation?: ValidationSummary };
  xml: BlobInfo;
  /** True when the submission is to be sent to KSeF: it starts `queued`. */
  send?: boolean;
  /** How it is issued when sent (default online) and, offline, its deadline. */
  issue?: { mode: KsefIssueMode; deadline: string | null };
  /** A technical correction of this submission (README "Offline invoices"). */
  corrects?: string;
  /** The bytes received, when the XML was written or converted from them. */
  source?: SubmissionSource;
  conversion?: SubmissionConversion;
}

/** Filters of the submissions feed, already validated. */
export interface SubmissionFilter {
  ksef_status?: KsefSendStatus;
  /** How it was issued (a submission that is not sent has no mode). */
  ksef_mode?: KsefIssueMode;
  /** Offline, not accepted by KSeF, with a deadline before this day (YYYY-MM-DD): past or near (`overdue=true`). */
  deadline_before?: string;
  format?: InvoiceFormat;
  type?: DocumentType;
}

/** A sync run (README “Documents and the inbox”). */
export interface SyncRunRecord {
  id: string;
  source: string;
  status: "queued" | "running" | "succeeded" | "failed";
  requested_at: string;
  started_at: string | null;
  finished_at: string | null;
  counts: { fetched: number; created: number; updated: number; unchanged: number; failed: number };
  errors: { external_id: string; code: string; message: string }[];
  error: { code: string; message: string } | null;
  /** While the source waits out a limit: until when (ISO time); null otherwise (absent in records older than it). */
  waiting_until?: string | null;
  /** What the run deliberately did not look at (absent in records older than it, read as none). */
  skipped?: SkippedPartRecord[];
  /** The warnings the source's upstream gave while the run read it (absent in records older than it, read as none). */
  warnings?: UpstreamWarningRecord[];
}

/** A part of its source that a run did not look at (README "KSeF": a role inside its minimum interval). */
export interface SkippedPartRecord {
  source: string;
  part: string;
  reason: string;
  /** When the part may be looked at again (ISO time), or null when the source does not say. */
  next_at: string | null;
}

/**
 * The change feeds that webhooks read (the outbox is the change logs themselves). `notices` holds events that
 * belong to no record, such as a KSeF certificate nearing its end (README "Webhooks"): each entry is a
 * `NoticeRecord`, appended once and never changed.
 */
export type Collection = "documents" | "submissions" | "runs" | "notices";

/** One entry of the `notices` feed: a webhook event that no record's change stands for (README "Webhooks"). */
export interface NoticeRecord {
  /**
   * Identifies the notice, e.g. a certificate and a threshold. With `due_at` it makes the event id, so a notice
   * appended twice (a crash after the append, before its sender recorded it) is one event to a receiver that
   * deduplicates by `webhook-id` (README "Webhooks").
   */
  key: string;
  /** When the notice became due (ISO time), the same however late it is appended. */
  due_at: string;
  /** The event type, e.g. "ksef.certificate_expiring". */
  type: string;
  /** When it was noticed (ISO time): the event's timestamp. */
  created_at: string;
  /** The event's `data`. */
  data: unknown;
}

/** One raw change: the version of a record as it was written at feed position `seq`. */
export interface RawChange {
  seq: number;
  json: Uint8Array;
  /** True when this is the record's first version (a creation). */
  first: boolean;
}

/** A response kept for an idempotency key (the idempotency conventions in /docs). */
export interface StoredResponse {
  status: number;
  location: string | null;
  body: string;
}

/** An idempotency key's record. */
export interface IdempotencyRecord {
  key: string;
  fingerprint: string;
  response: StoredResponse;
  created_at: string;
}

/**
 * The idempotency key of the request that causes an effect. The store commits
 * it with the effect (in the same write), so that a crash between the effect
 * and the key's record cannot make a retry execute twice.
 */
export interface IdempotencyTag {
  key: string;
  fingerprint: string;
  /** The response to keep, from the JSON of the record the effect created. */
  respond(recordJson: string): StoredResponse;
}

/** A webhook endpoint (README “Webhooks”). */
export interface WebhookRecord {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: "enabled" | "disabled" | "deleted";
  secret: string;
  created_at: string;
  disabled_reason?: string | null;
  /** When the endpoint was last set back to "enabled" after being disabled (the worker then resumes its retries). */
  resumed_at?: string | null;
  /** Bumped by the store on every change (absent = 0): `saveWebhook` writes only over the version it was given. */
  version?: number;
}

/** Where a webhook endpoint's deliveries stand: a position in each feed, and events waiting for a retry. */
export interface DeliveryState {
  /**
   * The next feed position to read, per feed. `notices` is absent in states saved before that feed existed: read
   * it from its beginning (0), since every notice in it came after such an endpoint was created.
   */
  positions: Record<Exclude<Collection, "notices">, number> & { notices?: number };
  retries: { event_id: string; type: string; collection: Collection; seq: number; attempts: number; next_at: number }[];
  /** The endpoint's health as the resource shows it (README “Webhooks”); absent in states written before it existed. */
  health?: DeliveryHealth;
  /** The `resumed_at` of the webhook record that the worker last acted on (re-enabling makes retries due at once). */
  resumed_at?: string | null;
}

/** An endpoint's delivery health: what its last attempts did. */
export interface DeliveryHealth {
  last_attempt_at: string | null;
  last_success_at: string | null;
  /** The last failure while failures continue; null after a success. `status` is null for network errors. */
  last_error: { status: number | null; message: string } | null;
  consecutive_failures: number;
}

/** Attempts kept per endpoint at most (README “Webhooks”: the last 1,000 or 30 days, whichever is less). */
export const DELIVERY_ATTEMPTS_KEPT = 1_000;
/** How long attempts are kept (README “Webhooks”). */
export const DELIVERY_ATTEMPTS_MAX_AGE_MS = 30 * 86_400_000;

/** One delivery attempt as the deliveries list shows it, plus where its event comes from (for retry-now). */
export interface DeliveryAttempt {
  /** Position in the endpoint's attempt log, given by the store: increasing, never reused. */
  seq: number;
  event_id: string;
  type: string;
  /** 1 for the first scheduled attempt of the event; a manual retry repeats the number of the last one. */
  attempt: number;
  /** True for an attempt that `POST …/deliveries/{evt_id}/retry` asked for. */
  manual: boolean;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  collection: Collection;
  change_seq: number;
}

/** A retry-now request waiting for the delivery worker. */
export interface Redelivery {
  event_id: string;
  /** The number of the event's last scheduled attempt (a manual attempt repeats it). */
  attempt: number;
  collection: Collection;
  change_seq: number;
  requested_at: string;
}

/** One tenant's data. */
export interface TenantStore {
  readonly tenant: string;

  putBlob(bytes: Uint8Array): Promise<BlobInfo>;
  getBlob(sha256: string): Promise<StoredBlob | null>;
  /** A derived blob (e.g. a PDF rendering) under a key, kept once made. */
  putDerived(key: string, bytes: Uint8Array): Promise<BlobInfo>;
  getDerived(key: string): Promise<StoredBlob | null>;

  /** Creates or updates the document of (source, external_id); a document that changes moves to the end of the feed. */
  upsertDocument(input: DocumentInput, now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }>;
  /**
   * upsertDocument for several documents, in order, committed together (a sync run's batch: one flush or one
   * transaction for the lot); the results in the inputs' order.
   */
  upsertDocuments(inputs: DocumentInput[], now: string): Promise<{ document: DocumentRecord; outcome: UpsertOutcome }[]>;
  getDocument(id: string): Promise<Stored<DocumentRecord> | null>;
  /** The change feed from position `after`, at most `limit` items, looking at no more than `maxScan` entries. */
  documentChanges(after: number, limit: number, filter: DocumentFilter, maxScan: number): Promise<ChangePage>;
  /** Page mode: `limit` items from `offset` in `sort` order, and the total that match. */
  documentPage(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number): Promise<{ items: Uint8Array[]; total: number }>;
  /**
   * Documents whose XML has no verdict (stored before verdicts were kept, or by an import that could not judge),
   * from position `from` (0: the beginning) in the order they were first stored, at most `limit`. Documents without
   * XML are never listed: there is nothing to judge. The position is the store's own; pass back `next`. A store may
   * answer fewer than `limit` (none, even) with a `next` to go on from, so that one call stays short.
   */
  unjudgedDocuments(from: number, limit: number): Promise<UnjudgedPage>;
  /**
   * Keeps each verdict beside its document, for a document that has none and still holds the XML `sha256` (a newer
   * version has the verdict of its own import): the document JSON, its place in the feed and `updated_at` stay as
   * they are, and no change is appended; the summary's counters move. Resolves to how many were kept.
   */
  saveVerdicts(verdicts: readonly DocumentVerdict[]): Promise<number>;

  /** Stores a submission unless one with the same XML hash or business key exists. */
  createSubmission(input: SubmissionInput, now: string, idem?: IdempotencyTag): Promise<{ created: SubmissionRecord } | { duplicateOf: string }>;
  getSubmission(id: string): Promise<Stored<SubmissionRecord> | null>;
  /** The feed from `after` (a submission moves to the end when it changes), filtered. */
  submissionChanges(after: number, limit: number, maxScan: number, filter?: SubmissionFilter): Promise<ChangePage>;
  /** Replaces a submission's `ksef` state: a new version at the end of the feed. Null when there is no such submission. */
  saveSubmissionKsef(id: string, ksef: SubmissionKsef): Promise<Stored<SubmissionRecord> | null>;
  /** Submissions whose `ksef.status` is queued or sending, in the order they were accepted, at most `limit`. */
  pendingKsefSubmissions(limit: number): Promise<SubmissionRecord[]>;

  /** The queued or running run of a source, or a new queued one (coalescing, README “Documents and the inbox”). */
  requestRun(source: string, now: string, idem?: IdempotencyTag): Promise<{ run: SyncRunRecord; created: boolean }>;
  saveRun(run: SyncRunRecord): Promise<void>;
  getRun(id: string): Promise<SyncRunRecord | null>;
  /** Runs that are queued or running (for resumption at startup). */
  activeRuns(): Promise<SyncRunRecord[]>;
  /** The newest run of a source (by request), or null; its cost does not grow with the documents. */
  lastRun(source: string): Promise<SyncRunRecord | null>;

  /**
   * Counters kept as records are written (lib/contracts/summary_counts.ts names them and says what counts under
   * each): the values of `keys`, and of every counter whose name starts with one of `prefixes`. Absent = 0. Reads
   * counters, never records, so the summary costs the same at a million documents as at a thousand.
   */
  summaryCounts(keys: readonly string[], prefixes: readonly string[]): Promise<Map<string, number>>;

  /** Feed length of a collection: the position after its newest change. */
  feedLength(collection: Collection): Promise<number>;
  /** Every change from `from` (superseded versions included), at most `limit`. */
  rawChanges(collection: Collection, from: number, limit: number): Promise<RawChange[]>;
  /** Appends a notice at the end of the `notices` feed, durably before it resolves; resolves to its position. */
  appendNotice(notice: NoticeRecord): Promise<number>;

  /** The record of an idempotency key, or null when unknown or older than `maxAgeMs`. */
  getIdempotency(key: string, now: number, maxAgeMs: number): Promise<IdempotencyRecord | null>;
  putIdempotency(record: IdempotencyRecord): Promise<void>;
  /** Marks a key as executing; false when a live request (in any process or node) holds it (409 IDEMPOTENCY_KEY_IN_USE). */
  beginIdempotent(key: string): Promise<boolean>;
  endIdempotent(key: string): Promise<void>;

  /**
   * Takes or renews the lease `name` (e.g. a sync run, a webhook endpoint) for `owner` until `leaseMs` from now;
   * false while another owner holds it. Work that needs one executor among several nodes runs under a lease, so a
   * node that dies frees its work when the lease runs out.
   */
  claimLease(name: string, owner: string, leaseMs: number): Promise<boolean>;
  releaseLease(name: string, owner: string): Promise<void>;

  createWebhook(input: Omit<WebhookRecord, "id" | "status">, idem?: IdempotencyTag): Promise<WebhookRecord>;
  getWebhook(id: string): Promise<WebhookRecord | null>;
  /** Enabled and disabled endpoints (not deleted), oldest first. */
  listWebhooks(): Promise<WebhookRecord[]>;
  /**
   * Replaces an endpoint by compare-and-set: written only while the stored endpoint (deleted or not) still has
   * `record.version`; the stored copy gets the next version and is returned. Null when another change came
   * first: the caller re-reads and decides again, so a PATCH never undoes a DELETE or a disabling. RangeError
   * for an id the store never created.
   */
  saveWebhook(record: WebhookRecord): Promise<WebhookRecord | null>;
  getDeliveryState(webhookId: string): Promise<DeliveryState | null>;
  saveDeliveryState(webhookId: string, state: DeliveryState): Promise<void>;
  /**
   * Appends an attempt to the endpoint's log and drops what is past the retention: beyond the newest
   * DELIVERY_ATTEMPTS_KEPT, or older than DELIVERY_ATTEMPTS_MAX_AGE_MS before this attempt.
   */
  appendDeliveryAttempt(webhookId: string, attempt: Omit<DeliveryAttempt, "seq">): Promise<void>;
  /** Attempts with `seq` above `after`, oldest first, at most `limit`, none attempted before `notBefore`. */
  deliveryAttempts(webhookId: string, after: number, limit: number, notBefore: string): Promise<{ items: DeliveryAttempt[]; hasMore: boolean }>;
  /** Queues a retry-now of an event; one already queued for the same event is kept as it is. */
  requestRedelivery(webhookId: string, request: Redelivery): Promise<void>;
  /** The queued retry-now requests of an endpoint, oldest first; they stay queued until completed. */
  pendingRedeliveries(webhookId: string): Promise<Redelivery[]>;
  /** Removes a retry-now request once it was attempted (or its event is gone): a crash before that repeats it. */
  completeRedelivery(webhookId: string, eventId: string): Promise<void>;
}

/** Tokens and tenants: the only data that is not tenant-scoped. */
export interface TokenStore {
  find(keyId: string): Promise<TokenRecord | null>;
  create(token: TokenRecord): Promise<void>;
  list(tenant?: string): Promise<TokenRecord[]>;
  /** Marks a token revoked; false when there is no such token. */
  revoke(keyId: string, now: string): Promise<boolean>;
}

/** A storage backend. */
export interface Storage {
  readonly tokens: TokenStore;
  tenant(id: string): TenantStore;
  tenants(): Promise<string[]>;
  /** A long-lived random secret of this installation (e.g. for signing cursors), created on first use. */
  secret(name: string): Promise<Uint8Array>;
  /** Throws when storage cannot be written (readiness). */
  check(): Promise<void>;
  close(): Promise<void>;
}
