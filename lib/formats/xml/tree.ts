/**
 * The element tree that `parseXml` returns: namespace-resolved names, attributes,
 * the direct character data of each element, and where each element starts.
 * Mixed-content order is not kept: invoices carry data in leaf elements.
 * @module
 */

/** An attribute after namespace resolution (`ns` is "" for unprefixed attributes). */
export interface XmlAttribute {
  ns: string;
  local: string;
  prefix: string;
  value: string;
}

/** An element after namespace resolution. */
export interface XmlElement {
  /** Namespace URI, "" when the element is in no namespace. */
  ns: string;
  /** Local name (without prefix). */
  local: string;
  /** Prefix as written, "" for none. Never match on it: match on `ns`. */
  prefix: string;
  attrs: XmlAttribute[];
  children: XmlElement[];
  /** The element's own character data (text and CDATA directly inside it, concatenated). */
  text: string;
  /** 1-based line and column of the element's `<`. */
  line: number;
  column: number;
}

/** A parsed document. */
export interface XmlDocument {
  root: XmlElement;
  /** The encoding the bytes were decoded with, e.g. "utf-8", "iso-8859-2". */
  encoding: string;
}
