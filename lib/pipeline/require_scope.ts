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

/**
 * The token, when it may use a route that needs `scope` (or, for a list, any one of them: the summary shows the
 * parts its token may read; an empty list, no scope at all: `GET /api/v1/token` answers any valid token); throws
 * 401 or 403 otherwise.
 */
export function requireScope(token: TokenRecord | null, scope: Scope | readonly Scope[], req: ApiRequest): TokenRecord {
  if (!token) throw unauthenticated(req);
  if (typeof scope !== "string") {
    if (scope.length === 0 || scope.some((s) => token.scopes.includes(s))) return token;
    throw new ApiError("FORBIDDEN", `This token lacks all of the scopes ${scope.join(", ")}`, { required_scope: scope[0]!, any_of: [...scope] });
  }
  if (!token.scopes.includes(scope)) {
    throw new ApiError("FORBIDDEN", `This token lacks the ${scope} scope`, { required_scope: scope });
  }
  return token;
}
