/**
 * Who asks (API.md §3): the `X-API-Token` header looked up by key id, its
 * secret's SHA-256 compared in constant time, revocation and expiry checked on
 * every request. Missing, unknown, revoked and expired all answer the same.
 * @module
 */
import { isTokenUsable, parseToken, secretMatches, type TokenRecord } from "../auth/tokens.ts";
import type { TokenStore } from "../contracts/storage.ts";
import { ApiError } from "../http/errors.ts";
import type { ApiRequest } from "../http/types.ts";

/** The token of a request, or null when it has no usable one. */
export type Authenticator = (req: ApiRequest) => Promise<TokenRecord | null>;

/**
 * An authenticator over `tokens`. Nothing presented is kept in memory: hashing a 43-character secret costs
 * about a microsecond, less than a cache keyed by a hash of it would save.
 */
export function createAuthenticator(tokens: TokenStore, now: () => number): Authenticator {
  return async (req) => {
    const presented = parseToken(req.header("x-api-token"));
    if (!presented) return null;
    const token = await tokens.find(presented.keyId);
    if (!token || !isTokenUsable(token, now())) return null;
    return secretMatches(presented.secret, token.secret_sha256) ? token : null;
  };
}

/**
 * The 401 for a request without a usable token: one message for missing, unknown, revoked and expired, naming
 * the header the token goes in, and saying so when the client sent the common `Authorization: Bearer` instead.
 */
export function unauthenticated(req: ApiRequest): ApiError {
  const bearer = /^bearer\s/i.test(req.header("authorization") ?? "");
  return new ApiError("UNAUTHENTICATED", `Missing or invalid API token: send it in the X-API-Token header${bearer ? " (Authorization: Bearer is not accepted)" : ""}`);
}
