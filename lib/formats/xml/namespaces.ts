/**
 * In-scope namespace bindings of Namespaces in XML 1.0 (3rd ed.): checks each
 * declaration against the constraints of §3 (reserved prefixes and names, no
 * `xmlns:p=""`), binds and restores them per element with an undo list (no copy
 * of the scope per element), and resolves names with a cache kept on NameEntry.
 * @module
 */

import { quoteXml } from "./errors.ts";
import type { NameEntry } from "./names.ts";

/** The namespace the `xml` prefix is bound to by definition. */
export const XML_NS = "http://www.w3.org/XML/1998/namespace";
/** The namespace of `xmlns` and `xmlns:p` attributes (as DOM Level 2 reports them). */
export const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

/** Why a namespace declaration is refused, "" when it is allowed. `prefix` is "" for `xmlns="…"`. */
export function checkDeclaration(prefix: string, uri: string): string {
  if (prefix === "xmlns") return "The prefix 'xmlns' must not be declared";
  if (uri === XMLNS_NS) return "The xmlns namespace must not be declared";
  if (prefix === "") return uri === XML_NS ? "The XML namespace must not be the default namespace" : "";
  if (prefix === "xml") return uri === XML_NS ? "" : "The prefix 'xml' must not be bound to another namespace";
  if (uri === XML_NS) return "The XML namespace must not be bound to another prefix";
  if (uri === "") return `The prefix ${quoteXml(prefix)} must not be undeclared with an empty value in XML 1.0`;
  return "";
}

/** The namespace bindings in scope at the current element. */
export class NamespaceScope {
  /** Bumped on every change, so that NameEntry caches know when they are stale. */
  version = 0;
  #bindings = new Map<string, string>([["xml", XML_NS]]);

  /** Binds `prefix` ("" for the default namespace) and records the old binding in `undo`. */
  bind(prefix: string, uri: string, undo: (string | undefined)[]): void {
    undo.push(prefix, this.#bindings.get(prefix));
    this.#bindings.set(prefix, uri);
    this.version++;
  }

  /** Restores the bindings recorded by `bind` calls into `undo`, latest first. */
  restore(undo: (string | undefined)[]): void {
    for (let i = undo.length - 2; i >= 0; i -= 2) {
      const prefix = undo[i]!;
      const old = undo[i + 1];
      if (old === undefined) this.#bindings.delete(prefix);
      else this.#bindings.set(prefix, old);
    }
    this.version++;
  }

  /** The namespace of an element name (unprefixed: the default namespace); undefined for an undeclared prefix. */
  resolve(e: NameEntry): string | undefined {
    if (e.nsVersion === this.version) return e.ns;
    let ns = this.#bindings.get(e.prefix);
    if (ns === undefined) {
      if (e.prefix !== "") return undefined;
      ns = "";
    }
    e.ns = ns;
    e.nsVersion = this.version;
    return ns;
  }
}

/** Up to this many attributes are compared pairwise; more go through a map. */
const SMALL_ATTRIBUTE_COUNT = 8;

/**
 * XML 1.0 §3.1 "Unique Att Spec" and Namespaces §6.3: attributes are unique by
 * name as written and by expanded name (the first implies the second). Returns the
 * indexes of the first duplicate pair, or null. Pairs for a few attributes; a map
 * for many, so 256 attributes cost 256 steps, not 32,640.
 */
export function findDuplicateAttribute(attrs: readonly { ns: string; local: string }[]): [number, number] | null {
  const n = attrs.length;
  if (n <= SMALL_ATTRIBUTE_COUNT) {
    for (let i = 1; i < n; i++) {
      const a = attrs[i]!;
      for (let j = 0; j < i; j++) {
        const b = attrs[j]!;
        if (a.local === b.local && a.ns === b.ns) return [j, i];
      }
    }
    return null;
  }
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const a = attrs[i]!;
    const key = `${a.local} ${a.ns}`; // a local name has no space, so the key is unambiguous
    const j = seen.get(key);
    if (j !== undefined) return [j, i];
    seen.set(key, i);
  }
  return null;
}
