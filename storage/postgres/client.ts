/**
 * The slice of a PostgreSQL client that the Postgres store uses, typed by shape
 * (node-postgres' `Pool` fits it), and a transaction helper. Nothing here
 * imports a driver: the process that wants PostgreSQL brings its own pool.
 * @module
 */
import { Buffer } from "node:buffer";

/** What a query answers: the rows, and how many rows a write touched. */
export interface PgResult {
  // pg's rows are `any`; the store reads named columns and converts each one.
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/** Anything that runs a parameterised query (`$1`, `$2`, …). */
export interface PgQueryable {
  query(text: string, params?: unknown[]): Promise<PgResult>;
}

/** A connection checked out of a pool; `release(true)` or `release(err)` discards it. */
export interface PgPoolClient extends PgQueryable {
  release(destroy?: Error | boolean): void;
}

/** A connection pool with the shape of node-postgres' `Pool`. */
export interface PgPool extends PgQueryable {
  connect(): Promise<PgPoolClient>;
  /** Closes the pool; called by `PostgresStorage.close()` when present. */
  end?(): Promise<void>;
}

/**
 * `tenant = $1` for lookups by a unique key, as a value the planner does not see. With the value, it estimates
 * the tenant's rows from the column's statistics, which know nothing of rows written since the last ANALYZE:
 * during a new tenant's first import they say "one row", and the lookup walks all the tenant's rows through
 * whichever index starts with `tenant` (measured: 350 ms for a batch's 256 keys among 5,000 rows, growing with
 * every batch). Hidden, the estimate is the average tenant's, and the lookup takes the unique index: about 1 ms.
 */
export const TENANT_KEY = "tenant = (SELECT $1::text)";

/** Runs `fn` inside BEGIN … COMMIT on one connection, rolling back when it throws. */
export async function inTransaction<T>(pool: PgPool, fn: (c: PgQueryable) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  let broken: Error | undefined;
  try {
    await c.query("BEGIN");
    const value = await fn(c);
    await c.query("COMMIT");
    return value;
  } catch (err) {
    try {
      await c.query("ROLLBACK");
    } catch (e) {
      broken = e instanceof Error ? e : new Error(String(e)); // the connection is unusable: do not pool it again
    }
    throw err;
  } finally {
    c.release(broken);
  }
}

/** A bytea value as bytes: pg hands out Buffers; a client without type parsing hands out `\x…` hex text. */
export function bytesOf(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === "string" && v.startsWith("\\x")) return Buffer.from(v.slice(2), "hex");
  throw new TypeError(`Expected a bytea value, got ${typeof v}`);
}

/** Bytes as a query parameter: pg sends a Buffer as binary bytea. */
export function byteaParam(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** An int8/numeric value (pg returns them as strings, to keep 64-bit precision) as a number. */
export function numberOf(v: unknown): number {
  const n = typeof v === "number" ? v : Number(v);
  if (!Number.isSafeInteger(n)) throw new TypeError(`Expected an integer, got ${String(v)}`);
  return n;
}
