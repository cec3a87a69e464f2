/**
 * A streaming multipart/form-data parser (RFC 7578 over RFC 2046 §5.1): a state machine
 * fed chunks, which finds each delimiter with one Buffer.indexOf pass and hands out
 * every part with its body buffered (the whole body is bounded by `bodyBytes`). It does
 * not decode Content-Transfer-Encoding (RFC 7578 §4.7 deprecates it) nor charsets of
 * field values; header parsing lives in headers.ts, the error type in errors.ts.
 * @module
 */

import { Buffer } from "node:buffer";
import { MultipartError, multipartBodyError, multipartTooLarge } from "./errors.ts";
import { isValidBoundary, parsePartHeaders } from "./headers.ts";
import type { PartHead } from "./headers.ts";

export { parseBoundary } from "./headers.ts";

const HTAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SP = 0x20;
const HYPHEN = 0x2d;

/** Limits of one multipart body; every one is enforced while streaming. */
export interface MultipartLimits {
  /** The whole body, preamble and epilogue included: over it is 413 PAYLOAD_TOO_LARGE. */
  bodyBytes: number;
  /** How many parts; one more is 400 "too many parts". */
  parts: number;
  /** The header block of one part, blank line included; over it is 400 "part headers over limit". */
  headerBytes: number;
}

/**
 * The defaults. There is no separate per-field limit: the `xml` part may be a plain
 * field as large as the upload, and every part is buffered anyway, so `bodyBytes`
 * already bounds the memory a request can take.
 */
export const DEFAULT_MULTIPART_LIMITS: Readonly<MultipartLimits> = Object.freeze({
  /** README “Security model”: upload limit 10 MiB (UPLOAD_LIMIT). */
  bodyBytes: 10 * 1024 * 1024,
  /** A submission needs one part (`xml`); ten leave room for a client's extra fields. */
  parts: 10,
  /** Real clients send < 200 bytes per part; 16 KiB is node:http's default for a whole request head. */
  headerBytes: 16 * 1024,
});

/** One part of a multipart/form-data body. */
export interface MultipartPart {
  /** The `name` of its Content-Disposition, never empty. */
  name: string;
  /** The `filename` (or decoded `filename*`), `""` when sent empty, null when absent. */
  filename: string | null;
  /** Its Content-Type header as sent, or null. */
  contentType: string | null;
  /** All its headers, names lower-cased. */
  headers: Record<string, string>;
  /** Its bytes. A view: it may share its ArrayBuffer with the chunk it came in or a pool. */
  body: Uint8Array;
}

/** States of the parser; the names follow the grammar of RFC 2046 §5.1.1. */
const S = {
  /** Before the first delimiter: discard-text, searched for a delimiter. */
  PREAMBLE: 0,
  /** Right after `CRLF--boundary`: `--`, transport-padding or CRLF must follow. */
  AFTER_DELIMITER: 1,
  /** After the first `-` of a close-delimiter. */
  CLOSE_DASH: 2,
  /** Transport-padding (LWSP) before the CRLF that ends a delimiter line. */
  PADDING: 3,
  /** After the CR that ends a delimiter line. */
  PADDING_LF: 4,
  /** Header lines of a part, up to the blank line. */
  HEADERS: 5,
  /** A part's content, searched for the next delimiter. */
  BODY: 6,
  /** After the close-delimiter: discard-text. */
  EPILOGUE: 7,
  /** end() succeeded. */
  DONE: 8,
} as const;
type State = (typeof S)[keyof typeof S];

/** Header lines are UTF-8 (RFC 7578 §5.1); a BOM is kept so that it fails as a header name. */
const DECODER = new TextDecoder("utf-8", { ignoreBOM: true });
const EMPTY = new Uint8Array(0);

/**
 * The multipart state machine: feed it with push(chunk) and end(); it calls `onPart`
 * for each part as soon as the delimiter after it is seen. Every failure is a
 * MultipartError (`too_large` over `bodyBytes`); after one, push() and end() throw it again.
 * Chunks must not be modified after push(): part bodies are views into them.
 */
export class MultipartParser {
  /** The limits in force, defaults filled in. */
  readonly limits: Readonly<MultipartLimits>;
  readonly #onPart: (part: MultipartPart) => void;
  /** The delimiter, `CRLF--boundary` (RFC 2046 §5.1.1). */
  readonly #delim: Buffer;
  #state: State = S.PREAMBLE;
  /**
   * How many bytes of #delim ended the previous chunk, held back from the data until
   * the next chunk decides. Starts at 2: a virtual CRLF before the body, so that the
   * first delimiter, which may lack its CRLF, is found like every other one.
   */
  #matched = 2;
  #bytes = 0;
  #parts = 0;
  #error: MultipartError | null = null;
  #headerBytes = 0;
  #linePieces: Uint8Array[] = [];
  #lines: string[] = [];
  #head: PartHead | null = null;
  #bodyPieces: Uint8Array[] = [];
  #bodyLength = 0;

  /** A parser for `boundary` (as returned by parseBoundary) that reports parts to `onPart`. */
  constructor(boundary: string, onPart: (part: MultipartPart) => void, limits: Partial<MultipartLimits> = {}) {
    if (boundary === "" || !isValidBoundary(boundary)) throw new RangeError(`Invalid multipart boundary: ${JSON.stringify(boundary)}`);
    this.limits = resolveMultipartLimits(limits);
    this.#onPart = onPart;
    this.#delim = Buffer.from(`\r\n--${boundary}`, "latin1");
  }

  /** Parses the next chunk of the body. */
  push(chunk: Uint8Array): void {
    if (this.#error !== null) throw this.#error;
    if (this.#state === S.DONE) throw new TypeError("MultipartParser.push() called after end()");
    try {
      this.#bytes += chunk.byteLength;
      if (this.#bytes > this.limits.bodyBytes) throw multipartTooLarge(this.limits.bodyBytes);
      this.#parse(chunk instanceof Buffer ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    } catch (err) {
      if (err instanceof MultipartError) this.#error = err;
      throw err;
    }
  }

  /** Declares the body complete; 400 unless the close-delimiter was seen. */
  end(): void {
    if (this.#error !== null) throw this.#error;
    if (this.#state === S.EPILOGUE || this.#state === S.DONE) {
      this.#state = S.DONE;
      return;
    }
    const issue = this.#state === S.PREAMBLE ? "no parts" : this.#state === S.HEADERS ? "truncated part headers" : "missing final boundary";
    throw (this.#error = multipartBodyError(issue));
  }

  #parse(buf: Buffer): void {
    const len = buf.length;
    let pos = 0;
    while (pos < len) {
      switch (this.#state) {
        case S.PREAMBLE:
        case S.BODY:
          pos = this.#scan(buf, pos);
          break;
        case S.HEADERS:
          pos = this.#readHeaderLine(buf, pos);
          break;
        case S.AFTER_DELIMITER: {
          const c = buf[pos++];
          if (c === HYPHEN) this.#state = S.CLOSE_DASH;
          else if (c === SP || c === HTAB) this.#state = S.PADDING;
          else if (c === CR) this.#state = S.PADDING_LF;
          else throw multipartBodyError("invalid boundary line");
          break;
        }
        case S.CLOSE_DASH:
          if (buf[pos++] !== HYPHEN) throw multipartBodyError("invalid boundary line");
          if (this.#parts === 0) throw multipartBodyError("no parts");
          this.#state = S.EPILOGUE;
          break;
        case S.PADDING: {
          const c = buf[pos++];
          if (c === CR) this.#state = S.PADDING_LF;
          else if (c !== SP && c !== HTAB) throw multipartBodyError("invalid boundary line");
          break;
        }
        case S.PADDING_LF:
          if (buf[pos++] !== LF) throw multipartBodyError("invalid boundary line");
          this.#startPart();
          break;
        case S.EPILOGUE:
          return; // RFC 2046 §5.1.1: the epilogue is ignored
        default:
          throw new TypeError("MultipartParser.push() called after end()");
      }
    }
  }

  /**
   * Searches preamble or body content from `pos` for the delimiter and returns where to go on.
   * The delimiter's first byte, CR, occurs nowhere else in it (bchars exclude CR), so a
   * held-back prefix that the next chunk does not complete is plain data and no
   * delimiter can start inside it: every content byte is looked at once by indexOf,
   * plus at most the delimiter's length at the end of a chunk.
   */
  #scan(buf: Buffer, pos: number): number {
    const delim = this.#delim;
    const dlen = delim.length;
    const len = buf.length;
    const held = this.#matched;
    if (held > 0) {
      const need = dlen - held;
      const avail = Math.min(need, len - pos);
      let i = 0;
      while (i < avail && buf[pos + i] === delim[held + i]) i++;
      if (i === avail) {
        if (avail < need) {
          this.#matched = held + avail;
          return len;
        }
        this.#matched = 0;
        this.#delimiterFound();
        return pos + need;
      }
      this.#matched = 0;
      this.#content(delim.subarray(0, held));
    }
    const at = buf.indexOf(delim, pos);
    if (at >= 0) {
      if (at > pos) this.#content(buf.subarray(pos, at));
      this.#delimiterFound();
      return at + dlen;
    }
    // No whole delimiter: hold back a tail that could be the start of one.
    let end = len;
    for (let cr = buf.indexOf(CR, Math.max(pos, len - dlen + 1)); cr >= 0; cr = buf.indexOf(CR, cr + 1)) {
      let i = cr + 1;
      while (i < len && buf[i] === delim[i - cr]) i++;
      if (i === len) {
        end = cr;
        this.#matched = len - cr;
        break;
      }
    }
    if (end > pos) this.#content(buf.subarray(pos, end));
    return len;
  }

  #content(piece: Uint8Array): void {
    if (this.#state !== S.BODY) return; // preamble: discard-text
    this.#bodyPieces.push(piece);
    this.#bodyLength += piece.length;
  }

  #delimiterFound(): void {
    if (this.#state === S.BODY) this.#finishPart();
    this.#state = S.AFTER_DELIMITER;
  }

  #startPart(): void {
    if (this.#parts >= this.limits.parts) throw multipartBodyError("too many parts");
    this.#parts++;
    this.#state = S.HEADERS;
    this.#headerBytes = 0;
    this.#lines = [];
  }

  /** Consumes header bytes from `pos` up to and including the next LF. */
  #readHeaderLine(buf: Buffer, pos: number): number {
    const lf = buf.indexOf(LF, pos);
    const end = lf < 0 ? buf.length : lf + 1;
    this.#headerBytes += end - pos;
    if (this.#headerBytes > this.limits.headerBytes) throw multipartBodyError("part headers over limit");
    if (lf < 0) {
      this.#linePieces.push(buf.subarray(pos));
      return end;
    }
    let line: Uint8Array = buf.subarray(pos, lf);
    if (this.#linePieces.length > 0) {
      this.#linePieces.push(line);
      line = Buffer.concat(this.#linePieces);
      this.#linePieces = [];
    }
    if (line[line.length - 1] !== CR) throw multipartBodyError("header line not ended by CRLF");
    if (line.length > 1) {
      this.#lines.push(DECODER.decode(line.subarray(0, line.length - 1)));
    } else {
      // The blank line: RFC 2046 body-part = MIME-part-headers [CRLF *OCTET].
      this.#head = parsePartHeaders(this.#lines);
      this.#state = S.BODY;
      this.#bodyPieces = [];
      this.#bodyLength = 0;
    }
    return end;
  }

  #finishPart(): void {
    const head = this.#head;
    if (head === null) throw new TypeError("MultipartParser: part without headers"); // unreachable: BODY follows HEADERS
    const pieces = this.#bodyPieces;
    // One slice (the usual case below the chunk size) is handed out as is; more are copied once.
    const body = pieces.length === 0 ? EMPTY : pieces.length === 1 ? (pieces[0] as Uint8Array) : Buffer.concat(pieces, this.#bodyLength);
    this.#bodyPieces = [];
    this.#head = null;
    this.#onPart({ name: head.name, filename: head.filename, contentType: head.contentType, headers: head.headers, body });
  }
}

/**
 * Parses a whole multipart/form-data body into its parts. A `contentLength` over the
 * limit is refused (`too_large`) before anything is read. On any error it stops pulling from
 * `body` at once and, deliberately, does not call the iterator's return(): for a
 * node:http request that would destroy the socket before the error can be answered.
 * The caller must then not reuse the connection for another request: answer with
 * `Connection: close` and close the socket after the response (or, when the rest is
 * known to be small, read `body` to its end first).
 */
export async function parseMultipart(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
  limits: Partial<MultipartLimits> = {},
  contentLength: number | null = null,
): Promise<MultipartPart[]> {
  const parts: MultipartPart[] = [];
  const parser = new MultipartParser(boundary, (part) => parts.push(part), limits);
  if (contentLength !== null && contentLength > parser.limits.bodyBytes) throw multipartTooLarge(parser.limits.bodyBytes);
  const iterator = body[Symbol.asyncIterator]();
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) break;
    parser.push(next.value);
  }
  parser.end();
  return parts;
}

/** `limits` over the defaults; RangeError for a limit that is not a positive integer. */
export function resolveMultipartLimits(limits: Partial<MultipartLimits> = {}): Readonly<MultipartLimits> {
  // The common case, no overrides, costs a parser nothing.
  if (limits.bodyBytes === undefined && limits.parts === undefined && limits.headerBytes === undefined) return DEFAULT_MULTIPART_LIMITS;
  const out = { ...DEFAULT_MULTIPART_LIMITS };
  for (const key of ["bodyBytes", "parts", "headerBytes"] as const) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`Multipart limit ${key} must be a positive integer, got ${value}`);
    out[key] = value;
  }
  return Object.freeze(out);
}

