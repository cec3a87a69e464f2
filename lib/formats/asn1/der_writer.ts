/**
 * A DER writer (ITU-T X.690 §10): builds elements bottom-up from their contents, always with the shortest length
 * form, so what it writes is the one DER encoding a signature covers. It writes only what this project needs to
 * produce (PKCS#10 requests): integers, OIDs, strings, BIT and OCTET STRINGs, SEQUENCE, SET and context tags.
 * @module
 */
import { TAG } from "./der.ts";

/** An element `tag` with the given content. */
export function derElement(tag: number, body: Uint8Array): Uint8Array {
  const n = body.length;
  const head = n < 0x80 ? [tag, n] : n < 0x100 ? [tag, 0x81, n] : n < 0x10000 ? [tag, 0x82, n >> 8, n & 0xff] : [tag, 0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  if (n >= 0x1000000) throw new RangeError("DER element too large to write");
  const out = new Uint8Array(head.length + n);
  out.set(head);
  out.set(body, head.length);
  return out;
}

/** The concatenation of encoded elements. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let p = 0;
  for (const part of parts) {
    out.set(part, p);
    p += part.length;
  }
  return out;
}

/** SEQUENCE of the given encoded elements. */
export function derSequence(items: readonly Uint8Array[]): Uint8Array {
  return derElement(TAG.SEQUENCE, concatBytes(items));
}

/** SET OF the given encoded elements, sorted as X.690 §11.6 requires of DER. */
export function derSet(items: readonly Uint8Array[]): Uint8Array {
  return derElement(TAG.SET, concatBytes([...items].sort(_compareBytes)));
}

/** A non-negative INTEGER. */
export function derInteger(value: bigint | number): Uint8Array {
  let v = BigInt(value);
  if (v < 0n) throw new RangeError("Only non-negative integers are written");
  const bytes: number[] = [];
  do {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  } while (v > 0n);
  if ((bytes[0]! & 0x80) !== 0) bytes.unshift(0); // X.690 §8.3.2: a leading 0 keeps it positive
  return derElement(TAG.INTEGER, Uint8Array.from(bytes));
}

/** An OBJECT IDENTIFIER from its dotted form (X.690 §8.19). */
export function derOid(oid: string): Uint8Array {
  if (!/^[0-2](\.\d+)+$/.test(oid)) throw new RangeError(`Not an object identifier: ${oid}`);
  const arcs = oid.split(".").map(Number);
  const out: number[] = [];
  const values = [arcs[0]! * 40 + arcs[1]!, ...arcs.slice(2)];
  for (const value of values) {
    if (!Number.isSafeInteger(value)) throw new RangeError(`Object identifier arc too large: ${oid}`);
    const groups: number[] = [];
    let v = value;
    do {
      groups.unshift(v % 128);
      v = Math.floor(v / 128);
    } while (v > 0);
    out.push(...groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)));
  }
  return derElement(TAG.OID, Uint8Array.from(out));
}

/** NULL. */
export function derNull(): Uint8Array {
  return Uint8Array.of(TAG.NULL, 0);
}

/** An OCTET STRING. */
export function derOctetString(bytes: Uint8Array): Uint8Array {
  return derElement(TAG.OCTET_STRING, bytes);
}

/** A BIT STRING of whole octets (no unused bits), as keys and signatures are. */
export function derBitString(bytes: Uint8Array): Uint8Array {
  return derElement(TAG.BIT_STRING, concatBytes([Uint8Array.of(0), bytes]));
}

/** A UTF8String. */
export function derUtf8String(text: string): Uint8Array {
  return derElement(TAG.UTF8_STRING, new TextEncoder().encode(text));
}

/** A PrintableString (X.680 §41.4); RangeError for a character outside its set. */
export function derPrintableString(text: string): Uint8Array {
  if (!isPrintableString(text)) throw new RangeError("Text has characters a PrintableString cannot hold");
  return derElement(TAG.PRINTABLE_STRING, new TextEncoder().encode(text));
}

/** True when every character of `text` is one a PrintableString may hold (X.680 §41.4, table 10). */
export function isPrintableString(text: string): boolean {
  return /^[A-Za-z0-9 '()+,\-./:=?]*$/.test(text);
}

/** A context-specific element `[n]` around the given content: constructed unless `primitive`. */
export function derContext(n: number, body: Uint8Array, primitive = false): Uint8Array {
  return derElement(0x80 | (primitive ? 0 : 0x20) | n, body);
}

function _compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
