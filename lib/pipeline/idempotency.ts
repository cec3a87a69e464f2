/**
 * Idempotency keys (API.md §7) around the POST handlers: the body is read and
 * fingerprinted before the handler runs; a stored response for the key is
 * replayed (or 422 on a different fingerprint); a key in flight is 409. Stores
 * commit the key's record together with the effect (see IdempotencyTag); the
 * app keeps the responses of handlers without an effect (errors, coalesced runs).
 * @module
 */
import type { RequestBody } from "../api/context.ts";
import { fingerprintRequest } from "./idempotency_key.ts";
import type { ApiResponse } from "../http/types.ts";
import type { IdempotencyRecord, StoredResponse } from "../contracts/storage.ts";

/** API.md §7: a key's response is kept for 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The fingerprint of a POST: method, path and the meaning of its body. */
export function fingerprintOf(method: string, path: string, body: RequestBody): string {
  if (body.kind === "json") return fingerprintRequest(method, path, { kind: "json", bytes: body.raw });
  if (body.kind === "multipart") return fingerprintRequest(method, path, { kind: "multipart", parts: body.parts });
  return fingerprintRequest(method, path, { kind: "empty" });
}

/** The stored form of a response, or null for a 5xx or a streamed body (never kept). */
export function storedResponse(res: ApiResponse): StoredResponse | null {
  if (res.status >= 500 || res.body === null || (typeof res.body !== "string" && !(res.body instanceof Uint8Array))) return null;
  const body = typeof res.body === "string" ? res.body : new TextDecoder().decode(res.body);
  return { status: res.status, location: res.headers.location ?? null, body };
}

/** The replay of a stored response: the same body, and for an error the request id it names (API.md §1). */
export function replayResponse(rec: IdempotencyRecord): ApiResponse {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", "idempotent-replayed": "true" };
  if (rec.response.location) headers.location = rec.response.location;
  const original = rec.response.status >= 400 ? /"request_id":"(req_[0-9A-Z]{26})"/.exec(rec.response.body) : null;
  if (original) headers["x-request-id"] = original[1]!;
  return { status: rec.response.status, headers, body: rec.response.body };
}
