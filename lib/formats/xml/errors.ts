/**
 * The one error type of the XML parser (message plus 1-based line and column of
 * the offending character). The API edge answers it as 422 VALIDATION_ERROR.
 * Lines follow XML 1.0 §2.11 (CRLF, CR and LF each end a line); columns count
 * UTF-16 code units, as JavaScript strings do.
 * @module
 */

const LF = 10;
const CR = 13;

/** Longest piece of document text quoted in a message: names can be 1024 characters long. */
const MAX_QUOTED = 40;

/** A document that is not well-formed, not namespace-well-formed, or over a parser limit. */
export class XmlError extends Error {
  /** 1-based line of the offending character. */
  readonly line: number;
  /** 1-based column of the offending character (UTF-16 code units). */
  readonly column: number;

  constructor(message: string, line: number, column: number) {
    super(message);
    this.name = "XmlError";
    this.line = line;
    this.column = column;
  }
}

/** An XmlError for the character at `offset` of `text`, counting lines and columns from `start`. */
export function xmlErrorAt(text: string, offset: number, message: string, start = 0): XmlError {
  let line = 1;
  let lineStart = start;
  const end = Math.min(offset, text.length);
  // Runs only when a document is refused, so one plain pass is fine.
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) {
      line++;
      lineStart = i + 1;
    }
  }
  return new XmlError(message, line, offset - lineStart + 1);
}

/** Quotes document text for a message, cut short so that a hostile name cannot bloat it. */
export function quoteXml(text: string): string {
  return text.length > MAX_QUOTED ? `'${text.slice(0, MAX_QUOTED)}…'` : `'${text}'`;
}

/** "Expected …, found …" for the character at `offset` (or the end of the document). */
export function unexpectedAt(text: string, offset: number, expected: string, start = 0): XmlError {
  if (offset >= text.length) return xmlErrorAt(text, offset, `Unexpected end of document: expected ${expected}`, start);
  const c = text.codePointAt(offset)!;
  const found = c >= 0x20 && c !== 0x7f ? `'${String.fromCodePoint(c)}'` : `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
  return xmlErrorAt(text, offset, `Expected ${expected}, found ${found}`, start);
}
