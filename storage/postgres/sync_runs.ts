/**
 * The sync runs of a PostgreSQL tenant (README “Documents and the inbox”): a partial unique index allows one queued or running run
 * per source, so a request coalesces with it; every version of a run appends to the runs feed.
 * @module
 */
import { newId } from "../../lib/contracts/ids.ts";
import type { IdempotencyTag, SyncRunRecord } from "../../lib/contracts/storage.ts";
import { inTransaction } from "./client.ts";
import { APPEND_CHANGE, lockFeed, type TenantScope } from "./feed.ts";

/** A tenant's sync runs over a pool. */
export class PostgresSyncRuns {
  #scope: TenantScope;

  constructor(scope: TenantScope) {
    this.#scope = scope;
  }

  /** The queued or running run of a source, or a new queued one. */
  async request(source: string, now: string, idem?: IdempotencyTag): Promise<{ run: SyncRunRecord; created: boolean }> {
    return inTransaction(this.#scope.pool, async (c) => {
      const seq = await lockFeed(c, this.#scope.tenant, "runs");
      const run: SyncRunRecord = {
        id: newId("sync", Date.parse(now)), source, status: "queued", requested_at: now, started_at: null, finished_at: null,
        counts: { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 }, errors: [], error: null, waiting_until: null, skipped: [],
      };
      const json = JSON.stringify(run);
      const r = await c.query(`INSERT INTO runs (tenant, id, ord, source, status, json) VALUES ($1, $2, $3, $4, 'queued', $5)
        ON CONFLICT (tenant, source) WHERE status IN ('queued', 'running') DO NOTHING`, [this.#scope.tenant, run.id, seq, source, json]);
      if (r.rowCount === 0) {
        const active = await c.query("SELECT json FROM runs WHERE tenant = $1 AND source = $2 AND status IN ('queued', 'running')", [this.#scope.tenant, source]);
        return { run: JSON.parse(String(active.rows[0]!.json)) as SyncRunRecord, created: false };
      }
      await c.query(`WITH ${APPEND_CHANGE} SELECT 1`, [this.#scope.tenant, "runs", seq, true, json]);
      await this.#scope.idem.tag(c, idem, json, now);
      return { run, created: true };
    });
  }

  /** Writes a new version of a run. */
  async save(run: SyncRunRecord): Promise<void> {
    await inTransaction(this.#scope.pool, async (c) => {
      const seq = await lockFeed(c, this.#scope.tenant, "runs");
      const json = JSON.stringify(run);
      const r = await c.query("UPDATE runs SET status = $3, json = $4 WHERE tenant = $1 AND id = $2", [this.#scope.tenant, run.id, run.status, json]);
      if (r.rowCount === 0) throw new RangeError(`Unknown run ${run.id}`);
      await c.query(`WITH ${APPEND_CHANGE} SELECT 1`, [this.#scope.tenant, "runs", seq, false, json]);
    });
  }

  /** The run with this id, or null. */
  async get(id: string): Promise<SyncRunRecord | null> {
    const r = await this.#scope.pool.query("SELECT json FROM runs WHERE tenant = $1 AND id = $2", [this.#scope.tenant, id]);
    return r.rows[0] ? (JSON.parse(String(r.rows[0].json)) as SyncRunRecord) : null;
  }

  /** Queued and running runs, oldest first. */
  async active(): Promise<SyncRunRecord[]> {
    const r = await this.#scope.pool.query("SELECT json FROM runs WHERE tenant = $1 AND status IN ('queued', 'running') ORDER BY ord", [this.#scope.tenant]);
    return r.rows.map((row) => JSON.parse(String(row.json)) as SyncRunRecord);
  }

  /** The newest run of a source (runs_by_source, migration 7). */
  async last(source: string): Promise<SyncRunRecord | null> {
    const r = await this.#scope.pool.query("SELECT json FROM runs WHERE tenant = $1 AND source = $2 ORDER BY ord DESC LIMIT 1", [this.#scope.tenant, source]);
    return r.rows[0] ? (JSON.parse(String(r.rows[0].json)) as SyncRunRecord) : null;
  }
}
