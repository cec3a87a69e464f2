/**
 * The parser's state machine: one pass over decoded text that checks each character
 * as it reads it (§2.2) and counts lines, with an explicit element stack (no recursion),
 * so time stays linear in the input. Checks well-formedness (XML 1.0 5th ed.) and
 * namespace constraints (Namespaces in XML 1.0) and builds the tree of tree.ts,
 * with each element's content in document order when asked (canonical XML needs it).
 * Decoding bytes and option defaults are parse.ts's job.
 * @module
 */

import { findNonChar } from "./chars.ts";
import { parseXmlDecl } from "./decl.ts";
import { quoteXml, unexpectedAt, type XmlError, xmlErrorAt } from "./errors.ts";
import { scanBangMarkup } from "./markup.ts";
import { checkDeclaration, findDuplicateAttribute, NamespaceScope, XMLNS_NS } from "./namespaces.ts";
import { DECL_DEFAULT, DECL_NONE, NAME_BAD_COLON, NAME_TOO_LONG, type NameEntry, NameReader } from "./names.ts";
import { expandReferences } from "./refs.ts";
import type { XmlAttribute, XmlComment, XmlElement, XmlProcessingInstruction } from "./tree.ts";

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
const RBRACKET = 93;

/** Line ends of §2.11, all turned into LF before parsing. */
const LINE_ENDS = /\r\n?/g;

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

/** Limits of one read, all set (see XmlParseOptions). */
export interface ReaderLimits {
  maxDepth: number;
  maxAttributes: number;
  maxNameLength: number;
  maxElements: number;
  /** Elements and attributes together: the tree's size, bounded in proportion to the input. */
  maxNodes: number;
}

/** Comments and processing instructions outside the root element, kept with the `content` option. */
export interface ReaderMisc {
  before: (XmlComment | XmlProcessingInstruction)[];
  after: (XmlComment | XmlProcessingInstruction)[];
}

/** One parse: the text, the element stack, the name table and the namespace scope. */
export class XmlReader {
  /** The encoding the XML declaration names, once read. */
  declaredEncoding: string | null = null;
  readonly #s: string;
  readonly #len: number;
  /** Offset of the first character: 1 after a byte order mark in text input. */
  readonly #start: number;
  readonly #maxDepth: number;
  readonly #maxAttributes: number;
  readonly #maxNameLength: number;
  readonly #maxElements: number;
  readonly #maxNodes: number;
  readonly #names: NameReader;
  readonly #scope = new NamespaceScope();
  /** The last start tag's name; its `next` is the guess for the next one. */
  #prevName: NameEntry = _startEntry();

  #root: XmlElement | null = null;
  /** The innermost open element, null before and after the root. */
  #top: XmlElement | null = null;
  #depth = 0;
  #count = 0;
  #nodes = 0;
  /** The open elements, their names as written (for end tags) and their namespace undo lists. */
  readonly #elements: XmlElement[] = [];
  readonly #qnames: string[] = [];
  readonly #undos: ((string | undefined)[] | null)[] = [];
  /** Attributes of the start tag being read, before namespace resolution. */
  readonly #attrNames: NameEntry[] = [];
  readonly #attrValues: string[] = [];
  readonly #attrAt: number[] = [];
  /** How many attributes the start tag has, and how many of them declare namespaces. */
  #attrCount = 0;
  #declCount = 0;

  /** Line bookkeeping: the line of the last LF passed and where the line after it starts. */
  #line = 1;
  #lineStart: number;
  /**
   * With the `content` option: what lies outside the root; null otherwise. Only then does the reader fill each
   * element's `content`, so the default parse pays one null check per piece of markup.
   */
  readonly misc: ReaderMisc | null;

  constructor(text: string, limits: ReaderLimits, content = false) {
    this.misc = content ? { before: [], after: [] } : null;
    this.#maxDepth = limits.maxDepth;
    this.#maxAttributes = limits.maxAttributes;
    this.#maxNameLength = limits.maxNameLength;
    this.#maxElements = limits.maxElements;
    this.#maxNodes = limits.maxNodes;
    this.#names = new NameReader(this.#maxNameLength);
    // §2.11: CRLF and CR become LF. Line numbers and the columns before a line end stay the same.
    const s = text.indexOf("\r") >= 0 ? text.replace(LINE_ENDS, "\n") : text;
    this.#s = s;
    this.#len = s.length;
    this.#start = s.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.#lineStart = this.#start;
  }

  /** Reads the whole document and returns its root element. */
  read(): XmlElement {
    try {
      return this.#read();
    } catch (e) {
      // §2.2 comes first: a character outside Char anywhere is the error reported, as a check of the
      // whole document before parsing would find it. Parsing checks each character it passes, so a
      // document read to its end needs no such pass.
      this.#checkChars();
      throw e;
    }
  }

  #read(): XmlElement {
    const s = this.#s;
    const len = this.#len;
    let pos = this.#start;
    for (;;) {
      const lt = this.#top === null ? this.#outside(pos) : this.#text(pos);
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
    const i = findNonChar(this.#s);
    if (i >= 0) throw this.#notChar(i);
  }

  /** The error for the code unit at `p`, which is not (part of) a Char. */
  #notChar(p: number): XmlError {
    const c = this.#s.charCodeAt(p);
    return this.#fail(`Character U+${c.toString(16).toUpperCase().padStart(4, "0")} is not allowed in XML`, p);
  }

  /** White space before or after the root element, from `a`; returns the offset of the next '<' or the end. */
  #outside(a: number): number {
    const p = this.#skipWs(a);
    if (p < this.#len && this.#s.charCodeAt(p) !== LT) {
      throw this.#fail(`Text is not allowed ${this.#root === null ? "before" : "after"} the root element`, p);
    }
    return p;
  }

  /**
   * Character data of the open element from `a`: one pass that checks each character (§2.2), counts
   * lines and finds the next '<' (returned, or the end) and any ']]>' or reference in between.
   */
  #text(a: number): number {
    const s = this.#s;
    let p = a;
    let amp = false;
    for (;;) {
      const c = s.charCodeAt(p);
      if (c > GT) {
        if (c < 0xd800 && c !== RBRACKET) {
          p++;
          continue;
        }
      } else if (c >= SPACE ? c !== LT && c !== AMP : c === TAB) {
        p++;
        continue;
      }
      if (c === LT) break;
      if (c === LF) {
        this.#line++;
        this.#lineStart = ++p;
      } else if (c === AMP) {
        amp = true;
        p++;
      } else if (c === RBRACKET) {
        if (s.charCodeAt(p + 1) === RBRACKET && s.charCodeAt(p + 2) === GT) throw this.#fail("']]>' is not allowed in text", p);
        p++;
      } else if (p >= this.#len) {
        break;
      } else {
        p = this.#otherChar(p);
      }
    }
    if (p > a) {
      const top = this.#top!;
      const text = amp ? expandReferences(s, a, p, false, this.#start) : s.slice(a, p);
      top.text += text;
      if (this.misc !== null) _appendText(top, text);
    }
    return p;
  }

  /**
   * After a character at `p` that is a control character or from U+D800 up: the offset after it when it
   * is a Char (one code unit, or a surrogate pair); throws otherwise.
   */
  #otherChar(p: number): number {
    const s = this.#s;
    const c = s.charCodeAt(p);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(p + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return p + 2;
    } else if ((c >= 0xe000 && c <= 0xfffd) || c === TAB) {
      return p + 1;
    } else if (c === LF) {
      this.#line++;
      this.#lineStart = p + 1;
      return p + 1;
    }
    throw this.#notChar(p);
  }

  /** Checks the characters of markup read by offsets alone (comments, PIs, CDATA sections), counting its lines. */
  #checkMarkup(a: number, b: number): void {
    const s = this.#s;
    for (let p = a; p < b;) {
      const c = s.charCodeAt(p);
      if (c >= SPACE && c < 0xd800) p++;
      else p = this.#otherChar(p);
    }
  }

  /** The offset of the first character at or after `p` that is not white space, counting lines. */
  #skipWs(p: number): number {
    const s = this.#s;
    for (;;) {
      const c = s.charCodeAt(p);
      if (c === SPACE || c === TAB) {
        p++;
      } else if (c === LF) {
        this.#line++;
        this.#lineStart = ++p;
      } else {
        return p;
      }
    }
  }

  /** `<name attrs>` or `<name attrs/>`: reads the tag, resolves its names, opens the element; returns the offset after it. */
  #startTag(lt: number): number {
    const s = this.#s;
    this.#admitElement(lt);
    // Where the tag starts, before line ends among its attributes move the line count on.
    const line = this.#line;
    const column = lt - this.#lineStart + 1;
    const name = this.#elementName(lt);
    let p = this.#attributes(lt + 1 + name.qname.length);
    const n = this.#attrCount;
    this.#nodes += 1 + n;
    if (this.#nodes > this.#maxNodes) throw this.#fail(`Document has more than ${this.#maxNodes} elements and attributes for its size`, lt);
    const empty = s.charCodeAt(p) === SLASH;
    if (empty) {
      if (s.charCodeAt(p + 1) !== GT) throw this.#unexpected(p + 1, "'>' after '/'");
      p += 2;
    } else {
      p++;
    }
    const undo = this.#declCount > 0 ? this.#declare(n) : null;
    const el = this.#element(name, n, lt, line, column);
    if (empty) {
      if (undo !== null) this.#scope.restore(undo);
    } else {
      const d = this.#depth++;
      this.#elements[d] = el;
      this.#qnames[d] = name.qname;
      this.#undos[d] = undo;
      this.#top = el;
    }
    return p;
  }

  /** Refuses a start tag at `lt` that would be a second root or pass the depth or element limit; counts it. */
  #admitElement(lt: number): void {
    if (this.#top === null && this.#root !== null) throw this.#fail("Only one root element is allowed", lt);
    if (this.#depth >= this.#maxDepth) throw this.#fail(`Elements nest deeper than ${this.#maxDepth} levels`, lt);
    if (this.#count >= this.#maxElements) throw this.#fail(`Document has more than ${this.#maxElements} elements`, lt);
    this.#count++;
  }

  /** The element name after `<` at `lt`; it ends at `lt + 1 + qname.length`. */
  #elementName(lt: number): NameEntry {
    const s = this.#s;
    // Documents repeat their element sequences: try the name that followed the previous
    // start tag's name last time, a single compare, before reading char by char.
    const prev = this.#prevName;
    const guess = prev.next;
    let name: NameEntry;
    if (guess !== null && s.startsWith(guess.qname, lt + 1) && _endsName(s.charCodeAt(lt + 1 + guess.qname.length))) {
      name = guess;
    } else {
      name = this.#name(lt + 1, "an element name");
      prev.next = name;
    }
    this.#prevName = name;
    return name;
  }

  /**
   * Reads the attributes from `p` (just after the element name) into #attrNames,
   * #attrValues and #attrAt; sets #attrCount and #declCount (namespace declarations
   * among them). Returns the offset of the closing '>' or '/'.
   */
  #attributes(p: number): number {
    const s = this.#s;
    let n = 0;
    this.#declCount = 0;
    let c = s.charCodeAt(p);
    for (;;) {
      if (c === GT || c === SLASH) break;
      if (!_isWs(c)) throw this.#unexpected(p, "white space, '>' or '/>' in the start tag");
      p = this.#skipWs(p);
      c = s.charCodeAt(p);
      if (c === GT || c === SLASH) break;
      p = this.#attribute(p, n);
      n++;
      c = s.charCodeAt(p);
    }
    this.#attrCount = n;
    return p;
  }

  /** Reads `name = "value"` at `p` into attribute slot `n`; returns the offset after the closing quote. */
  #attribute(p: number, n: number): number {
    const s = this.#s;
    const attrAt = p;
    const attr = this.#name(p, "an attribute name, '>' or '/>'");
    p = this.#skipWs(this.#names.end);
    let c = s.charCodeAt(p);
    if (c !== EQ) throw this.#unexpected(p, "'=' after the attribute name");
    p = this.#skipWs(p + 1);
    c = s.charCodeAt(p);
    if (c !== DQUOTE && c !== APOS) throw this.#unexpected(p, "a quoted attribute value");
    const quote = c;
    const valueAt = ++p;
    let plain = true;
    for (;;) {
      c = s.charCodeAt(p);
      if (c > LT && c < 0xd800) {
        p++;
        continue;
      }
      if (c === quote) break;
      if (c === LT) throw this.#fail("'<' is not allowed in an attribute value", p);
      if (c === AMP || c === TAB) {
        plain = false;
        p++;
      } else if (c >= SPACE && c < LT) {
        p++;
      } else if (p >= this.#len) {
        throw this.#fail("Unexpected end of document in an attribute value", p);
      } else {
        if (c === LF) plain = false;
        p = this.#otherChar(p);
      }
    }
    const value = plain ? s.slice(valueAt, p) : expandReferences(s, valueAt, p, true, this.#start);
    if (n === this.#maxAttributes) throw this.#fail(`Element has more than ${this.#maxAttributes} attributes`, attrAt);
    this.#attrNames[n] = attr;
    this.#attrValues[n] = value;
    this.#attrAt[n] = attrAt;
    if (attr.decl !== DECL_NONE) this.#declCount++;
    return p + 1;
  }

  /** Builds the element of the start tag at `lt` with its `n` attributes, names resolved, and appends it to its parent. */
  #element(name: NameEntry, n: number, lt: number, line: number, column: number): XmlElement {
    const ns = this.#scope.resolve(name);
    if (ns === undefined || name.prefix === "xmlns") {
      throw this.#fail(
        name.prefix === "xmlns" ? "Element names must not have the prefix 'xmlns'" : `Undeclared namespace prefix ${quoteXml(name.prefix)}`,
        lt + 1,
      );
    }
    const attrs: XmlAttribute[] = [];
    for (let i = 0; i < n; i++) attrs.push(this.#resolveAttribute(i));
    const dup = n > 1 ? findDuplicateAttribute(attrs) : null;
    if (dup !== null) throw this.#duplicate(dup[0], dup[1]);
    const el: XmlElement = {
      ns,
      local: name.local,
      prefix: name.prefix,
      attrs,
      children: [],
      text: "",
      line,
      column,
    };
    const parent = this.#top;
    if (this.misc !== null) {
      el.content = [];
      parent?.content!.push(el);
    }
    if (parent === null) this.#root = el;
    else parent.children.push(el);
    return el;
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

  /** Resolves the name of attribute `i` of the start tag. */
  #resolveAttribute(i: number): XmlAttribute {
    const name = this.#attrNames[i]!;
    let ns = "";
    if (name.decl !== DECL_NONE) ns = XMLNS_NS;
    else if (name.prefix !== "") {
      const resolved = this.#scope.resolve(name);
      if (resolved === undefined) throw this.#fail(`Undeclared namespace prefix ${quoteXml(name.prefix)}`, this.#attrAt[i]!);
      ns = resolved;
    }
    return { ns, local: name.local, prefix: name.prefix, value: this.#attrValues[i]! };
  }

  #duplicate(first: number, second: number): XmlError {
    const a = this.#attrNames[first]!.qname;
    const b = this.#attrNames[second]!.qname;
    return this.#fail(
      a === b ? `Duplicate attribute ${quoteXml(b)}` : `Attributes ${quoteXml(a)} and ${quoteXml(b)} have the same namespace and local name`,
      this.#attrAt[second]!,
    );
  }

  #endTag(lt: number): number {
    const s = this.#s;
    const top = this.#top;
    if (top === null) throw this.#fail(`End tag ${this.#root === null ? "before" : "after"} the root element`, lt);
    const d = this.#depth - 1;
    const qname = this.#qnames[d]!;
    let p = lt + 2;
    if (s.startsWith(qname, p)) {
      p = this.#skipWs(p + qname.length);
      if (s.charCodeAt(p) === GT) {
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

  /** `<!`: a comment, a CDATA section (its text joins the open element's), or a refused DOCTYPE. */
  #bang(lt: number): number {
    const m = scanBangMarkup(this.#s, lt, this.#start, this.#top !== null);
    this.#checkMarkup(lt, m.end);
    if (m.cdataEnd >= 0) {
      const text = this.#s.slice(lt + 9, m.cdataEnd);
      this.#top!.text += text;
      if (this.misc !== null) _appendText(this.#top!, text);
    } else if (this.misc !== null) {
      // A comment: `<!--` + text + `-->`.
      this.#keep({ kind: "comment", text: this.#s.slice(lt + 4, m.end - 3) }, lt);
    }
    return m.end;
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
        this.#checkMarkup(lt, decl.end);
        this.declaredEncoding = decl.encoding;
        return decl.end;
      }
      throw this.#fail(
        target.qname === "xml" ? "XML declaration is allowed only at the very start of the document" : `Processing instruction target ${quoteXml(target.qname)} is reserved`,
        lt,
      );
    }
    const c = s.charCodeAt(p);
    if (c === QUESTION && s.charCodeAt(p + 1) === GT) {
      if (this.misc !== null) this.#keep({ kind: "pi", target: target.qname, data: "" }, lt);
      return p + 2;
    }
    if (!_isWs(c)) throw this.#unexpected(p, "white space or '?>' after the processing instruction target");
    const end = s.indexOf("?>", p);
    if (end < 0) throw this.#fail("Unterminated processing instruction", lt);
    this.#checkMarkup(p, end);
    if (this.misc !== null) {
      let d = p;
      while (d < end && _isWs(s.charCodeAt(d))) d++;
      this.#keep({ kind: "pi", target: target.qname, data: s.slice(d, end) }, lt);
    }
    return end + 2;
  }

  /** Keeps a comment or PI in the open element's content, or before or after the root (`content` option only). */
  #keep(node: XmlComment | XmlProcessingInstruction, at: number): void {
    // Kept comments and PIs are tree nodes too: they count against the node budget as elements do.
    if (++this.#nodes > this.#maxNodes) throw this.#fail(`Document has more than ${this.#maxNodes} nodes for its size`, at);
    const top = this.#top;
    if (top !== null) top.content!.push(node);
    else if (this.#root === null) this.misc!.before.push(node);
    else this.misc!.after.push(node);
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

  #unexpected(p: number, expected: string): XmlError {
    return unexpectedAt(this.#s, p, expected, this.#start);
  }

  #throw(message: string, at: number): never {
    throw this.#fail(message, at);
  }

  #fail(message: string, at: number): XmlError {
    return xmlErrorAt(this.#s, at, message, this.#start);
  }
}

/** Adds character data to an element's content, joining it to text just before (CDATA next to text is one run). */
function _appendText(el: XmlElement, text: string): void {
  const content = el.content!;
  const last = content.length - 1;
  const prev = content[last];
  if (typeof prev === "string") content[last] = prev + text;
  else content.push(text);
}
