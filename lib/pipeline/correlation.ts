/**
 * The `X-Correlation-Id` of the conventions in /docs: echoed when it is 1 to 128 visible
 * ASCII characters, replaced by a new UUID otherwise. A bad value is reported,
 * not reflected; the caller refuses the request once the limits have run.
 * @module
 */
import type { ApiRequest } from "../http/types.ts";

const CORRELATION_RE = /^[\x21-\x7e]{1,128}$/; // the conventions in /docs: visible ASCII, at most 128

/** The correlation id to answer with, and whether the client's value was malformed. */
export function readCorrelationId(req: ApiRequest): { id: string; malformed: boolean } {
  const sent = req.header("x-correlation-id");
  if (sent !== null && sent !== "" && CORRELATION_RE.test(sent)) return { id: sent, malformed: false };
  return { id: crypto.randomUUID(), malformed: sent !== null && sent !== "" };
}
