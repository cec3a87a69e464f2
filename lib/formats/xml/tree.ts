/**
 * The element tree that `parseXml` returns: namespace-resolved names, attributes,
 * the direct character data of each element, and where each element starts.
 * Mixed-content order is not kept by default: invoices carry data in leaf elements.
 * With the `content` option the parser also keeps each element's children in
 * document order (text, comments, processing instructions), which canonical XML needs.
 * @module
 */

/** An attribute after namespace resolution (`ns` is "" for unprefixed attributes). */
export interface XmlAttribute {
  ns: string;
  local: string;
  prefix: string;
  value: string;
}

/** A comment, kept only with the parse option `content`. */
export interface XmlComment {
  kind: "comment";
  /** What stands between `<!--` and `-->`. */
  text: string;
}

/** A processing instruction, kept only with the parse option `content`. */
export interface XmlProcessingInstruction {
  kind: "pi";
  target: string;
  /** What follows the target and its white space, up to `?>`; "" for none. */
  data: string;
}

/**
 * One child in document order: an element, character data (a string: text and CDATA sections run together,
 * references expanded, line ends normalised as XML 1.0 §2.11 says), a comment or a processing instruction.
 */
export type XmlContent = XmlElement | string | XmlComment | XmlProcessingInstruction;

/** An element after namespace resolution. */
export interface XmlElement {
  /** Namespace URI, "" when the element is in no namespace. */
  ns: string;
  /** Local name (without prefix). */
  local: string;
  /** Prefix as written, "" for none. Never match on it: match on `ns`. */
  prefix: string;
  /** Attributes in the order written; namespace declarations among them with `ns` the xmlns namespace. */
  attrs: XmlAttribute[];
  children: XmlElement[];
  /** The element's own character data (text and CDATA directly inside it, concatenated). */
  text: string;
  /** 1-based line and column of the element's `<`. */
  line: number;
  column: number;
  /** All children in document order; only with the parse option `content`. */
  content?: XmlContent[];
}

/** A parsed document. */
export interface XmlDocument {
  root: XmlElement;
  /** The encoding the bytes were decoded with, e.g. "utf-8", "iso-8859-2". */
  encoding: string;
  /** Comments and processing instructions before the root element; only with the parse option `content`. */
  before?: (XmlComment | XmlProcessingInstruction)[];
  /** Comments and processing instructions after the root element; only with the parse option `content`. */
  after?: (XmlComment | XmlProcessingInstruction)[];
}
