/**
 * The webhooks endpoints (README “Webhooks”): register (the secret is shown once),
 * list, read, change and delete endpoints. Deliveries start from the changes
 * made after registration; re-enabling a disabled endpoint resumes them where
 * they stopped. The delivery log and retry-now are in deliveries.ts.
 * @module
 */
import { idempotencyTag, type ApiRoute, type Context } from "../context.ts";
import { apiHeaders, created, okJson } from "../openapi/operation.ts";
import { ApiError, notFound, validationError } from "../../http/errors.ts";
import { json } from "../../http/respond.ts";
import type { ApiResponse } from "../../http/types.ts";
import type { StoredResponse, WebhookRecord } from "../../contracts/storage.ts";
import { validateWebhookUrl } from "../../jobs/webhooks/address_guard.ts";
import { validateEvents } from "../../jobs/webhooks/events.ts";
import { generateWebhookSecret } from "../../jobs/webhooks/signature.ts";
import { changeWebhook } from "../../jobs/webhooks/webhook_change.ts";
import { initialDeliveryState } from "../../jobs/webhooks/worker.ts";
import { webhookView } from "./view.ts";

/** Longest webhook description accepted. */
export const MAX_DESCRIPTION = 500;

/**
 * Endpoints one tenant may have: each costs a lease, reads and attempts on every delivery pass, shared by all
 * tenants, so one tenant must not be able to buy unbounded passes (README "Limits"). 50 is far above what an
 * integration uses (one per environment or consumer).
 */
export const MAX_WEBHOOKS_PER_TENANT = 50;
/** Endpoints of one tenant with the same URL: each receives every event once more, so a tenant could fan one upload out to a receiver (README "Limits"). */
export const MAX_WEBHOOKS_PER_URL = 5;

/** The statuses a client may set (README “Webhooks”); "deleted" is DELETE's. */
export const SETTABLE_STATUSES = ["enabled", "disabled"] as const;

function _description(d: unknown): string | null {
  if (d !== undefined && d !== null && (typeof d !== "string" || d.length > MAX_DESCRIPTION)) {
    throw validationError("description", "invalid_value", `description must be a string of at most ${MAX_DESCRIPTION} characters`);
  }
  return typeof d === "string" ? d : null;
}

// 422 when a new endpoint (`selfId` null) or one moved to `url` would pass a limit. Two requests at once may
// both pass the check: the limits bound cost, they are not a count to the unit.
async function _checkLimits(ctx: Context, url: string, selfId: string | null): Promise<void> {
  const hooks = (await ctx.tenant.listWebhooks()).filter((w) => w.id !== selfId);
  const limitError = (issue: string, limit: number, message: string) =>
    new ApiError("VALIDATION_ERROR", message, { field: "url", issue, limit });
  if (selfId === null && hooks.length >= MAX_WEBHOOKS_PER_TENANT) {
    throw limitError("too_many_webhooks", MAX_WEBHOOKS_PER_TENANT, `A tenant can have at most ${MAX_WEBHOOKS_PER_TENANT} webhook endpoints`);
  }
  if (hooks.filter((w) => w.url === url).length >= MAX_WEBHOOKS_PER_URL) {
    throw limitError("too_many_webhooks_for_url", MAX_WEBHOOKS_PER_URL, `A tenant can have at most ${MAX_WEBHOOKS_PER_URL} webhook endpoints with the same url`);
  }
}

async function createWebhook(ctx: Context): Promise<ApiResponse> {
  const body = ctx.body.kind === "json" ? ctx.body.value : {};
  if (typeof body.url !== "string") throw validationError("url", "required", "url is required");
  const url = validateWebhookUrl(body.url, ctx.app.webhookAllowPrivate);
  const events = validateEvents(body.events);
  const description = _description(body.description);
  await _checkLimits(ctx, url.href, null);
  const created = (text: string): StoredResponse => {
    const w = JSON.parse(text) as WebhookRecord;
    return { status: 201, location: `/api/v1/webhooks/${w.id}`, body: JSON.stringify(webhookView(w, true, null, 0)) };
  };
  const hook = await ctx.tenant.createWebhook(
    { url: url.href, events, description, secret: generateWebhookSecret(), created_at: new Date(ctx.app.now()).toISOString() },
    idempotencyTag(ctx, created),
  );
  await ctx.tenant.saveDeliveryState(hook.id, await initialDeliveryState(ctx.tenant));
  return json(201, webhookView(hook, true, null, 0), { location: `/api/v1/webhooks/${hook.id}` });
}

/** The endpoint of the path's id, or 404. */
export async function findWebhook(ctx: Context): Promise<WebhookRecord> {
  const w = await ctx.tenant.getWebhook(ctx.params.id!);
  if (!w) throw notFound("Webhook not found");
  return w;
}

async function showWebhook(ctx: Context, w: WebhookRecord): Promise<ApiResponse> {
  return json(200, webhookView(w, false, await ctx.tenant.getDeliveryState(w.id), ctx.app.now()));
}

// PATCH: any of url, events, description, status, validated as on POST, applied by compare-and-set to the
// endpoint as it is when written (a DELETE or the worker's disabling in between is never undone).
async function updateWebhook(ctx: Context): Promise<ApiResponse> {
  const body = ctx.body.kind === "json" ? ctx.body.value : {};
  let url: string | undefined;
  if (body.url !== undefined) {
    if (typeof body.url !== "string") throw validationError("url", "invalid_type", "url must be a string");
    url = validateWebhookUrl(body.url, ctx.app.webhookAllowPrivate).href;
    await _checkLimits(ctx, url, ctx.params.id!);
  }
  const events = body.events !== undefined ? validateEvents(body.events) : undefined;
  const description = body.description !== undefined ? _description(body.description) : undefined;
  let status: (typeof SETTABLE_STATUSES)[number] | undefined;
  if (body.status !== undefined) {
    status = SETTABLE_STATUSES.find((s) => s === body.status);
    if (!status) throw validationError("status", "invalid_value", `status must be one of ${SETTABLE_STATUSES.join(", ")}`);
  }
  const saved = await changeWebhook(ctx.tenant, ctx.params.id!, (w) => {
    if (!w) throw notFound("Webhook not found");
    const next: WebhookRecord = { ...w };
    if (url !== undefined) next.url = url;
    if (events !== undefined) next.events = events;
    if (description !== undefined) next.description = description;
    if (status !== undefined) {
      if (status === "enabled" && w.status === "disabled") {
        next.resumed_at = new Date(ctx.app.now()).toISOString();
        next.disabled_reason = null;
      }
      next.status = status;
    }
    return next;
  });
  return showWebhook(ctx, saved!);
}

async function listWebhooks(ctx: Context): Promise<ApiResponse> {
  const data = [];
  for (const w of await ctx.tenant.listWebhooks()) data.push(webhookView(w, false, await ctx.tenant.getDeliveryState(w.id), ctx.app.now()));
  return json(200, { data });
}

/** The webhooks routes. */
export const webhookRoutes: ApiRoute[] = [
  {
    method: "POST", pattern: "/api/v1/webhooks", scope: "webhooks:write", body: "json", handle: createWebhook,
    openapi: {
      id: "createWebhook", tag: "Webhooks", summary: "Register a webhook endpoint",
      description: `Deliveries start with the changes made after registration. The secret is shown only in this response. A tenant has at most ${MAX_WEBHOOKS_PER_TENANT} endpoints and at most ${MAX_WEBHOOKS_PER_URL} with the same \`url\`; beyond, 422 with \`details.issue\` \`too_many_webhooks\` or \`too_many_webhooks_for_url\` and \`details.limit\`.`,
      requestBody: { schema: "WebhookRequest", required: true },
      ok: { 201: created("The endpoint with its secret", "WebhookCreated") },
      errors: ["VALIDATION_ERROR"],
    },
  },
  {
    method: "GET", pattern: "/api/v1/webhooks", scope: "webhooks:read", handle: listWebhooks,
    openapi: { id: "listWebhooks", tag: "Webhooks", summary: "List webhook endpoints", ok: { 200: okJson("Enabled and disabled endpoints, oldest first", "WebhookList") } },
  },
  {
    method: "GET", pattern: "/api/v1/webhooks/:id", scope: "webhooks:read", handle: async (ctx) => showWebhook(ctx, await findWebhook(ctx)),
    openapi: { id: "getWebhook", tag: "Webhooks", summary: "Get a webhook endpoint", params: ["WebhookId"], ok: { 200: okJson("The endpoint, without its secret", "Webhook") }, errors: ["NOT_FOUND"] },
  },
  {
    method: "PATCH", pattern: "/api/v1/webhooks/:id", scope: "webhooks:write", body: "json", handle: updateWebhook,
    openapi: {
      id: "updateWebhook", tag: "Webhooks", summary: "Change a webhook endpoint",
      description: "Any of `url`, `events`, `description`, `status`, validated as on registration. Setting `status` to `enabled` on a disabled endpoint resumes delivery from where it stopped, nothing skipped; `disabled` pauses it. Once the answer is sent, the next attempt uses the new `url`, and after a pause or DELETE no attempt starts (only one already in flight completes). A new `url` counts against the same-URL limit of registration.",
      params: ["WebhookId"], requestBody: { schema: "WebhookPatch", required: true },
      ok: { 200: okJson("The endpoint, without its secret", "Webhook") }, errors: ["NOT_FOUND", "VALIDATION_ERROR"],
    },
  },
  {
    method: "DELETE", pattern: "/api/v1/webhooks/:id", scope: "webhooks:write",
    openapi: {
      id: "deleteWebhook", tag: "Webhooks", summary: "Delete a webhook endpoint", params: ["WebhookId"],
      ok: { 204: { description: "Deleted; nothing more is delivered to it", headers: apiHeaders() } }, errors: ["NOT_FOUND"],
    },
    handle: async (ctx) => {
      await changeWebhook(ctx.tenant, ctx.params.id!, (w) => {
        if (!w) throw notFound("Webhook not found");
        return { ...w, status: "deleted" };
      });
      return { status: 204, headers: {}, body: null };
    },
  },
];
