/**
 * A webhook endpoint's attempt log and retry-now queue in PostgreSQL (README “Webhooks”),
 * for the tenant store to delegate to. Each append deletes, in the same
 * statement, what is past the retention: beyond the newest
 * DELIVERY_ATTEMPTS_KEPT attempts or older than DELIVERY_ATTEMPTS_MAX_AGE_MS.
 * Appends for one endpoint come from the node holding its lease, one at a time.
 * @module
 */
import { DELIVERY_ATTEMPTS_KEPT, DELIVERY_ATTEMPTS_MAX_AGE_MS, type DeliveryAttempt, type Redelivery } from "../../lib/contracts/storage.ts";
import { numberOf, type PgQueryable } from "./client.ts";

/** Appends `attempt` to the endpoint's log and prunes it. */
export async function appendAttempt(db: PgQueryable, tenant: string, webhookId: string, attempt: Omit<DeliveryAttempt, "seq">): Promise<void> {
  const oldest = new Date(Date.parse(attempt.attempted_at) - DELIVERY_ATTEMPTS_MAX_AGE_MS).toISOString();
  await db.query(`WITH added AS (
      INSERT INTO webhook_attempts (tenant, webhook_id, seq, attempted_at, json)
      SELECT $1, $2, COALESCE(max(seq), 0) + 1, $3, $4 FROM webhook_attempts WHERE tenant = $1 AND webhook_id = $2
      RETURNING seq)
    DELETE FROM webhook_attempts WHERE tenant = $1 AND webhook_id = $2
      AND (seq <= (SELECT seq FROM added) - $5 OR attempted_at < $6)`,
  [tenant, webhookId, attempt.attempted_at, JSON.stringify(attempt), DELIVERY_ATTEMPTS_KEPT, oldest]);
}

/** Attempts after `after`, oldest first, at most `limit`, none before `notBefore`. */
export async function attemptPage(db: PgQueryable, tenant: string, webhookId: string, after: number, limit: number, notBefore: string): Promise<{ items: DeliveryAttempt[]; hasMore: boolean }> {
  const r = await db.query(`SELECT seq, json FROM webhook_attempts
    WHERE tenant = $1 AND webhook_id = $2 AND seq > $3 AND attempted_at >= $4 ORDER BY seq LIMIT $5`,
  [tenant, webhookId, after, notBefore, limit + 1]);
  const items = r.rows.slice(0, limit).map((row) => ({ seq: numberOf(row.seq), ...(JSON.parse(String(row.json)) as Omit<DeliveryAttempt, "seq">) }));
  return { items, hasMore: r.rows.length > limit };
}

/** Queues a retry-now request unless one for the event is queued. */
export async function requestRedelivery(db: PgQueryable, tenant: string, webhookId: string, request: Redelivery): Promise<void> {
  await db.query(`INSERT INTO webhook_redeliveries (tenant, webhook_id, event_id, requested_at, json)
    VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, [tenant, webhookId, request.event_id, request.requested_at, JSON.stringify(request)]);
}

/** The queued requests, oldest first. */
export async function pendingRedeliveries(db: PgQueryable, tenant: string, webhookId: string): Promise<Redelivery[]> {
  const r = await db.query("SELECT json FROM webhook_redeliveries WHERE tenant = $1 AND webhook_id = $2", [tenant, webhookId]);
  return r.rows.map((row) => JSON.parse(String(row.json)) as Redelivery).sort((a, b) => a.requested_at.localeCompare(b.requested_at));
}

/** Removes the request for `eventId`, once attempted. */
export async function completeRedelivery(db: PgQueryable, tenant: string, webhookId: string, eventId: string): Promise<void> {
  await db.query("DELETE FROM webhook_redeliveries WHERE tenant = $1 AND webhook_id = $2 AND event_id = $3", [tenant, webhookId, eventId]);
}
