/**
 * A bounded reader of DER (ITU-T X.690 §8 and §10): tag-length-value elements with definite lengths only, one
 * identifier octet per tag (tag numbers up to 30, all that PKCS#8, PKCS#10, PKCS#12 and X.509 use), and the
 * primitive types those formats need. It does not accept BER's indefinite lengths or long tag forms: a file that
 * uses them is refused with a DerError rather than read loosely. Bytes are never copied, only viewed.
 * @module
 */

/** Why bytes are not the DER expected; `message` never quotes the input. */
export class DerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DerError";
  }
}

/** Universal tags (X.680 §8.4) and the class and constructed bits of the identifier octet (X.690 §8.1.2). */
export const TAG = {
  BOOLEAN: 0x01, INTEGER: 0x02, BIT_STRING: 0x03, OCTET_STRING: 0x04, NULL: 0x05, OID: 0x06,
  UTF8_STRING: 0x0c, PRINTABLE_STRING: 0x13, IA5_STRING: 0x16, UTC_TIME: 0x17, GENERALIZED_TIME: 0x18,
  BMP_STRING: 0x1e, SEQUENCE: 0x30, SET: 0x31,
} as const;
const _CONSTRUCTED = 0x20;
const _CONTEXT = 0x80;
const _LONG_TAG = 0x1f;

/**
 * The deepest nesting read: a PKCS#12 file nests about 12 levels (PFX, AuthenticatedSafe, SafeContents, bags,
 * their encrypted contents, a certificate's extensions); 32 leaves room and keeps hostile input from recursing far.
 */
export const MAX_DER_DEPTH = 32;
/** Lengths are given in at most 4 octets: nothing this project reads is 4 GiB, and it keeps arithmetic exact. */
const _MAX_LENGTH_OCTETS = 4;

/** One element: its identifier octet, and where its content lies in `bytes`. */
export interface DerNode {
  tag: number;
  /** The whole input the node lies in. */
  bytes: Uint8Array;
  /** Offset of the identifier octet. */
  start: number;
  /** Offset of the content and the offset just after it. */
  contentStart: number;
  end: number;
  depth: number;
}

/** The tag of a context-specific element `[n]`, constructed (EXPLICIT, or IMPLICIT of a SEQUENCE) or primitive. */
export function contextTag(n: number, constructed = true): number {
  return _CONTEXT | (constructed ? _CONSTRUCTED : 0) | n;
}

/** The element at `offset` of `bytes`, checked to lie within `limit`. */
export function readNode(bytes: Uint8Array, offset = 0, limit = bytes.length, depth = 0): DerNode {
  if (depth > MAX_DER_DEPTH) throw new DerError(`DER nests deeper than ${MAX_DER_DEPTH} levels`);
  if (offset + 2 > limit) throw new DerError("DER ends inside an element header");
  const tag = bytes[offset]!;
  if ((tag & _LONG_TAG) === _LONG_TAG) throw new DerError("DER tag numbers above 30 are not used by these formats");
  let length = bytes[offset + 1]!;
  let p = offset + 2;
  if (length === 0x80) throw new DerError("BER indefinite length is not DER");
  if (length > 0x80) {
    const n = length & 0x7f;
    if (n > _MAX_LENGTH_OCTETS) throw new DerError("DER length is too large");
    if (p + n > limit) throw new DerError("DER ends inside a length");
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + bytes[p + i]!;
    // X.690 §10.1: the shortest form; a long form for a length under 128 or a leading zero octet is not DER.
    if (length < 0x80 || bytes[p] === 0) throw new DerError("DER length is not in its shortest form");
    p += n;
  }
  if (length > limit - p) throw new DerError("DER element is longer than what contains it");
  return { tag, bytes, start: offset, contentStart: p, end: p + length, depth };
}

/** Reads `bytes` as exactly one element (nothing after it). */
export function parseDer(bytes: Uint8Array): DerNode {
  const node = readNode(bytes);
  if (node.end !== bytes.length) throw new DerError("DER has bytes after its element");
  return node;
}

/** The content of `node`, a view. */
export function content(node: DerNode): Uint8Array {
  return node.bytes.subarray(node.contentStart, node.end);
}

/** The whole encoding of `node` (header and content), a view. */
export function encoding(node: DerNode): Uint8Array {
  return node.bytes.subarray(node.start, node.end);
}

/** The elements inside a constructed `node`, checking its tag when `tag` is given. */
export function children(node: DerNode, tag?: number): DerNode[] {
  expectTag(node, tag ?? node.tag);
  if ((node.tag & _CONSTRUCTED) === 0) throw new DerError("DER element is not constructed");
  const out: DerNode[] = [];
  for (let p = node.contentStart; p < node.end;) {
    const child = readNode(node.bytes, p, node.end, node.depth + 1);
    out.push(child);
    p = child.end;
  }
  return out;
}

/** Throws unless `node` has `tag`. */
export function expectTag(node: DerNode, tag: number): DerNode {
  if (node.tag !== tag) throw new DerError(`DER element has tag 0x${node.tag.toString(16)} where 0x${tag.toString(16)} is expected`);
  return node;
}

/** The `i`th child, which must exist (and have `tag`, when given). */
export function child(nodes: DerNode[], i: number, tag?: number): DerNode {
  const node = nodes[i];
  if (node === undefined) throw new DerError(`DER sequence has no element ${i + 1}`);
  return tag === undefined ? node : expectTag(node, tag);
}

/** An INTEGER's content bytes, two's complement big-endian, checked minimal (X.690 §8.3.2). */
export function readIntegerBytes(node: DerNode): Uint8Array {
  const c = content(expectTag(node, TAG.INTEGER));
  if (c.length === 0) throw new DerError("DER INTEGER is empty");
  if (c.length > 1 && ((c[0] === 0 && (c[1]! & 0x80) === 0) || (c[0] === 0xff && (c[1]! & 0x80) !== 0))) {
    throw new DerError("DER INTEGER is not minimal");
  }
  return c;
}

/** A non-negative INTEGER as a bigint. */
export function readBigInt(node: DerNode): bigint {
  const c = readIntegerBytes(node);
  if ((c[0]! & 0x80) !== 0) throw new DerError("DER INTEGER is negative where a count is expected");
  let v = 0n;
  for (const b of c) v = (v << 8n) | BigInt(b);
  return v;
}

/** A non-negative INTEGER that must be at most `max` (an iteration count, a key length, a version). */
export function readSmallInt(node: DerNode, max: number): number {
  const v = readBigInt(node);
  if (v > BigInt(max)) throw new DerError(`DER INTEGER is larger than ${max}`);
  return Number(v);
}

/** An OBJECT IDENTIFIER in dotted form (X.690 §8.19). */
export function readOid(node: DerNode): string {
  const c = content(expectTag(node, TAG.OID));
  if (c.length === 0 || c.length > 64) throw new DerError("DER OBJECT IDENTIFIER has a bad length");
  const arcs: number[] = [];
  let v = 0;
  for (let i = 0; i < c.length; i++) {
    const b = c[i]!;
    if (v === 0 && b === 0x80) throw new DerError("DER OBJECT IDENTIFIER arc is not minimal");
    v = v * 128 + (b & 0x7f);
    if (v > Number.MAX_SAFE_INTEGER / 128) throw new DerError("DER OBJECT IDENTIFIER arc is too large");
    if ((b & 0x80) === 0) {
      arcs.push(v);
      v = 0;
    } else if (i === c.length - 1) throw new DerError("DER OBJECT IDENTIFIER ends inside an arc");
  }
  const first = arcs[0]!;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...arcs.slice(1)].join(".");
}

/** An OCTET STRING's content, a view. */
export function readOctetString(node: DerNode): Uint8Array {
  return content(expectTag(node, TAG.OCTET_STRING));
}

/** A BIT STRING's bits and the number of unused bits in its last octet (X.690 §8.6). */
export function readBitString(node: DerNode): { bits: Uint8Array; unused: number } {
  const c = content(expectTag(node, TAG.BIT_STRING));
  const unused = c[0];
  if (unused === undefined || unused > 7 || (c.length === 1 && unused !== 0)) throw new DerError("DER BIT STRING has a bad unused-bits count");
  return { bits: c.subarray(1), unused };
}

/** The text of a string type (UTF8String, PrintableString, IA5String, BMPString, TeletexString as Latin-1). */
export function readString(node: DerNode): string {
  const c = content(node);
  switch (node.tag) {
    case TAG.UTF8_STRING:
      try {
        return new TextDecoder("utf-8", { fatal: true }).decode(c);
      } catch {
        throw new DerError("DER UTF8String is not UTF-8");
      }
    case TAG.BMP_STRING: {
      if (c.length % 2 !== 0) throw new DerError("DER BMPString has an odd length");
      let s = "";
      for (let i = 0; i < c.length; i += 2) s += String.fromCharCode((c[i]! << 8) | c[i + 1]!);
      return s;
    }
    case TAG.PRINTABLE_STRING: case TAG.IA5_STRING: case 0x14 /* TeletexString */: case 0x1a /* VisibleString */: case 0x12 /* NumericString */:
      return _latin1(c);
    default:
      throw new DerError(`DER element with tag 0x${node.tag.toString(16)} is not a string`);
  }
}

/** A UTCTime or GeneralizedTime (RFC 5280 §4.1.2.5: UTC, seconds, `Z`) in ms since the epoch. */
export function readTime(node: DerNode): number {
  const s = _latin1(content(node));
  let m: RegExpExecArray | null;
  if (node.tag === TAG.UTC_TIME && (m = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(s))) {
    // RFC 5280 §4.1.2.5.1: YY of 50 or more is 19YY, else 20YY.
    const yy = Number(m[1]);
    return Date.UTC(yy >= 50 ? 1900 + yy : 2000 + yy, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  }
  if (node.tag === TAG.GENERALIZED_TIME && (m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/.exec(s))) {
    return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  }
  throw new DerError("DER time is not a UTCTime or GeneralizedTime in UTC");
}

function _latin1(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}
