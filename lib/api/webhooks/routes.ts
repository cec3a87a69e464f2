/**
 * The webhooks endpoints (API.md §6): register (the secret is shown once),
 * list, read and delete endpoints. Deliveries start from the changes made after
 * registration.
 * @module
 */
import { idempotencyTag, type ApiRoute, type Context } from "../context.ts";
import { notFound, validationError } from "../../http/errors.ts";
import { json } from "../../http/respond.ts";
import type { ApiResponse } from "../../http/types.ts";
import type { StoredResponse, WebhookRecord } from "../../contracts/storage.ts";
import { validateWebhookUrl } from "../../jobs/webhooks/address_guard.ts";
import { validateEvents } from "../../jobs/webhooks/events.ts";
import { generateWebhookSecret } from "../../jobs/webhooks/signature.ts";
import { initialDeliveryState } from "../../jobs/webhooks/worker.ts";

/** Longest webhook description accepted. */
export const MAX_DESCRIPTION = 500;

/** The JSON of an endpoint; the secret only when it was just created. */
export function webhookView(w: WebhookRecord, withSecret: boolean): Record<string, unknown> {
  return {
    id: w.id, url: w.url, events: w.events, description: w.description, status: w.status,
    ...(withSecret ? { secret: w.secret } : {}), created_at: w.created_at,
  };
}

async function createWebhook(ctx: Context): Promise<ApiResponse> {
  const body = ctx.body.kind === "json" ? ctx.body.value : {};
  if (typeof body.url !== "string") throw validationError("url", "required", "url is required");
  const url = validateWebhookUrl(body.url, ctx.app.webhookAllowPrivate);
  const events = validateEvents(body.events);
  const d = body.description;
  if (d !== undefined && d !== null && (typeof d !== "string" || d.length > MAX_DESCRIPTION)) {
    throw validationError("description", "invalid_value", `description must be a string of at most ${MAX_DESCRIPTION} characters`);
  }
  const created = (text: string): StoredResponse => {
    const w = JSON.parse(text) as WebhookRecord;
    return { status: 201, location: `/api/v1/webhooks/${w.id}`, body: JSON.stringify(webhookView(w, true)) };
  };
  const hook = await ctx.tenant.createWebhook(
    { url: url.href, events, description: typeof d === "string" ? d : null, secret: generateWebhookSecret(), created_at: new Date(ctx.app.now()).toISOString() },
    idempotencyTag(ctx, created),
  );
  await ctx.tenant.saveDeliveryState(hook.id, await initialDeliveryState(ctx.tenant));
  return json(201, webhookView(hook, true), { location: `/api/v1/webhooks/${hook.id}` });
}

async function findWebhook(ctx: Context): Promise<WebhookRecord> {
  const w = await ctx.tenant.getWebhook(ctx.params.id!);
  if (!w) throw notFound("Webhook not found");
  return w;
}

/** The webhooks routes. */
export const webhookRoutes: ApiRoute[] = [
  { method: "POST", pattern: "/api/v1/webhooks", scope: "webhooks:write", body: "json", handle: createWebhook },
  {
    method: "GET", pattern: "/api/v1/webhooks", scope: "webhooks:read",
    handle: async (ctx) => json(200, { data: (await ctx.tenant.listWebhooks()).map((w) => webhookView(w, false)) }),
  },
  { method: "GET", pattern: "/api/v1/webhooks/:id", scope: "webhooks:read", handle: async (ctx) => json(200, webhookView(await findWebhook(ctx), false)) },
  {
    method: "DELETE", pattern: "/api/v1/webhooks/:id", scope: "webhooks:write",
    handle: async (ctx) => {
      await ctx.tenant.saveWebhook({ ...(await findWebhook(ctx)), status: "deleted" });
      return { status: 204, headers: {}, body: null };
    },
  },
];
