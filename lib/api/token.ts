/**
 * `GET /api/v1/token` (README "Security model"): what the presented token is (its tenant, key id, scopes, creation
 * and expiry), for any valid token, so that a client such as the console learns what it may do without trying
 * requests that would be refused. It never answers the secret, nor its hash, nor whether the token was revoked
 * (a revoked token gets 401 like any unusable one).
 * @module
 */
import type { ApiRoute, Context } from "./context.ts";
import { okJson } from "./openapi/operation.ts";
import { json } from "../http/respond.ts";
import type { ApiResponse } from "../http/types.ts";

async function getToken(ctx: Context): Promise<ApiResponse> {
  const t = ctx.token;
  // Field by field: a record holds the secret's hash, which no answer carries.
  return json(200, { tenant: t.tenant, key_id: t.key_id, scopes: [...t.scopes], created_at: t.created_at, expires_at: t.expires_at });
}

/** The token route: any valid token may ask (an empty list of scopes: no scope is needed). */
export const tokenRoutes: ApiRoute[] = [
  {
    method: "GET", pattern: "/api/v1/token", scope: [], handle: getToken,
    openapi: {
      id: "getToken", tag: "Operations", summary: "The presented token: tenant, key id, scopes, expiry",
      description: "Any valid token may ask; no scope is needed. A client learns from `scopes` what it may do instead of trying requests that would be refused with 403. The secret is never part of the answer.",
      ok: { 200: okJson("The token", "Token") },
    },
  },
];
