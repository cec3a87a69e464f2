/**
 * The `Idempotency-Key` header (the idempotency conventions in /docs, a UUID v4) and the fingerprint that tells a
 * retry of a request from a different request under the same key. The fingerprint hashes
 * what the request means, not how it was framed: a multipart retry with a new boundary
 * matches. Storing keys and replaying responses is the caller's business.
 * @module
 */

import { createHash } from "node:crypto";
import type { Hash } from "node:crypto";
import { badRequest } from "../http/errors.ts";

/** The body of a request as the fingerprint sees it. */
export type FingerprintBody =
  | { kind: "empty" }
  | { kind: "json"; bytes: Uint8Array }
  | { kind: "multipart"; parts: readonly FingerprintPart[] };

/** One multipart part: its name and content (other fields may be present and are ignored). */
export interface FingerprintPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  body: Uint8Array;
}

// RFC 9562 §5.4: version nibble 4, variant bits 10 (8, 9, a or b).
const _UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Names this encoding, so a future change of layout can never collide with stored fingerprints. */
const _VERSION = "idempotency-fingerprint-v1";

const _BODY_TAG = { empty: 0, json: 1, multipart: 2 } as const;
const _encoder = new TextEncoder();

/**
 * The key in lower case, null when the header is absent, or 400 BAD_REQUEST when it is not a
 * canonical UUID v4. The quoted form of draft-ietf-httpapi-idempotency-key-header (a
 * Structured Field String, `"8e03978e-…"`) is accepted too.
 */
export function parseIdempotencyKey(value: string | null): string | null {
  if (value === null) return null;
  let key = value.trim();
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1);
  if (!_UUID_V4.test(key)) {
    // The value is not echoed: it is client input in a header, and the field says enough.
    throw badRequest("Idempotency-Key", "not_uuid_v4", "Idempotency-Key must be a UUID v4");
  }
  return key.toLowerCase();
}

/**
 * Hex SHA-256 of an unambiguous encoding of the method, the path and the body's meaning:
 * every field is length-prefixed, absent and empty differ, and multipart parts are hashed
 * in order by name and content, never by boundary, filename or part content type.
 */
export function fingerprintRequest(method: string, path: string, body: FingerprintBody): string {
  const hash = createHash("sha256");
  _field(hash, _encoder.encode(_VERSION));
  _field(hash, _encoder.encode(method));
  _field(hash, _encoder.encode(path));
  hash.update(Uint8Array.of(_BODY_TAG[body.kind]));
  if (body.kind === "json") {
    _field(hash, body.bytes);
  } else if (body.kind === "multipart") {
    _length(hash, body.parts.length);
    for (const part of body.parts) {
      // the idempotency conventions in /docs: each part's name and content; the filename and part type a client chose do not count.
      _field(hash, _encoder.encode(part.name));
      _field(hash, part.body);
    }
  }
  return hash.digest("hex");
}

function _field(hash: Hash, bytes: Uint8Array): void {
  _length(hash, bytes.length);
  hash.update(bytes);
}


/** A 64-bit big-endian length, so no field can be long enough to be read as two. */
function _length(hash: Hash, n: number): void {
  const bytes = new Uint8Array(8);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, Math.floor(n / 2 ** 32));
  view.setUint32(4, n >>> 0);
  hash.update(bytes);
}
