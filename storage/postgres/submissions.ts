/**
 * The submissions of a PostgreSQL tenant (API.md §5): duplicates (same bytes, same business key) are refused by
 * unique constraints, not by a check before the insert; a created submission appends to its feed and keeps its
 * idempotency record in the same transaction.
 * @module
 */
import { createHash } from "node:crypto";
import { businessKey, submissionJson } from "../../lib/contracts/record_json.ts";
import { newId } from "../../lib/contracts/ids.ts";
import type { ChangePage, IdempotencyTag, Stored, SubmissionInput, SubmissionRecord } from "../../lib/contracts/storage.ts";
import { inTransaction } from "./client.ts";
import { APPEND_CHANGE, lockFeed, recordOf, walkTable, type TenantScope } from "./feed.ts";

const enc = new TextEncoder();

/** A tenant's submissions over a pool. */
export class PostgresSubmissions {
  #scope: TenantScope;

  constructor(scope: TenantScope) {
    this.#scope = scope;
  }

  /** Stores a submission unless one with the same XML hash or business key exists. */
  async create(input: SubmissionInput, now: string, idem?: IdempotencyTag): Promise<{ created: SubmissionRecord } | { duplicateOf: string }> {
    const key = createHash("sha256").update(businessKey(input.fields)).digest(); // the key holds NULs, which text cannot
    return inTransaction(this.#scope.pool, async (c) => {
      const seq = await lockFeed(c, this.#scope.tenant, "submissions");
      const sub: SubmissionRecord = {
        id: newId("sub", Date.parse(now)), status: "accepted", ...input.fields,
        sha256: input.xml.sha256, size: input.xml.size, created_at: now,
      };
      const json = submissionJson(sub);
      const r = await c.query(`INSERT INTO submissions (tenant, id, seq, sha256, business_key, created_at, json)
        VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`, [this.#scope.tenant, sub.id, seq, sub.sha256, key, now, json]);
      if (r.rowCount === 0) {
        // A unique constraint refused it: name the existing submission, the same bytes first (as the other stores).
        const dup = await c.query(`SELECT id FROM submissions WHERE tenant = $1 AND (sha256 = $2 OR business_key = $3)
          ORDER BY (sha256 = $2) DESC LIMIT 1`, [this.#scope.tenant, sub.sha256, key]);
        if (!dup.rows[0]) throw new Error(`Submission ${sub.id} conflicts with no duplicate`);
        return { duplicateOf: String(dup.rows[0].id) };
      }
      await c.query(`WITH ${APPEND_CHANGE} SELECT 1`, [this.#scope.tenant, "submissions", seq, true, json]);
      await this.#scope.idem.tag(c, idem, json, now);
      return { created: sub };
    });
  }

  /** The submission with this id, or null. */
  async get(id: string): Promise<Stored<SubmissionRecord> | null> {
    const r = await this.#scope.pool.query("SELECT json FROM submissions WHERE tenant = $1 AND id = $2", [this.#scope.tenant, id]);
    const json = r.rows[0]?.json;
    return json === undefined ? null : { record: recordOf<SubmissionRecord>(json), json: enc.encode(String(json)) };
  }

  /** The change feed from `after`. */
  async changes(after: number, limit: number, maxScan: number): Promise<ChangePage> {
    return walkTable(this.#scope.pool, this.#scope.tenant, "submissions", after, limit, maxScan, () => "");
  }
}
