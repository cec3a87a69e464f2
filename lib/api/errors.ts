/**
 * The API edge for the formats' own errors: XmlError, InvoiceError and
 * MultipartError become the ApiError that API.md §2 prescribes for them. The
 * formats know nothing of HTTP; this is the one place that decides their status.
 * @module
 */
import { InvoiceError } from "../formats/invoice/errors.ts";
import { MultipartError } from "../formats/multipart/errors.ts";
import { XmlError } from "../formats/xml/errors.ts";
import { ApiError } from "../http/errors.ts";

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
