/**
 * Signed, opaque cursors for the change feeds (README “Parameters”): a feed position
 * and a digest of the filters it was made with, MACed with an installation
 * secret and the tenant, base64url-encoded. Tampered, foreign (other tenant or
 * feed) and filter-mismatched cursors are told apart only as "invalid" to the
 * client, with an `issue` that says which. Cursors carry no time: they never expire.
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { badRequest } from "../http/errors.ts";

const VERSION = 1;
const MAC_BYTES = 16; // 128-bit tag: forgery is out of reach, the cursor stays short
const PAYLOAD_BYTES = 1 + 6 + 8; // version, 48-bit position, 64-bit filter digest

/** Encodes and verifies cursors with one key. */
export interface CursorCodec {
  encode(scope: string, position: number, filterKey: string): string;
  /** The position in the cursor; throws 400 BAD_REQUEST (field "cursor") when it is not valid here. */
  decode(scope: string, cursor: string, filterKey: string): number;
}

const _digests = new Map<string, Buffer>(); // filter keys repeat: clients poll with the same filters
const MAX_DIGESTS = 10_000;

function _digest(filterKey: string): Buffer {
  let d = _digests.get(filterKey);
  if (!d) {
    if (_digests.size >= MAX_DIGESTS) _digests.clear();
    _digests.set(filterKey, (d = createHash("sha256").update(filterKey).digest().subarray(0, 8)));
  }
  return d;
}

/** A cursor codec keyed with `secret`; `scope` binds a cursor to a tenant and feed. */
export function createCursorCodec(secret: Uint8Array): CursorCodec {
  const mac = (scope: string, payload: Uint8Array): Buffer =>
    createHmac("sha256", secret).update(scope).update("\u0000").update(payload).digest().subarray(0, MAC_BYTES);

  // Clients poll with the same cursors: one that verified once is the same bytes with the same answer. A cursor
  // made here is known too: the client walking the feed sends it next.
  const verified = new Map<string, number>();
  const MAX_VERIFIED = 10_000;
  const remember = (memo: string, position: number): void => {
    if (verified.size >= MAX_VERIFIED) verified.clear();
    verified.set(memo, position);
  };

  return {
    encode(scope, position, filterKey) {
      const payload = Buffer.alloc(PAYLOAD_BYTES);
      payload[0] = VERSION;
      payload.writeUIntBE(position, 1, 6);
      _digest(filterKey).copy(payload, 7);
      const cursor = Buffer.concat([payload, mac(scope, payload)]).toString("base64url");
      remember(`${scope}\u0000${filterKey}\u0000${cursor}`, position);
      return cursor;
    },
    decode(scope, cursor, filterKey) {
      const memo = `${scope}\u0000${filterKey}\u0000${cursor}`;
      const known = verified.get(memo);
      if (known !== undefined) return known;
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) throw badRequest("cursor", "malformed", "Cannot parse cursor: malformed");
      const raw = Buffer.from(cursor, "base64url");
      // Base64 has spare bits in its last character: only the canonical spelling is accepted.
      if (raw.length !== PAYLOAD_BYTES + MAC_BYTES || raw[0] !== VERSION || raw.toString("base64url") !== cursor) {
        throw badRequest("cursor", "malformed", "Cannot parse cursor: malformed");
      }
      const payload = raw.subarray(0, PAYLOAD_BYTES);
      if (!timingSafeEqual(mac(scope, payload), raw.subarray(PAYLOAD_BYTES))) {
        throw badRequest("cursor", "bad_signature", "Cannot parse cursor: bad signature");
      }
      if (!_digest(filterKey).equals(payload.subarray(7))) {
        throw badRequest("cursor", "filters_changed", "Cursor was made with different filters");
      }
      const position = payload.readUIntBE(1, 6);
      remember(memo, position);
      return position;
    },
  };
}
