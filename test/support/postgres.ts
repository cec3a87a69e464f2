/**
 * The test database: DATABASE_URL (or postgres://postgres@127.0.0.1:5432/integrator_test), reached once per test
 * file with an admin pool, a missing database created (a fresh cluster has only `postgres`), and a fresh schema
 * per store so that tests share nothing. Start a server with test/support/start_postgres.sh.
 */
import { randomBytes } from "node:crypto";
import type { Pool as PgPoolClass, PoolConfig } from "pg";

export const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/integrator_test";

/** DATABASE_URL with its password hidden, for messages. */
export function redactedDatabaseUrl(url = DATABASE_URL): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable DATABASE_URL)";
  }
}

/** The reached test database: the driver's Pool class and an admin pool, or why there is none. */
export type Reached = { Pool: typeof PgPoolClass; admin: PgPoolClass } | { why: string };

/** Connects an admin pool to DATABASE_URL, creating the database when it does not exist. */
export async function reachPostgres(): Promise<Reached> {
  let Pool: typeof PgPoolClass;
  try {
    Pool = (await import("pg")).default.Pool;
  } catch (e) {
    return { why: `the pg package is not installed (${String(e)})` };
  }
  for (let attempt = 0; ; attempt++) {
    const admin = new Pool({ connectionString: DATABASE_URL, max: 2, connectionTimeoutMillis: 5000 });
    try {
      await admin.query("SELECT 1");
      return { Pool, admin };
    } catch (e) {
      await admin.end().catch(() => {});
      if ((e as { code?: string }).code !== "3D000" || attempt > 0) return { why: String((e as Error).message ?? e) };
      const u = new URL(DATABASE_URL);
      const name = decodeURIComponent(u.pathname.slice(1));
      u.pathname = "/postgres";
      const maint = new Pool({ connectionString: u.toString(), max: 1, connectionTimeoutMillis: 5000 });
      try {
        await maint.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      } catch (err) {
        return { why: `cannot create database ${name}: ${String((err as Error).message ?? err)}` };
      } finally {
        await maint.end().catch(() => {});
      }
    }
  }
}

/** Fresh schemas on a reached database, all dropped (with their pools ended) by `dropAll()`. */
export class Schemas {
  readonly #reached: { Pool: typeof PgPoolClass; admin: PgPoolClass };
  readonly #schemas: string[] = [];
  readonly #pools: PgPoolClass[] = [];

  constructor(reached: { Pool: typeof PgPoolClass; admin: PgPoolClass }) {
    this.#reached = reached;
  }

  /** A pool on a new empty schema (or on `schema`, shared with another pool). */
  async pool(config: PoolConfig = {}, schema?: string): Promise<{ pool: PgPoolClass; schema: string }> {
    if (!schema) {
      schema = `t_${randomBytes(8).toString("hex")}`;
      await this.#reached.admin.query(`CREATE SCHEMA ${schema}`);
      this.#schemas.push(schema);
    }
    const pool = new this.#reached.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}`, max: 10, ...config });
    this.#pools.push(pool);
    return { pool, schema };
  }

  async dropAll(): Promise<void> {
    for (const p of this.#pools) if (!p.ended) await p.end();
    for (const s of this.#schemas) await this.#reached.admin.query(`DROP SCHEMA ${s} CASCADE`);
    await this.#reached.admin.end();
  }
}
