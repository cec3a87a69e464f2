/**
 * Idempotency keys of a PostgreSQL tenant (the idempotency conventions in /docs): their records, committed with the effect they answer for,
 * swept now and then by the clock the records carry; and claims, leases on the database's clock that say a live
 * request executes a key.
 * @module
 */
import { randomUUID } from "node:crypto";
import type { IdempotencyRecord, IdempotencyTag } from "../../lib/contracts/storage.ts";
import type { PgPool, PgQueryable } from "./client.ts";

const KEEP_IDEMPOTENCY_MS = 2 * 86_400_000; // the idempotency conventions in /docs keeps keys 24 hours; rows live two days, as in the file store
const SWEEP_EVERY_MS = 3_600_000;
// Claims are taken after the body is read, and handlers then take well under a second: half a minute covers any
// stall, and is how long a node that dies mid-request keeps its keys answering 409 IDEMPOTENCY_KEY_IN_USE.
const CLAIM_LEASE_S = 30;

/** A tenant's idempotency records and claims. */
export class PostgresIdempotency {
  #tenant: string;
  #pool: PgPool;
  #sweptAt = 0;
  #claims = new Map<string, string>(); // keys this process executes, and the owner token of each claim

  constructor(tenant: string, pool: PgPool) {
    this.#tenant = tenant;
    this.#pool = pool;
  }

  /** The record of a key, or null when unknown or older than `maxAgeMs`. */
  async get(key: string, now: number, maxAgeMs: number): Promise<IdempotencyRecord | null> {
    const r = await this.#pool.query("SELECT record FROM idempotency WHERE tenant = $1 AND key = $2", [this.#tenant, key]);
    const record = r.rows[0] ? (JSON.parse(String(r.rows[0].record)) as IdempotencyRecord) : null;
    return record && now - Date.parse(record.created_at) < maxAgeMs ? record : null;
  }

  /** Keeps a key's record, on `c` (a transaction of the effect, or the pool). */
  async put(c: PgQueryable, record: IdempotencyRecord): Promise<void> {
    await c.query(`INSERT INTO idempotency (tenant, key, created_at, record) VALUES ($1, $2, $3, $4)
      ON CONFLICT (tenant, key) DO UPDATE SET created_at = EXCLUDED.created_at, record = EXCLUDED.record`,
    [this.#tenant, record.key, record.created_at, JSON.stringify(record)]);
    // Expired keys are deleted now and then, by the clock the records carry (tests inject it).
    const at = Date.parse(record.created_at);
    if (at - this.#sweptAt >= SWEEP_EVERY_MS) {
      this.#sweptAt = at;
      await c.query("DELETE FROM idempotency WHERE tenant = $1 AND created_at < $2", [this.#tenant, new Date(at - KEEP_IDEMPOTENCY_MS).toISOString()]);
    }
  }

  /** Keeps the record of the request that caused an effect, in the effect's transaction `c`, so a crash cannot keep one without the other. */
  async tag(c: PgQueryable, idem: IdempotencyTag | undefined, json: string, now: string): Promise<void> {
    if (idem) await this.put(c, { key: idem.key, fingerprint: idem.fingerprint, response: idem.respond(json), created_at: now });
  }

  /** Claims a key: taken when free or expired, so a node that died holding it blocks the key only briefly. */
  async begin(key: string): Promise<boolean> {
    const owner = randomUUID();
    const r = await this.#pool.query(`INSERT INTO idempotency_claims (tenant, key, owner, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 second')
      ON CONFLICT (tenant, key) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at WHERE idempotency_claims.expires_at < now()`,
    [this.#tenant, key, owner, CLAIM_LEASE_S]);
    if (r.rowCount === 0) return false;
    this.#claims.set(key, owner);
    return true;
  }

  /** Releases this process's claim of a key. */
  async end(key: string): Promise<void> {
    const owner = this.#claims.get(key);
    if (owner === undefined) return;
    this.#claims.delete(key);
    await this.#pool.query("DELETE FROM idempotency_claims WHERE tenant = $1 AND key = $2 AND owner = $3", [this.#tenant, key, owner]);
  }
}
