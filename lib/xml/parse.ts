/**
 * parseXml: the project's XML 1.0 (5th ed.) parser with Namespaces in XML 1.0,
 * from bytes or text to the element tree of tree.ts. It is non-validating and
 * refuses any DOCTYPE, so there are no entities beyond the five predefined ones and
 * no external fetches. A loop over markup with an explicit element stack (no
 * recursion), indexOf jumps over text and cached look-aheads keep it linear in the
 * input. Comments and processing instructions are checked, then dropped.
 * @module
 */

import { decodeXml, encodingName } from "./decode.ts";
import { parseXmlDecl } from "./decl.ts";
import { quoteXml, type XmlError, xmlErrorAt } from "./errors.ts";
import { checkDeclaration, NamespaceScope, XMLNS_NS } from "./namespaces.ts";
import { DECL_DEFAULT, DECL_NONE, NAME_BAD_COLON, NAME_TOO_LONG, type NameEntry, NameReader } from "./names.ts";
import { expandReferences } from "./refs.ts";
import type { XmlAttribute, XmlDocument, XmlElement } from "./tree.ts";

export { XmlError, xmlErrorToApiError } from "./errors.ts";

const TAB = 9;
const LF = 10;
const SPACE = 32;
const BANG = 33;
const DQUOTE = 34;
const AMP = 38;
const APOS = 39;
const SLASH = 47;
const LT = 60;
const EQ = 61;
const GT = 62;
const QUESTION = 63;

/** Limits of a parse; each over-limit document is an XmlError. */
export interface XmlParseOptions {
  /** Deepest element nesting; the root element is depth 1. */
  maxDepth?: number;
  /** Most attributes on one element, namespace declarations included. */
  maxAttributes?: number;
  /** Longest element, attribute or processing-instruction name, prefix included. */
  maxNameLength?: number;
  /** Most elements in a document. */
  maxElements?: number;
  /** Largest input: bytes for a Uint8Array, UTF-16 code units for a string. No limit unless given. */
  maxSize?: number;
}

/** Default limits. */
export const XML_PARSE_LIMITS = {
  /** API.md §8; invoices nest about 10 deep (KSeF FA, UBL, CII). */
  maxDepth: 256,
  /** Invoice elements carry a few attributes; roots about 10 namespace declarations. */
  maxAttributes: 256,
  /** Schema names are under 100 characters; 1024 leaves room and bounds error messages. */
  maxNameLength: 1024,
  /** A 10 MiB upload of `<a/>` is 2.6 million elements (~400 MB of tree); real invoices have thousands. */
  maxElements: 1_000_000,
} as const;

/** Characters outside XML 1.0 §2.2 Char; surrogates match too, and valid pairs are skipped. */
const NOT_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD]/g;
/** Line ends of §2.11, all turned into LF before parsing. */
const LINE_ENDS = /\r\n?/g;

/** Parses an XML document (bytes in any encoding the runtime decodes, or text) into its element tree. */
export function parseXml(input: Uint8Array | string, options: XmlParseOptions = {}): XmlDocument {
  const maxSize = options.maxSize;
  if (maxSize !== undefined) {
    _checkLimit("maxSize", maxSize);
    const size = typeof input === "string" ? input.length : input.byteLength;
    if (size > maxSize) throw xmlErrorAt("", 0, `Document is larger than ${maxSize} ${typeof input === "string" ? "characters" : "bytes"}`);
  }
  let text: string;
  let encoding: string | null = null;
  if (typeof input === "string") {
    text = input;
  } else {
    const decoded = decodeXml(input);
    text = decoded.text;
    encoding = decoded.encoding;
  }
  const parser = new _Parser(text, options);
  const root = parser.parse();
  // Text comes decoded: report what its declaration names, as bytes would have been decoded.
  encoding ??= parser.declaredEncoding === null ? "utf-8" : encodingName(parser.declaredEncoding);
  return { root, encoding };
}

function _checkLimit(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`XML option ${name} must be a positive integer, got ${value}`);
  return value;
}

function _isWs(c: number): boolean {
  return c === SPACE || c === LF || c === TAB;
}

/** Whether `c` may follow an element name in a start tag. */
function _endsName(c: number): boolean {
  return c === GT || c === SPACE || c === LF || c === SLASH || c === TAB;
}

/** Start of the chain of `next` guesses. */
function _startEntry(): NameEntry {
  return { qname: "", prefix: "", local: "", hash: 0, decl: DECL_NONE, nsVersion: -1, ns: "", next: null };
}

/** One parse: the text, the element stack, the name table, namespace scope and look-ahead caches. */
class _Parser {
  declaredEncoding: string | null = null;
  readonly #s: string;
  readonly #len: number;
  /** Offset of the first character: 1 after a byte order mark in text input. */
  readonly #start: number;
  readonly #maxDepth: number;
  readonly #maxAttributes: number;
  readonly #maxNameLength: number;
  readonly #maxElements: number;
  readonly #names: NameReader;
  readonly #scope = new NamespaceScope();
  /** The last start tag's name; its `next` is the guess for the next one. */
  #prevName: NameEntry = _startEntry();

  #root: XmlElement | null = null;
  /** The innermost open element, null before and after the root. */
  #top: XmlElement | null = null;
  #depth = 0;
  #count = 0;
  /** The open elements, their names as written (for end tags) and their namespace undo lists. */
  readonly #elements: XmlElement[] = [];
  readonly #qnames: string[] = [];
  readonly #undos: ((string | undefined)[] | null)[] = [];
  /** Attributes of the start tag being read, before namespace resolution. */
  readonly #attrNames: NameEntry[] = [];
  readonly #attrValues: string[] = [];
  readonly #attrAt: number[] = [];

  /** Line bookkeeping: current line, where it starts, and the next LF (or the end). */
  #line = 1;
  #lineStart: number;
  #nextLf: number;
  /** Next '&' and ']]>' at or after the last text looked at (or the end): checks text without rescanning it. */
  #nextAmp = -1;
  #nextCdataEnd = -1;

  constructor(text: string, options: XmlParseOptions) {
    this.#maxDepth = _checkLimit("maxDepth", options.maxDepth ?? XML_PARSE_LIMITS.maxDepth);
    this.#maxAttributes = _checkLimit("maxAttributes", options.maxAttributes ?? XML_PARSE_LIMITS.maxAttributes);
    this.#maxNameLength = _checkLimit("maxNameLength", options.maxNameLength ?? XML_PARSE_LIMITS.maxNameLength);
    this.#maxElements = _checkLimit("maxElements", options.maxElements ?? XML_PARSE_LIMITS.maxElements);
    this.#names = new NameReader(this.#maxNameLength);
    // §2.11: CRLF and CR become LF. Line numbers and the columns before a line end stay the same.
    const s = text.indexOf("\r") >= 0 ? text.replace(LINE_ENDS, "\n") : text;
    this.#s = s;
    this.#len = s.length;
    this.#start = s.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.#lineStart = this.#start;
    const lf = s.indexOf("\n");
    this.#nextLf = lf < 0 ? s.length : lf;
  }

  /** Parses the whole document and returns its root element. */
  parse(): XmlElement {
    this.#checkChars();
    const s = this.#s;
    const len = this.#len;
    let pos = this.#start;
    for (;;) {
      let lt = s.indexOf("<", pos);
      if (lt < 0) lt = len;
      if (lt > pos) this.#text(pos, lt);
      if (lt >= len) break;
      const c = s.charCodeAt(lt + 1);
      if (c === SLASH) pos = this.#endTag(lt);
      else if (c === BANG) pos = this.#bang(lt);
      else if (c === QUESTION) pos = this.#pi(lt);
      else pos = this.#startTag(lt);
    }
    if (this.#depth > 0) {
      throw this.#fail(`Unexpected end of document: element ${quoteXml(this.#qnames[this.#depth - 1]!)} is not closed`, len);
    }
    if (this.#root === null) throw this.#fail("No root element", len);
    return this.#root;
  }

  /** §2.2: every character of the document must be a Char. */
  #checkChars(): void {
    const s = this.#s;
    NOT_CHAR.lastIndex = 0;
    for (let m = NOT_CHAR.exec(s); m !== null; m = NOT_CHAR.exec(s)) {
      const i = m.index;
      const c = s.charCodeAt(i);
      const next = s.charCodeAt(i + 1);
      if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        NOT_CHAR.lastIndex = i + 2; // a surrogate pair: a character in [#x10000-#x10FFFF]
        continue;
      }
      throw this.#fail(`Character U+${c.toString(16).toUpperCase().padStart(4, "0")} is not allowed in XML`, i);
    }
  }

  /** Character data between two pieces of markup. */
  #text(a: number, b: number): void {
    const s = this.#s;
    const top = this.#top;
    if (top === null) {
      for (let p = a; p < b; p++) {
        if (!_isWs(s.charCodeAt(p))) {
          throw this.#fail(`Text is not allowed ${this.#root === null ? "before" : "after"} the root element`, p);
        }
      }
      return;
    }
    if (this.#nextCdataEnd < a) {
      const i = s.indexOf("]]>", a);
      this.#nextCdataEnd = i < 0 ? this.#len : i;
    }
    if (this.#nextCdataEnd < b) throw this.#fail("']]>' is not allowed in text", this.#nextCdataEnd);
    if (this.#nextAmp < a) {
      const i = s.indexOf("&", a);
      this.#nextAmp = i < 0 ? this.#len : i;
    }
    top.text += this.#nextAmp < b ? expandReferences(s, a, b, false, this.#start) : s.slice(a, b);
  }

  #startTag(lt: number): number {
    const s = this.#s;
    if (this.#top === null && this.#root !== null) throw this.#fail("Only one root element is allowed", lt);
    if (this.#depth >= this.#maxDepth) throw this.#fail(`Elements nest deeper than ${this.#maxDepth} levels`, lt);
    if (this.#count >= this.#maxElements) throw this.#fail(`Document has more than ${this.#maxElements} elements`, lt);
    this.#count++;
    const names = this.#names;
    // Documents repeat their element sequences: try the name that followed the previous
    // start tag's name last time, a single compare, before reading char by char.
    const prev = this.#prevName;
    const guess = prev.next;
    let name: NameEntry;
    let p: number;
    if (guess !== null && s.startsWith(guess.qname, lt + 1) && _endsName(s.charCodeAt(lt + 1 + guess.qname.length))) {
      name = guess;
      p = lt + 1 + guess.qname.length;
    } else {
      name = this.#name(lt + 1, "an element name");
      p = names.end;
      prev.next = name;
    }
    this.#prevName = name;
    let n = 0;
    let decls = 0;
    let c = s.charCodeAt(p);
    for (;;) {
      if (c === GT || c === SLASH) break;
      if (!_isWs(c)) throw this.#unexpected(p, "white space, '>' or '/>' in the start tag");
      do c = s.charCodeAt(++p); while (_isWs(c));
      if (c === GT || c === SLASH) break;
      const attrAt = p;
      const attr = this.#name(p, "an attribute name, '>' or '/>'");
      p = names.end;
      c = s.charCodeAt(p);
      while (_isWs(c)) c = s.charCodeAt(++p);
      if (c !== EQ) throw this.#unexpected(p, "'=' after the attribute name");
      do c = s.charCodeAt(++p); while (_isWs(c));
      if (c !== DQUOTE && c !== APOS) throw this.#unexpected(p, "a quoted attribute value");
      const quote = c;
      const valueAt = ++p;
      let plain = true;
      for (;;) {
        c = s.charCodeAt(p);
        if (c > LT) {
          p++;
          continue;
        }
        if (c === quote) break;
        if (c === LT) throw this.#fail("'<' is not allowed in an attribute value", p);
        if (c === AMP || c === LF || c === TAB) plain = false;
        else if (p >= this.#len) throw this.#fail("Unexpected end of document in an attribute value", p);
        p++;
      }
      const value = plain ? s.slice(valueAt, p) : expandReferences(s, valueAt, p, true, this.#start);
      c = s.charCodeAt(++p);
      if (n === this.#maxAttributes) throw this.#fail(`Element has more than ${this.#maxAttributes} attributes`, attrAt);
      this.#attrNames[n] = attr;
      this.#attrValues[n] = value;
      this.#attrAt[n] = attrAt;
      n++;
      if (attr.decl !== DECL_NONE) decls++;
    }
    let empty = false;
    if (c === SLASH) {
      if (s.charCodeAt(p + 1) !== GT) throw this.#unexpected(p + 1, "'>' after '/'");
      empty = true;
      p += 2;
    } else {
      p++;
    }

    const scope = this.#scope;
    let undo: (string | undefined)[] | null = null;
    if (decls > 0) undo = this.#declare(n);
    const ns = scope.resolve(name);
    if (ns === undefined || name.prefix === "xmlns") {
      throw this.#fail(
        name.prefix === "xmlns" ? "Element names must not have the prefix 'xmlns'" : `Undeclared namespace prefix ${quoteXml(name.prefix)}`,
        lt + 1,
      );
    }
    const attrs: XmlAttribute[] = [];
    for (let i = 0; i < n; i++) attrs.push(this.#attribute(i, attrs));

    if (this.#nextLf < lt) this.#advanceLines(lt);
    const el: XmlElement = {
      ns,
      local: name.local,
      prefix: name.prefix,
      attrs,
      children: [],
      text: "",
      line: this.#line,
      column: lt - this.#lineStart + 1,
    };
    const parent = this.#top;
    if (parent === null) this.#root = el;
    else parent.children.push(el);
    if (empty) {
      if (undo !== null) scope.restore(undo);
    } else {
      const d = this.#depth++;
      this.#elements[d] = el;
      this.#qnames[d] = name.qname;
      this.#undos[d] = undo;
      this.#top = el;
    }
    return p;
  }

  /** Binds the namespace declarations among the first `n` attributes; returns the undo list. */
  #declare(n: number): (string | undefined)[] {
    const undo: (string | undefined)[] = [];
    for (let i = 0; i < n; i++) {
      const attr = this.#attrNames[i]!;
      if (attr.decl === DECL_NONE) continue;
      const prefix = attr.decl === DECL_DEFAULT ? "" : attr.local;
      const uri = this.#attrValues[i]!;
      const problem = checkDeclaration(prefix, uri);
      if (problem !== "") throw this.#fail(problem, this.#attrAt[i]!);
      this.#scope.bind(prefix, uri, undo);
    }
    return undo;
  }

  /** Resolves attribute `i` of the start tag and checks it against the ones before it (`done`). */
  #attribute(i: number, done: XmlAttribute[]): XmlAttribute {
    const name = this.#attrNames[i]!;
    let ns = "";
    if (name.decl !== DECL_NONE) ns = XMLNS_NS;
    else if (name.prefix !== "") {
      const resolved = this.#scope.resolve(name);
      if (resolved === undefined) throw this.#fail(`Undeclared namespace prefix ${quoteXml(name.prefix)}`, this.#attrAt[i]!);
      ns = resolved;
    }
    const local = name.local;
    // XML 1.0 §3.1 "Unique Att Spec" and Namespaces §6.3: unique by name as written and by expanded name.
    // At most maxAttributes squared comparisons per element, a bounded cost.
    for (let j = 0; j < i; j++) {
      const other = done[j]!;
      if (other.local === local && other.ns === ns) {
        const first = this.#attrNames[j]!.qname;
        throw this.#fail(
          first === name.qname
            ? `Duplicate attribute ${quoteXml(name.qname)}`
            : `Attributes ${quoteXml(first)} and ${quoteXml(name.qname)} have the same namespace and local name`,
          this.#attrAt[i]!,
        );
      }
    }
    return { ns, local, prefix: name.prefix, value: this.#attrValues[i]! };
  }

  #endTag(lt: number): number {
    const s = this.#s;
    const top = this.#top;
    if (top === null) throw this.#fail(`End tag ${this.#root === null ? "before" : "after"} the root element`, lt);
    const d = this.#depth - 1;
    const qname = this.#qnames[d]!;
    let p = lt + 2;
    if (s.startsWith(qname, p)) {
      p += qname.length;
      let c = s.charCodeAt(p);
      while (_isWs(c)) c = s.charCodeAt(++p);
      if (c === GT) {
        const undo = this.#undos[d];
        if (undo !== null && undo !== undefined) this.#scope.restore(undo);
        this.#depth = d;
        this.#top = d > 0 ? this.#elements[d - 1]! : null;
        return p + 1;
      }
    }
    const got = this.#name(lt + 2, "an element name in the end tag");
    if (got.qname === qname) throw this.#unexpected(p, "'>' to close the end tag");
    throw this.#fail(`End tag ${quoteXml(got.qname)} does not match start tag ${quoteXml(qname)} of line ${top.line}`, lt + 2);
  }

  /** `<!`: a comment, a CDATA section, or a refused DOCTYPE. */
  #bang(lt: number): number {
    const s = this.#s;
    if (s.startsWith("<!--", lt)) {
      // §2.5: '--' may appear only in the closing '-->'.
      const end = s.indexOf("--", lt + 4);
      if (end < 0 || end + 2 >= this.#len) throw this.#fail("Unterminated comment", lt);
      if (s.charCodeAt(end + 2) !== GT) throw this.#fail("'--' is not allowed inside a comment", end);
      return end + 3;
    }
    if (s.startsWith("<![CDATA[", lt)) {
      const top = this.#top;
      if (top === null) throw this.#fail("CDATA section outside the root element", lt);
      const end = s.indexOf("]]>", lt + 9);
      if (end < 0) throw this.#fail("Unterminated CDATA section", lt);
      top.text += s.slice(lt + 9, end);
      return end + 3;
    }
    if (s.startsWith("<!DOCTYPE", lt)) {
      throw this.#fail("DOCTYPE is not allowed: documents with a DTD are refused (no entity declarations, no external references)", lt);
    }
    throw this.#fail("Expected a comment or a CDATA section after '<!'", lt);
  }

  /** `<?`: a processing instruction, or the XML declaration at the very start. */
  #pi(lt: number): number {
    const s = this.#s;
    const target = this.#name(lt + 2, "a processing instruction target");
    const p = this.#names.end;
    if (target.prefix !== "") throw this.#fail("Processing instruction targets must not contain ':'", lt + 2);
    if (target.qname.length === 3 && target.qname.toLowerCase() === "xml") {
      if (target.qname === "xml" && lt === this.#start) {
        const decl = parseXmlDecl(s, lt, this.#start);
        this.declaredEncoding = decl.encoding;
        return decl.end;
      }
      throw this.#fail(
        target.qname === "xml" ? "XML declaration is allowed only at the very start of the document" : `Processing instruction target ${quoteXml(target.qname)} is reserved`,
        lt,
      );
    }
    const c = s.charCodeAt(p);
    if (c === QUESTION && s.charCodeAt(p + 1) === GT) return p + 2;
    if (!_isWs(c)) throw this.#unexpected(p, "white space or '?>' after the processing instruction target");
    const end = s.indexOf("?>", p);
    if (end < 0) throw this.#fail("Unterminated processing instruction", lt);
    return end + 2;
  }

  /** Reads a qualified name at `p` or throws, saying `expected` when there is no name at all. */
  #name(p: number, expected: string): NameEntry {
    const names = this.#names;
    const entry = names.read(this.#s, p);
    if (entry !== null) return entry;
    if (names.error === NAME_TOO_LONG) return this.#throw(`Name longer than ${this.#maxNameLength} characters`, names.end);
    if (names.error === NAME_BAD_COLON) {
      return this.#throw("Invalid qualified name: one ':' may separate a prefix and a local name", names.end);
    }
    throw this.#unexpected(names.end, expected);
  }

  #advanceLines(to: number): void {
    const s = this.#s;
    let lf = this.#nextLf;
    while (lf < to) {
      this.#line++;
      this.#lineStart = lf + 1;
      lf = s.indexOf("\n", lf + 1);
      if (lf < 0) lf = this.#len;
    }
    this.#nextLf = lf;
  }

  #unexpected(p: number, expected: string): XmlError {
    if (p >= this.#len) return this.#fail(`Unexpected end of document: expected ${expected}`, p);
    const c = this.#s.codePointAt(p)!;
    const found = c >= 0x20 && c !== 0x7f ? `'${String.fromCodePoint(c)}'` : `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
    return this.#fail(`Expected ${expected}, found ${found}`, p);
  }

  #throw(message: string, at: number): never {
    throw this.#fail(message, at);
  }

  #fail(message: string, at: number): XmlError {
    return xmlErrorAt(this.#s, at, message, this.#start);
  }
}
