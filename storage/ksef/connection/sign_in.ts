/**
 * How the KSeF client signs in (uwierzytelnianie.md): the one step that differs between a KSeF token
 * (token_signin.ts) and an `AuthTokenRequest` signed in XAdES (xades_signin.ts) is starting the operation, plus
 * the words of its failures. The challenge, polling the status, redeem and refresh are the client's, shared by both.
 * @module
 */
import type { SourceError } from "../../../lib/contracts/document_source.ts";
import type { PublicKeyCertificate } from "./crypto.ts";

/** A status of an asynchronous KSeF operation (open-api.json StatusInfo). */
export interface StatusInfo {
  code: number;
  description?: string;
  details?: string[] | null;
}

/** A challenge (open-api.json AuthenticationChallengeResponse). */
export interface Challenge {
  challenge: string;
  /** The challenge's time in ms (`timestampMs`, or read from `timestamp`). */
  timestampMs: number;
}

/** What a sign-in method may ask of the client: its requests go through the client's pacing and retries. */
export interface SignInIo {
  nip: string;
  now(): number;
  challenge(signal: AbortSignal): Promise<Challenge>;
  /** POSTs JSON or XML to an /auth path; answers 202 and 400 are returned, others fail the run as the client does. */
  post(path: string, body: { json: unknown } | { xml: Uint8Array }, signal: AbortSignal): Promise<Response>;
  certificates(signal: AbortSignal): Promise<PublicKeyCertificate[]>;
  forgetCertificates(): void;
}

/** One way of signing in. */
export interface SignInMethod {
  readonly kind: "token" | "certificate";
  /** Starts an authentication; its 202 answer (referenceNumber, authenticationToken). A refusal throws the run's error. */
  start(io: SignInIo, signal: AbortSignal): Promise<Response>;
  /** The run's error for an authentication that ended with `status` (not 200). */
  failed(status: StatusInfo, nip: string, now: number): SourceError;
  /** The run's error when KSeF refuses (401) the access it granted even after signing in again. */
  refused(now: number): SourceError;
  /** The run's error for a 403 on `what` (method and path). */
  forbidden(what: string, nip: string): SourceError;
}

/** A status's description and details for a message, cut short (details may be long, never secret). */
export function statusText(status: StatusInfo): string {
  return [status.description, ...(status.details ?? [])].filter(Boolean).join(": ").slice(0, 300);
}
