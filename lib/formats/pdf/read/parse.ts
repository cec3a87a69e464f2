/**
 * The PDF object parser (ISO 32000-1 clause 7.3, clause 7.3.10): direct objects from the tokens of lexer.ts,
 * with arrays and dictionaries built on an explicit stack (so depth is a counted limit, not the
 * call stack), `N G R` references by two tokens of look-ahead, and indirect objects `N G obj … endobj`
 * with their stream data located. It never follows references; document.ts resolves them.
 * @module
 */

import { Buffer } from "node:buffer";
import { isWhite, Lexer, TOKEN } from "./lexer.ts";
import type { ReadBudget } from "./limits.ts";
import { PdfReadError } from "./read_error.ts";
import type { PdfDict, PdfValue } from "./values.ts";

const CR = 13, LF = 10;

interface _Frame {
  array: PdfValue[] | null;
  dict: Map<string, PdfValue> | null;
  key: string | null;
}

/** Parses one direct object at the lexer's position (after next() is called by this function). */
export function parseValue(lx: Lexer): PdfValue {
  const stack: _Frame[] = [];
  const maxDepth = lx.budget.limits.maxDepth;
  for (;;) {
    const t = lx.next();
    let v: PdfValue;
    switch (t) {
      case TOKEN.ARRAY_OPEN:
      case TOKEN.DICT_OPEN:
        if (stack.length >= maxDepth) throw new PdfReadError("too_deep", `Arrays and dictionaries nest deeper than ${maxDepth} levels at byte ${lx.start}`);
        stack.push(t === TOKEN.ARRAY_OPEN ? { array: [], dict: null, key: null } : { array: null, dict: new Map(), key: null });
        continue;
      case TOKEN.ARRAY_CLOSE: {
        const top = stack.pop();
        if (top?.array == null) throw new PdfReadError("damaged", `Unexpected ] at byte ${lx.start}`);
        v = top.array;
        break;
      }
      case TOKEN.DICT_CLOSE: {
        const top = stack.pop();
        if (top?.dict == null) throw new PdfReadError("damaged", `Unexpected >> at byte ${lx.start}`);
        v = { kind: "dict", map: top.dict };
        break;
      }
      case TOKEN.NAME: {
        const top = stack[stack.length - 1];
        if (top?.dict != null && top.key === null) { top.key = lx.text; continue; }
        v = { kind: "name", name: lx.text };
        break;
      }
      case TOKEN.STRING:
        v = { kind: "string", bytes: lx.string };
        break;
      case TOKEN.NUMBER:
        v = lx.number;
        if (lx.integer && v >= 0) {
          // `N G R`: look two tokens ahead, and go back if it is not a reference.
          const num = v, save = lx.pos;
          if (lx.next() === TOKEN.NUMBER && lx.integer && lx.number >= 0) {
            const gen = lx.number;
            if (lx.next() === TOKEN.KEYWORD && lx.text === "R") { v = { kind: "ref", num, gen }; break; }
          }
          lx.pos = save;
        }
        break;
      case TOKEN.KEYWORD:
        if (lx.text === "true") v = true;
        else if (lx.text === "false") v = false;
        else if (lx.text === "null") v = null;
        else if (stack.length > 0 && (lx.text === "endobj" || lx.text === "stream" || lx.text === "obj" || lx.text === "endstream")) {
          throw new PdfReadError("damaged", `Unterminated array or dictionary before ${lx.text} at byte ${lx.start}`);
        } else if (stack.length === 0) throw new PdfReadError("damaged", `Expected an object, found ${lx.text.slice(0, 20)} at byte ${lx.start}`);
        else v = null; // an unknown keyword inside a container: read as null, as lenient readers do
        break;
      case TOKEN.EOF:
        throw new PdfReadError("damaged", "Unexpected end of data inside an object");
      default:
        if (stack.length === 0) throw new PdfReadError("damaged", `Expected an object at byte ${lx.start}`);
        continue; // a stray delimiter inside a container: skipped
    }
    lx.budget.value();
    const top = stack[stack.length - 1];
    if (top === undefined) return v;
    if (top.array !== null) top.array.push(v);
    else if (top.key !== null) { top.dict!.set(top.key, v); top.key = null; }
    // a value where a key belongs: skipped
  }
}

/** An indirect object's header and body, before its stream's length is known. */
export interface IndirectObject {
  num: number;
  gen: number;
  value: PdfValue;
  /** Where the stream's data starts, if the object is a stream. */
  streamStart: number | null;
}

/** Parses `N G obj <value> [stream]` at `offset`; throws "damaged" if the header is not there. */
export function parseIndirect(bytes: Uint8Array, offset: number, budget: ReadBudget): IndirectObject {
  const lx = new Lexer(bytes, offset, budget);
  const head = _objectHeader(lx);
  if (head === null) throw new PdfReadError("damaged", `No object at byte ${offset}`);
  budget.object();
  const value = parseValue(lx);
  const save = lx.pos;
  let streamStart: number | null = null;
  if (lx.next() === TOKEN.KEYWORD && lx.text === "stream" && value !== null && typeof value === "object" && !Array.isArray(value) && value.kind === "dict") {
    // clause 7.3.8.1: `stream` is followed by CR LF or LF (a lone CR is tolerated, as readers do).
    let p = lx.pos;
    if (bytes[p] === CR) p++;
    if (bytes[p] === LF) p++;
    streamStart = p;
  } else lx.pos = save;
  return { num: head.num, gen: head.gen, value, streamStart };
}

function _objectHeader(lx: Lexer): { num: number; gen: number } | null {
  if (lx.next() !== TOKEN.NUMBER || !lx.integer) return null;
  const num = lx.number;
  if (lx.next() !== TOKEN.NUMBER || !lx.integer) return null;
  const gen = lx.number;
  if (lx.next() !== TOKEN.KEYWORD || lx.text !== "obj") return null;
  return { num, gen };
}

/** The dictionary of a `trailer` keyword's object at the lexer position, or null. */
export function parseDictAt(bytes: Uint8Array, offset: number, budget: ReadBudget): PdfDict | null {
  const lx = new Lexer(bytes, offset, budget);
  const v = parseValue(lx);
  return v !== null && typeof v === "object" && !Array.isArray(v) && v.kind === "dict" ? v : null;
}

/** Skips white space from `p`. */
export function skipWhite(bytes: Uint8Array, p: number): number {
  while (p < bytes.length && isWhite(bytes[p])) p++;
  return p;
}

/**
 * Where a stream's data ends: at `start + length` when `endstream` follows there (clause 7.3.8.1),
 * else at the next `endstream` (a wrong /Length is common in files from careless writers, and
 * every reader searches). A declared length over the per-stream limit is refused at once.
 */
export function locateStreamEnd(bytes: Uint8Array, start: number, length: number | null, budget: ReadBudget): number {
  const max = budget.limits.maxStreamBytes;
  if (length !== null && length > max) throw new PdfReadError("stream_too_large", `A stream declares /Length ${length}, over the limit of ${max} bytes`);
  if (length !== null && length >= 0 && start + length <= bytes.length) {
    const p = skipWhite(bytes, start + length);
    if (_matches(bytes, p, ENDSTREAM)) return start + length;
  }
  const window = start + max + ENDSTREAM.length + 2;
  const found = _search(bytes, ENDSTREAM, start, Math.min(bytes.length, window), budget);
  if (found < 0 && window < bytes.length) throw new PdfReadError("stream_too_large", `A stream starting at byte ${start} is longer than ${max} bytes`);
  if (found < 0) throw new PdfReadError("damaged", `A stream starting at byte ${start} has no endstream`);
  let end = found;
  if (bytes[end - 1] === LF) end--;
  if (bytes[end - 1] === CR) end--;
  return Math.max(start, end);
}

const ENDSTREAM = Uint8Array.from("endstream", (c) => c.charCodeAt(0));

function _matches(bytes: Uint8Array, p: number, word: Uint8Array): boolean {
  if (p + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[p + i] !== word[i]) return false;
  return true;
}

/** The first index of `word` in bytes[from, to), or -1; the bytes looked at are charged as work. */
function _search(bytes: Uint8Array, word: Uint8Array, from: number, to: number, budget: ReadBudget): number {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, to));
  const found = view.indexOf(word, from);
  budget.search((found < 0 ? view.length : found + word.length) - from);
  return found;
}
