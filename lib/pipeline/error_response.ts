/**
 * The one place where any thrown value becomes the error envelope of the error envelope in the OpenAPI document:
 * format errors map to their status (lib/api/errors.ts), a client that went
 * away mid-body is a 400 logged at info, storage that is unavailable (disk
 * full, database down) is a 503 with Retry-After logged once per outage, and
 * anything else is a bug: logged with its stack, answered 500.
 * @module
 */
import { toApiError } from "../api/errors.ts";
import { ApiError, errorEnvelope } from "../http/errors.ts";
import type { ApiRequest, ApiResponse } from "../http/types.ts";
import type { Logger } from "../observe/log.ts";
import { storageUnavailableCode } from "../contracts/storage_errors.ts";

const JSON_TYPE = "application/json; charset=utf-8";

/** What the log line of an error names. */
export interface ErrorLogFields {
  request_id: string;
  correlation_id: string | null;
  route: string | null;
}

/**
 * An outage answers every request with 503 but is logged once per burst: a storage error within this long of the
 * previous one belongs to the same burst.
 */
export const OUTAGE_BURST_MS = 60_000;

/** Remembers the current storage outage, so that it is logged when it starts, not on every request. */
export class OutageLog {
  #now: () => number;
  #last = -Infinity;
  #suppressed = 0;
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Null while the burst goes on (counted), or the number of errors not logged since the last line. */
  record(): number | null {
    const t = this.#now();
    const quiet = t - this.#last > OUTAGE_BURST_MS;
    this.#last = t;
    if (!quiet) {
      this.#suppressed++;
      return null;
    }
    const n = this.#suppressed;
    this.#suppressed = 0;
    return n;
  }
}

/** The stack of an error and of its cause, where there are any. */
function _stacks(e: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (e instanceof Error && e.stack) out.stack = e.stack;
  const cause = e instanceof Error ? e.cause : undefined;
  if (cause instanceof Error && cause.stack) out.cause = cause.stack;
  else if (cause !== undefined) out.cause = String(cause);
  return out;
}

/** The response for `caught`, logging what needs a look: every 5xx at error, a storage outage once per burst. */
export function errorResponse(caught: unknown, req: ApiRequest, ids: ErrorLogFields, logger: Logger, outages: OutageLog = new OutageLog()): ApiResponse {
  let err = toApiError(caught);
  const unavailable = err instanceof ApiError ? null : storageUnavailableCode(err);
  if (!(err instanceof ApiError) && req.aborted?.() === true) {
    // The client went away mid-body: nobody reads this answer, and it is no server error.
    logger.info("request aborted by the client", { request_id: ids.request_id, route: ids.route });
    err = new ApiError("BAD_REQUEST", "The request body was not received completely", { field: "body", issue: "aborted" });
  } else if (unavailable !== null) {
    // Disk full, database down or restarting: the client may retry; not a bug (the error envelope in the OpenAPI document).
    const suppressed = outages.record();
    if (suppressed !== null) logger.error("storage unavailable", { ...ids, code: unavailable, errors_since_last_line: suppressed, ..._stacks(err) });
    err = new ApiError("SERVICE_UNAVAILABLE", "Storage is unavailable", {}, { "retry-after": "5" });
  } else if (!(err instanceof ApiError)) {
    logger.error("unhandled error", { ...ids, error: err instanceof Error ? err.message : String(err), ..._stacks(err) });
  } else if (err.status >= 500 && err.code !== "SERVICE_UNAVAILABLE") {
    // A 5xx the code decided on (a missing blob, a failed upstream) is as much a failure as a crash.
    logger.error("server error", { ...ids, code: err.code, error: err.message, ..._stacks(err) });
  }
  return envelopeResponse(err, ids.request_id);
}

/** The envelope response of an error that is already decided (ApiError) or a bare 500. */
export function envelopeResponse(err: unknown, requestId: string): ApiResponse {
  const e = errorEnvelope(toApiError(err), requestId);
  return { status: e.status, headers: { "content-type": JSON_TYPE, ...e.headers }, body: e.body };
}
