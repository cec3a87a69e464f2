/**
 * The sync endpoints (API.md §4.4): request a run (202, coalesced with a run
 * already queued or running) and read a run.
 * @module
 */
import type { ApiRoute, Context } from "../http/context.ts";
import { readJsonObject } from "../http/body.ts";
import { notFound, validationError } from "../http/errors.ts";
import { json } from "../http/respond.ts";
import type { ApiResponse } from "../http/types.ts";
import { runView } from "./runner.ts";

async function requestSync(ctx: Context): Promise<ApiResponse> {
  const { value } = await readJsonObject(ctx.req, ctx.app.limits.jsonBytes);
  const source = value.source;
  if (source !== undefined && (typeof source !== "string" || source.length === 0)) {
    throw validationError("source", "invalid_value", "source must be a source name");
  }
  const { run } = await ctx.app.sync.request(ctx.tenant, source ?? null);
  return json(202, runView(run), { location: `/api/v1/documents/sync/${run.id}` });
}

async function getRun(ctx: Context): Promise<ApiResponse> {
  const run = await ctx.tenant.getRun(ctx.params.id!);
  if (!run) throw notFound("Sync run not found");
  return json(200, runView(run));
}

/** The sync routes. */
export const syncRoutes: ApiRoute[] = [
  { method: "POST", pattern: "/api/v1/documents/sync", scope: "documents:write", handle: requestSync },
  { method: "GET", pattern: "/api/v1/documents/sync/:id", scope: "documents:read", handle: getRun },
];
