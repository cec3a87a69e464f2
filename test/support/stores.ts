/**
 * The storage backends that API suites run on: the file store, the memory store, and PostgreSQL where
 * DATABASE_URL is set (CI sets it; then a database that cannot be reached fails the suite instead of skipping).
 * A suite runs a describe block on each: `for (const store of STORES) describe(`…${store.label}`, …)`, starting
 * its server with `startServer({ storage: store })`.
 */
import { after } from "node:test";
import type { Storage } from "../../lib/contracts/storage.ts";
import { FileStorage } from "../../storage/file/store.ts";
import { MemoryStorage } from "../../storage/memory.ts";
import { PostgresStorage } from "../../storage/postgres/store.ts";
import { reachPostgres, redactedDatabaseUrl, Schemas } from "./postgres.ts";

/** A backend for a test server. */
export interface TestStore {
  name: "file" | "memory" | "postgres";
  /** Appended to suite names: empty for the file store, the default. */
  label: string;
  /** A new, empty storage; the file store keeps its data in `dataDir`. */
  make(dataDir: string): Promise<Storage>;
}

async function _stores(): Promise<TestStore[]> {
  const stores: TestStore[] = [
    { name: "file", label: "", make: async (dir) => new FileStorage(dir) },
    { name: "memory", label: " (memory store)", make: async () => new MemoryStorage() },
  ];
  if (!process.env.DATABASE_URL) return stores;
  const reached = await reachPostgres();
  if ("why" in reached) throw new Error(`DATABASE_URL is set but PostgreSQL is not reachable at ${redactedDatabaseUrl()}: ${reached.why}`);
  const schemas = new Schemas(reached);
  after(() => schemas.dropAll());
  stores.push({ name: "postgres", label: " (PostgreSQL store)", make: async () => PostgresStorage.open((await schemas.pool()).pool) });
  return stores;
}

/** The backends of this run. */
export const STORES: readonly TestStore[] = await _stores();
