/**
 * KSeF's file rules for an FA invoice (KSeF 2.0 documentation, "faktury/weryfikacja-faktury.md"):
 * UTF-8 without a byte-order mark, no processing instructions, and at most 1,000,000 bytes
 * (3,000,000 for an invoice with attachments). The parser drops the BOM and processing
 * instructions, so they are looked for in the raw bytes.
 * @module
 */

import { Buffer } from "node:buffer";
import type { Violation } from "./violation.ts";

/** "weryfikacja-faktury.md": an invoice file is at most 1 MB (1,000,000 bytes)... */
export const KSEF_MAX_BYTES = 1_000_000;
/** ...or 3 MB (3,000,000 bytes) when it carries attachments (FA(3) `Zalacznik`). */
export const KSEF_MAX_BYTES_WITH_ATTACHMENTS = 3_000_000;

const LT = 0x3c, QM = 0x3f, BANG = 0x21;

function _file(message: string, line: number | null = null, column: number | null = null): Violation {
  return { rule: "KSEF-FILE", severity: "error", path: "/", line, column, message };
}

/** The KSeF file rules `bytes` breaks; `encoding` is what the parser decoded them with. */
export function checkKsefFile(bytes: Uint8Array, encoding: string, hasAttachments: boolean): Violation[] {
  const out: Violation[] = [];
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (bom) out.push(_file("The file starts with a byte-order mark; KSeF requires UTF-8 without a BOM", 1, 1));
  if (encoding.toLowerCase() !== "utf-8") out.push(_file(`The file is encoded in ${encoding}; KSeF requires UTF-8`, 1, 1));
  const limit = hasAttachments ? KSEF_MAX_BYTES_WITH_ATTACHMENTS : KSEF_MAX_BYTES;
  if (bytes.byteLength > limit) out.push(_file(`The file is ${bytes.byteLength} bytes; KSeF accepts at most ${limit}${hasAttachments ? " with attachments" : ""}`));
  const pi = _mayHoldProcessingInstruction(bytes, bom ? 3 : 0) ? _findProcessingInstruction(bytes, bom ? 3 : 0) : null;
  if (pi) out.push(_file("The file contains a processing instruction; KSeF allows none besides the XML declaration", pi.line, pi.column));
  return out;
}

/**
 * Whether `<?` occurs anywhere but as the XML declaration: a native search for the rare `?` byte, so that the usual
 * file (none) is not walked byte by byte in JavaScript. Buffer's indexOf (memchr) over a view of the same bytes, not
 * Uint8Array's, which V8 runs element by element: 1 µs instead of 20 to 35 for a 30 KB invoice.
 */
function _mayHoldProcessingInstruction(bytes: Uint8Array, start: number): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = b.indexOf(QM, start + 1); i >= 0; i = b.indexOf(QM, i + 1)) {
    if (b[i - 1] === LT && !(i - 1 === start && _isDeclaration(b, start))) return true;
  }
  return false;
}

/** Whether the `<?` at `i` opens the XML declaration (`<?xml` and white space). */
function _isDeclaration(b: Uint8Array, i: number): boolean {
  return _ascii(b, i + 2, 3) === "xml" && (b[i + 5] === 0x20 || b[i + 5] === 0x09 || b[i + 5] === 0x0a || b[i + 5] === 0x0d);
}

/**
 * The position of the first `<?` that is not the XML declaration, outside comments and CDATA sections
 * (the only places besides markup where `<?` could be written; in text and attribute values `<` must be escaped).
 */
function _findProcessingInstruction(b: Uint8Array, start: number): { line: number; column: number } | null {
  let line = 1, lineStart = 0;
  for (let i = start; i < b.length; i++) {
    const c = b[i];
    if (c === 0x0a) {
      line++;
      lineStart = i + 1;
      continue;
    }
    if (c !== LT) continue;
    const next = b[i + 1];
    if (next === QM) {
      const decl = i === start && _isDeclaration(b, i);
      if (!decl) return { line, column: i - lineStart + 1 };
      i = _skipTo(b, i + 2, "?>");
    } else if (next === BANG) {
      const from = i;
      if (_ascii(b, i + 2, 2) === "--") i = _skipTo(b, i + 4, "-->");
      else if (_ascii(b, i + 2, 7) === "[CDATA[") i = _skipTo(b, i + 9, "]]>");
      if (i < 0) return null;
      for (let j = b.indexOf(0x0a, from); j >= 0 && j <= i; j = b.indexOf(0x0a, j + 1)) {
        line++;
        lineStart = j + 1;
      }
    }
    if (i < 0) return null;
  }
  return null;
}

function _ascii(b: Uint8Array, at: number, n: number): string {
  return String.fromCharCode(...b.subarray(at, at + n));
}

/** The index of the last byte of `end` after `from`, or -1. */
function _skipTo(b: Uint8Array, from: number, end: string): number {
  const first = end.charCodeAt(0);
  for (let i = b.indexOf(first, from); i >= 0; i = b.indexOf(first, i + 1)) {
    if (_ascii(b, i, end.length) === end) return i + end.length - 1;
  }
  return -1;
}
