/**
 * The `X-Correlation-Id` of the conventions in /docs: echoed when it is 1 to 128 visible
 * ASCII characters, replaced by a new UUID otherwise. A bad value is reported,
 * not reflected; the caller refuses the request once the limits have run.
 * @module
 */
import { randomPool, takeRandom } from "../contracts/random_pool.ts";
import type { ApiRequest } from "../http/types.ts";

const CORRELATION_RE = /^[\x21-\x7e]{1,128}$/; // the conventions in /docs: visible ASCII, at most 128

/** The correlation id to answer with, and whether the client's value was malformed. */
export function readCorrelationId(req: ApiRequest): { id: string; malformed: boolean } {
  const sent = req.header("x-correlation-id");
  if (sent !== null && sent !== "" && CORRELATION_RE.test(sent)) return { id: sent, malformed: false };
  return { id: _randomUuid(), malformed: sent !== null && sent !== "" };
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** A random (version 4) UUID in its lower-case text form, as crypto.randomUUID() makes, without its per-call checks. */
function _randomUuid(): string {
  const b = randomPool, i = takeRandom(16);
  // RFC 9562 §5.4: the version (4) in the high nibble of byte 6, the variant (10) in the two high bits of byte 8.
  return HEX[b[i]!]! + HEX[b[i + 1]!]! + HEX[b[i + 2]!]! + HEX[b[i + 3]!]! + "-" + HEX[b[i + 4]!]! + HEX[b[i + 5]!]! + "-" +
    HEX[(b[i + 6]! & 0x0f) | 0x40]! + HEX[b[i + 7]!]! + "-" + HEX[(b[i + 8]! & 0x3f) | 0x80]! + HEX[b[i + 9]!]! + "-" +
    HEX[b[i + 10]!]! + HEX[b[i + 11]!]! + HEX[b[i + 12]!]! + HEX[b[i + 13]!]! + HEX[b[i + 14]!]! + HEX[b[i + 15]!]!;
}
