/**
 * XML Schema 1.0 regular expressions (XML Schema Part 2, Appendix F), parsed once into a small tree and
 * translated to JavaScript RegExps with the `v` flag: implicitly anchored, `.` excluding only CR and LF,
 * `\d` `\w` `\i` `\c` with their Unicode meanings, `\p{..}` categories and blocks, and
 * character-class subtraction (`[a-z-[aeiou]]` → `[[a-z]--[aeiou]]`). Every literal is
 * emitted as a `\u{..}` escape, so no XSD character is mistaken for JS syntax.
 * A RegExp backtracks, and on a value of millions of characters its backtracking stack overflows (V8 throws
 * RangeError) or its time grows with the square of the length; such values are matched by regex_linear.ts
 * instead, in time linear in their length, with the same verdict.
 * @module
 */

import { compileLinearMatch } from "./regex_linear.ts";

/** A pattern the translator refuses (a schema bug or an unsupported block name). */
export class XsdRegexError extends Error {}

/**
 * The parsed pattern. `char` matches one character: `source` is a JS (`v` flag) expression for it alone, a
 * `\u{..}` literal, a class or a property escape.
 */
export type RegexNode =
  | { kind: "char"; source: string }
  | { kind: "seq"; items: RegexNode[] }
  | { kind: "alt"; branches: RegexNode[] }
  | { kind: "group"; node: RegexNode }
  | { kind: "repeat"; node: RegexNode; min: number; max: number; quantifier: string };

/** A compiled pattern: whether a whole value matches it. */
export interface XsdPattern {
  test(value: string): boolean;
}

/**
 * Values longer than this are matched by the linear matcher. V8's backtracking stack holds some millions of
 * entries and the schemas' patterns push a few per character, so shorter values are far from it; and a
 * pattern that backtracks quadratically costs at most this length squared.
 */
export const LINEAR_FROM = 4096;

// XML 1.0 (5th ed.) NameStartChar and NameChar, for \i and \c.
const NAME_START = "[:A-Z_a-z\\u{C0}-\\u{D6}\\u{D8}-\\u{F6}\\u{F8}-\\u{2FF}\\u{370}-\\u{37D}\\u{37F}-\\u{1FFF}\\u{200C}-\\u{200D}\\u{2070}-\\u{218F}\\u{2C00}-\\u{2FEF}\\u{3001}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFFD}\\u{10000}-\\u{EFFFF}]";
const NAME_CHAR = "[\\-.0-9\\u{B7}\\u{300}-\\u{36F}\\u{203F}-\\u{2040}" + NAME_START.slice(1);

// Appendix F.1: \s is exactly space, tab, CR, LF; \d is \p{Nd}; \w is everything but punctuation, separators and other.
const MULTI: Record<string, string> = {
  s: "[\\u{20}\\u{9}\\u{A}\\u{D}]", S: "[^\\u{20}\\u{9}\\u{A}\\u{D}]",
  d: "\\p{Nd}", D: "\\P{Nd}",
  w: "[^\\p{P}\\p{Z}\\p{C}]", W: "[\\p{P}\\p{Z}\\p{C}]",
  i: NAME_START, I: "[^" + NAME_START.slice(1), c: NAME_CHAR, C: "[^" + NAME_CHAR.slice(1),
};
const SINGLE: Record<string, number> = { n: 10, r: 13, t: 9 };
const META = "\\|.-^?*+{}()[]";

// The Unicode blocks XSD names as \p{IsX}; JS has no block property, so they are ranges. Only the common ones.
const BLOCKS: Record<string, [number, number]> = {
  BasicLatin: [0x0, 0x7f], "Latin-1Supplement": [0x80, 0xff], LatinExtended_A: [0x100, 0x17f], "LatinExtended-A": [0x100, 0x17f],
  "LatinExtended-B": [0x180, 0x24f], IPAExtensions: [0x250, 0x2af], Greek: [0x370, 0x3ff], Cyrillic: [0x400, 0x4ff],
  GeneralPunctuation: [0x2000, 0x206f], CurrencySymbols: [0x20a0, 0x20cf], LetterlikeSymbols: [0x2100, 0x214f],
};

/** Parses an XSD pattern into its tree. */
export function parseXsdPattern(pattern: string): RegexNode {
  const parser = new _Parser(pattern);
  const tree = parser.regExp();
  if (parser.pos < pattern.length) throw new XsdRegexError(`Unexpected ')' in pattern ${pattern}`);
  return tree;
}

/** Compiles an XSD pattern; `linearFrom` moves the length from which values go to the linear matcher (tests). */
export function compileXsdPattern(pattern: string, linearFrom = LINEAR_FROM): XsdPattern {
  const tree = parseXsdPattern(pattern);
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${_source(tree)})$`, "v");
  } catch (err) {
    throw new XsdRegexError(`Cannot translate pattern ${pattern}: ${(err as Error).message}`);
  }
  let linear: ((value: string) => boolean) | null = null; // built on the first long value
  return {
    test(value) {
      if (value.length < linearFrom) return re.test(value);
      return (linear ??= compileLinearMatch(tree))(value);
    },
  };
}

/** The JS source of a parsed pattern (without the anchors). */
function _source(node: RegexNode): string {
  switch (node.kind) {
    case "char": return node.source;
    case "seq": return node.items.map(_source).join("");
    case "alt": return node.branches.map(_source).join("|");
    case "group": return `(?:${_source(node.node)})`;
    case "repeat": return _source(node.node) + node.quantifier;
  }
}

function _lit(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

class _Parser {
  pos = 0;
  #s: string;
  constructor(s: string) {
    this.#s = s;
  }

  regExp(): RegexNode {
    const branches = [this.#branch()];
    while (this.#peek() === "|") {
      this.pos++;
      branches.push(this.#branch());
    }
    return branches.length === 1 ? branches[0]! : { kind: "alt", branches };
  }

  #peek(): string | undefined {
    return this.#s[this.pos];
  }

  #fail(what: string): never {
    throw new XsdRegexError(`${what} at ${this.pos} in pattern ${this.#s}`);
  }

  #branch(): RegexNode {
    const items: RegexNode[] = [];
    for (;;) {
      const c = this.#peek();
      if (c === undefined || c === "|" || c === ")") return { kind: "seq", items };
      const atom = this.#atom();
      items.push(this.#quantified(atom));
    }
  }

  #quantified(node: RegexNode): RegexNode {
    const c = this.#peek();
    if (c === "?" || c === "*" || c === "+") {
      this.pos++;
      return { kind: "repeat", node, min: c === "+" ? 1 : 0, max: c === "?" ? 1 : Infinity, quantifier: c };
    }
    if (c !== "{") return node;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.#s.slice(this.pos));
    if (!m) this.#fail("Bad quantifier");
    this.pos += m[0].length;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    return { kind: "repeat", node, min, max, quantifier: m[0] };
  }

  #atom(): RegexNode {
    const c = this.#peek()!;
    if (c === "(") {
      this.pos++;
      const inner = this.regExp();
      if (this.#peek() !== ")") this.#fail("Missing ')'");
      this.pos++;
      return { kind: "group", node: inner };
    }
    if (c === "[") return { kind: "char", source: this.#classExpr() };
    if (c === ".") {
      this.pos++;
      return { kind: "char", source: "[^\\u{A}\\u{D}]" };
    }
    if (c === "\\") return { kind: "char", source: this.#escape(false) };
    if ("?*+{}])".includes(c)) this.#fail(`Unexpected '${c}'`);
    const cp = this.#s.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return { kind: "char", source: _lit(cp) };
  }

  /** An escape; in a class, single-character escapes return a literal usable as a range end. */
  #escape(inClass: boolean): string {
    this.pos++; // the backslash
    const c = this.#peek();
    if (c === undefined) this.#fail("Dangling '\\'");
    this.pos++;
    if (SINGLE[c] !== undefined) return _lit(SINGLE[c]);
    if (META.includes(c)) return _lit(c.charCodeAt(0));
    if (MULTI[c] !== undefined) return MULTI[c];
    if (c === "p" || c === "P") return this.#property(c === "P");
    this.#fail(`Unknown escape '\\${c}'${inClass ? " in a class" : ""}`);
  }

  #property(negated: boolean): string {
    const m = /^\{([A-Za-z0-9_-]+)\}/.exec(this.#s.slice(this.pos));
    if (!m) this.#fail("Bad \\p{..}");
    this.pos += m[0].length;
    const name = m[1]!;
    if (name.startsWith("Is")) {
      const block = BLOCKS[name.slice(2)];
      if (!block) this.#fail(`Unsupported block ${name}`);
      return `[${negated ? "^" : ""}${_lit(block[0])}-${_lit(block[1])}]`;
    }
    return `\\${negated ? "P" : "p"}{${name}}`;
  }

  /** `[` charGroup `]` where charGroup is `^`? items (`-[` subtraction `]`)?. */
  #classExpr(): string {
    this.pos++; // [
    let negated = false;
    if (this.#peek() === "^") {
      negated = true;
      this.pos++;
    }
    const items: string[] = [];
    let subtract: string | null = null;
    let first = true;
    for (;;) {
      const c = this.#peek();
      if (c === undefined) this.#fail("Missing ']'");
      if (c === "]" && !first) {
        this.pos++;
        break;
      }
      if (c === "-" && this.#s[this.pos + 1] === "[") {
        this.pos++;
        subtract = this.#classExpr();
        if (this.#peek() !== "]") this.#fail("Subtraction must end the class");
        this.pos++;
        break;
      }
      items.push(this.#classItem(first));
      first = false;
    }
    if (items.length === 0) this.#fail("Empty class");
    const base = `[${negated ? "^" : ""}${items.join("")}]`;
    return subtract === null ? base : `[${base}--${subtract}]`;
  }

  #classItem(first: boolean): string {
    const start = this.#classChar(first);
    if (typeof start === "string") return start;
    // A range `a-b`, unless '-' is the last character of the group or starts a subtraction.
    if (this.#peek() === "-" && this.#s[this.pos + 1] !== "]" && this.#s[this.pos + 1] !== "[") {
      this.pos++;
      const end = this.#classChar(false);
      if (typeof end === "string") this.#fail("Bad range end");
      if (end < start) this.#fail("Range out of order");
      return `${_lit(start)}-${_lit(end)}`;
    }
    return _lit(start);
  }

  /** A code point, or a class (string) for a multi-character escape. */
  #classChar(first: boolean): number | string {
    const c = this.#peek()!;
    if (c === "\\") {
      const save = this.pos;
      const e = this.#escape(true);
      const m = /^\\u\{([0-9a-f]+)\}$/.exec(e);
      if (m && this.pos - save === 2) return parseInt(m[1]!, 16);
      return e;
    }
    if (c === "[" ) this.#fail("Unescaped '[' in a class");
    if (c === "]" && !first) this.#fail("Unexpected ']'");
    const cp = this.#s.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }
}
