/**
 * The API's own error codes (a duplicate submission, an Idempotency-Key in use,
 * an XML not yet available …) with their status, the closed list of every
 * code, and the API edge for the formats' own errors: XmlError, InvoiceError
 * and MultipartError become the ApiError that the error envelope in the OpenAPI document prescribes for them.
 * The formats and the HTTP layer know nothing of these: this is the one place
 * that decides their status.
 * @module
 */
import { InvoiceError } from "../formats/invoice/errors.ts";
import { MultipartError } from "../formats/multipart/errors.ts";
import { XmlError } from "../formats/xml/errors.ts";
import { ApiError, HTTP_ERROR_STATUS, type ErrorDetails } from "../http/errors.ts";

/** The error codes the API defines (the error envelope in the OpenAPI document) with their status; HTTP's own are HTTP_ERROR_STATUS. */
export const API_ERROR_STATUS = {
  XML_NOT_AVAILABLE: 404,
  UPO_NOT_AVAILABLE: 404,
  DUPLICATE_SUBMISSION: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_MISMATCH: 422,
  NO_EMBEDDED_INVOICE: 422,
  UPSTREAM_ERROR: 502,
} as const;

/** An error code the API defines. */
export type ApiErrorCode = keyof typeof API_ERROR_STATUS;

/** Every error code of the error envelope in the OpenAPI document with its status: the closed list that OpenAPI and /docs show. */
export const ERROR_STATUS = { ...HTTP_ERROR_STATUS, ...API_ERROR_STATUS } as const;

/** An error code of the error envelope in the OpenAPI document */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** An ApiError with one of the API's own codes. */
export function apiError(code: ApiErrorCode, message: string, details: ErrorDetails = {}, headers: Record<string, string> = {}): ApiError {
  return new ApiError({ code, status: API_ERROR_STATUS[code] }, message, details, headers);
}

/** The ApiError for a format error, or the value itself when it is none. */
export function toApiError(err: unknown): unknown {
  if (err instanceof XmlError) {
    const issue = `${err.message} at line ${err.line}, column ${err.column}`;
    return new ApiError("VALIDATION_ERROR", `Invalid XML: ${issue}`, { field: "xml", issue });
  }
  if (err instanceof InvoiceError) return new ApiError("VALIDATION_ERROR", err.message, { field: err.field, issue: err.issue });
  if (err instanceof MultipartError) {
    if (err.kind === "too_large") return new ApiError("PAYLOAD_TOO_LARGE", err.message, { limit_bytes: err.limitBytes });
    if (err.kind === "media_type") return new ApiError("UNSUPPORTED_MEDIA_TYPE", err.message, { expected: "multipart/form-data" });
    return new ApiError("BAD_REQUEST", err.message, { field: err.field, issue: err.issue });
  }
  return err;
}
