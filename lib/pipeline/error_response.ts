/**
 * The one place where any thrown value becomes the error envelope of API.md §2:
 * format errors map to their status (lib/api/errors.ts), a client that went
 * away mid-body is a 400 logged at info, storage that cannot be written is a
 * 503, and anything else is a bug: logged with its stack, answered 500.
 * @module
 */
import { toApiError } from "../api/errors.ts";
import { ApiError, errorEnvelope } from "../http/errors.ts";
import type { ApiRequest, ApiResponse } from "../http/types.ts";
import type { Logger } from "../observe/log.ts";

const JSON_TYPE = "application/json; charset=utf-8";

/** Error codes of the file system that mean storage cannot be written (disk full, read-only, I/O error). */
const STORAGE_UNAVAILABLE = new Set(["ENOSPC", "EROFS", "EIO", "EDQUOT", "EMFILE", "ENFILE"]);

/** What the log line of an error names. */
export interface ErrorLogFields {
  request_id: string;
  correlation_id: string | null;
  route: string | null;
}

/** The response for `caught`, logging what needs a look. */
export function errorResponse(caught: unknown, req: ApiRequest, ids: ErrorLogFields, logger: Logger): ApiResponse {
  let err = toApiError(caught);
  const code = (err as { code?: unknown } | null)?.code;
  if (!(err instanceof ApiError) && req.aborted?.() === true) {
    // The client went away mid-body: nobody reads this answer, and it is no server error.
    logger.info("request aborted by the client", { request_id: ids.request_id, route: ids.route });
    err = new ApiError("BAD_REQUEST", "The request body was not received completely", { field: "body", issue: "aborted" });
  } else if (typeof code === "string" && STORAGE_UNAVAILABLE.has(code)) {
    logger.error("storage unavailable", { ...ids, code });
    err = new ApiError("SERVICE_UNAVAILABLE", "Storage is unavailable", {}, { "retry-after": "5" });
  }
  if (!(err instanceof ApiError)) {
    logger.error("unhandled error", { ...ids, error: err instanceof Error ? err.stack : String(err) });
  }
  return envelopeResponse(err, ids.request_id);
}

/** The envelope response of an error that is already decided (ApiError) or a bare 500. */
export function envelopeResponse(err: unknown, requestId: string): ApiResponse {
  const e = errorEnvelope(toApiError(err), requestId);
  return { status: e.status, headers: { "content-type": JSON_TYPE, ...e.headers }, body: e.body };
}
