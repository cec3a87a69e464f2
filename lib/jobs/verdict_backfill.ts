/**
 * Judges in the background the XML of documents stored before verdicts were kept (README "Summary"), so that the
 * summary's `documents.invalid` counts every document, not only those imported since. A tenant at a time, a batch
 * at a time: the store lists documents without a verdict, each is judged by the reader a sync's import uses (on
 * the invoice threads where the process has them), one document at a time so that requests keep the other threads
 * and the event loop, and the batch's verdicts are written together. Stores keep no position: a document without a
 * verdict is the marker, so a restart goes on with what is left and nothing is judged twice (but the one batch a
 * stop cut short). Documents without XML are never judged; XML that is no readable invoice gets no verdict, as its
 * `validation` is null, and is tried again only after a restart.
 * @module
 */
import type { DocumentVerdict, Storage, TenantStore } from "../contracts/storage.ts";
import type { Logger } from "../observe/log.ts";
import type { Metrics } from "../observe/metrics.ts";
import { errorFields, reportFailure } from "./background.ts";

/** Documents per batch (one listing, one write of their verdicts, one log line): a restart judges at most these again. */
export const VERDICT_BATCH = 100;
/** How long a node holds a tenant's backfill; renewed every batch (a batch of 30 KB invoices takes well under a second). */
export const VERDICT_LEASE_MS = 60_000;
/**
 * Event-loop time the loop may take before it lets a turn pass (README "Summary"): without invoice threads (Deno)
 * a judgement runs on the event loop, and requests then wait for one judgement, not for a batch.
 */
const MAX_TURN_MS = 10;

/** Options of the background judge. */
export interface VerdictBackfillOptions {
  storage: Storage;
  /** The verdict on XML bytes, as a sync's import gives it (lib/api/invoice_reader.ts FieldsReader); null: none. */
  judge: (xml: Uint8Array, options: { tenant: string }) => Promise<boolean | null>;
  logger: Logger;
  metrics?: Metrics | undefined;
  /** This node's name in leases: one node judges a tenant's documents at a time. */
  nodeId: string;
  /** Documents per batch (default VERDICT_BATCH). */
  batch?: number;
}

/** What one run did. */
export interface VerdictBackfillResult {
  judged: number;
  invalid: number;
  /** Documents left without a verdict: XML missing from the blobs, or no readable invoice. */
  skipped: number;
}

/** The background judge. */
export interface VerdictBackfill {
  /** Judges every tenant's documents that have no verdict, until none are left or stop() is called. */
  run(): Promise<VerdictBackfillResult>;
  /** run() in the background; a run that fails is reported and tried again after `retryMs`. */
  start(retryMs: number): void;
  /** Stops after the document being judged (its batch's verdicts so far are written) and waits for that. */
  stop(): Promise<void>;
}

/** Creates the background judge. */
export function createVerdictBackfill(o: VerdictBackfillOptions): VerdictBackfill {
  const batch = o.batch ?? VERDICT_BATCH;
  let stopped = false;
  let running: Promise<unknown> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let turnStart = performance.now();

  async function pause(): Promise<void> {
    if (performance.now() - turnStart < MAX_TURN_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    turnStart = performance.now();
  }

  async function judgeOne(t: TenantStore, id: string, sha256: string): Promise<boolean | null> {
    const blob = await t.getBlob(sha256);
    if (blob === null) {
      o.logger.warn("document XML missing, not judged", { tenant: t.tenant, document: id });
      return null;
    }
    try {
      return await o.judge(await blob.bytes(), { tenant: t.tenant });
    } catch (e) {
      // No readable invoice (it was when imported: the reader has changed since), or a thread that failed.
      o.logger.warn("document not judged", { tenant: t.tenant, document: id, ...errorFields(e) });
      return null;
    }
  }

  async function runTenant(t: TenantStore, total: VerdictBackfillResult): Promise<void> {
    const lease = "verdict_backfill";
    if (!(await t.claimLease(lease, o.nodeId, VERDICT_LEASE_MS))) return; // another node judges this tenant
    try {
      let from: number | null = 0;
      let batches = 0;
      const started = performance.now();
      const done: VerdictBackfillResult = { judged: 0, invalid: 0, skipped: 0 };
      while (from !== null && !stopped) {
        const page = await t.unjudgedDocuments(from, batch);
        from = page.next;
        if (page.items.length === 0) continue; // a store may answer a short scan with nothing yet
        batches++;
        const verdicts: DocumentVerdict[] = [];
        for (const item of page.items) {
          if (stopped) break;
          const valid = await judgeOne(t, item.id, item.sha256);
          if (valid === null) done.skipped++;
          else verdicts.push({ id: item.id, sha256: item.sha256, valid });
          await pause();
        }
        const kept = await t.saveVerdicts(verdicts);
        const invalid = verdicts.filter((v) => !v.valid).length;
        done.judged += kept;
        done.invalid += invalid;
        // Progress, one line a batch (README "Summary"): a newer version that arrived meanwhile keeps its own verdict.
        o.logger.info("stored documents judged", { tenant: t.tenant, judged: kept, invalid, judged_so_far: done.judged });
        if (!(await t.claimLease(lease, o.nodeId, VERDICT_LEASE_MS))) return;
      }
      if (batches > 0 && from === null) {
        o.logger.info("every stored document judged", { tenant: t.tenant, ...done, ms: Math.round(performance.now() - started) });
      }
      total.judged += done.judged;
      total.invalid += done.invalid;
      total.skipped += done.skipped;
    } finally {
      await t.releaseLease(lease, o.nodeId);
    }
  }

  async function run(): Promise<VerdictBackfillResult> {
    const total: VerdictBackfillResult = { judged: 0, invalid: 0, skipped: 0 };
    for (const id of await o.storage.tenants()) {
      if (stopped) break;
      await runTenant(o.storage.tenant(id), total);
    }
    return total;
  }

  return {
    run,
    start(retryMs) {
      const attempt = (): void => {
        retry = null;
        if (stopped) return;
        running = run().catch((e: unknown) => {
          reportFailure(o, "verdict_backfill", e);
          if (!stopped) retry = setTimeout(attempt, retryMs);
        }).finally(() => (running = null));
      };
      attempt();
    },
    async stop() {
      stopped = true;
      if (retry !== null) clearTimeout(retry);
      await running;
    },
  };
}
