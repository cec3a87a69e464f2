/**
 * The submissions of a PostgreSQL tenant (the OpenAPI document): duplicates (same bytes, same business key) are refused by
 * unique constraints, not by a check before the insert; a created submission appends to its feed and keeps its
 * idempotency record in the same transaction.
 * @module
 */
import { createHash } from "node:crypto";
import { businessKey, submissionKey, newSubmission, submissionJson, withKsef } from "../../lib/contracts/record_json.ts";
import { newId } from "../../lib/contracts/ids.ts";
import type { ChangePage, IdempotencyTag, Stored, SubmissionFilter, SubmissionInput, SubmissionKsef, SubmissionRecord } from "../../lib/contracts/storage.ts";
import { inTransaction, TENANT_KEY } from "./client.ts";
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
    const key = createHash("sha256").update(submissionKey(input)).digest(); // the key holds NULs, which text cannot
    return inTransaction(this.#scope.pool, async (c) => {
      const seq = await lockFeed(c, this.#scope.tenant, "submissions");
      const sub = newSubmission(newId("sub", Date.parse(now)), input, now);
      const json = submissionJson(sub);
      const r = await c.query(`INSERT INTO submissions (tenant, id, seq, created_seq, sha256, business_key, created_at, json, ksef_status, type, format)
        VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
      [this.#scope.tenant, sub.id, seq, sub.sha256, key, now, json, sub.ksef?.status ?? null, sub.type, sub.format]);
      if (r.rowCount === 0) {
        // A unique constraint refused it: name the existing submission, the same bytes first (as the other stores).
        const dup = await c.query(`SELECT id FROM submissions WHERE ${TENANT_KEY} AND (sha256 = $2 OR business_key = $3)
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
    const r = await this.#scope.pool.query(`SELECT json FROM submissions WHERE ${TENANT_KEY} AND id = $2`, [this.#scope.tenant, id]);
    const json = r.rows[0]?.json;
    return json === undefined ? null : { record: recordOf<SubmissionRecord>(json), json: enc.encode(String(json)) };
  }

  /** The change feed from `after`, filtered. */
  async changes(after: number, limit: number, maxScan: number, filter: SubmissionFilter = {}): Promise<ChangePage> {
    return walkTable(this.#scope.pool, this.#scope.tenant, "submissions", after, limit, maxScan, (params) => {
      let sql = "";
      for (const column of ["ksef_status", "type", "format"] as const) {
        const value = filter[column];
        if (value === undefined) continue;
        params.push(value);
        sql += ` AND ${column} = $${params.length}`;
      }
      // The offline filters (README "Offline invoices") read the stored JSON; records older than `mode` are online.
      if (filter.ksef_mode !== undefined) {
        params.push(filter.ksef_mode);
        sql += ` AND ksef_status IS NOT NULL AND coalesce(json::jsonb->'ksef'->>'mode', 'online') = $${params.length}`;
      }
      if (filter.deadline_before !== undefined) {
        params.push(filter.deadline_before);
        sql += ` AND json::jsonb->'ksef'->>'mode' = 'offline' AND ksef_status <> 'accepted' AND json::jsonb->'ksef'->>'deadline' < $${params.length}`;
      }
      return sql;
    }, true);
  }

  /** Writes a new version with this `ksef` state at the end of the feed; null when there is no such submission. */
  async saveKsef(id: string, ksef: SubmissionKsef): Promise<Stored<SubmissionRecord> | null> {
    return inTransaction(this.#scope.pool, async (c) => {
      const seq = await lockFeed(c, this.#scope.tenant, "submissions");
      const old = await c.query(`SELECT json FROM submissions WHERE ${TENANT_KEY} AND id = $2 FOR UPDATE`, [this.#scope.tenant, id]);
      if (old.rows.length === 0) return null;
      const record = withKsef(recordOf<SubmissionRecord>(old.rows[0]!.json), ksef);
      const json = submissionJson(record);
      await c.query(`UPDATE submissions SET seq = $3, json = $4, ksef_status = $5 WHERE ${TENANT_KEY} AND id = $2`,
        [this.#scope.tenant, id, seq, json, ksef.status]);
      await c.query(`WITH ${APPEND_CHANGE} SELECT 1`, [this.#scope.tenant, "submissions", seq, false, json]);
      return { record, json: enc.encode(json) };
    });
  }

  /** Queued and sending submissions in acceptance order. */
  async pending(limit: number): Promise<SubmissionRecord[]> {
    const r = await this.#scope.pool.query(`SELECT json FROM submissions WHERE tenant = $1 AND ksef_status IN ('queued', 'sending')
      ORDER BY created_seq LIMIT $2`, [this.#scope.tenant, limit]);
    return r.rows.map((row) => recordOf<SubmissionRecord>(row.json));
  }
}
