import { test } from "node:test";
import assert from "node:assert/strict";
import { StorageUnavailableError } from "../../lib/contracts/storage_errors.ts";
import { ApiError } from "../../lib/http/errors.ts";
import type { ApiRequest } from "../../lib/http/types.ts";
import { createJsonLogger } from "../../lib/observe/log.ts";
import { errorResponse, OUTAGE_BURST_MS, OutageLog } from "../../lib/pipeline/error_response.ts";

const req = { method: "GET", path: "/api/v1/documents", aborted: () => false } as unknown as ApiRequest;
const ids = (n: number) => ({ request_id: `req_${n}`, correlation_id: null, route: "/api/v1/documents" });

function sink() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createJsonLogger("info", (l) => void lines.push(JSON.parse(l) as Record<string, unknown>)) };
}

// Backends classify their own failures (storage/file/unavailable.ts, storage/postgres/unavailable.ts); the core
// answers the contract's class alone.
const OUTAGES = [
  { what: "a full disk", error: new StorageUnavailableError("ENOSPC", "ENOSPC: no space left on device") },
  { what: "PostgreSQL admin shutdown (57P01)", error: new StorageUnavailableError("57P01", "terminating connection due to administrator command") },
  { what: "a lost pg connection", error: new StorageUnavailableError("CONNECTION_LOST", "Connection terminated unexpectedly") },
];

for (const { what, error } of OUTAGES) {
  test(`errorResponse(): ${what} is 503 SERVICE_UNAVAILABLE with Retry-After`, () => {
    const { logger } = sink();
    const res = errorResponse(error, req, ids(1), logger);
    assert.equal(res.status, 503);
    assert.equal(res.headers["retry-after"], "5");
    assert.match(String(res.body), /"code":"SERVICE_UNAVAILABLE"/);
  });
}

test("errorResponse(): an error with an errno code that no backend classified is a bug, 500 (the core lists no backend's codes)", () => {
  const { logger } = sink();
  const res = errorResponse(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }), req, ids(1), logger);
  assert.equal(res.status, 500);
});

test("errorResponse(): an outage is logged once per burst, with the count of what was not logged, not once per request", () => {
  let t = 1_000_000;
  const outages = new OutageLog(() => t);
  const { lines, logger } = sink();
  const down = new StorageUnavailableError("ECONNREFUSED", "connect ECONNREFUSED");
  for (let i = 0; i < 50; i++, t += 100) errorResponse(down, req, ids(i), logger, outages);
  assert.equal(lines.length, 1, JSON.stringify(lines));
  assert.equal(lines[0]!.level, "error");
  assert.equal(lines[0]!.code, "ECONNREFUSED");
  assert.equal(lines[0]!.request_id, "req_0");
  t += OUTAGE_BURST_MS + 1;
  errorResponse(down, req, ids(99), logger, outages);
  assert.equal(lines.length, 2, "a new burst is logged again");
  assert.equal(lines[1]!.errors_since_last_line, 49);
});

test("errorResponse(): a 5xx raised as ApiError is logged at error with the request id, its stack and its cause's", () => {
  const { lines, logger } = sink();
  const cause = new Error("ENOENT: blob file gone");
  const res = errorResponse(new ApiError("INTERNAL_ERROR", "Submission XML is missing", {}, {}, { cause }), req, ids(7), logger);
  assert.equal(res.status, 500);
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!.level, "error");
  assert.equal(lines[0]!.request_id, "req_7");
  assert.match(lines[0]!.stack as string, /Submission XML is missing\n\s+at /);
  assert.match(lines[0]!.cause as string, /blob file gone\n\s+at /);
});

test("errorResponse(): an unknown error is logged with its stack; 4xx are not logged", () => {
  const { lines, logger } = sink();
  errorResponse(new TypeError("x is undefined"), req, ids(8), logger);
  errorResponse(new ApiError("NOT_FOUND", "Document not found"), req, ids(9), logger);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!.stack as string, /TypeError: x is undefined\n\s+at /);
});
