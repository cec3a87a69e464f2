/**
 * The execution of one sync run (API.md §4.4): pulls its source item by item,
 * stores each document, counts it, and acknowledges it to the source once the
 * counts that include it are saved. It does not queue, join or pick up runs,
 * nor hold the run's lease: that is the runner's (sync_runner.ts).
 * @module
 */
import { storageUnavailableCode } from "../contracts/storage_errors.ts";
import { ApiError } from "../http/errors.ts";
import { toApiError } from "../api/errors.ts";
import { fieldsFromInvoice, fieldsFromMetadata } from "../contracts/record_json.ts";
import { readInvoiceXml } from "../formats/invoice/read_xml.ts";
import { isKsefNumber } from "../formats/invoice/ksef_number.ts";
import type { Invoice } from "../formats/invoice/model.ts";
import type { SyncRunRecord, TenantStore } from "../contracts/storage.ts";
import { SourceError, type DocumentSource, type SourceItem } from "../contracts/document_source.ts";
import type { Logger } from "../observe/log.ts";
import type { Metrics } from "../observe/metrics.ts";
import { errorFields } from "./background.ts";

const MAX_ERRORS = 100; // API.md §4.4: at most 100 kept
const SAVE_EVERY = 50; // progress is saved (and the items acknowledged) every this many items, and at the end
/** A run's lease: renewed while it runs; when its node dies, another node resumes the run after this long. */
export const RUN_LEASE_MS = 30_000;

/** The runner's options that executing a run reads. */
export interface RunExecutionOptions {
  now: () => number;
  logger: Logger;
  metrics?: Metrics | undefined;
  readInvoice?: ((xml: Uint8Array, options?: { wait?: boolean; tenant?: string }) => Promise<Invoice> | Invoice) | undefined;
}

const _iso = (o: RunExecutionOptions): string => new Date(o.now()).toISOString();

/** Executes `run` from `source` to its end, or until `stop` aborts or the lease is lost (then another node resumes it). */
export async function executeRun(o: RunExecutionOptions, stop: AbortSignal, tenant: TenantStore, source: DocumentSource, run: SyncRunRecord, renew: () => Promise<boolean>): Promise<void> {
  run.status = "running";
  run.started_at ??= _iso(o);
  await tenant.saveRun(run);
  // Items are acknowledged to the source only after the counts that include them are saved: after a crash the
  // unacknowledged ones come again, so a resumed run's counts add up (issue 15 #21).
  const pending: (() => Promise<void>)[] = [];
  const flush = async (): Promise<void> => {
    await tenant.saveRun(run);
    for (const settle of pending.splice(0)) await settle();
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
  try {
    const context = {
      waiting: async (until: number | null): Promise<void> => {
        run.waiting_until = until === null ? null : new Date(until).toISOString();
        await tenant.saveRun(run);
      },
    };
    for await (const item of source.pull(AbortSignal.any([stop, leaseLost.signal]), context)) {
      pending.push(await _importItem(o, tenant, source, run, item));
      if (pending.length >= SAVE_EVERY) await flush();
      if (o.now() - renewedAt > RUN_LEASE_MS / 3) {
        if (!(await renew())) return; // the lease went to another node: it resumes the run
        renewedAt = o.now();
      }
      if (lost) return;
      if (stop.aborted) return void (await flush()); // resumed at next start
    }
    if (lost) return;
    await flush();
    if (stop.aborted) return;
    run.status = "succeeded";
  } catch (e) {
    if (lost) return;
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

/** Imports one item and counts it; returns its acknowledgement (ack or reject), which the caller defers. */
async function _importItem(o: RunExecutionOptions, tenant: TenantStore, source: DocumentSource, run: SyncRunRecord, item: SourceItem): Promise<() => Promise<void>> {
  run.counts.fetched++;
  const fail = (code: string, message: string): (() => Promise<void>) => {
    run.counts.failed++;
    if (run.errors.length < MAX_ERRORS) run.errors.push({ external_id: item.external_id, code, message });
    return () => item.reject();
  };
  if (item.error) return fail(item.error.code, item.error.message);
  // An upstream's KSeF number is printed on PDFs and keys their cache: only a well-formed one (its CRC-8 too,
  // numer-ksef.md) is taken; anything else fails the item rather than being stored.
  if (item.ksef_number && !isKsefNumber(item.ksef_number)) {
    return fail("VALIDATION_ERROR", "The source's ksef_number is not a KSeF number (35 characters with a valid checksum)");
  }
  let input;
  try {
    if (item.xml) {
      const invoice = await (o.readInvoice ?? readInvoiceXml)(item.xml, { wait: true, tenant: tenant.tenant }); // a sync queues, never refused
      input = { fields: fieldsFromInvoice(invoice), xml: await tenant.putBlob(item.xml), received_at: null as string | null };
    } else {
      const meta = fieldsFromMetadata(item.metadata ?? {});
      input = { fields: meta.fields, xml: null, received_at: meta.received_at };
    }
  } catch (caught) {
    const e = toApiError(caught);
    if (!(e instanceof ApiError)) throw caught;
    // The issue adds to the message only when it is prose (not a code like `invalid_date`) that the message
    // does not already say (issue 15 #8).
    const said = e.details.issue;
    const issue = typeof said === "string" && said.includes(" ") && !e.message.includes(said) ? `: ${said}` : "";
    return fail(e.code, `${e.message}${issue}`);
  }
  const ksef = item.ksef_number ? { ksef_number: item.ksef_number } : {};
  const { outcome } = await tenant.upsertDocument({ source: source.name, external_id: item.external_id, ...input, ...ksef }, _iso(o));
  run.counts[outcome]++;
  return () => item.ack();
}
