/** Helpers for reading API responses in tests. */
import assert from "node:assert/strict";

/** The `error` member of an error envelope (API.md §2). */
export interface ApiErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown>;
  request_id: string;
}

/** The `error` member of an error response, after checking status, code and the envelope's shape (API.md §2). */
export async function errorOf(res: Response, status: number, code: string): Promise<ApiErrorBody> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  const body = JSON.parse(text) as { error: ApiErrorBody };
  assert.deepEqual(Object.keys(body), ["error"], "exactly one top-level key");
  assert.equal(body.error.code, code, text);
  assert.equal(typeof body.error.message, "string");
  assert.equal(typeof body.error.details, "object");
  assert.equal(body.error.request_id, res.headers.get("x-request-id"));
  return body.error;
}
