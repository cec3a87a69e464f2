/**
 * Which failures of a PostgreSQL connection mean "unavailable, try again
 * later": network errors of the connection, SQLSTATEs of class 08 (connection
 * exception), 53 (insufficient resources) and 57P01–57P03 (shutdown, starting
 * up), from Appendix A of the PostgreSQL manual, and node-postgres' lost
 * connections, which it reports by message only. The store's pool is wrapped
 * so that these reach the core as StorageUnavailableError (503).
 * @module
 */
import { StorageUnavailableError } from "../../lib/contracts/storage_errors.ts";
import type { PgPool } from "./client.ts";

const NETWORK = ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"];
const SQLSTATE = ["57P01", "57P02", "57P03", "53000", "53100", "53200", "53300", "53400"];
const CODES = new Set([...NETWORK, ...SQLSTATE]);
const MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** The code of a failure that means the database cannot serve now (`57P01`, `ECONNREFUSED`, `CONNECTION_LOST`), else null. */
export function postgresUnavailableCode(e: unknown): string | null {
  if (!e || typeof e !== "object") return null;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string" && (CODES.has(code) || code.startsWith("08"))) return code;
  const message = (e as { message?: unknown }).message;
  return typeof message === "string" && MESSAGES.test(message) ? "CONNECTION_LOST" : null;
}

function _rethrow(e: unknown): never {
  const code = e instanceof StorageUnavailableError ? null : postgresUnavailableCode(e);
  throw code === null ? e : new StorageUnavailableError(code, (e as Error).message, { cause: e });
}

/** `pool` with its queries' and connections' outage errors turned into StorageUnavailableError. */
export function signallingPool(pool: PgPool): PgPool {
  return {
    query: (text, params) => pool.query(text, params).catch(_rethrow),
    async connect() {
      const c = await pool.connect().catch(_rethrow);
      return { query: (text, params) => c.query(text, params).catch(_rethrow), release: (destroy) => c.release(destroy) };
    },
    ...(pool.end ? { end: () => pool.end!() } : {}),
  };
}
