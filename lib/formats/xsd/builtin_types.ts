/**
 * The built-in types as compiled types: each built-in simple type with its fixed
 * whiteSpace facet, and xs:anyType (any attributes, any content, processed laxly).
 * @module
 */

import type { ComplexType, Facets, SimpleType } from "./model.ts";
import { BUILTINS } from "./values.ts";

/** Facets with nothing constrained but whiteSpace. */
export function emptyFacets(ws: Facets["whiteSpace"]): Facets {
  return {
    whiteSpace: ws, patterns: [], patternSources: [], enumeration: null, length: null, minLength: null, maxLength: null,
    totalDigits: null, fractionDigits: null, minInclusive: null, maxInclusive: null, minExclusive: null, maxExclusive: null,
  };
}

const _cache = new Map<string, SimpleType>();

/** The built-in simple type `name` (a local name in the XML Schema namespace). */
export function builtinType(name: string): SimpleType {
  let t = _cache.get(name);
  if (!t) {
    t = { kind: "simple", name: `xs:${name}`, variety: "atomic", builtin: name, facets: emptyFacets(BUILTINS[name]!.ws), item: null, members: [], accept: null };
    _cache.set(name, t);
  }
  return t;
}

/** An empty complex type to fill in (types may refer to themselves). */
export function complexPlaceholder(name: string): ComplexType {
  return { kind: "complex", name, attributes: new Map(), required: [], anyAttribute: null, content: "empty", simple: null, particle: null, abstract: false };
}

const ANY = { mode: "any", ns: "", set: new Set<string>(), process: "lax" } as const;

/** xs:anyType: the ur-type, any attributes and any mixed content, validated laxly. */
export const anyType: ComplexType = {
  ...complexPlaceholder("xs:anyType"),
  anyAttribute: ANY,
  content: "mixed",
  particle: { kind: "any", wildcard: ANY, min: 0, max: Infinity, first: new Set(), firstIds: new Set(), firstAny: [ANY], emptiable: false },
};
