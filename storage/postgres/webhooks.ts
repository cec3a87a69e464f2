/**
 * The webhook endpoints of a PostgreSQL tenant (README “Webhooks”) and each endpoint's delivery state (one row,
 * overwritten; not part of any feed).
 * @module
 */
import { newId } from "../../lib/contracts/ids.ts";
import type { DeliveryState, IdempotencyTag, WebhookRecord } from "../../lib/contracts/storage.ts";
import { inTransaction } from "./client.ts";
import type { TenantScope } from "./feed.ts";

/** A tenant's webhook endpoints over a pool. */
export class PostgresWebhooks {
  #scope: TenantScope;

  constructor(scope: TenantScope) {
    this.#scope = scope;
  }

  /** Creates an enabled endpoint. */
  async create(input: Omit<WebhookRecord, "id" | "status">, idem?: IdempotencyTag): Promise<WebhookRecord> {
    const hook: WebhookRecord = { id: newId("whk", Date.parse(input.created_at)), ...input, status: "enabled" };
    const json = JSON.stringify(hook);
    await inTransaction(this.#scope.pool, async (c) => {
      // The tenant row makes the webhook worker find this tenant (Storage.tenants()).
      await c.query(`WITH t AS (INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING)
        INSERT INTO webhooks (tenant, id, status, json) VALUES ($1, $2, $3, $4)`, [this.#scope.tenant, hook.id, hook.status, json]);
      await this.#scope.idem.tag(c, idem, json, input.created_at);
    });
    return hook;
  }

  /** The endpoint with this id unless deleted, or null. */
  async get(id: string): Promise<WebhookRecord | null> {
    const r = await this.#scope.pool.query("SELECT json FROM webhooks WHERE tenant = $1 AND id = $2 AND status <> 'deleted'", [this.#scope.tenant, id]);
    return r.rows[0] ? (JSON.parse(String(r.rows[0].json)) as WebhookRecord) : null;
  }

  /** Enabled and disabled endpoints, oldest first. */
  async list(): Promise<WebhookRecord[]> {
    const r = await this.#scope.pool.query("SELECT json FROM webhooks WHERE tenant = $1 AND status <> 'deleted' ORDER BY ord", [this.#scope.tenant]);
    return r.rows.map((row) => JSON.parse(String(row.json)) as WebhookRecord);
  }

  /** Writes the next version of an endpoint if the stored one is still `record.version` (compare-and-set), else null. */
  async save(record: WebhookRecord): Promise<WebhookRecord | null> {
    const next: WebhookRecord = { ...record, version: (record.version ?? 0) + 1 };
    // One statement: the row lock taken by UPDATE makes the version check and the write atomic.
    const r = await this.#scope.pool.query(`UPDATE webhooks SET status = $3, json = $4 WHERE tenant = $1 AND id = $2
      AND COALESCE((json::jsonb ->> 'version')::bigint, 0) = $5`,
      [this.#scope.tenant, record.id, record.status, JSON.stringify(next), record.version ?? 0]);
    if (r.rowCount === 1) return next;
    const exists = await this.#scope.pool.query("SELECT 1 FROM webhooks WHERE tenant = $1 AND id = $2", [this.#scope.tenant, record.id]);
    if (exists.rowCount === 0) throw new RangeError(`Unknown webhook ${record.id}`);
    return null;
  }

  /** Where an endpoint's deliveries stand, or null before its first delivery. */
  async deliveryState(webhookId: string): Promise<DeliveryState | null> {
    const r = await this.#scope.pool.query("SELECT state FROM deliveries WHERE tenant = $1 AND webhook_id = $2", [this.#scope.tenant, webhookId]);
    return r.rows[0] ? (JSON.parse(String(r.rows[0].state)) as DeliveryState) : null;
  }

  /** Overwrites where an endpoint's deliveries stand. */
  async saveDeliveryState(webhookId: string, state: DeliveryState): Promise<void> {
    await this.#scope.pool.query(`INSERT INTO deliveries (tenant, webhook_id, state) VALUES ($1, $2, $3)
      ON CONFLICT (tenant, webhook_id) DO UPDATE SET state = EXCLUDED.state`, [this.#scope.tenant, webhookId, JSON.stringify(state)]);
  }
}
