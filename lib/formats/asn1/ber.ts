/**
 * Rewrites BER (ITU-T X.690 §8) as DER-shaped bytes the reader in der.ts takes: indefinite lengths become definite,
 * long-form lengths shortest, and constructed OCTET STRINGs (§8.7.3) one primitive string of their segments. Some
 * tools write PKCS#12 files this way (RFC 7292 allows BER). It does not sort SET OF or touch the bytes inside a
 * primitive string, so a MAC or signature over a string's content still verifies. Bounded like der.ts.
 * @module
 */
import { concatBytes, derElement } from "./der_writer.ts";
import { DerError, MAX_DER_DEPTH, TAG } from "./der.ts";

const _CONSTRUCTED = 0x20;
const _CONSTRUCTED_OCTET_STRING = TAG.OCTET_STRING | _CONSTRUCTED;

/** `bytes` (one BER element, nothing after it) in definite-length form; DerError when it is not BER. */
export function berToDer(bytes: Uint8Array): Uint8Array {
  const { encoded, next } = _element(bytes, 0, bytes.length, 0);
  if (next !== bytes.length) throw new DerError("BER has bytes after its element");
  return encoded;
}

function _element(bytes: Uint8Array, offset: number, limit: number, depth: number): { encoded: Uint8Array; next: number } {
  if (depth > MAX_DER_DEPTH) throw new DerError(`BER nests deeper than ${MAX_DER_DEPTH} levels`);
  if (offset + 2 > limit) throw new DerError("BER ends inside an element header");
  const tag = bytes[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError("BER tag numbers above 30 are not used by these formats");
  let p = offset + 2;
  const first = bytes[offset + 1]!;
  const constructed = (tag & _CONSTRUCTED) !== 0;
  let end: number | null = null; // null: indefinite, up to end-of-contents
  if (first === 0x80) {
    if (!constructed) throw new DerError("BER indefinite length on a primitive element");
  } else if (first > 0x80) {
    const n = first & 0x7f;
    if (n > 4) throw new DerError("BER length is too large");
    if (p + n > limit) throw new DerError("BER ends inside a length");
    let length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + bytes[p + i]!;
    p += n;
    end = p + length;
  } else end = p + first;
  if (end !== null && end > limit) throw new DerError("BER element is longer than what contains it");
  if (!constructed) return { encoded: derElement(tag, bytes.subarray(p, end!)), next: end! };
  const parts: Uint8Array[] = [];
  for (;;) {
    if (end === null) {
      if (p + 2 > limit) throw new DerError("BER indefinite length has no end-of-contents");
      if (bytes[p] === 0 && bytes[p + 1] === 0) {
        p += 2;
        break;
      }
    } else if (p >= end) break;
    const child = _element(bytes, p, end ?? limit, depth + 1);
    parts.push(child.encoded);
    p = child.next;
  }
  if (tag !== _CONSTRUCTED_OCTET_STRING) return { encoded: derElement(tag, concatBytes(parts)), next: p };
  // §8.7.3.2: the segments are OCTET STRINGs (already made primitive above); the value is their contents in order.
  const contents = parts.map((part) => {
    if (part[0] !== TAG.OCTET_STRING) throw new DerError("BER constructed OCTET STRING holds something else");
    return part.subarray(_headerLength(part));
  });
  return { encoded: derElement(TAG.OCTET_STRING, concatBytes(contents)), next: p };
}

function _headerLength(encoded: Uint8Array): number {
  const first = encoded[1]!;
  return first < 0x80 ? 2 : 2 + (first & 0x7f);
}
