/**
 * The one error type of the API and the one place that turns any thrown value
 * into the error envelope of the error envelope in the OpenAPI document HTTP's and the pipeline's codes are
 * here; the API's own codes and the closed list of all are lib/api/errors.ts's.
 * A thrown value that is not an ApiError is a bug and becomes a 500 without its message.
 * @module
 */

/**
 * The error codes of HTTP and of the request pipeline (the error envelope in the OpenAPI document) with their status. The codes the API itself
 * defines (a duplicate submission, an Idempotency-Key in use …) are lib/api/errors.ts's, with the closed list.
 */
export const HTTP_ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  VALIDATION_ERROR: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** An error code of HTTP or the pipeline. */
export type HttpErrorCode = keyof typeof HTTP_ERROR_STATUS;

/** Details of an error: always an object, `{}` when there is nothing to add. */
export type ErrorDetails = Record<string, unknown>;

/** An error that the API answers as it is: status, code, message and details. */
export class ApiError extends Error {
  readonly status: number;
  /** One of HTTP_ERROR_STATUS or of the API's own codes (ErrorCode of lib/api/errors.ts). */
  readonly code: string;
  readonly details: ErrorDetails;
  /** Extra response headers, e.g. `Allow` for 405 or `Retry-After` for 429. */
  readonly headers: Record<string, string>;

  /**
   * `code`: one of HTTP_ERROR_STATUS, or `{ code, status }` for a code the API defines (made by apiError() of
   * lib/api/errors.ts). `options.cause`: the error behind a 5xx, logged with its stack (never sent).
   */
  constructor(code: HttpErrorCode | { code: string; status: number }, message: string, details: ErrorDetails = {}, headers: Record<string, string> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ApiError";
    const c = typeof code === "string" ? { code, status: HTTP_ERROR_STATUS[code] } : code;
    this.status = c.status;
    this.code = c.code;
    this.details = details;
    this.headers = headers;
  }
}

/** 400 for a request part that cannot be read: `field` names it, `issue` says what is wrong. */
export function badRequest(field: string, issue: string, message?: string): ApiError {
  return new ApiError("BAD_REQUEST", message ?? `Invalid ${field}: ${issue}`, { field, issue });
}

/** 422 for readable but invalid content. */
export function validationError(field: string, issue: string, message?: string): ApiError {
  return new ApiError("VALIDATION_ERROR", message ?? `Invalid ${field}: ${issue}`, { field, issue });
}

/** 404 NOT_FOUND, the same answer for malformed, unknown and foreign ids (the conventions in /docs). */
export function notFound(message = "Resource not found"): ApiError {
  return new ApiError("NOT_FOUND", message);
}

/** The envelope of the error envelope in the OpenAPI document for any thrown value; unknown errors become a bare 500. */
export function errorEnvelope(err: unknown, requestId: string): { status: number; body: string; headers: Record<string, string> } {
  const e = err instanceof ApiError ? err : new ApiError("INTERNAL_ERROR", "Internal server error");
  const body = JSON.stringify({
    error: { code: e.code, message: e.message, details: e.details, request_id: requestId },
  });
  return { status: e.status, body, headers: e.headers };
}
