/**
 * parseXml: the project's XML 1.0 (5th ed.) parser with Namespaces in XML 1.0,
 * from bytes or text to the element tree of tree.ts. Non-validating; refuses any
 * DOCTYPE, so there are no entities beyond the five predefined ones and no
 * external fetches. Every limit has a finite default. Comments and processing
 * instructions are checked, then dropped, unless the `content` option keeps them.
 * @module
 */

import { decodeXml, encodingName } from "./decode.ts";
import { xmlErrorAt } from "./errors.ts";
import { XmlReader } from "./reader.ts";
import type { XmlDocument } from "./tree.ts";

export { XmlError } from "./errors.ts";

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
  /** Most elements and attributes together (with `content`, comments and PIs too); by default in proportion to the input (nodeBudget). */
  maxNodes?: number;
  /** Largest input: bytes for a Uint8Array, UTF-16 code units for a string. No limit unless given. */
  maxSize?: number;
  /**
   * Keep every element's children in document order (`XmlElement.content`: text, comments, processing
   * instructions) and the comments and PIs around the root (`before`, `after`): what canonical XML needs.
   * Off by default, so the invoice path builds no more than it reads.
   */
  content?: boolean;
}

/** Default limits. */
export const XML_PARSE_LIMITS = {
  /** README “The PDF”; invoices nest about 10 deep (KSeF FA, UBL, CII). */
  maxDepth: 256,
  /** Invoice elements carry a few attributes; roots about 10 namespace declarations. */
  maxAttributes: 256,
  /** Schema names are under 100 characters; 1024 leaves room and bounds error messages. */
  maxNameLength: 1024,
  /** A 10 MiB upload of `<a/>` is 2.6 million elements (~400 MB of tree); real invoices have thousands. */
  maxElements: 1_000_000,
} as const;

/**
 * The tree costs some 100–200 bytes of memory per element or attribute, whatever their size in the input. Real
 * invoices spend 30 bytes or more per element and 100 or more per attribute (test/fixtures/samples: 31.4 and
 * 112 at least), so one node per 16 characters leaves them twofold room while a document of empty elements or
 * short attributes is refused before its tree outgrows ~10 times its own size.
 */
export const CHARS_PER_NODE = 16;
/** Small documents may be dense: up to this many nodes whatever their size. */
export const NODE_FLOOR = 10_000;

/** The default limit on elements and attributes for an input of `size` characters. */
export function nodeBudget(size: number): number {
  return NODE_FLOOR + Math.floor(size / CHARS_PER_NODE);
}

/** Parses an XML document (bytes in any encoding the runtime decodes, or text) into its element tree. */
export function parseXml(input: Uint8Array | string, options: XmlParseOptions = {}): XmlDocument {
  const limits = {
    maxDepth: _checkLimit("maxDepth", options.maxDepth ?? XML_PARSE_LIMITS.maxDepth),
    maxAttributes: _checkLimit("maxAttributes", options.maxAttributes ?? XML_PARSE_LIMITS.maxAttributes),
    maxNameLength: _checkLimit("maxNameLength", options.maxNameLength ?? XML_PARSE_LIMITS.maxNameLength),
    maxElements: _checkLimit("maxElements", options.maxElements ?? XML_PARSE_LIMITS.maxElements),
    maxNodes: 0,
  };
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
  limits.maxNodes = _checkLimit("maxNodes", options.maxNodes ?? nodeBudget(text.length));
  const reader = new XmlReader(text, limits, options.content === true);
  const root = reader.read();
  // Text comes decoded: report what its declaration names, as bytes would have been decoded.
  encoding ??= reader.declaredEncoding === null ? "utf-8" : encodingName(reader.declaredEncoding);
  const misc = reader.misc;
  return misc === null ? { root, encoding } : { root, encoding, before: misc.before, after: misc.after };
}

function _checkLimit(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`XML option ${name} must be a positive integer, got ${value}`);
  return value;
}
