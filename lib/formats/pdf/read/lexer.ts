/**
 * The PDF tokenizer (ISO 32000-1 clause 7.2, clause 7.3): white space and comments, numbers, names with `#xx`
 * escapes, literal strings with escapes and nested parentheses, hexadecimal strings, delimiters and
 * keywords, as an explicit state machine over bytes. It decodes tokens only; objects are built by
 * parse.ts. Every byte it looks at is charged to the read's work budget.
 * @module
 */

import type { ReadBudget } from "./limits.ts";
import { PdfReadError } from "./read_error.ts";

// Byte constants (ISO 32000-1 clause 7.2.2, tables 1 and 2).
const NUL = 0, TAB = 9, LF = 10, FF = 12, CR = 13, SP = 32;
const PERCENT = 37, LPAREN = 40, RPAREN = 41, SLASH = 47, LT = 60, GT = 62;
const LBRACKET = 91, BACKSLASH = 92, RBRACKET = 93, LBRACE = 123, RBRACE = 125;
const HASH = 35, PLUS = 43, MINUS = 45, DOT = 46, D0 = 48, D7 = 55, D9 = 57;

/** Token kinds. */
export const TOKEN = {
  EOF: 0, NUMBER: 1, NAME: 2, STRING: 3, KEYWORD: 4,
  ARRAY_OPEN: 5, ARRAY_CLOSE: 6, DICT_OPEN: 7, DICT_CLOSE: 8, OTHER: 9,
} as const;
export type TokenKind = typeof TOKEN[keyof typeof TOKEN];

// States of the machine.
const S_SPACE = 0, S_COMMENT = 1, S_NUMBER = 2, S_NAME = 3, S_LITERAL = 4, S_HEX = 5, S_KEYWORD = 6;

const _EMPTY = new Uint8Array(0);
/** ISO 32000-1 Annex C gives names at most 127 bytes; longer ones occur in damaged files only (and cost a string each). */
const MAX_NAME_BYTES = 1024;
/** The longest keyword is `startxref`; a longer run of regular bytes is junk, read as no keyword at all. */
const MAX_KEYWORD_BYTES = 32;
const LONG_KEYWORD = "\u0000";
const _SCRATCH_START = 1024;
const _SCRATCH_KEEP = 1024 * 1024;
/**
 * Where string tokens are decoded, shared by every lexer: a token is decoded within one call of next(),
 * which calls nothing that could start another, so one buffer serves them all without a copy per lexer.
 */
let _scratch: Uint8Array = new Uint8Array(_SCRATCH_START);

function _grow(buf: Uint8Array): Uint8Array {
  const grown = new Uint8Array(buf.length * 2);
  grown.set(buf);
  return grown;
}

// Byte classes: 0 regular, 1 white space, 2 delimiter.
const CLASS = new Uint8Array(256);
for (const b of [NUL, TAB, LF, FF, CR, SP]) CLASS[b] = 1;
for (const b of [LPAREN, RPAREN, LT, GT, LBRACKET, RBRACKET, LBRACE, RBRACE, SLASH, PERCENT]) CLASS[b] = 2;

/** True for PDF white space (clause 7.2.2 table 1). */
export function isWhite(b: number | undefined): boolean {
  return b !== undefined && CLASS[b] === 1;
}

/** True for a byte that cannot be part of a keyword or number: white space, a delimiter, or the end. */
export function isBoundary(b: number | undefined): boolean {
  return b === undefined || CLASS[b] !== 0;
}

function _hexValue(b: number): number {
  if (b >= D0 && b <= D9) return b - D0;
  const l = b | 0x20;
  return l >= 97 && l <= 102 ? l - 87 : -1;
}

/** Reads tokens from `bytes` starting at `pos`; after next(), the token is in kind/number/text/bytes. */
export class Lexer {
  readonly bytes: Uint8Array;
  readonly budget: ReadBudget;
  pos: number;
  /** Where the current token started. */
  start = 0;
  kind: TokenKind = TOKEN.EOF;
  /** A NUMBER's value. */
  number = 0;
  /** A NUMBER without a decimal point. */
  integer = false;
  /** A NAME's (after `#xx` decoding, as latin1) or a KEYWORD's text. */
  text = "";
  /** A STRING's bytes. */
  string: Uint8Array = _EMPTY;

  constructor(bytes: Uint8Array, pos: number, budget: ReadBudget) {
    this.bytes = bytes;
    this.pos = pos;
    this.budget = budget;
  }

  /** Reads the next token. */
  next(): TokenKind {
    const b = this.bytes;
    const end = b.length;
    const from = this.pos;
    let p = this.pos;
    let state = S_SPACE;
    let n = 0; // bytes of a string token written to buf
    let buf: Uint8Array = _scratch;
    let parens = 0; // open parentheses of a literal string
    let escape = false;
    let octal = 0, octalDigits = 0;
    let hexHigh = -1;
    let sawDot = false;
    let kind: TokenKind = TOKEN.EOF;
    loop: for (; p < end; p++) {
      const c = b[p]!;
      switch (state) {
        case S_SPACE:
          if (CLASS[c] === 1) continue;
          this.start = p;
          if (c === PERCENT) { state = S_COMMENT; continue; }
          if (c === SLASH) { state = S_NAME; continue; }
          if (c === LPAREN) { state = S_LITERAL; parens = 1; continue; }
          if (c === LT) {
            if (b[p + 1] === LT) { p += 2; kind = TOKEN.DICT_OPEN; break loop; }
            state = S_HEX; continue;
          }
          if (c === GT) {
            if (b[p + 1] === GT) { p += 2; kind = TOKEN.DICT_CLOSE; break loop; }
            p++; kind = TOKEN.OTHER; break loop;
          }
          if (c === LBRACKET) { p++; kind = TOKEN.ARRAY_OPEN; break loop; }
          if (c === RBRACKET) { p++; kind = TOKEN.ARRAY_CLOSE; break loop; }
          if (CLASS[c] === 2) { p++; kind = TOKEN.OTHER; break loop; }
          if ((c >= D0 && c <= D9) || c === PLUS || c === MINUS || c === DOT) { state = S_NUMBER; sawDot = c === DOT; continue; }
          state = S_KEYWORD; continue;
        case S_COMMENT:
          if (c === CR || c === LF) state = S_SPACE;
          continue;
        case S_NUMBER:
          if ((c >= D0 && c <= D9) || c === MINUS || c === PLUS) continue; // `--5`, `5-` occur in real files; parsed leniently below
          if (c === DOT) { sawDot = true; continue; }
          if (CLASS[c] !== 0) { kind = TOKEN.NUMBER; break loop; }
          state = S_KEYWORD; continue; // `12abc` is a keyword-like token
        case S_NAME:
          if (CLASS[c] !== 0) { kind = TOKEN.NAME; break loop; }
          continue;
        case S_KEYWORD:
          if (CLASS[c] !== 0) { kind = TOKEN.KEYWORD; break loop; }
          continue;
        case S_LITERAL:
          if (n === buf.length) buf = _grow(buf); // at most one byte is written per byte read
          if (escape) {
            if (octalDigits > 0) {
              if (c >= D0 && c <= D7 && octalDigits < 3) { octal = octal * 8 + c - D0; octalDigits++; continue; }
              buf[n++] = octal & 0xff;
              escape = false; octalDigits = 0;
              p--; continue; // this byte is not part of the escape: read it again
            }
            escape = false;
            switch (c) {
              case 110: buf[n++] = LF; break; // \n
              case 114: buf[n++] = CR; break; // \r
              case 116: buf[n++] = TAB; break; // \t
              case 98: buf[n++] = 8; break; // \b
              case 102: buf[n++] = FF; break; // \f
              case CR: if (b[p + 1] === LF) p++; break; // a backslash before an end of line continues the string
              case LF: break;
              default:
                if (c >= D0 && c <= D7) { escape = true; octal = c - D0; octalDigits = 1; break; }
                buf[n++] = c; // \( \) \\ and an unknown escape: the byte itself
            }
            continue;
          }
          if (c === BACKSLASH) { escape = true; continue; }
          if (c === LPAREN) parens++;
          else if (c === RPAREN && --parens === 0) { p++; kind = TOKEN.STRING; break loop; }
          if (c === CR) { buf[n++] = LF; if (b[p + 1] === LF) p++; continue; } // clause 7.3.4.2: any end of line reads as LF
          buf[n++] = c;
          continue;
        case S_HEX:
          if (n === buf.length) buf = _grow(buf);
          if (c === GT) { p++; kind = TOKEN.STRING; break loop; }
          if (CLASS[c] === 1) continue;
          {
            const v = _hexValue(c);
            if (v < 0) { kind = TOKEN.OTHER; break loop; } // not a hex string after all
            if (hexHigh < 0) hexHigh = v;
            else { buf[n++] = hexHigh * 16 + v; hexHigh = -1; }
          }
          continue;
      }
    }
    if (p >= end) {
      // The end of the data ends a number, name or keyword; an unterminated string or a comment is just the end (EOF).
      if (state === S_NUMBER) kind = TOKEN.NUMBER;
      else if (state === S_NAME) kind = TOKEN.NAME;
      else if (state === S_KEYWORD) kind = TOKEN.KEYWORD;
    }
    this.pos = p;
    this.budget.work(p - from + 1);
    this.kind = kind;
    if (kind === TOKEN.NUMBER) this.#number(sawDot);
    else if (kind === TOKEN.NAME) {
      if (p - this.start > MAX_NAME_BYTES) throw new PdfReadError("damaged", `A name longer than ${MAX_NAME_BYTES} bytes at byte ${this.start}`);
      this.text = _decodeName(b, this.start + 1, p);
    } else if (kind === TOKEN.KEYWORD) this.text = p - this.start > MAX_KEYWORD_BYTES ? LONG_KEYWORD : _latin1(b, this.start, p);
    else if (kind === TOKEN.STRING) {
      if (n === buf.length) buf = _grow(buf);
      if (state === S_HEX && hexHigh >= 0) buf[n++] = hexHigh * 16; // clause 7.3.4.3: a missing last digit is 0
      this.string = buf.slice(0, n);
      // A buffer grown by a very long string is not kept for the next ones.
      _scratch = buf.length > _SCRATCH_KEEP ? new Uint8Array(_SCRATCH_START) : buf;
    }
    return kind;
  }

  #number(sawDot: boolean): void {
    const b = this.bytes;
    let i = this.start;
    let neg = false;
    // Leading signs: the last one counts ("--5" is read as -5 by most readers, "+-5" as -5).
    while (i < this.pos && (b[i] === PLUS || b[i] === MINUS)) { neg = b[i] === MINUS; i++; }
    let value = 0, scale = 0, digits = 0;
    for (; i < this.pos; i++) {
      const c = b[i]!;
      if (c >= D0 && c <= D9) { value = value * 10 + c - D0; digits++; if (scale > 0) scale *= 10; }
      else if (c === DOT && scale === 0) scale = 1;
      else break; // trailing junk such as "5-": ignored
    }
    if (scale > 1) value /= scale;
    this.number = neg ? -value : value;
    this.integer = !sawDot && digits > 0;
  }
}

function _latin1(b: Uint8Array, from: number, to: number): string {
  let s = "";
  for (let i = from; i < to; i++) s += String.fromCharCode(b[i]!);
  return s;
}

/** A name's text: `#xx` escapes decoded (clause 7.3.5), bytes as latin1 characters. */
function _decodeName(b: Uint8Array, from: number, to: number): string {
  let s = "";
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    if (c === HASH && i + 2 < to && _hexValue(b[i + 1]!) >= 0 && _hexValue(b[i + 2]!) >= 0) {
      s += String.fromCharCode(_hexValue(b[i + 1]!) * 16 + _hexValue(b[i + 2]!));
      i += 2;
    } else s += String.fromCharCode(c);
  }
  return s;
}
