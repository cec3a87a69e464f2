/**
 * The Char production of XML 1.0 5th ed. §2.2: #x9 | #xA | #xD | [#x20-#xD7FF] |
 * [#xE000-#xFFFD] | [#x10000-#x10FFFF]. One check of a whole document (a native
 * regular-expression scan), which finds the first offending character of a document
 * the reader refused (the reader checks each character as it reads), and one of a
 * code point, for character references. Name characters are names.ts.
 * @module
 */

const TAB = 9;
const LF = 10;
const CR = 13;

/** Code units outside Char; surrogates match too, and valid pairs are skipped by findNonChar. */
const NOT_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD]/g;

/** Whether the code point `c` is a Char. */
export function isXmlChar(c: number): boolean {
  return c >= 0x20 ? c <= 0xd7ff || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff) : c === TAB || c === LF || c === CR;
}

/** Offset of the first code unit of `s` that is not part of a Char (a lone surrogate counts), or -1. */
export function findNonChar(s: string): number {
  NOT_CHAR.lastIndex = 0;
  for (let m = NOT_CHAR.exec(s); m !== null; m = NOT_CHAR.exec(s)) {
    const i = m.index;
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      NOT_CHAR.lastIndex = i + 2; // a surrogate pair: a character in [#x10000-#x10FFFF]
      continue;
    }
    return i;
  }
  return -1;
}
