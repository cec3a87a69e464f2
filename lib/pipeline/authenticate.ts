/**
 * Who asks (README “Security model”): the `X-API-Token` header looked up by key id, its
 * secret's SHA-256 compared in constant time the first time, then recognised by
 * a keyed tag; revocation and expiry checked on every request. Missing,
 * unknown, revoked and expired all answer the same.
 * @module
 */
import { halfSipHash24 } from "../auth/half_siphash.ts";
import { isTokenUsable, parseToken, secretMatches, type TokenRecord } from "../auth/tokens.ts";
import type { TokenStore } from "../contracts/storage.ts";
import { ApiError } from "../http/errors.ts";
import type { ApiRequest } from "../http/types.ts";

/** The token of a request, or null when it has no usable one. */
export type Authenticator = (req: ApiRequest) => Promise<TokenRecord | null>;

/** Verified secrets remembered per process, at most; one entry per key id. */
const MAX_VERIFIED = 10_000;

/**
 * An authenticator over `tokens`. The first request of a token pays for SHA-256 (3–6 µs here, a third of a cursor
 * page's cost); later ones are recognised by a 64-bit tag of the secret under a random per-process key (two
 * HalfSipHash-2-4 values), so no secret or token is kept in memory and a forger, who never sees a tag, must guess
 * 64 bits online. The stored record is still read on every request: revocation and expiry apply at once.
 */
export function createAuthenticator(tokens: TokenStore, now: () => number): Authenticator {
  const key = crypto.getRandomValues(new Uint32Array(4));
  const verified = new Map<string, { sha256: string; tag0: number; tag1: number }>();
  return async (req) => {
    const presented = parseToken(req.header("x-api-token"));
    if (!presented) return null;
    const token = await tokens.find(presented.keyId);
    if (!token || !isTokenUsable(token, now())) return null;
    const tag0 = halfSipHash24(presented.secret, key[0]!, key[1]!);
    const tag1 = halfSipHash24(presented.secret, key[2]!, key[3]!);
    const seen = verified.get(token.key_id);
    if (seen && seen.sha256 === token.secret_sha256 && seen.tag0 === tag0 && seen.tag1 === tag1) return token;
    if (!secretMatches(presented.secret, token.secret_sha256)) return null;
    if (verified.size >= MAX_VERIFIED) verified.clear();
    verified.set(token.key_id, { sha256: token.secret_sha256, tag0, tag1 });
    return token;
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
