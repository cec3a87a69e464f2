/**
 * XML Schema 1.0 regular expressions (XML Schema Part 2, Appendix F) translated to
 * JavaScript RegExps with the `v` flag: implicitly anchored, `.` excluding only CR and LF,
 * `\d` `\w` `\i` `\c` with their Unicode meanings, `\p{..}` categories and blocks, and
 * character-class subtraction (`[a-z-[aeiou]]` → `[[a-z]--[aeiou]]`). Every literal is
 * emitted as a `\u{..}` escape, so no XSD character is mistaken for JS syntax.
 * @module
 */

/** A pattern the translator refuses (a schema bug or an unsupported block name). */
export class XsdRegexError extends Error {}

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

/** Compiles an XSD pattern to an anchored JS RegExp. */
export function compileXsdPattern(pattern: string): RegExp {
  const parser = new _Parser(pattern);
  const body = parser.regExp();
  if (parser.pos < pattern.length) throw new XsdRegexError(`Unexpected ')' in pattern ${pattern}`);
  try {
    return new RegExp(`^(?:${body})$`, "v");
  } catch (err) {
    throw new XsdRegexError(`Cannot translate pattern ${pattern}: ${(err as Error).message}`);
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

  regExp(): string {
    const branches = [this.#branch()];
    while (this.#peek() === "|") {
      this.pos++;
      branches.push(this.#branch());
    }
    return branches.join("|");
  }

  #peek(): string | undefined {
    return this.#s[this.pos];
  }

  #fail(what: string): never {
    throw new XsdRegexError(`${what} at ${this.pos} in pattern ${this.#s}`);
  }

  #branch(): string {
    let out = "";
    for (;;) {
      const c = this.#peek();
      if (c === undefined || c === "|" || c === ")") return out;
      out += this.#atom() + this.#quantifier();
    }
  }

  #quantifier(): string {
    const c = this.#peek();
    if (c === "?" || c === "*" || c === "+") {
      this.pos++;
      return c;
    }
    if (c !== "{") return "";
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.#s.slice(this.pos));
    if (!m) this.#fail("Bad quantifier");
    this.pos += m[0].length;
    return m[0];
  }

  #atom(): string {
    const c = this.#peek()!;
    if (c === "(") {
      this.pos++;
      const inner = this.regExp();
      if (this.#peek() !== ")") this.#fail("Missing ')'");
      this.pos++;
      return `(?:${inner})`;
    }
    if (c === "[") return this.#classExpr();
    if (c === ".") {
      this.pos++;
      return "[^\\u{A}\\u{D}]";
    }
    if (c === "\\") return this.#escape(false);
    if ("?*+{}])".includes(c)) this.#fail(`Unexpected '${c}'`);
    const cp = this.#s.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return _lit(cp);
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
