/**
 * Changes a webhook endpoint by compare-and-set (the store's `saveWebhook`): read, decide, write only over
 * the version read, and on a lost race read again and decide again. A PATCH, a DELETE and the delivery
 * worker's disabling can run at once in different processes (WORKERS > 1, several nodes on one database);
 * none of them may write over a change it did not see.
 * @module
 */
import type { TenantStore, WebhookRecord } from "../../contracts/storage.ts";

/**
 * Attempts before giving up: each lost race means another writer succeeded, so a long streak is a bug or a
 * pathological flood of writes to one endpoint, not contention worth waiting out.
 */
const MAX_CAS_ATTEMPTS = 64;

/**
 * Applies `change` to the current endpoint `id` and writes the result by compare-and-set, again on the fresh
 * record after a lost race. `change` gets null when the endpoint is gone (deleted or unknown) and returns the
 * record to write, or null to write nothing (it may also throw, e.g. 404 for a gone endpoint). Resolves to the record as stored (or `change`'s null).
 */
export async function changeWebhook(
  t: TenantStore, id: string, change: (current: WebhookRecord | null) => WebhookRecord | null,
): Promise<WebhookRecord | null> {
  for (let i = 0; i < MAX_CAS_ATTEMPTS; i++) {
    const current = await t.getWebhook(id);
    const next = change(current);
    if (!current || !next) return null;
    const saved = await t.saveWebhook({ ...next, version: current.version ?? 0 });
    if (saved) return saved;
  }
  throw new Error(`Webhook ${id} kept changing under ${MAX_CAS_ATTEMPTS} attempts to change it`);
}
