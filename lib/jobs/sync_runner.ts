/**
 * Sync runs (README “Documents and the inbox”): a request queues a run (or joins the queued or
 * running one of the same tenant and source), the run pulls its source item by
 * item, stores each document, then acknowledges it to the source. A document
 * that fails counts under `failed`; only a failure of the source fails the run.
 * Runs left queued or running by a dead process are resumed at startup.
 * @module
 */
import { validationError } from "../http/errors.ts";
import type { IdempotencyTag, ImportedFields, Storage, SyncRunRecord, TenantStore } from "../contracts/storage.ts";
import type { DocumentSource, SourceFactory } from "../contracts/document_source.ts";
import type { Logger } from "../observe/log.ts";
import { reportFailure, repeatEvery } from "./background.ts";
import type { Metrics } from "../observe/metrics.ts";
import { executeRun, RUN_LEASE_MS } from "./sync_execution.ts";

export { RUN_LEASE_MS } from "./sync_execution.ts";

/** Options of the sync runner. */
export interface SyncRunnerOptions {
  storage: Storage;
  sources: SourceFactory;
  now: () => number;
  logger: Logger;
  metrics?: Metrics;
  /** False in a process that only records run requests while another process executes them (WORKERS > 1). */
  execute?: boolean;
  /** Reads the document fields of invoice XML (lib/api/invoice_reader.ts: off the event loop when it can); default inline. */
  readFields?: (xml: Uint8Array, options?: { tenant?: string }) => Promise<ImportedFields>;
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
  const runningIds = new Map<string, string>(); // tenant and source → the id of the run executing
  const waiting = new Map<string, { tenant: TenantStore; run: SyncRunRecord }>();
  const abort = new AbortController();
  let cancel: (() => void) | null = null;
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
    if (o.execute === false || abort.signal.aborted) return;
    if (running.has(key)) {
      // A run created while the one before it is finishing (saved, not yet let go): started once that one is.
      if (run.id !== runningIds.get(key)) waiting.set(key, { tenant, run });
      return;
    }
    runningIds.set(key, run.id);
    const lease = `run:${run.id}`;
    const p = (async () => {
      if (!(await tenant.claimLease(lease, o.nodeId, RUN_LEASE_MS))) return; // another node runs it
      try {
        const fresh = await tenant.getRun(run.id); // it may have finished meanwhile
        // A renewal that fails (storage down) keeps going: the lease still runs, and the next renewal retries.
        const renew = () => tenant.claimLease(lease, o.nodeId, RUN_LEASE_MS).catch((e: unknown) => (reportFailure(o, "lease_renewal", e, { tenant: tenant.tenant, run: run.id }), true));
        if (fresh && (fresh.status === "queued" || fresh.status === "running")) {
          let source: DocumentSource;
          try {
            source = sourceOf(tenant.tenant, fresh.source);
          } catch {
            // The source was removed or renamed while its run waited: the run ends, never stays queued (README “Documents and the inbox”).
            Object.assign(fresh, { status: "failed", finished_at: iso(), waiting_until: null });
            fresh.error = { code: "SOURCE_NOT_CONFIGURED", message: `The source ${JSON.stringify(fresh.source)} is no longer configured for this tenant` };
            await tenant.saveRun(fresh);
            return;
          }
          await executeRun(o, abort.signal, tenant, source, fresh, renew);
        }
      } finally {
        await tenant.releaseLease(lease, o.nodeId);
      }
    })()
      .catch((e: unknown) => reportFailure(o, "sync_run", e, { tenant: tenant.tenant, run: run.id }))
      .finally(() => {
        running.delete(key);
        runningIds.delete(key);
        const next = waiting.get(key);
        waiting.delete(key);
        if (next) schedule(next.tenant, next.run);
      });
    running.set(key, p);
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
      cancel = repeatEvery("sync_poll", intervalMs, () => this.resume(), o);
    },
    async stop() {
      cancel?.();
      abort.abort();
      await Promise.all(running.values());
    },
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}

