/** Helpers for reading API responses in tests. */
import assert from "node:assert/strict";

/** The `error` member of an error envelope (the error envelope in the OpenAPI document). */
export interface ApiErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown>;
  request_id: string;
}

/** The `error` member of an error response, after checking status, code and the envelope's shape (the error envelope in the OpenAPI document). */
export async function errorOf(res: Response, status: number, code: string): Promise<ApiErrorBody> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const body = JSON.parse(text) as { error: ApiErrorBody };
  assert.deepEqual(Object.keys(body), ["error"], "exactly one top-level key");
  assert.equal(body.error.code, code, text);
  assert.equal(typeof body.error.message, "string");
  const details: unknown = body.error.details;
  assert.ok(details !== null && typeof details === "object" && !Array.isArray(details), "details is an object");
  assert.equal(body.error.request_id, res.headers.get("x-request-id"), "X-Request-Id equals error.request_id");
  return body.error;
}

/** How often `finishedRun` asks: the run executes in another process, and its status is the only sign of its end. */
const RUN_POLL_MS = 25;

/** The sync run `id` (README “Documents and the inbox”) once it has succeeded or failed, asked of the server at `baseUrl`; the caller's test timeout bounds the wait. */
export async function finishedRun(baseUrl: string, token: string, id: string): Promise<Run & Record<string, unknown>> {
  for (;;) {
    const res = await fetch(`${baseUrl}/api/v1/documents/sync/${id}`, { headers: { "x-api-token": token } });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    const run = JSON.parse(text) as Run & Record<string, unknown>;
    if (run.status === "succeeded" || run.status === "failed") return run;
    await new Promise((r) => setTimeout(r, RUN_POLL_MS));
  }
}

/** What `assertOneAtATime` reads of a sync run. */
export interface Run {
  id: string;
  status: string;
  started_at: string | null;
  finished_at: string | null;
}

/**
 * Runs of one tenant and source never execute at once (README “Documents and the inbox”: requests coalesce while a
 * run is queued or running): sorted by start, each started no earlier than the one before it finished. How many
 * runs a burst of requests makes depends on timing, and so does a run's `requested_at` (taken before the request
 * waits for the store); this does not.
 */
export function assertOneAtATime(runs: readonly Run[]): void {
  const sorted = [...runs].sort((a, b) => (a.started_at ?? "").localeCompare(b.started_at ?? ""));
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1]!, run = sorted[i]!;
    assert.ok(before.finished_at !== null && run.started_at !== null && run.started_at >= before.finished_at, `run ${run.id} started at ${run.started_at}, while ${before.id} (finished ${before.finished_at}) was still running`);
  }
}
