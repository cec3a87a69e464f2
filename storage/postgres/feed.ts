/**
 * What the PostgreSQL collections share about change feeds (see store.ts for why positions come from a counter
 * row locked FOR UPDATE): taking the feed's position, the CTEs that append a change, and the walk of a table's
 * latest versions in feed order. Records come back without their links.
 * @module
 */
import type { ChangePage, Collection } from "../../lib/contracts/storage.ts";
import { numberOf, type PgPool, type PgQueryable } from "./client.ts";
import type { PostgresIdempotency } from "./idempotency.ts";

const enc = new TextEncoder();

/** What each collection of a tenant works with: the tenant's id, the pool, and its idempotency keys. */
export interface TenantScope {
  tenant: string;
  pool: PgPool;
  idem: PostgresIdempotency;
}

/**
 * Takes the feed's counter row FOR UPDATE (creating it, and the tenant, on first use) and returns the
 * feed's length: the position the caller's change gets. The lock is held until the transaction ends.
 */
export async function lockFeed(c: PgQueryable, tenant: string, collection: Collection): Promise<number> {
  const sql = "SELECT length FROM feeds WHERE tenant = $1 AND collection = $2 FOR UPDATE";
  let r = await c.query(sql, [tenant, collection]);
  if (r.rows.length === 0) {
    await c.query(`WITH t AS (INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING)
      INSERT INTO feeds (tenant, collection) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [tenant, collection]);
    r = await c.query(sql, [tenant, collection]);
  }
  return numberOf(r.rows[0]!.length);
}

/** CTEs that append a change and move the feed's length past it: $1 tenant, $2 collection, $3 position, $4 first version, $5 JSON. */
export const APPEND_CHANGE = `c AS (INSERT INTO changes (tenant, collection, seq, first, json) VALUES ($1, $2, $3, $4, $5)),
  f AS (UPDATE feeds SET length = $3 + 1 WHERE tenant = $1 AND collection = $2)`;

/** A stored record from its JSON text, without the links the JSON carries. */
export function recordOf<T>(json: unknown): T {
  const { links: _links, ...record } = JSON.parse(String(json)) as Record<string, unknown>;
  return record as T;
}

/**
 * A feed page: rows whose latest change lies in [after, after + maxScan), with the feed length of the same snapshot.
 * `where` adds conditions after `tenant = $1` and pushes their parameters. `covered`: an index on (tenant, seq)
 * includes the filter columns and id, so the walk is an index-only scan and only the page's rows are read.
 */
export async function walkTable(
  c: PgQueryable, tenant: string, table: "documents" | "submissions", after: number, limit: number, maxScan: number,
  where: (params: unknown[]) => string, covered = false,
): Promise<ChangePage> {
  const start = Math.max(0, after);
  const end = Math.min(Number.MAX_SAFE_INTEGER, start + maxScan);
  const params: unknown[] = [tenant, table, start, end, limit];
  const conditions = where(params);
  const r = await c.query(`SELECT f.length, p.seq, p.json
    FROM (SELECT coalesce(max(length), 0) AS length FROM feeds WHERE tenant = $1 AND collection = $2) f
    LEFT JOIN LATERAL (${covered
    ? `SELECT k.seq, t.json FROM (SELECT id, seq FROM ${table} WHERE tenant = $1 AND seq >= $3 AND seq < $4${conditions} ORDER BY seq LIMIT $5) k
      JOIN ${table} t ON t.tenant = $1 AND t.id = k.id`
    : `SELECT seq, json FROM ${table} WHERE tenant = $1 AND seq >= $3 AND seq < $4${conditions} ORDER BY seq LIMIT $5`}) p ON true
    ORDER BY p.seq`, params);
  const length = numberOf(r.rows[0]?.length ?? 0);
  const rows = r.rows.filter((row) => row.seq !== null);
  const next = rows.length === limit && limit > 0 ? numberOf(rows[rows.length - 1]!.seq) + 1 : Math.max(start, Math.min(length, end));
  return { items: rows.map((row) => enc.encode(String(row.json))), next, hasMore: next < length };
}
