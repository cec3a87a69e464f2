/**
 * Writes XML text: an append-only builder of elements, attributes and character data that the invoice writers use
 * (README "Creating invoices"). It escapes what XML 1.0 §2.4 and §3.3.3 require (`&`, `<`, `>` in text; also `"`
 * and the white-space characters an attribute value would normalise), and refuses characters XML 1.0 §2.2 does not
 * allow, so that what it writes always parses. It does not indent, reorder or check names: the caller writes
 * elements in schema order with prefixes it has declared.
 * @module
 */

/** A character that XML 1.0 §2.2 does not allow anywhere in a document (C0 controls but TAB, LF, CR; U+FFFE, U+FFFF). */
const _FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const _TEXT_SPECIAL = /[&<>\r]/;
const _ATTR_SPECIAL = /[&<>"\t\n\r]/;

/** Thrown for a value that XML cannot carry (a control character): the caller names the field. */
export class XmlWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "XmlWriteError";
  }
}

/** Any character escapeText must look at: one test passes nearly every value of an invoice unchanged. */
const _TEXT_ANY = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF&<>\r]/;

/** A value's text escaped for character data. */
export function escapeText(value: string): string {
  if (!_TEXT_ANY.test(value)) return value;
  if (_FORBIDDEN.test(value)) throw new XmlWriteError("Cannot write XML: the value holds a control character XML does not allow");
  if (!_TEXT_SPECIAL.test(value)) return value;
  // CR is written as a reference: a literal one would become LF on reading (XML 1.0 §2.11).
  return value.replace(/[&<>\r]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&#13;"));
}

/** A value's text escaped for a double-quoted attribute (tabs and line ends kept, XML 1.0 §3.3.3). */
export function escapeAttribute(value: string): string {
  if (_FORBIDDEN.test(value)) throw new XmlWriteError("Cannot write XML: the value holds a control character XML does not allow");
  if (!_ATTR_SPECIAL.test(value)) return value;
  return value.replace(/[&<>"\t\n\r]/g, (c) => _ATTR_REFS[c]!);
}
const _ATTR_REFS: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;" };

/** Attributes of an element, in the order written; `null` and `undefined` values are left out. */
export type XmlAttributes = Readonly<Record<string, string | null | undefined>>;

/**
 * Builds a document by appending to one string, never a tree first. Appending measured cheaper than a list of
 * pieces joined at the end (bench/invoice_write.bench.ts: the join was over a third of writing a 30 KB FA(3)); the
 * engine keeps the appended string as a rope and flattens it once, on first use. `open`/`close` nest; `leaf` writes
 * an element with text; `null` text writes nothing, so optional values need no branch at the call site.
 */
export class XmlWriter {
  #out = "";
  #open: string[] = [];

  /** Starts with the XML declaration (UTF-8), as the official examples do. */
  constructor(declaration = true) {
    if (declaration) this.#out = '<?xml version="1.0" encoding="UTF-8"?>\n';
  }

  /** Opens an element. */
  open(name: string, attributes?: XmlAttributes): this {
    this.#out += "<" + name;
    if (attributes) this.#attributes(attributes);
    this.#out += ">";
    this.#open.push(name);
    return this;
  }

  /** Closes the innermost open element. */
  close(): this {
    const name = this.#open.pop();
    if (name === undefined) throw new RangeError("XmlWriter.close() without an open element");
    this.#out += "</" + name + ">";
    return this;
  }

  /** Writes `<name>text</name>`; nothing when `text` is null or undefined. */
  leaf(name: string, text: string | null | undefined, attributes?: XmlAttributes): this {
    if (text === null || text === undefined) return this;
    if (attributes) {
      this.#out += "<" + name;
      this.#attributes(attributes);
      this.#out += ">" + escapeText(text) + "</" + name + ">";
    } else this.#out += "<" + name + ">" + escapeText(text) + "</" + name + ">";
    return this;
  }

  /** Writes an element with no content (`<name/>`). */
  empty(name: string, attributes?: XmlAttributes): this {
    this.#out += "<" + name;
    if (attributes) this.#attributes(attributes);
    this.#out += "/>";
    return this;
  }

  /** The document; every element opened must have been closed. */
  toString(): string {
    if (this.#open.length > 0) throw new RangeError(`XmlWriter: <${this.#open[this.#open.length - 1]}> is not closed`);
    return this.#out;
  }

  #attributes(attributes: XmlAttributes): void {
    for (const name in attributes) {
      const value = attributes[name];
      if (value === null || value === undefined) continue;
      this.#out += " " + name + '="' + escapeAttribute(value) + '"';
    }
  }
}
