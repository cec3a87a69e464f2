/**
 * Idempotency keys (the idempotency conventions in /docs) around the POST handlers: the body is read and
 * fingerprinted before the handler runs; a stored response for the key is
 * replayed (or 422 on a different fingerprint); a key in flight is 409. Stores
 * commit the key's record together with the effect (see IdempotencyTag); this
 * step keeps the responses of handlers without an effect (errors, coalesced runs).
 * @module
 */
import type { Context, RequestBody } from "../api/context.ts";
import type { IdempotencyRecord, StoredResponse, TenantStore } from "../contracts/storage.ts";
import { ApiError } from "../http/errors.ts";
import { apiError } from "../api/errors.ts";
import type { ApiResponse } from "../http/types.ts";
import { fingerprintRequest } from "./idempotency_key.ts";

/** the idempotency conventions in /docs: a key's response is kept for 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Turns a handler's error into the response to keep for the key; 5xx errors are rethrown (never kept). */
export type ErrorAnswer = (err: unknown) => ApiResponse;

/**
 * Runs `handle` once per key: replays a kept response, refuses a key in flight, and keeps the answer.
 * `ctx.idempotency` is set while the handler runs, so that stores commit the key with the effect.
 */
export async function runIdempotent(
  ctx: Context,
  key: string,
  now: () => number,
  answerError: ErrorAnswer,
  handle: (ctx: Context) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const { tenant } = ctx;
  const fingerprint = _fingerprintOf(ctx.req.method, ctx.req.path, ctx.body);
  const early = await _replay(tenant, key, fingerprint, now);
  if (early) return early;
  if (!(await tenant.beginIdempotent(key))) {
    throw apiError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed", {}, { "retry-after": "1" });
  }
  ctx.idempotency = { key, fingerprint };
  try {
    // Another request with the key may have finished between the first look and the claim.
    const late = await _replay(tenant, key, fingerprint, now);
    if (late) return late;
    let res: ApiResponse;
    try {
      res = await handle(ctx);
    } catch (err) {
      res = answerError(err);
      if (_retryable(res.status)) throw err;
    }
    const stored = _storedResponse(res);
    // Effects commit their key themselves; responses without one (errors, coalesced runs) are kept here.
    if (stored && !(await tenant.getIdempotency(key, now(), IDEMPOTENCY_TTL_MS))) {
      await tenant.putIdempotency({ key, fingerprint, response: stored, created_at: new Date(now()).toISOString() });
    }
    return res;
  } finally {
    await tenant.endIdempotent(key);
  }
}

async function _replay(tenant: TenantStore, key: string, fingerprint: string, now: () => number): Promise<ApiResponse | null> {
  const kept = await tenant.getIdempotency(key, now(), IDEMPOTENCY_TTL_MS);
  if (kept && kept.fingerprint !== fingerprint) throw apiError("IDEMPOTENCY_KEY_MISMATCH", "This Idempotency-Key was used with a different request", {});
  return kept ? _replayResponse(kept) : null;
}

/** The fingerprint of a POST: method, path and the meaning of its body. */
function _fingerprintOf(method: string, path: string, body: RequestBody): string {
  if (body.kind === "json") return fingerprintRequest(method, path, { kind: "json", bytes: body.raw });
  if (body.kind === "multipart") return fingerprintRequest(method, path, { kind: "multipart", parts: body.parts });
  return fingerprintRequest(method, path, { kind: "empty" });
}

// A 5xx, or a 429 for the tenant's share of large reads, says "try again": a retry with the key executes again.
function _retryable(status: number): boolean {
  return status >= 500 || status === 429;
}

/** The stored form of a response, or null for a retryable answer or a streamed body (never kept). */
function _storedResponse(res: ApiResponse): StoredResponse | null {
  if (_retryable(res.status) || res.body === null || (typeof res.body !== "string" && !(res.body instanceof Uint8Array))) return null;
  const body = typeof res.body === "string" ? res.body : new TextDecoder().decode(res.body);
  return { status: res.status, location: res.headers.location ?? null, body };
}

/** The replay of a stored response: the same body, and for an error the request id it names (the conventions in /docs). */
function _replayResponse(rec: IdempotencyRecord): ApiResponse {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "idempotent-replayed": "true" };
  if (rec.response.location) headers.location = rec.response.location;
  const original = rec.response.status >= 400 ? /"request_id":"(req_[0-9A-Z]{26})"/.exec(rec.response.body) : null;
  if (original) headers["x-request-id"] = original[1]!;
  return { status: rec.response.status, headers, body: rec.response.body };
}
