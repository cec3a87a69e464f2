/**
 * The sync endpoints (README “Documents and the inbox”): request a run (202, coalesced with a run
 * already queued or running) and read a run.
 * @module
 */
import { idempotencyTag, type ApiRoute, type Context } from "../context.ts";
import { created, okJson } from "../openapi/operation.ts";
import type { StoredResponse, SyncRunRecord } from "../../contracts/storage.ts";
import { notFound, validationError } from "../../http/errors.ts";
import { json } from "../../http/respond.ts";
import type { ApiResponse } from "../../http/types.ts";
import { runJson } from "../../contracts/record_json.ts";

async function requestSync(ctx: Context): Promise<ApiResponse> {
  const source = ctx.body.kind === "json" ? ctx.body.value.source : undefined;
  if (source !== undefined && (typeof source !== "string" || source.length === 0)) {
    throw validationError("source", "invalid_value", "source must be a source name");
  }
  const accepted = (json: string): StoredResponse => {
    const run = JSON.parse(json) as SyncRunRecord;
    return { status: 202, location: `/api/v1/documents/sync/${run.id}`, body: JSON.stringify(runJson(run)) };
  };
  const { run } = await ctx.app.sync.request(ctx.tenant, source ?? null, idempotencyTag(ctx, accepted));
  return json(202, runJson(run), { location: `/api/v1/documents/sync/${run.id}` });
}

async function getRun(ctx: Context): Promise<ApiResponse> {
  const run = await ctx.tenant.getRun(ctx.params.id!);
  if (!run) throw notFound("Sync run not found");
  return json(200, runJson(run));
}

/** The sync routes. */
export const syncRoutes: ApiRoute[] = [
  {
    method: "POST", pattern: "/api/v1/documents/sync", scope: "documents:write", body: "json", handle: requestSync,
    openapi: {
      id: "requestSync", tag: "Sync", summary: "Request a sync run",
      description: "Queues a run and returns at once. While a run of the same source is queued or running, that run is returned instead (requests coalesce).",
      // The body may be empty (README “Documents and the inbox”).
      requestBody: { schema: "SyncRunRequest", required: false },
      ok: { 202: created("The queued (or already queued or running) run", "SyncRun") },
      errors: ["VALIDATION_ERROR"],
    },
  },
  {
    method: "GET", pattern: "/api/v1/documents/sync/:id", scope: "documents:read", handle: getRun,
    openapi: { id: "getSyncRun", tag: "Sync", summary: "Get a sync run", params: ["SyncRunId"], ok: { 200: okJson("The run", "SyncRun") }, errors: ["NOT_FOUND"] },
  },
];
