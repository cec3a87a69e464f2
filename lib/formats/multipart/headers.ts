/**
 * The header side of multipart/form-data: the `boundary` parameter of the request's
 * Content-Type (RFC 2046 §5.1.1) and the header block of each part, above all its
 * Content-Disposition (RFC 7578 §4.2, plus the escapes of the WHATWG HTML form encoder).
 * It does not scan bodies; parse.ts does and calls in here once per part.
 * @module
 */

import { MultipartError, multipartBodyError } from "./errors.ts";

const HTAB = 0x09;
const SP = 0x20;
const DQUOTE = 0x22;
const SEMICOLON = 0x3b;
const EQUALS = 0x3d;
const BACKSLASH = 0x5c;

/** RFC 2046 §5.1.1: a boundary is 1 to 70 of these, the last one not a space. */
const BOUNDARY_MAX_LENGTH = 70;
const BCHARS = /^[0-9A-Za-z'()+_,\-./:=? ]*[0-9A-Za-z'()+_,\-./:=?]$/;
/** RFC 9110 §5.6.2 token: what a header field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The part of a part's header block that the API cares about. */
export interface PartHead {
  name: string;
  filename: string | null;
  contentType: string | null;
  /** Every header of the part, names lower-cased, repeated ones joined with ", ". */
  headers: Record<string, string>;
}

/** The boundary of a `multipart/form-data` Content-Type; 415 for another type, 400 for a bad boundary. */
export function parseBoundary(contentType: string | null): string {
  const semi = contentType === null ? -1 : contentType.indexOf(";");
  const type = contentType === null ? "" : _trimOws(semi < 0 ? contentType : contentType.slice(0, semi));
  if (type.toLowerCase() !== "multipart/form-data") {
    throw new MultipartError("media_type", "Content-Type", "not multipart/form-data", "Content-Type must be multipart/form-data");
  }
  const params = contentType === null || semi < 0 ? [] : _parseParams(contentType, semi);
  if (params === null) throw _contentTypeError("malformed parameters");
  let boundary: string | undefined;
  for (const [name, value] of params) {
    if (name !== "boundary") continue;
    if (boundary !== undefined) throw _contentTypeError("duplicate boundary");
    boundary = value;
  }
  if (boundary === undefined) throw _contentTypeError("missing boundary");
  if (boundary === "") throw _contentTypeError("empty boundary");
  if (boundary.length > BOUNDARY_MAX_LENGTH) throw _contentTypeError("boundary too long");
  if (!BCHARS.test(boundary)) throw _contentTypeError("invalid boundary characters");
  return boundary;
}

/** Whether `boundary` is what RFC 2046 §5.1.1 allows (for callers that did not get it from parseBoundary). */
export function isValidBoundary(boundary: string): boolean {
  return boundary.length <= BOUNDARY_MAX_LENGTH && BCHARS.test(boundary);
}

/**
 * Reads the header lines of one part (CRLF already removed); 400 for anything a
 * form-data part may not be. Folded lines (obs-fold, a line that starts with
 * whitespace, RFC 5322 §2.2.3) are unfolded into the header above them.
 */
export function parsePartHeaders(lines: readonly string[]): PartHead {
  const headers = Object.create(null) as Record<string, string>;
  let last: string | null = null;
  for (const line of lines) {
    if (line.includes("\r")) throw _bodyError("bare CR in part headers");
    const first = line.charCodeAt(0);
    if (first === SP || first === HTAB) {
      // The input that crashed dicer: a folded line with nothing above it to fold into.
      if (last === null) throw _bodyError("continuation line without a header");
      const more = _trimOws(line);
      if (more !== "") headers[last] = headers[last] === "" ? more : `${headers[last]} ${more}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon < 0) throw _bodyError("header line without colon");
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) throw _bodyError("invalid header name");
    const key = name.toLowerCase();
    const value = _trimOws(line.slice(colon + 1));
    const previous = headers[key];
    if (previous === undefined) {
      headers[key] = value;
    } else if (key === "content-disposition" || key === "content-type") {
      throw _bodyError(`duplicate ${key === "content-type" ? "Content-Type" : "Content-Disposition"} header`);
    } else {
      headers[key] = `${previous}, ${value}`;
    }
    last = key;
  }
  const disposition = headers["content-disposition"];
  if (disposition === undefined) throw _bodyError("missing Content-Disposition");
  const { name, filename } = _parseDisposition(disposition);
  return { name, filename, contentType: headers["content-type"] ?? null, headers };
}

/** RFC 7578 §4.2: `form-data; name="…"` with an optional `filename` (or RFC 8187 `filename*`). */
function _parseDisposition(value: string): { name: string; filename: string | null } {
  const semi = value.indexOf(";");
  if (_trimOws(semi < 0 ? value : value.slice(0, semi)).toLowerCase() !== "form-data") {
    throw _bodyError("not form-data disposition");
  }
  const params = semi < 0 ? [] : _parseParams(value, semi);
  if (params === null) throw _bodyError("malformed Content-Disposition");
  let name: string | undefined;
  let filename: string | undefined;
  let filenameStar: string | undefined;
  for (const [key, v] of params) {
    if (key === "name") {
      if (name !== undefined) throw _bodyError("duplicate name parameter");
      name = v;
    } else if (key === "filename") {
      if (filename !== undefined) throw _bodyError("duplicate filename parameter");
      filename = v;
    } else if (key === "filename*") {
      filenameStar = v;
    }
  }
  if (name === undefined) throw _bodyError("missing name");
  if (name === "") throw _bodyError("empty name");
  // RFC 7578 §4.2 forbids filename*, but where a client sends it anyway it is the
  // better spelling; an undecodable one is ignored, as RFC 6266 §4.3 advises.
  const starred = filenameStar === undefined ? null : _decodeExtValue(filenameStar);
  return {
    name: _unescapeHtml(name),
    filename: starred ?? (filename === undefined ? null : _unescapeHtml(filename)),
  };
}

/**
 * `;`-separated `name=value` parameters after `from` (the first `;`), value a token or
 * a quoted-string; names lower-cased. Lenient where clients are sloppy (unquoted values
 * run to the next `;`, valueless and empty parameters are skipped); null when a
 * quoted-string is unterminated or followed by junk.
 */
function _parseParams(s: string, from: number): Array<[string, string]> | null {
  const out: Array<[string, string]> = [];
  const len = s.length;
  let i = from;
  for (;;) {
    i = _skipOws(s, i);
    if (i >= len) return out;
    if (s.charCodeAt(i) !== SEMICOLON) return null;
    i = _skipOws(s, i + 1);
    let j = i;
    while (j < len && s.charCodeAt(j) !== EQUALS && s.charCodeAt(j) !== SEMICOLON) j++;
    if (j >= len || s.charCodeAt(j) === SEMICOLON) {
      i = j;
      continue;
    }
    const name = _trimOws(s.slice(i, j)).toLowerCase();
    i = _skipOws(s, j + 1);
    let value: string;
    if (s.charCodeAt(i) === DQUOTE) {
      const quoted = _readQuoted(s, i + 1);
      if (quoted === null) return null;
      value = quoted.value;
      i = quoted.end;
    } else {
      j = i;
      while (j < len && s.charCodeAt(j) !== SEMICOLON) j++;
      value = _trimOws(s.slice(i, j));
      i = j;
    }
    if (name === "") return null;
    out.push([name, value]);
  }
}

/**
 * A quoted-string body from `start` (after the opening quote) to its closing quote.
 * Only `\"` and `\\` are escapes: browsers and undici send backslashes unescaped
 * (Windows paths), so `\` before anything else stays a backslash.
 */
function _readQuoted(s: string, start: number): { value: string; end: number } | null {
  let value = "";
  let from = start;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === DQUOTE) return { value: value + s.slice(from, i), end: i + 1 };
    if (c === BACKSLASH) {
      const next = s.charCodeAt(i + 1);
      if (next === DQUOTE || next === BACKSLASH) {
        value += s.slice(from, i);
        from = i + 1;
        i++;
      }
    }
  }
  return null;
}

/** The WHATWG HTML form encoder writes `"`, CR and LF in names as %22, %0D, %0A; undo that. */
function _unescapeHtml(s: string): string {
  if (!s.includes("%")) return s;
  return s.replace(/%(22|0d|0a)/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const UTF8_FATAL = new TextDecoder("utf-8", { fatal: true });
const LATIN1 = new TextDecoder("latin1");

/** RFC 8187 §3.2 ext-value `charset'lang'pct-encoded` (UTF-8 or ISO-8859-1), or null. */
function _decodeExtValue(v: string): string | null {
  const q1 = v.indexOf("'");
  const q2 = q1 < 0 ? -1 : v.indexOf("'", q1 + 1);
  if (q2 < 0) return null;
  const charset = v.slice(0, q1).toLowerCase();
  if (charset !== "utf-8" && charset !== "iso-8859-1") return null;
  const text = v.slice(q2 + 1);
  const bytes = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25) {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      bytes[n++] = parseInt(hex, 16);
      i += 2;
    } else if (c > 0x20 && c < 0x7f) {
      bytes[n++] = c;
    } else {
      return null;
    }
  }
  const raw = bytes.subarray(0, n);
  if (charset === "iso-8859-1") return LATIN1.decode(raw);
  try {
    return UTF8_FATAL.decode(raw);
  } catch {
    return null; // not UTF-8 after all: ignored like any other undecodable filename*
  }
}

function _skipOws(s: string, i: number): number {
  while (i < s.length && (s.charCodeAt(i) === SP || s.charCodeAt(i) === HTAB)) i++;
  return i;
}

function _trimOws(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (s.charCodeAt(a) === SP || s.charCodeAt(a) === HTAB)) a++;
  while (b > a && (s.charCodeAt(b - 1) === SP || s.charCodeAt(b - 1) === HTAB)) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

function _contentTypeError(issue: string): MultipartError {
  return new MultipartError("malformed", "Content-Type", issue, `Invalid Content-Type: ${issue}`);
}

const _bodyError = multipartBodyError;
