/**
 * An endpoint's delivery log and retry-now (README “Webhooks”): `GET …/deliveries` lists
 * the recent attempts in cursor mode, newest last (kept 30 days or the last
 * 1,000, whichever is less); `POST …/deliveries/{evt_id}/retry` queues one more
 * attempt of an event that was delivered to the endpoint before. The attempt
 * itself is the delivery worker's, outside the retry schedule.
 * @module
 */
import type { ApiRoute, Context } from "../context.ts";
import { okJson } from "../openapi/operation.ts";
import { DELIVERY_ATTEMPTS_KEPT, DELIVERY_ATTEMPTS_MAX_AGE_MS, type DeliveryAttempt } from "../../contracts/storage.ts";
import { notFound } from "../../http/errors.ts";
import { json } from "../../http/respond.ts";
import type { ApiResponse } from "../../http/types.ts";
import { CURSOR_LIMIT, intParam } from "../list_query.ts";
import { findWebhook } from "./routes.ts";

/** An attempt as the list shows it. */
export function attemptView(a: DeliveryAttempt): Record<string, unknown> {
  return {
    event_id: a.event_id, type: a.type, attempt: a.attempt, manual: a.manual, attempted_at: a.attempted_at,
    status_code: a.status_code, duration_ms: a.duration_ms, error: a.error,
  };
}

function _notBefore(ctx: Context): string {
  return new Date(ctx.app.now() - DELIVERY_ATTEMPTS_MAX_AGE_MS).toISOString();
}

async function listDeliveries(ctx: Context): Promise<ApiResponse> {
  const hook = await findWebhook(ctx);
  const q = ctx.req.query;
  const limit = intParam(q, "limit", CURSOR_LIMIT.min, CURSOR_LIMIT.max, CURSOR_LIMIT.default);
  const scope = `${ctx.tenant.tenant}\u0000deliveries\u0000${hook.id}`;
  const cursor = q.get("cursor");
  const after = cursor === null ? 0 : ctx.app.cursors.decode(scope, cursor, "");
  const page = await ctx.tenant.deliveryAttempts(hook.id, after, limit, _notBefore(ctx));
  const next = page.items.at(-1)?.seq ?? after;
  return json(200, { data: page.items.map(attemptView), next_cursor: ctx.app.cursors.encode(scope, next, ""), has_more: page.hasMore });
}

async function retryDelivery(ctx: Context): Promise<ApiResponse> {
  const hook = await findWebhook(ctx);
  const eventId = ctx.params.evt_id!;
  const { items } = await ctx.tenant.deliveryAttempts(hook.id, 0, DELIVERY_ATTEMPTS_KEPT, _notBefore(ctx));
  const last = items.findLast((a) => a.event_id === eventId && !a.manual) ?? items.findLast((a) => a.event_id === eventId);
  if (!last) throw notFound("No delivery of this event to this webhook");
  const requestedAt = new Date(ctx.app.now()).toISOString();
  await ctx.tenant.requestRedelivery(hook.id, { event_id: eventId, attempt: last.attempt, collection: last.collection, change_seq: last.change_seq, requested_at: requestedAt });
  return json(202, { webhook_id: hook.id, event_id: eventId, status: "queued", requested_at: requestedAt });
}

/** The routes of the delivery log and retry-now. */
export const deliveryRoutes: ApiRoute[] = [
  {
    method: "GET", pattern: "/api/v1/webhooks/:id/deliveries", scope: "webhooks:read", handle: listDeliveries,
    openapi: {
      id: "listWebhookDeliveries", tag: "Webhooks", summary: "List an endpoint's recent delivery attempts",
      description: "Cursor mode, newest last: store `next_cursor` and ask again later for the attempts made since. Attempts are kept 30 days or the last 1,000 per endpoint, whichever is less.",
      params: ["WebhookId", "Cursor", "Limit"],
      ok: { 200: okJson("A page of attempts", "DeliveryList") }, errors: ["NOT_FOUND"],
    },
  },
  {
    method: "POST", pattern: "/api/v1/webhooks/:id/deliveries/:evt_id/retry", scope: "webhooks:write", handle: retryDelivery,
    openapi: {
      id: "retryWebhookDelivery", tag: "Webhooks", summary: "Send an event to an endpoint once more, now",
      description: "For an event in the endpoint's deliveries. One attempt, also while the endpoint is disabled; the retry schedule is unaffected.",
      params: ["WebhookId", "EventId"],
      ok: { 202: okJson("Queued", "RedeliveryAccepted") }, errors: ["NOT_FOUND"],
    },
  },
];
