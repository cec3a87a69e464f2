import assert from "node:assert/strict";
import { test } from "node:test";
import { StorageUnavailableError } from "../../../lib/contracts/storage_errors.ts";
import type { PgPool } from "../../../storage/postgres/client.ts";
import { postgresUnavailableCode, signallingPool } from "../../../storage/postgres/unavailable.ts";

const CASES = [
  { what: "connection refused", error: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }), code: "ECONNREFUSED" },
  { what: "connection reset", error: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }), code: "ECONNRESET" },
  { what: "a timeout", error: Object.assign(new Error("connect ETIMEDOUT"), { code: "ETIMEDOUT" }), code: "ETIMEDOUT" },
  { what: "admin shutdown (57P01)", error: Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }), code: "57P01" },
  { what: "too many connections (53300)", error: Object.assign(new Error("sorry, too many clients already"), { code: "53300" }), code: "53300" },
  { what: "a connection exception (08006)", error: Object.assign(new Error("connection failure"), { code: "08006" }), code: "08006" },
  { what: "a lost connection", error: new Error("Connection terminated unexpectedly"), code: "CONNECTION_LOST" },
  { what: "a pool wait that timed out", error: new Error("timeout exceeded when trying to connect"), code: "CONNECTION_LOST" },
  { what: "a unique violation (a bug or a race, not an outage)", error: Object.assign(new Error("duplicate key"), { code: "23505" }), code: null },
];

for (const { what, error, code } of CASES) {
  test(`postgresUnavailableCode(): ${what} is ${code ?? "not an outage"}`, () => assert.equal(postgresUnavailableCode(error), code));
}

test("signallingPool() turns outages of queries and of pooled connections into StorageUnavailableError, and leaves other errors", async () => {
  const down = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
  const dup = Object.assign(new Error("duplicate key"), { code: "23505" });
  const failing = async (text: string) => {
    throw text === "dup" ? dup : down;
  };
  const pool = signallingPool({ query: failing, connect: async () => ({ query: failing, release: () => {} }) } as PgPool);
  await assert.rejects(pool.query("SELECT 1"), (e) => e instanceof StorageUnavailableError && e.code === "57P01" && e.cause === down);
  await assert.rejects(pool.query("dup"), (e) => e === dup);
  const client = await pool.connect();
  await assert.rejects(client.query("BEGIN"), (e) => e instanceof StorageUnavailableError && e.code === "57P01");
});
