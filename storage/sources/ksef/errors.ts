/**
 * The failures of the `ksef` source that a user can act on, each with its own
 * `error.code` on the failed sync run (API.md §4.4) and a message that says
 * what to do. Messages never carry the KSeF token, an access token or a
 * response body that could echo one.
 * @module
 */
import { SourceError } from "../../../lib/contracts/document_source.ts";

/** The error codes of the ksef source. */
export const KSEF_ERROR = {
  /** KSeF refused the token (status 450: wrong, revoked or inactive). */
  tokenRejected: "KSEF_TOKEN_REJECTED",
  /** The token works but lacks the InvoiceRead permission (HTTP 403 on the invoice endpoints). */
  permissionDenied: "KSEF_PERMISSION_DENIED",
  /** The configured NIP is not the token's context (or KSeF finds no permissions there: status 415). */
  wrongNip: "KSEF_WRONG_NIP",
  /** 5xx, timeouts or network errors after every retry. */
  unavailable: "KSEF_UNAVAILABLE",
  /** No public-key certificate for the needed usage is valid now. */
  certificateExpired: "KSEF_CERTIFICATE_EXPIRED",
  /** A package did not decrypt, did not match its hash, or is not a readable ZIP. */
  packageUndecryptable: "KSEF_PACKAGE_UNDECRYPTABLE",
  /** KSeF answered something this source does not expect (a 4xx it cannot act on, a malformed answer). */
  protocol: "KSEF_PROTOCOL_ERROR",
} as const;

/** One of the codes above. */
export type KsefErrorCode = (typeof KSEF_ERROR)[keyof typeof KSEF_ERROR];

/** A failure of the ksef source; the run fails with its code. */
export function ksefError(code: KsefErrorCode, message: string): SourceError {
  return new SourceError(code, message);
}

/** KSeF's ExceptionResponse (open-api.json) as `code: description` pairs, without free-text details. */
export function describeException(body: unknown): string {
  const list = (body as { exception?: { exceptionDetailList?: { exceptionCode?: number; exceptionDescription?: string }[] } } | null)
    ?.exception?.exceptionDetailList;
  if (!Array.isArray(list) || list.length === 0) return "no details";
  return list.map((d) => `${d.exceptionCode ?? "?"} ${String(d.exceptionDescription ?? "").slice(0, 200)}`).join("; ");
}
