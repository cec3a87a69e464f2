/**
 * The PDF object model the reader builds (ISO 32000-1 clause 7.3): null, booleans, numbers, names,
 * strings, arrays, dictionaries, streams (their dictionary and where their data lies) and
 * indirect references, with the small accessors the reader needs. No writing; no content streams.
 * @module
 */

/** A name object, `/Type`; `name` holds the bytes after `#xx` decoding as latin1 characters. */
export interface PdfName {
  readonly kind: "name";
  readonly name: string;
}

/** A literal or hexadecimal string: raw bytes. */
export interface PdfString {
  readonly kind: "string";
  readonly bytes: Uint8Array;
}

/** An indirect reference, `12 0 R`. */
export interface PdfRef {
  readonly kind: "ref";
  readonly num: number;
  readonly gen: number;
}

/** A dictionary; keys are names without the slash. */
export interface PdfDict {
  readonly kind: "dict";
  readonly map: Map<string, PdfValue>;
}

/** A stream: its dictionary and its raw (still encoded) data within `source`. */
export interface PdfStream {
  readonly kind: "stream";
  readonly dict: PdfDict;
  readonly source: Uint8Array;
  readonly start: number;
  readonly end: number;
}

/** Any PDF object. */
export type PdfValue = null | boolean | number | PdfName | PdfString | PdfRef | PdfDict | PdfStream | PdfValue[];

/** The name's text if `v` is a name, else null. */
export function nameOf(v: PdfValue | undefined): string | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) && v.kind === "name" ? v.name : null;
}

/** `v` if it is a dictionary (a stream's dictionary for a stream), else null. */
export function dictOf(v: PdfValue | undefined): PdfDict | null {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  return v.kind === "dict" ? v : v.kind === "stream" ? v.dict : null;
}

/** `v` if it is a stream, else null. */
export function streamOf(v: PdfValue | undefined): PdfStream | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) && v.kind === "stream" ? v : null;
}

/** `v` if it is a reference, else null. */
export function refOf(v: PdfValue | undefined): PdfRef | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) && v.kind === "ref" ? v : null;
}

/** `v` if it is a string's bytes, else null. */
export function stringOf(v: PdfValue | undefined): Uint8Array | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) && v.kind === "string" ? v.bytes : null;
}

/** `v` if it is an integer, else null. */
export function intOf(v: PdfValue | undefined): number | null {
  return typeof v === "number" && Number.isSafeInteger(v) ? v : null;
}

/**
 * A text string (clause 7.9.2.2) as a JavaScript string: UTF-16BE after a FE FF mark, UTF-8 after
 * EF BB BF (PDF 2.0), else PDFDocEncoding, read here as latin1 (they differ only in characters
 * that file names do not use).
 */
export function decodeTextString(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    let s = "";
    for (let i = 2; i + 1 < bytes.length; i += 2) s += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
    return s;
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder().decode(bytes.subarray(3));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}
