/**
 * A PostgreSQL storage: the same contract as the file and memory stores, so that
 * several server processes on several machines can share one database. It
 * imports no driver: hand it a node-postgres `Pool` (or anything of that shape);
 * `PostgresStorage.open(pool)` creates and migrates the schema (postgres_schema.ts).
 *
 * Change feeds. A feed position must never become visible after a larger one,
 * or a reader that has moved past it skips it for good. A sequence hands out
 * numbers in call order, not commit order, so positions come from a counter row
 * per (tenant, collection) instead: the writing transaction takes it FOR UPDATE,
 * uses its length as the position and stores length + 1. The lock is held until
 * COMMIT, so the next writer of that feed reads the length only after this one
 * is visible: positions are handed out, and become visible, in commit order, with
 * no gaps. The cost is that writes to one tenant's feed are serialised (a few
 * round trips each); other tenants and collections do not wait.
 *
 * Blobs (XML and PDF renderings, at most 10 MiB by the upload limit) are bytea
 * rows: written in the same database and transactions as their records, backed
 * up with them, and no second system to run. Large ones are read in 1 MiB
 * `substring` chunks, so a download never holds a whole blob in memory. Puts
 * that arrive together share multi-row statements (blob_group.ts): a sync
 * run's batch of files costs a few commits, not one per file.
 * @module
 */
import type { Scope, TokenRecord } from "../../lib/contracts/tokens.ts";
import type { Storage, TenantStore, TokenStore } from "../../lib/contracts/storage.ts";
import { isValidTenantId } from "../../lib/contracts/ids.ts";
import { bytesOf, byteaParam, type PgPool } from "./client.ts";
import { migrate } from "./schema.ts";
import { signallingPool } from "./unavailable.ts";
import { PostgresTenantStore } from "./tenant.ts";

export type { PgPool, PgPoolClient, PgQueryable, PgResult } from "./client.ts";
export { MIGRATIONS, migrate, type Migration } from "./schema.ts";

const SECRET_BYTES = 32;
// Times out as the conventions in /docs writes them, whatever the session's TimeZone or the client's type parsers.
const ISO = (col: string): string => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${col}`;
const TOKEN_COLUMNS = `key_id, tenant, secret_sha256, array_to_json(scopes)::text AS scopes, ${ISO("created_at")}, ${ISO("expires_at")}, ${ISO("revoked_at")}`;

function _token(row: Record<string, unknown>): TokenRecord {
  return {
    key_id: String(row.key_id), tenant: String(row.tenant), secret_sha256: String(row.secret_sha256),
    scopes: JSON.parse(String(row.scopes)) as Scope[], created_at: String(row.created_at),
    expires_at: row.expires_at === null ? null : String(row.expires_at), revoked_at: row.revoked_at === null ? null : String(row.revoked_at),
  };
}

const TOKEN_CACHE_MS = 900; // under the second README “Configuration” allows, measured from the lookup

class _PostgresTokens implements TokenStore {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  // README “Configuration” lets a new or revoked token take up to a second to be seen: lookups are cached that long.
  #cache = new Map<string, { token: TokenRecord | null; at: number }>();

  async find(keyId: string): Promise<TokenRecord | null> {
    const hit = this.#cache.get(keyId);
    if (hit && Date.now() - hit.at < TOKEN_CACHE_MS) return hit.token;
    const r = await this.#pool.query(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE key_id = $1`, [keyId]);
    const token = r.rows[0] ? _token(r.rows[0]) : null;
    if (this.#cache.size >= 10_000) this.#cache.clear(); // bounded: unknown key ids cannot grow it without limit
    this.#cache.set(keyId, { token, at: Date.now() });
    return token;
  }

  async create(t: TokenRecord): Promise<void> {
    if (!isValidTenantId(t.tenant)) throw new TypeError(`Invalid tenant id: ${t.tenant}`);
    this.#cache.delete(t.key_id);
    await this.#pool.query(`WITH t AS (INSERT INTO tenants (id) VALUES ($2) ON CONFLICT DO NOTHING)
      INSERT INTO tokens (key_id, tenant, secret_sha256, scopes, created_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
      ON CONFLICT (key_id) DO UPDATE SET tenant = EXCLUDED.tenant, secret_sha256 = EXCLUDED.secret_sha256, scopes = EXCLUDED.scopes,
        created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, revoked_at = EXCLUDED.revoked_at`,
    [t.key_id, t.tenant, t.secret_sha256, t.scopes, t.created_at, t.expires_at, t.revoked_at]);
  }

  async list(tenant?: string): Promise<TokenRecord[]> {
    const r = tenant === undefined
      ? await this.#pool.query(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY ord`)
      : await this.#pool.query(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE tenant = $1 ORDER BY ord`, [tenant]);
    return r.rows.map(_token);
  }

  async revoke(keyId: string, now: string): Promise<boolean> {
    // A second revocation keeps the first time.
    this.#cache.delete(keyId);
    const r = await this.#pool.query("UPDATE tokens SET revoked_at = coalesce(revoked_at, $2) WHERE key_id = $1", [keyId, now]);
    return (r.rowCount ?? 0) > 0;
  }
}

/** A storage in a PostgreSQL database; `close()` ends the pool it was given. */
export class PostgresStorage implements Storage {
  readonly tokens: TokenStore;
  #pool: PgPool;
  #tenants = new Map<string, PostgresTenantStore>();
  #secrets = new Map<string, Uint8Array>();

  /** A storage over a pool whose schema is already migrated; use `open` unless you migrate yourself. */
  constructor(pool: PgPool) {
    this.#pool = signallingPool(pool); // outages reach the core as StorageUnavailableError
    this.tokens = new _PostgresTokens(this.#pool);
  }

  /** Migrates the schema (idempotent, safe from several nodes at once) and returns the storage. */
  static async open(pool: PgPool): Promise<PostgresStorage> {
    await migrate(pool);
    return new PostgresStorage(pool);
  }

  tenant(id: string): TenantStore {
    let t = this.#tenants.get(id);
    if (!t) {
      if (!isValidTenantId(id)) throw new TypeError(`Invalid tenant id: ${id}`);
      this.#tenants.set(id, (t = new PostgresTenantStore(id, this.#pool)));
    }
    return t;
  }

  /** Tenants that have tokens or have written data. */
  async tenants(): Promise<string[]> {
    const r = await this.#pool.query("SELECT id FROM tenants ORDER BY id");
    return r.rows.map((row) => String(row.id));
  }

  async secret(name: string): Promise<Uint8Array> {
    let s = this.#secrets.get(name);
    if (!s) {
      // Two statements: the SELECT sees the row of a node that won a race, which the INSERT's snapshot may not.
      const fresh = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
      await this.#pool.query("INSERT INTO installation (name, value) VALUES ($1, $2) ON CONFLICT DO NOTHING", [name, byteaParam(fresh)]);
      s = bytesOf((await this.#pool.query("SELECT value FROM installation WHERE name = $1", [name])).rows[0]?.value);
      this.#secrets.set(name, s);
    }
    return s;
  }

  async check(): Promise<void> {
    await this.#pool.query("SELECT 1");
  }

  async close(): Promise<void> {
    this.#tenants.clear();
    await this.#pool.end?.();
  }
}
