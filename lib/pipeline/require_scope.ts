/**
 * The scope check of README “Security model”: a route names the one scope it needs; a
 * missing token is 401 (one message for missing, unknown, revoked and expired)
 * and a token without the scope is 403 naming the scope it lacks.
 * @module
 */
import type { Scope, TokenRecord } from "../auth/tokens.ts";
import { ApiError } from "../http/errors.ts";
import type { ApiRequest } from "../http/types.ts";
import { unauthenticated } from "./authenticate.ts";

/** The token, when it may use a route that needs `scope`; throws 401 or 403 otherwise. */
export function requireScope(token: TokenRecord | null, scope: Scope, req: ApiRequest): TokenRecord {
  if (!token) throw unauthenticated(req);
  if (!token.scopes.includes(scope)) {
    throw new ApiError("FORBIDDEN", `This token lacks the ${scope} scope`, { required_scope: scope });
  }
  return token;
}
