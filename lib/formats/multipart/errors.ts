/**
 * The one error type of the multipart parser. It says what kind of failure it
 * is (a body over the limit, a Content-Type that is not multipart, a malformed
 * header or body) and which field; the API edge maps the kind to a status.
 * @module
 */

/** What went wrong: `too_large` (RFC 7578 has no limit; ours does), `media_type`, or `malformed`. */
export type MultipartErrorKind = "too_large" | "media_type" | "malformed";

/** A body the multipart parser refuses. */
export class MultipartError extends Error {
  readonly kind: MultipartErrorKind;
  /** The request part at fault: `body` or `Content-Type`. */
  readonly field: string;
  /** A short fixed phrase, e.g. `missing boundary`. */
  readonly issue: string;
  /** The limit exceeded, for `too_large`. */
  readonly limitBytes: number | null;

  constructor(kind: MultipartErrorKind, field: string, issue: string, message: string, limitBytes: number | null = null) {
    super(message);
    this.name = "MultipartError";
    this.kind = kind;
    this.field = field;
    this.issue = issue;
    this.limitBytes = limitBytes;
  }
}

/** A body over `limit` bytes. */
export function multipartTooLarge(limit: number): MultipartError {
  return new MultipartError("too_large", "body", "too_large", `Request body is larger than ${limit} bytes`, limit);
}

/** A malformed multipart body; `issue` is a short fixed phrase. */
export function multipartBodyError(issue: string): MultipartError {
  return new MultipartError("malformed", "body", issue, `Malformed multipart body: ${issue}`);
}
