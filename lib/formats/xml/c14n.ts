/**
 * Canonical XML over the tree of `parseXml(…, { content: true })`: W3C Exclusive XML Canonicalization 1.0
 * (with the InclusiveNamespaces PrefixList) and Canonical XML 1.0, with or without comments, of a whole
 * document, of one element in the context of its ancestors (XML-DSig's SignedInfo, a same-document
 * reference), and of a document less one element (XML-DSig's enveloped-signature transform). Node sets
 * chosen by XPath are not supported: a signature that needs them is not one this project makes.
 * @module
 */

import { XML_NS, XMLNS_NS } from "./namespaces.ts";
import type { XmlAttribute, XmlComment, XmlContent, XmlDocument, XmlElement, XmlProcessingInstruction } from "./tree.ts";

/** Algorithm URIs of XML-DSig for the canonicalisations here. */
export const C14N_ALGORITHMS = {
  /** Exclusive XML Canonicalization 1.0, without and with comments. */
  exclusive: "http://www.w3.org/2001/10/xml-exc-c14n#",
  exclusiveWithComments: "http://www.w3.org/2001/10/xml-exc-c14n#WithComments",
  /** Canonical XML 1.0, without and with comments. */
  inclusive: "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
  inclusiveWithComments: "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments",
} as const;

/** How to canonicalise. */
export interface CanonicalizeOptions {
  /** "exclusive" (Exclusive XML Canonicalization 1.0, the default) or "inclusive" (Canonical XML 1.0). */
  method?: "exclusive" | "inclusive";
  /** Keep comments (the `#WithComments` variants); off by default. */
  withComments?: boolean;
  /**
   * Exclusive only: the InclusiveNamespaces PrefixList, prefixes whose in-scope declarations are rendered
   * as Canonical XML would; "#default" names the default namespace.
   */
  inclusivePrefixes?: readonly string[];
  /** An element left out with everything in it, as the enveloped-signature transform leaves out its Signature. */
  exclude?: XmlElement;
}

/**
 * The canonical form of a whole document (its root and the comments and PIs around it), as UTF-8 text's
 * code points: encode it as UTF-8 for the octets (Canonical XML 1.0 §2.1).
 */
export function canonicalizeDocument(doc: XmlDocument, options: CanonicalizeOptions = {}): string {
  const c = new _Canonicalizer(options);
  const comments = options.withComments === true;
  let out = "";
  // Canonical XML 1.0 §2.3, the root node: a comment or PI before the document element is followed by
  // #xA, one after it is preceded by #xA; white space outside the document element is dropped.
  for (const node of _misc(doc.before)) if (comments || node.kind === "pi") out += _markup(node) + "\n";
  if (doc.root !== options.exclude) out += c.element(doc.root, new Map());
  for (const node of _misc(doc.after)) if (comments || node.kind === "pi") out += "\n" + _markup(node);
  return out;
}

/**
 * The canonical form of one element and everything in it, the namespaces its ancestors declare in scope:
 * the node set of a same-document reference such as `URI="#id"` or of SignedInfo.
 */
export function canonicalizeElement(doc: XmlDocument, element: XmlElement, options: CanonicalizeOptions = {}): string {
  const path = _pathTo(doc.root, element);
  if (path === null) throw new TypeError("Cannot canonicalize an element that is not in the document");
  const scope = new Map<string, string>();
  const inherited = new Map<string, XmlAttribute>();
  for (let i = 0; i < path.length - 1; i++) {
    for (const a of path[i]!.attrs) {
      if (a.ns === XMLNS_NS) scope.set(_declaredPrefix(a), a.value);
      else if (a.ns === XML_NS) inherited.set(a.local, a);
    }
  }
  const c = new _Canonicalizer(options);
  if (element === options.exclude) return "";
  // Canonical XML 1.0 §2.4: the apex of a document subset takes the xml:* attributes of its ancestors that it
  // does not set itself; Exclusive Canonicalization §3 does not (it renders only the subset's own attributes).
  return c.element(element, scope, c.inclusive ? inherited : null);
}

/** The canonical form of a document as UTF-8 bytes, what a digest is taken over. */
export function canonicalBytes(text: string): Uint8Array {
  return _utf8.encode(text);
}

const _utf8 = new TextEncoder();

class _Canonicalizer {
  readonly inclusive: boolean;
  readonly #comments: boolean;
  readonly #exclude: XmlElement | null;
  /** Prefixes of the PrefixList, "" for "#default". */
  readonly #listed: ReadonlySet<string>;

  constructor(options: CanonicalizeOptions) {
    const method = options.method ?? "exclusive";
    if (method !== "exclusive" && method !== "inclusive") throw new TypeError(`Unknown canonicalization method ${String(method)}`);
    this.inclusive = method === "inclusive";
    if (this.inclusive && options.inclusivePrefixes !== undefined) {
      throw new TypeError("inclusivePrefixes applies to exclusive canonicalization only");
    }
    this.#comments = options.withComments === true;
    this.#exclude = options.exclude ?? null;
    this.#listed = new Set((options.inclusivePrefixes ?? []).map((p) => (p === "#default" ? "" : p)));
  }

  /**
   * `apex` and everything in it in canonical form. `scope`: the namespaces in scope at its parent (prefix →
   * URI, "" the default); `inherited`: xml:* attributes it takes from its ancestors (Canonical XML's apex).
   * An explicit stack rather than recursion, so that depth is bounded by the parse's limits alone.
   */
  element(apex: XmlElement, scope: ReadonlyMap<string, string>, inherited: ReadonlyMap<string, XmlAttribute> | null = null): string {
    const stack: _Frame[] = [];
    let out = "";
    let frame: _Frame | undefined = this.#open(apex, scope, new Map(), inherited);
    out += frame.tag;
    while (frame !== undefined) {
      const content: XmlContent[] = frame.content;
      if (frame.i === content.length) {
        // Empty elements become start-end tag pairs.
        out += `</${frame.qname}>`;
        frame = stack.pop();
        continue;
      }
      const node = content[frame.i++]!;
      if (typeof node === "string") out += _escapeText(node);
      else if ("kind" in node) {
        if (this.#comments || node.kind === "pi") out += _markup(node);
      } else if (node !== this.#exclude) {
        stack.push(frame);
        frame = this.#open(node, frame.inScope, frame.rendered, null);
        out += frame.tag;
      }
    }
    return out;
  }

  /**
   * The start tag of `el` and what its content needs. `rendered`: the declarations in effect in the output at
   * its nearest output ancestor.
   */
  #open(el: XmlElement, scope: ReadonlyMap<string, string>, rendered: ReadonlyMap<string, string>, inherited: ReadonlyMap<string, XmlAttribute> | null): _Frame {
    const content = el.content;
    if (content === undefined) throw new TypeError("Canonicalization needs a tree parsed with the content option");
    let own: Map<string, string> | null = null;
    const attrs: XmlAttribute[] = [];
    for (const a of el.attrs) {
      if (a.ns === XMLNS_NS) (own ??= new Map(scope)).set(_declaredPrefix(a), a.value);
      else attrs.push(a);
    }
    if (inherited !== null) {
      for (const [local, a] of inherited) if (!attrs.some((b) => b.ns === XML_NS && b.local === local)) attrs.push(a);
    }
    const inScope = own ?? scope;

    // The namespace declarations to render, and what the output then has in effect for the children.
    const decls: [string, string][] = [];
    if (this.inclusive) {
      // Canonical XML 1.0 §2.3 / §4.6: every namespace node in scope, less those the nearest output ancestor has.
      for (const [prefix, uri] of inScope) _consider(decls, rendered, prefix, uri);
    } else {
      // Exclusive Canonicalization §3: only the namespaces the element and its attributes visibly utilise,
      // plus those of the PrefixList in scope, handled as Canonical XML would.
      _consider(decls, rendered, el.prefix, el.ns);
      for (const a of attrs) if (a.prefix !== "") _consider(decls, rendered, a.prefix, a.ns);
      for (const prefix of this.#listed) {
        const uri = inScope.get(prefix);
        if (uri !== undefined) _consider(decls, rendered, prefix, uri);
      }
    }
    let next = rendered;
    if (decls.length > 0) {
      const m = new Map(rendered);
      for (const [prefix, uri] of decls) m.set(prefix, uri);
      next = m;
    }

    const qname = el.prefix === "" ? el.local : `${el.prefix}:${el.local}`;
    let tag = `<${qname}`;
    // §2.2 (both): namespace declarations first, by prefix (the default, "", sorts first), then attributes by
    // namespace URI then local name, unqualified ones ("" URI) first; code point order.
    decls.sort((a, b) => _compare(a[0], b[0]));
    for (const [prefix, uri] of decls) tag += `${prefix === "" ? " xmlns" : ` xmlns:${prefix}`}="${_escapeAttribute(uri)}"`;
    if (attrs.length > 1) attrs.sort((a, b) => _compare(a.ns, b.ns) || _compare(a.local, b.local));
    for (const a of attrs) tag += ` ${a.prefix === "" ? a.local : `${a.prefix}:${a.local}`}="${_escapeAttribute(a.value)}"`;
    return { tag: `${tag}>`, qname, content, i: 0, inScope, rendered: next };
  }
}

/** An open element of the canonicaliser's walk. */
interface _Frame {
  tag: string;
  qname: string;
  content: XmlContent[];
  /** The next child to write. */
  i: number;
  /** Namespaces in scope inside the element, and the declarations in effect in the output there. */
  inScope: ReadonlyMap<string, string>;
  rendered: ReadonlyMap<string, string>;
}

/**
 * Adds the declaration of `prefix` to `decls` unless the output has it in effect already (`rendered`, at the
 * nearest output ancestor). An empty default namespace needs rendering (as xmlns="") only over a non-empty one.
 */
function _consider(decls: [string, string][], rendered: ReadonlyMap<string, string>, prefix: string, uri: string): void {
  if (prefix === "xml") return;
  if ((rendered.get(prefix) ?? "") === uri && (prefix === "" || rendered.has(prefix))) return;
  for (const d of decls) if (d[0] === prefix) return;
  decls.push([prefix, uri]);
}

function _misc(nodes: (XmlComment | XmlProcessingInstruction)[] | undefined): (XmlComment | XmlProcessingInstruction)[] {
  if (nodes === undefined) throw new TypeError("Canonicalization needs a tree parsed with the content option");
  return nodes;
}

function _markup(node: XmlComment | XmlProcessingInstruction): string {
  if (node.kind === "comment") return `<!--${node.text}-->`;
  return node.data === "" ? `<?${node.target}?>` : `<?${node.target} ${node.data}?>`;
}

/** The prefix a namespace declaration attribute binds: "" for `xmlns`, `p` for `xmlns:p`. */
function _declaredPrefix(a: XmlAttribute): string {
  return a.prefix === "" ? "" : a.local;
}

/** The elements from `root` down to `target`, both included, or null when `target` is not under `root`. */
function _pathTo(root: XmlElement, target: XmlElement): XmlElement[] | null {
  // Depth-first with an explicit stack of (element, next child index): no recursion on deep documents.
  const path: XmlElement[] = [root];
  const next: number[] = [0];
  while (path.length > 0) {
    const top = path[path.length - 1]!;
    if (top === target) return path;
    const i = next[next.length - 1]!;
    if (i < top.children.length) {
      next[next.length - 1] = i + 1;
      path.push(top.children[i]!);
      next.push(0);
    } else {
      path.pop();
      next.pop();
    }
  }
  return null;
}

/**
 * Code point order (Canonical XML 1.0 §2.2: "based on the UCS codepoint values"). Plain `<` compares UTF-16
 * code units, which puts U+E000–U+FFFF after the surrogate pairs of U+10000 and above; correct that case.
 */
function _compare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Canonical XML 1.0 §2.3, text nodes: &, <, > and CR as references. */
function _escapeText(s: string): string {
  if (!/[&<>\r]/.test(s)) return s;
  return s.replace(/[&<>\r]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&#xD;"));
}

/** Canonical XML 1.0 §2.3, attribute nodes: &, <, ", TAB, LF and CR as references. */
function _escapeAttribute(s: string): string {
  if (!/[&<"\t\n\r]/.test(s)) return s;
  return s.replace(/[&<"\t\n\r]/g, (c) => _ATTRIBUTE_REFS[c]!);
}

const _ATTRIBUTE_REFS: Record<string, string> = { "&": "&amp;", "<": "&lt;", '"': "&quot;", "\t": "&#x9;", "\n": "&#xA;", "\r": "&#xD;" };
