/**
 * Sync runs (API.md §4.4): a request queues a run (or joins the queued or
 * running one of the same tenant and source), the run pulls its source item by
 * item, stores each document, then acknowledges it to the source. A document
 * that fails counts under `failed`; only a failure of the source fails the run.
 * Runs left queued or running by a dead process are resumed at startup.
 * @module
 */
import { ApiError, validationError } from "../http/errors.ts";
import { toApiError } from "../api/errors.ts";
import { fieldsFromInvoice, fieldsFromMetadata } from "../contracts/record_json.ts";
import { readInvoiceXml } from "../formats/invoice/read_xml.ts";
import type { IdempotencyTag, Storage, SyncRunRecord, TenantStore } from "../contracts/storage.ts";
import { SourceError, type DocumentSource, type SourceFactory, type SourceItem } from "../contracts/document_source.ts";
import type { Logger } from "../observe/log.ts";
import type { Metrics } from "../observe/metrics.ts";

const MAX_ERRORS = 100; // API.md §4.4: at most 100 kept
const SAVE_EVERY = 50; // progress is saved every this many items, and at the end
/** A run's lease: renewed while it runs; when its node dies, another node resumes the run after this long. */
export const RUN_LEASE_MS = 30_000;

/** Options of the sync runner. */
export interface SyncRunnerOptions {
  storage: Storage;
  sources: SourceFactory;
  now: () => number;
  logger: Logger;
  metrics?: Metrics;
  /** False in a process that only records run requests while another process executes them (WORKERS > 1). */
  execute?: boolean;
  /** This node's name in leases (several nodes may execute runs of one store; each run has one executor). */
  nodeId: string;
}

/** Runs syncs in this process. */
export interface SyncRunner {
  request(tenant: TenantStore, source: string | null, idem?: IdempotencyTag): Promise<{ run: SyncRunRecord; created: boolean }>;
  /** Picks up runs that are queued or running but not running here (left by a dead process, or recorded by another). */
  resume(): Promise<void>;
  /** Calls resume() every `intervalMs` until stopped. */
  start(intervalMs: number): void;
  /** Stops at the next safe point (between two items) and waits for running runs. */
  stop(): Promise<void>;
  /** Resolves when every run started so far has finished (for tests and shutdown). */
  idle(): Promise<void>;
}

/** Creates the sync runner. */
export function createSyncRunner(o: SyncRunnerOptions): SyncRunner {
  const running = new Map<string, Promise<void>>();
  const abort = new AbortController();
  let timer: ReturnType<typeof setInterval> | null = null;
  const iso = (): string => new Date(o.now()).toISOString();

  function sourceOf(tenant: string, name: string | null): DocumentSource {
    const all = o.sources(tenant);
    const found = name === null ? all[0] : all.find((s) => s.name === name);
    if (!found && all.length === 0) throw validationError("source", "unknown", "This tenant has no document source configured");
    if (!found) {
      const shown = JSON.stringify(name!.length > 64 ? `${name!.slice(0, 64)}…` : name); // a huge name is not echoed whole
      throw validationError("source", "unknown", `Unknown source ${shown}: this tenant's sources are ${all.map((s) => s.name).join(", ")}`);
    }
    return found;
  }

  function schedule(tenant: TenantStore, run: SyncRunRecord): void {
    const key = `${tenant.tenant}\u0000${run.source}`;
    if (o.execute === false || running.has(key) || abort.signal.aborted) return;
    const lease = `run:${run.id}`;
    const p = (async () => {
      if (!(await tenant.claimLease(lease, o.nodeId, RUN_LEASE_MS))) return; // another node runs it
      try {
        const fresh = await tenant.getRun(run.id); // it may have finished meanwhile
        if (fresh && (fresh.status === "queued" || fresh.status === "running")) await execute(tenant, fresh, () => tenant.claimLease(lease, o.nodeId, RUN_LEASE_MS));
      } finally {
        await tenant.releaseLease(lease, o.nodeId);
      }
    })()
      .catch((e: unknown) => o.logger.error("sync run crashed", { tenant: tenant.tenant, run: run.id, error: String(e) }))
      .finally(() => running.delete(key));
    running.set(key, p);
  }

  async function execute(tenant: TenantStore, run: SyncRunRecord, renew: () => Promise<boolean>): Promise<void> {
    const source = sourceOf(tenant.tenant, run.source);
    run.status = "running";
    run.started_at ??= iso();
    await tenant.saveRun(run);
    let sinceSave = 0;
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
      for await (const item of source.pull(AbortSignal.any([abort.signal, leaseLost.signal]), context)) {
        await importItem(tenant, source, run, item);
        if (++sinceSave >= SAVE_EVERY) {
          sinceSave = 0;
          await tenant.saveRun(run);
        }
        if (o.now() - renewedAt > RUN_LEASE_MS / 3) {
          if (!(await renew())) return; // the lease went to another node: it resumes the run
          renewedAt = o.now();
        }
        if (lost) return;
        if (abort.signal.aborted) return void (await tenant.saveRun(run)); // resumed at next start
      }
      if (lost) return;
      if (abort.signal.aborted) return void (await tenant.saveRun(run));
      run.status = "succeeded";
    } catch (e) {
      if (lost) return;
      if (abort.signal.aborted) return void (await tenant.saveRun(run));
      run.status = "failed";
      run.error = e instanceof SourceError ? { code: e.code, message: e.message } : { code: "UPSTREAM_ERROR", message: "The document source failed" };
      o.logger.warn("sync run failed", { tenant: tenant.tenant, run: run.id, error: String(e) });
    } finally {
      clearInterval(keepAlive);
    }
    run.finished_at = iso();
    run.waiting_until = null;
    await tenant.saveRun(run);
    o.metrics?.inc("sync_runs_total", "Finished sync runs by outcome.", { outcome: run.status });
  }

  async function importItem(tenant: TenantStore, source: DocumentSource, run: SyncRunRecord, item: SourceItem): Promise<void> {
    run.counts.fetched++;
    const fail = async (code: string, message: string): Promise<void> => {
      run.counts.failed++;
      if (run.errors.length < MAX_ERRORS) run.errors.push({ external_id: item.external_id, code, message });
      await item.reject();
    };
    if (item.error) return fail(item.error.code, item.error.message);
    let input;
    try {
      if (item.xml) {
        const invoice = readInvoiceXml(item.xml);
        input = { fields: fieldsFromInvoice(invoice), xml: await tenant.putBlob(item.xml), received_at: null as string | null };
      } else {
        const meta = fieldsFromMetadata(item.metadata ?? {});
        input = { fields: meta.fields, xml: null, received_at: meta.received_at };
      }
    } catch (caught) {
      const e = toApiError(caught);
      if (!(e instanceof ApiError)) throw caught;
      const issue = typeof e.details.issue === "string" ? `: ${e.details.issue}` : "";
      return fail(e.code, `${e.message}${issue}`);
    }
    const ksef = item.ksef_number ? { ksef_number: item.ksef_number } : {};
    const { outcome } = await tenant.upsertDocument({ source: source.name, external_id: item.external_id, ...input, ...ksef }, iso());
    run.counts[outcome]++;
    await item.ack();
  }

  return {
    async request(tenant, name, idem) {
      const source = sourceOf(tenant.tenant, name);
      const result = await tenant.requestRun(source.name, iso(), idem);
      // A joined run is already someone's: its creator (or the poll, if the creator is gone) runs it.
      if (result.created) schedule(tenant, structuredClone(result.run));
      return result;
    },
    async resume() {
      for (const id of await o.storage.tenants()) {
        const tenant = o.storage.tenant(id);
        for (const run of await tenant.activeRuns()) schedule(tenant, run);
      }
    },
    start(intervalMs) {
      timer = setInterval(() => void this.resume().catch((e: unknown) => o.logger.error("sync poll failed", { error: String(e) })), intervalMs);
    },
    async stop() {
      if (timer) clearInterval(timer);
      abort.abort();
      await Promise.all(running.values());
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}

