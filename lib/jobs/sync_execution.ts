/**
 * The execution of one sync run (README “Documents and the inbox”): pulls its source item by item,
 * stores each document, counts it, and acknowledges it to the source once the
 * counts that include it are saved. It does not queue, join or pick up runs,
 * nor hold the run's lease: that is the runner's (sync_runner.ts).
 * @module
 */
import { storageUnavailableCode } from "../contracts/storage_errors.ts";
import { ApiError } from "../http/errors.ts";
import { toApiError } from "../api/errors.ts";
import { fieldsFromMetadata, fieldsFromXml } from "../contracts/record_json.ts";
import { isKsefNumber } from "../formats/invoice/ksef_number.ts";
import type { DocumentInput, ImportedFields, SyncRunRecord, TenantStore } from "../contracts/storage.ts";
import { documentOriginalKey, SourceError, type DocumentSource, type SkippedPart, type SourceItem } from "../contracts/document_source.ts";
import { addUpstreamWarnings, type UpstreamWarning } from "../contracts/upstream_warnings.ts";
import type { Logger } from "../observe/log.ts";
import type { Metrics } from "../observe/metrics.ts";
import { errorFields } from "./background.ts";

const MAX_ERRORS = 100; // README “Documents and the inbox”: at most 100 kept
/** Distinct upstream warnings a run remembers having logged; past it every one is logged (a bound on memory). */
const MAX_LOGGED_WARNINGS = 1000;
/**
 * Items stored per batch: their blobs written together, their documents committed together (one flush, or one
 * transaction), then the counts saved and the items acknowledged. A few hundred make a flush cost little per item
 * (README "How data is kept (file store)") while a batch of 30 KB invoices stays a few MB.
 */
const BATCH = 256;
/** A partial batch is stored when the source gives no next item within this long (a slow source's items show soon). */
const BATCH_WAIT_MS = 200;
/**
 * The event loop gets a turn at least this often while a run reads its items (parsing a 30 KB invoice takes a
 * millisecond or more): requests of other tenants and /healthz wait no longer than this for the run.
 */
const YIELD_EVERY_MS = 10;
/**
 * Items read at once: enough to keep every invoice thread busy while the event loop stores the batch before. Storing
 * a batch of 30 KB invoices holds the event loop for tens of milliseconds at a time (its records, its blobs' hashes),
 * during which no read is handed out; a thread reads one in about half a millisecond, so 8 left it idle meanwhile.
 */
const READ_AHEAD = 64;
/** A run's lease: renewed while it runs; when its node dies, another node resumes the run after this long. */
export const RUN_LEASE_MS = 30_000;

/** The runner's options that executing a run reads. */
export interface RunExecutionOptions {
  now: () => number;
  logger: Logger;
  metrics?: Metrics | undefined;
  /** The document fields of invoice XML (lib/api/invoice_reader.ts reads them on worker threads when it can). */
  readFields?: ((xml: Uint8Array, options?: { tenant?: string }) => Promise<ImportedFields>) | undefined;
}

const _iso = (o: RunExecutionOptions): string => new Date(o.now()).toISOString();

/** One item read and waiting to be stored with its batch; a failed one keeps only its settlement and its error. */
interface _Prepared {
  item: SourceItem;
  input: Omit<DocumentInput, "xml"> | null;
  xml: Uint8Array | null;
  failure: { code: string; message: string } | null;
}

/** A real turn of the event loop (a macrotask), on every runtime: requests waiting for the server run now. */
const _yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Executes `run` from `source` to its end, or until `stop` aborts or the lease is lost (then another node resumes it).
 * Items are read a few at a time (on worker threads when the app has them) while the batch before is being stored.
 */
export async function executeRun(o: RunExecutionOptions, stop: AbortSignal, tenant: TenantStore, source: DocumentSource, run: SyncRunRecord, renew: () => Promise<boolean>): Promise<void> {
  run.status = "running";
  run.started_at ??= _iso(o);
  // What a pull leaves out is the last pull's to say: a run resumed after a crash pulls again and reports afresh.
  run.skipped = [];
  await tenant.saveRun(run);
  // Items are acknowledged to the source only after their documents and the counts that include them are saved:
  // after a crash the unacknowledged ones come again, so a resumed run's counts add up.
  let batch: Promise<_Prepared>[] = [];
  let storing: Promise<void> = Promise.resolve();
  // Stores what was read so far once the batch before it is stored (one at a time, in order); resolves when it is.
  const flush = (): Promise<void> => {
    const reads = batch.splice(0);
    const before = storing;
    storing = (async () => {
      await before;
      const settles = await _storeBatch(o, tenant, source, run, await Promise.all(reads));
      await tenant.saveRun(run);
      await Promise.all(settles.map((settle) => settle()));
    })();
    storing.catch(() => {}); // a failure surfaces where the next flush or the end awaits it
    return storing;
  };
  let renewedAt = o.now();
  // A source may wait long between two items (KSeF's hourly limits, Retry-After): a timer keeps the lease alive
  // meanwhile; if it is lost all the same, the source is stopped and the node that took the lease resumes the run.
  let lost = false;
  const leaseLost = new AbortController();
  const keepAlive = setInterval(() => {
    renew().then((ok) => {
      if (ok) return;
      lost = true;
      leaseLost.abort();
    }, () => {}); // a failed renewal is retried by the next tick
  }, RUN_LEASE_MS / 3);
  (keepAlive as { unref?: () => void }).unref?.();
  const drained = (): Promise<void> => storing.catch(() => {});
  const logged = new Set<string>();
  try {
    const context = {
      waiting: async (until: number | null): Promise<void> => {
        await flush(); // what came before the wait is stored before it
        run.waiting_until = until === null ? null : new Date(until).toISOString();
        await tenant.saveRun(run);
      },
      checkpoint: flush,
      skipped: (p: SkippedPart): void => {
        const skipped = (run.skipped ?? []).filter((s) => s.part !== p.part);
        skipped.push({ source: source.name, part: p.part, reason: p.reason, next_at: p.next_at === null ? null : new Date(p.next_at).toISOString() });
        run.skipped = skipped;
      },
      // Logged once per run and distinct warning (an upstream may repeat one on every answer); kept on the run, in
      // its bounds, with its next save. A run resumed after a crash keeps what it heard before.
      warning: (w: UpstreamWarning): void => {
        const key = `${w.code ?? ""}\u0000${w.message}`;
        if (!logged.has(key)) {
          if (logged.size < MAX_LOGGED_WARNINGS) logged.add(key);
          o.logger.warn("upstream warning", { tenant: tenant.tenant, run: run.id, source: source.name, operation: w.operation, code: w.code, message: w.message });
        }
        const kept = addUpstreamWarnings(run.warnings ?? [], [w], _iso(o));
        if (kept !== null) run.warnings = kept;
      },
    };
    const items = source.pull(AbortSignal.any([stop, leaseLost.signal]), context)[Symbol.asyncIterator]();
    const reads: Promise<_Prepared>[] = []; // the latest reads started, across batches
    let yieldedAt = performance.now();
    for (;;) {
      const next = await _nextOrIdle(items, batch.length > 0, flush);
      if (next.done) break;
      if (reads.length >= READ_AHEAD) await reads.shift()!.catch(() => {}); // at most READ_AHEAD reads at once
      const read = _prepare(o, tenant.tenant, next.value);
      read.catch(() => {}); // awaited with its batch
      batch.push(read);
      reads.push(read);
      if (performance.now() - yieldedAt > YIELD_EVERY_MS) {
        await _yieldToEventLoop();
        yieldedAt = performance.now();
      }
      if (batch.length >= BATCH) {
        await storing; // the batch before is stored; this one is stored while the next is read
        void flush();
      }
      if (o.now() - renewedAt > RUN_LEASE_MS / 3) {
        if (!(await renew())) return await drained(); // the lease went to another node: it resumes the run
        renewedAt = o.now();
      }
      if (lost) return await drained();
      if (stop.aborted) return void (await flush()); // resumed at next start
    }
    if (lost) return await drained();
    await flush();
    if (stop.aborted) return;
    run.status = "succeeded";
  } catch (e) {
    if (lost) return await drained();
    await drained();
    await flush().catch(() => {}); // what was imported before the source failed is kept and acknowledged
    if (stop.aborted) return;
    run.status = "failed";
    run.error = e instanceof SourceError
      ? { code: e.code, message: e.message }
      : storageUnavailableCode(e) !== null // a local fault (disk full, database gone) is not the source's
      ? { code: "SERVICE_UNAVAILABLE", message: "Storage was unavailable: the run stopped and can be requested again" }
      : { code: "UPSTREAM_ERROR", message: "The document source failed" };
    o.logger.warn("sync run failed", { tenant: tenant.tenant, run: run.id, ...errorFields(e) });
  } finally {
    clearInterval(keepAlive);
  }
  run.finished_at = _iso(o);
  run.waiting_until = null;
  await tenant.saveRun(run);
  o.metrics?.inc("sync_runs_total", "Finished sync runs by outcome.", { outcome: run.status });
}

/** The source's next item; while a partial batch waits, one that takes longer than BATCH_WAIT_MS stores it first. */
async function _nextOrIdle(items: AsyncIterator<SourceItem>, pending: boolean, flush: () => Promise<void>): Promise<IteratorResult<SourceItem>> {
  const next = items.next();
  if (!pending) return next;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<"idle">((resolve) => (timer = setTimeout(() => resolve("idle"), BATCH_WAIT_MS)));
  try {
    const first = await Promise.race([next, idle]);
    if (first !== "idle") return first;
  } finally {
    clearTimeout(timer);
  }
  await flush();
  return next;
}

/** Reads one item (its XML's fields); a failed item keeps only its settlement and its error, counted when stored. */
async function _prepare(o: RunExecutionOptions, tenantId: string, item: SourceItem): Promise<_Prepared> {
  if (item.error) return _failed(item, item.error.code, item.error.message);
  // An upstream's KSeF number is printed on PDFs and keys their cache: only a well-formed one (its CRC-8 too,
  // numer-ksef.md) is taken; anything else fails the item rather than being stored.
  if (item.ksef_number && !isKsefNumber(item.ksef_number)) {
    return _failed(item, "VALIDATION_ERROR", "The source's ksef_number is not a KSeF number (35 characters with a valid checksum)");
  }
  try {
    const ksef = item.ksef_number ? { ksef_number: item.ksef_number } : {};
    if (item.xml) {
      const { fields, valid } = await (o.readFields ?? _readFieldsHere)(item.xml, { tenant: tenantId });
      return { item, xml: item.xml, input: { source: "", external_id: item.external_id, fields, valid, received_at: null, ...ksef }, failure: null };
    }
    const meta = fieldsFromMetadata(item.metadata ?? {});
    return { item, xml: null, input: { source: "", external_id: item.external_id, fields: meta.fields, received_at: meta.received_at, ...ksef }, failure: null };
  } catch (caught) {
    const e = _itemError(caught);
    return _failed(item, e.code, e.message);
  }
}

// Without a reader the fields are read here and the XML is not judged (the app passes its reader, which judges).
const _readFieldsHere = async (xml: Uint8Array): Promise<ImportedFields> => ({ fields: fieldsFromXml(xml), valid: null });

function _failed(item: SourceItem, code: string, message: string): _Prepared {
  return { item, input: null, xml: null, failure: { code, message } };
}

function _count(run: SyncRunRecord, item: SourceItem, failure: { code: string; message: string }): void {
  run.counts.failed++;
  if (run.errors.length < MAX_ERRORS) run.errors.push({ external_id: item.external_id, code: failure.code, message: failure.message });
}

// A failure of the item (its XML, its blob) is the item's error; any other error fails the run.
function _itemError(caught: unknown): { code: string; message: string } {
  const e = toApiError(caught);
  if (!(e instanceof ApiError)) throw caught;
  // The issue adds to the message only when it is prose (not a code like `invalid_date`) that the message
  // does not already say.
  const said = e.details.issue;
  const issue = typeof said === "string" && said.includes(" ") && !e.message.includes(said) ? `: ${said}` : "";
  return { code: e.code, message: `${e.message}${issue}` };
}

/**
 * Stores a batch: its blobs together, then its documents in one upsertDocuments; counts them and returns their
 * settlements (ack, or reject for failed items), which the caller runs once the counts are saved.
 */
async function _storeBatch(o: RunExecutionOptions, tenant: TenantStore, source: DocumentSource, run: SyncRunRecord, batch: _Prepared[]): Promise<(() => Promise<void>)[]> {
  run.counts.fetched += batch.length;
  // A document's original (a Factur-X PDF) is kept before the document, so that a document never lacks it.
  const blobs = await Promise.allSettled(batch.map(async (p) => {
    if (!p.input || !p.xml) return null;
    const blob = await tenant.putBlob(p.xml);
    if (p.item.original) await tenant.putDerived(documentOriginalKey(blob.sha256), p.item.original.bytes);
    return blob;
  }));
  const stored: DocumentInput[] = [];
  batch.forEach((p, i) => {
    const blob = blobs[i]!;
    if (p.failure) return _count(run, p.item, p.failure);
    if (!p.input) return;
    if (blob.status === "rejected") {
      p.input = null;
      return _count(run, p.item, _itemError(blob.reason));
    }
    stored.push({ ...p.input, source: source.name, xml: blob.value });
  });
  const results = await tenant.upsertDocuments(stored, _iso(o));
  for (const r of results) run.counts[r.outcome]++;
  return batch.map((p) => (p.input ? () => p.item.ack() : () => p.item.reject()));
}
