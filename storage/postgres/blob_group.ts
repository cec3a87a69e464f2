/**
 * Group commit of a tenant's blobs: the puts that arrive in one turn of the event loop, or while the previous
 * group's statement runs, go into one multi-row `INSERT … ON CONFLICT DO NOTHING`, so a sync run's batch of XML
 * files costs one commit (one WAL flush) instead of one each. Every put resolves only once the statement holding
 * its row has committed, and rejects if that statement failed: what a put acknowledged survives a crash, as when
 * each blob had its own statement. The same idea as the file store's blob directory (storage/file/blob_dir.ts).
 * @module
 */
import { setImmediate } from "node:timers";
import { byteaParam, type PgQueryable } from "./client.ts";

/** Rows per statement: 4 parameters each plus the tenant stays far under PostgreSQL's 65,535 per statement (the Bind message's Int16 count). */
export const GROUP_ROWS = 256;
/** Bytes per statement: a sync run's batch of 256 invoices of ~30 KB fits; a larger blob goes alone. */
export const GROUP_BYTES = 16 * 1024 * 1024;

interface _Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
}

interface _Queued {
  kind: string;
  key: string;
  bytes: Uint8Array;
  waiters: _Waiter[];
}

/** Writes one tenant's blobs in groups, one statement per group, one group at a time. */
export class BlobGroups {
  #tenant: string;
  #db: PgQueryable;
  /** Rows waiting for the next group, by kind and key (a blob put twice meanwhile is written once). */
  #queued = new Map<string, _Queued>();
  #writing = false;

  constructor(tenant: string, db: PgQueryable) {
    this.#tenant = tenant;
    this.#db = db;
  }

  /** Stores a blob (kept once made: content blobs are content-addressed, derived ones deterministic); resolves once committed. */
  put(kind: string, key: string, bytes: Uint8Array): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const id = `${kind}/${key}`;
      const entry = this.#queued.get(id) ?? { kind, key, bytes, waiters: [] };
      entry.waiters.push({ resolve, reject });
      this.#queued.set(id, entry);
      if (!this.#writing) {
        this.#writing = true;
        setImmediate(() => void this.#writeGroups()); // the puts of this turn of the event loop join the group
      }
    });
  }

  // Writes groups until none is waiting.
  async #writeGroups(): Promise<void> {
    while (this.#queued.size > 0) {
      const group = this.#take();
      try {
        await this.#insert(group);
      } catch (e) {
        for (const row of group) for (const w of row.waiters) w.reject(e);
        continue;
      }
      for (const row of group) for (const w of row.waiters) w.resolve();
    }
    this.#writing = false;
  }

  // The next group, oldest first, within GROUP_ROWS and GROUP_BYTES (a blob larger than that goes alone).
  #take(): _Queued[] {
    const group: _Queued[] = [];
    let bytes = 0;
    for (const [id, row] of this.#queued) {
      if (group.length === GROUP_ROWS || (group.length > 0 && bytes + row.bytes.length > GROUP_BYTES)) break;
      group.push(row);
      bytes += row.bytes.length;
      this.#queued.delete(id);
    }
    return group;
  }

  async #insert(group: _Queued[]): Promise<void> {
    const params: unknown[] = [this.#tenant];
    const rows = group.map((row) => {
      params.push(row.kind, row.key, row.bytes.length, byteaParam(row.bytes));
      const n = params.length;
      return `($1, $${n - 3}, $${n - 2}, $${n - 1}::integer, $${n}::bytea)`;
    });
    await this.#db.query(`INSERT INTO blobs (tenant, kind, key, size, data) VALUES ${rows.join(", ")} ON CONFLICT DO NOTHING`, params);
  }
}
