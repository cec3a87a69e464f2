/**
 * Reads the XML declaration (XML 1.0 5th ed. §2.8 XMLDecl, §4.3.3 EncodingDecl,
 * §2.9 SDDecl): version, then optional encoding, then optional standalone, in
 * that order, each once. Used on the raw head of the bytes (to pick a decoder)
 * and again by the parser on the decoded text.
 * @module
 */

import { quoteXml, xmlErrorAt } from "./errors.ts";

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const DQUOTE = 34;
const APOS = 39;
const EQ = 61;
const GT = 62;
const QUESTION = 63;

/** The pseudo-attributes in the order §2.8 requires. */
const PSEUDO = ["version", "encoding", "standalone"] as const;

/** VersionNum ::= '1.' [0-9]+ */
const VERSION = /^1\.[0-9]+$/;
/** EncName ::= [A-Za-z] ([A-Za-z0-9._] | '-')* */
const ENC_NAME = /^[A-Za-z][A-Za-z0-9._-]*$/;

/** What an XML declaration says. */
export interface XmlDeclaration {
  version: string;
  /** The encoding name as written, null when absent. */
  encoding: string | null;
  /** Offset of the encoding name, for errors about it. */
  encodingAt: number;
  standalone: "yes" | "no" | null;
  /** Offset just after `?>`. */
  end: number;
}

function _isWs(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === CR;
}

/** Whether `s` has an XML declaration at `p` (`<?xml` and white space). */
export function hasXmlDecl(s: string, p: number): boolean {
  return s.startsWith("<?xml", p) && _isWs(s.charCodeAt(p + 5));
}

/** Parses the XML declaration that starts at `lt` (`<?xml`); `start` is where line 1 starts. */
export function parseXmlDecl(s: string, lt: number, start: number): XmlDeclaration {
  const decl: XmlDeclaration = { version: "", encoding: null, encodingAt: -1, standalone: null, end: -1 };
  let p = lt + 5;
  let next = 0; // index into PSEUDO of the earliest pseudo-attribute still allowed
  for (;;) {
    const wsAt = p;
    while (_isWs(s.charCodeAt(p))) p++;
    if (s.charCodeAt(p) === QUESTION && s.charCodeAt(p + 1) === GT) {
      if (next === 0) throw xmlErrorAt(s, p, "XML declaration must give the version", start);
      decl.end = p + 2;
      return decl;
    }
    if (p >= s.length) throw xmlErrorAt(s, p, "Unexpected end of document in the XML declaration", start);
    if (p === wsAt) throw xmlErrorAt(s, p, "Expected white space or '?>' in the XML declaration", start);
    const nameAt = p;
    while (s.charCodeAt(p) >= 97 && s.charCodeAt(p) <= 122) p++; // a-z
    const name = s.slice(nameAt, p);
    const index = PSEUDO.indexOf(name as (typeof PSEUDO)[number]);
    if (index < 0) throw xmlErrorAt(s, nameAt, "Expected version, encoding or standalone in the XML declaration", start);
    if (next === 0 && index !== 0) throw xmlErrorAt(s, nameAt, "XML declaration must start with the version", start);
    if (index < next) throw xmlErrorAt(s, nameAt, `${quoteXml(name)} is repeated or out of order in the XML declaration`, start);
    next = index + 1;
    while (_isWs(s.charCodeAt(p))) p++;
    if (s.charCodeAt(p) !== EQ) throw xmlErrorAt(s, p, "Expected '=' in the XML declaration", start);
    p++;
    while (_isWs(s.charCodeAt(p))) p++;
    const quote = s.charCodeAt(p);
    if (quote !== DQUOTE && quote !== APOS) throw xmlErrorAt(s, p, "Expected a quoted value in the XML declaration", start);
    const valueAt = p + 1;
    const close = s.indexOf(quote === DQUOTE ? '"' : "'", valueAt);
    if (close < 0) throw xmlErrorAt(s, p, "Unterminated value in the XML declaration", start);
    const value = s.slice(valueAt, close);
    if (index === 0) {
      if (!VERSION.test(value)) throw xmlErrorAt(s, valueAt, `Unsupported XML version ${quoteXml(value)}`, start);
      decl.version = value;
    } else if (index === 1) {
      if (!ENC_NAME.test(value)) throw xmlErrorAt(s, valueAt, `Invalid encoding name ${quoteXml(value)}`, start);
      decl.encoding = value;
      decl.encodingAt = valueAt;
    } else {
      if (value !== "yes" && value !== "no") throw xmlErrorAt(s, valueAt, "standalone must be 'yes' or 'no'", start);
      decl.standalone = value;
    }
    p = close + 1;
  }
}
