/**
 * Turns the bytes of an XML document into text (XML 1.0 5th ed. §4.3.3 and
 * Appendix F): a byte order mark or the `<?` pattern picks UTF-8 or UTF-16, else
 * the encoding declaration names a decoder, else UTF-8. Invalid byte sequences
 * are errors, never U+FFFD. It does not guess: no declaration means UTF-8.
 * @module
 */

import { quoteXml, XmlError, xmlErrorAt } from "./errors.ts";
import { hasXmlDecl, parseXmlDecl } from "./decl.ts";

/** Decoded text and the name of the encoding it was decoded with. */
export interface DecodedXml {
  text: string;
  /** Canonical name, lower case: "utf-8", "utf-16le", "iso-8859-2", "windows-1250"… */
  encoding: string;
}

/**
 * Labels of ISO-8859-1 and US-ASCII (IANA). The Encoding Standard decodes both as
 * windows-1252, which turns bytes 0x80-0x9F into other characters: these are
 * decoded here exactly, byte for character.
 */
const LATIN1_LABELS = new Set(["iso-8859-1", "iso_8859-1", "iso8859-1", "iso88591", "latin1", "l1", "cp819", "ibm819", "csisolatin1", "iso-ir-100"]);
const ASCII_LABELS = new Set(["us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us", "cp367", "ibm367", "csascii", "iso-ir-6"]);

/**
 * windows-1252 bytes 0x80-0x9F (Encoding Standard index). Node 20 decodes windows-1252
 * as ISO-8859-1, Deno does not: decoding it here gives the same text on both.
 */
const CP1252_HIGH = "\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F" +
  "\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178";

/** Bytes per String.fromCharCode call: well under engines' argument limits. */
const CHUNK = 8192;

interface _Decoder {
  name: string;
  decode(bytes: Uint8Array): string;
}

/** Decodes a document's bytes, following its byte order mark and encoding declaration. */
export function decodeXml(bytes: Uint8Array): DecodedXml {
  const [b0, b1, b2, b3] = bytes;
  let utf16: "utf-16le" | "utf-16be" | null = null;
  if ((b0 === 0xfe && b1 === 0xff) || (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f)) utf16 = "utf-16be";
  else if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00)) utf16 = "utf-16le";

  if (utf16 !== null) {
    const text = _textDecoder(utf16)!.decode(bytes);
    if (hasXmlDecl(text, 0)) {
      const decl = parseXmlDecl(text, 0, 0);
      if (decl.encoding !== null && !decl.encoding.toLowerCase().startsWith("utf-16")) {
        throw xmlErrorAt(text, decl.encodingAt, `Encoding declaration ${quoteXml(decl.encoding)} contradicts the UTF-16 byte order`);
      }
    }
    return { text, encoding: utf16 };
  }

  const bom = b0 === 0xef && b1 === 0xbb && b2 === 0xbf;
  const start = bom ? 3 : 0;
  let decoder = _textDecoder("utf-8")!;
  if (_startsWithDecl(bytes, start)) {
    // The declaration is ASCII in every encoding left here, so its bytes can be read as Latin-1.
    const gt = bytes.indexOf(0x3e, start);
    const head = _latin1(bytes.subarray(start, gt < 0 ? bytes.length : gt + 1));
    const decl = parseXmlDecl(head, 0, 0);
    if (decl.encoding !== null) {
      const named = _decoderFor(decl.encoding);
      if (named === null) throw xmlErrorAt(head, decl.encodingAt, `Unsupported encoding ${quoteXml(decl.encoding)}`);
      if (bom && named.name !== "utf-8") {
        throw xmlErrorAt(head, decl.encodingAt, `Encoding declaration ${quoteXml(decl.encoding)} contradicts the UTF-8 byte order mark`);
      }
      if (named.name.startsWith("utf-16")) {
        throw xmlErrorAt(head, decl.encodingAt, `Encoding declaration ${quoteXml(decl.encoding)} contradicts the document, which is not UTF-16`);
      }
      decoder = named;
    }
  }
  return { text: decoder.decode(bytes), encoding: decoder.name };
}

/** The canonical name of an encoding label, or the label in lower case when no decoder knows it. */
export function encodingName(label: string): string {
  return _decoderFor(label)?.name ?? label.toLowerCase();
}

function _startsWithDecl(bytes: Uint8Array, p: number): boolean {
  // "<?xml" followed by white space
  const ws = bytes[p + 5];
  return bytes[p] === 0x3c && bytes[p + 1] === 0x3f && bytes[p + 2] === 0x78 && bytes[p + 3] === 0x6d &&
    bytes[p + 4] === 0x6c && (ws === 0x20 || ws === 0x09 || ws === 0x0a || ws === 0x0d);
}

function _decoderFor(label: string): _Decoder | null {
  const lower = label.toLowerCase();
  if (LATIN1_LABELS.has(lower)) return { name: "iso-8859-1", decode: _latin1 };
  if (ASCII_LABELS.has(lower)) return { name: "us-ascii", decode: _ascii };
  const decoder = _textDecoder(label);
  return decoder?.name === "windows-1252" ? { name: "windows-1252", decode: _cp1252 } : decoder;
}

function _textDecoder(label: string): _Decoder | null {
  let td: TextDecoder;
  try {
    td = new TextDecoder(label, { fatal: true });
  } catch {
    return null; // RangeError: a label the runtime cannot decode
  }
  const name = td.encoding;
  return {
    name,
    decode(bytes: Uint8Array): string {
      try {
        return td.decode(bytes);
      } catch {
        throw _invalidBytes(name, bytes);
      }
    },
  };
}

/** Finds where the bytes stop being valid in `name` (only after decoding failed) and says so. */
function _invalidBytes(name: string, bytes: Uint8Array): XmlError {
  // With {stream: true} an incomplete sequence at the end is not an error, so
  // "this prefix decodes" is monotone in the prefix length: binary search it.
  const prefix = (k: number): string | null => {
    try {
      return new TextDecoder(name, { fatal: true }).decode(bytes.subarray(0, k), { stream: true });
    } catch {
      return null;
    }
  };
  let text = prefix(bytes.length);
  if (text === null) {
    let good = 0;
    let bad = bytes.length;
    while (bad - good > 1) {
      const mid = (good + bad) >>> 1;
      if (prefix(mid) === null) bad = mid;
      else good = mid;
    }
    text = prefix(good) ?? "";
  }
  return xmlErrorAt(text, text.length, `Invalid ${name.toUpperCase()} byte sequence`);
}

function _latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return out;
}

function _cp1252(bytes: Uint8Array): string {
  const text = _latin1(bytes);
  return /[\x80-\x9F]/.test(text) ? text.replace(/[\x80-\x9F]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!) : text;
}

function _ascii(bytes: Uint8Array): string {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! > 0x7f) {
      const before = _latin1(bytes.subarray(0, i));
      throw xmlErrorAt(before, i, "Invalid US-ASCII byte");
    }
  }
  return _latin1(bytes);
}
