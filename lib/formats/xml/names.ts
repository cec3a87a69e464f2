/**
 * Reads XML names (XML 1.0 5th ed. §2.3 NameStartChar/NameChar) as qualified
 * names of Namespaces in XML 1.0 §4 (at most one colon, neither first nor last)
 * and interns them, so that a name seen again costs no new string. It does not
 * resolve prefixes: that is namespaces.ts.
 * @module
 */

const COLON = 58;
const START = 1;
const CHAR = 2;

/** ASCII part of NameStartChar (START) and NameChar (CHAR); ':' is handled apart for QNames. */
const ASCII = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95; // A-Z a-z _
    if (letter) t[c] = START | CHAR;
    else if ((c >= 48 && c <= 57) || c === 45 || c === 46) t[c] = CHAR; // 0-9 - .
  }
  return t;
})();

/** Width (0, 1 or 2 code units) of a non-ASCII NameStartChar at `p`, 0 if there is none. */
function _startWidth(s: string, p: number, c: number): number {
  if (c >= 0xc0 && c <= 0x1fff) return c === 0xd7 || c === 0xf7 || (c >= 0x300 && c <= 0x36f) || c === 0x37e ? 0 : 1;
  if (
    c === 0x200c || c === 0x200d || (c >= 0x2070 && c <= 0x218f) || (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) || (c >= 0xf900 && c <= 0xfdcf) || (c >= 0xfdf0 && c <= 0xfffd)
  ) return 1;
  if (c >= 0xd800 && c <= 0xdb7f) { // [#x10000-#xEFFFF] as a surrogate pair
    const d = s.charCodeAt(p + 1);
    return d >= 0xdc00 && d <= 0xdfff ? 2 : 0;
  }
  return 0;
}

/** Width of a non-ASCII NameChar at `p`, 0 if there is none. */
function _charWidth(s: string, p: number, c: number): number {
  if (c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040) return 1;
  return _startWidth(s, p, c);
}

/** Whether `c` (a code unit) may start a name; a surrogate pair counts via `s` at `p`. */
export function isNameStart(s: string, p: number): boolean {
  const c = s.charCodeAt(p);
  return c < 128 ? (ASCII[c]! & START) !== 0 : _startWidth(s, p, c) > 0;
}

/** What a namespace declaration attribute is: none, `xmlns` or `xmlns:p`. */
export const DECL_NONE = 0;
export const DECL_DEFAULT = 1;
export const DECL_PREFIXED = 2;

/** An interned qualified name with a per-scope cache of its namespace (see NamespaceScope.version). */
export interface NameEntry {
  qname: string;
  prefix: string;
  local: string;
  hash: number;
  decl: number;
  /** Scope version for which `ns` holds; -1 for none. */
  nsVersion: number;
  ns: string;
  /** The element name that followed this one last time, to try before reading the next name. */
  next: NameEntry | null;
}

/** Why the last `read` failed. */
export const NAME_OK = 0;
export const NAME_BAD_START = 1;
export const NAME_BAD_COLON = 2;
export const NAME_TOO_LONG = 3;

/** Longest probe in the intern table: hash collisions cost a bounded number of steps, never O(n). */
const MAX_PROBES = 8;
/** Distinct names kept; invoices use a few hundred, more are read but not interned. */
const MAX_INTERNED = 1 << 14;

/** Reads and interns qualified names; one per parse. */
export class NameReader {
  /** End of the name after `read`; on failure, the offset of the offending character. */
  end = 0;
  /** NAME_OK or why `read` returned null. */
  error = NAME_OK;
  #table: (NameEntry | undefined)[] = new Array(256);
  #mask = 255;
  #count = 0;
  readonly #maxLength: number;

  constructor(maxLength: number) {
    this.#maxLength = maxLength;
  }

  /** Reads the QName starting at `start`; null (with `error`, `end`) when there is none. */
  read(s: string, start: number): NameEntry | null {
    let p = start;
    let c = s.charCodeAt(p);
    let h = 0x811c9dc5;
    let colon = -1;
    if (c < 128) {
      if ((ASCII[c]! & START) === 0) return this.#fail(NAME_BAD_START, p);
      h = Math.imul(h ^ c, 0x01000193);
      p++;
    } else {
      const w = _startWidth(s, p, c);
      if (w === 0) return this.#fail(NAME_BAD_START, p);
      h = Math.imul(h ^ c, 0x01000193);
      p += w;
    }
    for (;;) {
      c = s.charCodeAt(p);
      if (c < 128) {
        if ((ASCII[c]! & CHAR) !== 0) {
          h = Math.imul(h ^ c, 0x01000193);
          p++;
          continue;
        }
        if (c !== COLON) break;
        // Namespaces in XML 1.0 §4: one colon, followed by an NCName.
        if (colon >= 0 || !isNameStart(s, p + 1)) return this.#fail(NAME_BAD_COLON, p);
        colon = p;
        h = Math.imul(h ^ c, 0x01000193);
        p++;
        continue;
      }
      const w = _charWidth(s, p, c); // NaN past the end gives 0
      if (w === 0) break;
      h = Math.imul(h ^ c, 0x01000193);
      p += w;
    }
    if (p - start > this.#maxLength) return this.#fail(NAME_TOO_LONG, start);
    this.end = p;
    this.error = NAME_OK;
    return this.#intern(s, start, p, h, colon);
  }

  #fail(error: number, at: number): null {
    this.error = error;
    this.end = at;
    return null;
  }

  #intern(s: string, start: number, end: number, h: number, colon: number): NameEntry {
    const len = end - start;
    const table = this.#table;
    let i = h & this.#mask;
    for (let probes = 0; probes < MAX_PROBES; probes++) {
      const e = table[i];
      if (e === undefined) {
        const fresh = _entry(s, start, end, h, colon);
        if (this.#count < MAX_INTERNED) {
          table[i] = fresh;
          if (++this.#count * 2 > table.length) this.#grow();
        }
        return fresh;
      }
      if (e.hash === h && e.qname.length === len && s.startsWith(e.qname, start)) return e;
      i = (i + 1) & this.#mask;
    }
    return _entry(s, start, end, h, colon); // a crowded chain: read, but not interned
  }

  #grow(): void {
    const old = this.#table;
    const table: (NameEntry | undefined)[] = new Array(old.length * 2);
    const mask = table.length - 1;
    for (const e of old) {
      if (e === undefined) continue;
      let i = e.hash & mask;
      while (table[i] !== undefined) i = (i + 1) & mask;
      table[i] = e;
    }
    this.#table = table;
    this.#mask = mask;
  }
}

function _entry(s: string, start: number, end: number, hash: number, colon: number): NameEntry {
  const qname = s.slice(start, end);
  const prefix = colon < 0 ? "" : s.slice(start, colon);
  const local = colon < 0 ? qname : s.slice(colon + 1, end);
  const decl = qname === "xmlns" ? DECL_DEFAULT : prefix === "xmlns" ? DECL_PREFIXED : DECL_NONE;
  return { qname, prefix, local, hash, decl, nsVersion: -1, ns: "", next: null };
}
