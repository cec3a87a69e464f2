/**
 * The one error type of the API and the one place that turns any thrown value
 * into the error envelope of API.md §2. Codes are a closed union; a thrown value
 * that is not an ApiError is a bug and becomes a 500 without its message.
 * @module
 */

/** Every error code of API.md §2 with its HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  XML_NOT_AVAILABLE: 404,
  UPO_NOT_AVAILABLE: 404,
  METHOD_NOT_ALLOWED: 405,
  DUPLICATE_SUBMISSION: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  VALIDATION_ERROR: 422,
  IDEMPOTENCY_KEY_MISMATCH: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** An error code of API.md §2. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Details of an error: always an object, `{}` when there is nothing to add. */
export type ErrorDetails = Record<string, unknown>;

/** An error that the API answers as it is: status, code, message and details. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** Extra response headers, e.g. `Allow` for 405 or `Retry-After` for 429. */
  readonly headers: Record<string, string>;

  /** `options.cause`: the error behind a 5xx, logged with its stack (never sent). */
  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, headers: Record<string, string> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
    this.code = code;
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

/** 404 NOT_FOUND, the same answer for malformed, unknown and foreign ids (API.md §1). */
export function notFound(message = "Resource not found"): ApiError {
  return new ApiError("NOT_FOUND", message);
}

/** The envelope of API.md §2 for any thrown value; unknown errors become a bare 500. */
export function errorEnvelope(err: unknown, requestId: string): { status: number; body: string; headers: Record<string, string> } {
  const e = err instanceof ApiError ? err : new ApiError("INTERNAL_ERROR", "Internal server error");
  const body = JSON.stringify({
    error: { code: e.code, message: e.message, details: e.details, request_id: requestId },
  });
  return { status: e.status, body, headers: e.headers };
}
