/**
 * The failures of the `ksef` source that a user can act on, each with its own
 * `error.code` on the failed sync run (README “Documents and the inbox”) and a message that says
 * what to do. Messages never carry the KSeF token, an access token or a
 * response body that could echo one.
 * @module
 */
import { SourceError } from "../../../lib/contracts/document_source.ts";

/** The error codes of the ksef source. */
export const KSEF_ERROR = {
  /** KSeF refused the token (status 450: wrong, revoked or inactive; after 31 December 2026 every token). */
  tokenRejected: "KSEF_TOKEN_REJECTED",
  /**
   * KSeF refused the signed sign-in request or its certificate (9105 invalid signature, 21115 invalid certificate,
   * status 460: untrusted, revoked, suspended or expired certificate; 470, 480 for a certificate's owner).
   */
  certificateRejected: "KSEF_CERTIFICATE_REJECTED",
  /**
   * The configured certificate, key, `.p12` or passphrase cannot be used here (a wrong passphrase, a key that is not
   * the certificate's, a file that cannot be read): nothing was sent to KSeF. The message names the sources.json
   * field and the file's base name, never the server's paths.
   */
  credentialsUnusable: "KSEF_CREDENTIALS_UNUSABLE",
  /** The token works but lacks the InvoiceRead permission (HTTP 403 on the invoice endpoints). */
  permissionDenied: "KSEF_PERMISSION_DENIED",
  /** KSeF finds no permissions for the token or the certificate's subject in the configured NIP's context (status 415). */
  wrongNip: "KSEF_WRONG_NIP",
  /** 5xx, timeouts or network errors after every retry. */
  unavailable: "KSEF_UNAVAILABLE",
  /** No public-key certificate of KSeF's for the needed usage is valid now, or our own sign-in certificate has ended. */
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

/** One error of a KSeF answer: its exception code, description and details. */
export interface KsefException {
  code: number;
  description: string;
  details: string[];
}

/**
 * The errors of a KSeF error body in either of the formats open-api.json gives for a 400: Problem Details
 * (`application/problem+json`, BadRequestProblemDetails `errors[]`: code, description, details), sent when the
 * request asks with `X-Error-Format: problem-details`, and the deprecated ExceptionResponse
 * (`exception.exceptionDetailList[]`: exceptionCode, exceptionDescription, details).
 */
export function exceptionsOf(body: unknown): KsefException[] {
  const b = body as { errors?: unknown; exception?: { exceptionDetailList?: unknown } } | null;
  const text = (v: unknown): string => (typeof v === "string" ? v : "");
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  if (Array.isArray(b?.errors)) {
    return (b.errors as { code?: unknown; description?: unknown; details?: unknown }[])
      .map((e) => ({ code: Number(e?.code), description: text(e?.description), details: list(e?.details) }));
  }
  const legacy = b?.exception?.exceptionDetailList;
  if (Array.isArray(legacy)) {
    return (legacy as { exceptionCode?: unknown; exceptionDescription?: unknown; details?: unknown }[])
      .map((e) => ({ code: Number(e?.exceptionCode), description: text(e?.exceptionDescription), details: list(e?.details) }));
  }
  return [];
}

/** The exception codes of a KSeF error body (either format). */
export function exceptionCodes(body: unknown): number[] {
  return exceptionsOf(body).map((e) => e.code);
}

/** A KSeF error body as `code: description` pairs, without free-text details (they may echo input). */
export function describeException(body: unknown): string {
  const list = exceptionsOf(body);
  if (list.length === 0) return "no details";
  return list.map((d) => `${Number.isFinite(d.code) ? d.code : "?"} ${d.description.slice(0, 200)}`).join("; ");
}
