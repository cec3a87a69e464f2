/**
 * The compiled form of a schema set: simple types with their facets gathered along
 * the derivation chain, complex types with attribute uses and a content particle whose
 * first sets are precomputed, and element declarations. compile.ts builds it once;
 * validate.ts walks a document against it in one pass.
 * @module
 */

import type { XsdPattern } from "./regex.ts";

/** Namespace-qualified name as one string: `{ns}local`, or `local` in no namespace. */
export function qualify(ns: string, local: string): string {
  return ns === "" ? local : `{${ns}}${local}`;
}

/** The constraining facets in force on a simple type (XML Schema Part 2 §4.3). */
export interface Facets {
  whiteSpace: "preserve" | "replace" | "collapse";
  /** One alternation per derivation step; a value must match every step. */
  patterns: XsdPattern[];
  patternSources: string[];
  /** Enumerated values (normalised, canonical for decimals), or null. */
  enumeration: Set<string> | null;
  length: number | null;
  minLength: number | null;
  maxLength: number | null;
  totalDigits: number | null;
  fractionDigits: number | null;
  minInclusive: string | null;
  maxInclusive: string | null;
  minExclusive: string | null;
  maxExclusive: string | null;
}

/** A simple type: atomic restriction of a built-in, a list, or a union. */
export interface SimpleType {
  kind: "simple";
  /** For messages: the type's name, or the element's when anonymous. */
  name: string;
  variety: "atomic" | "list" | "union";
  /** The nearest built-in ancestor (`token`, `decimal`, `date`, ...). */
  builtin: string;
  facets: Facets;
  item: SimpleType | null;
  members: SimpleType[];
  /** The type's compiled fast check (accept.ts), made on first use. */
  accept: ((value: string) => boolean) | null;
}

/** A wildcard's namespace constraint and processing. */
export interface Wildcard {
  /** `any`: every namespace; `not`: any namespace but `ns` and no namespace (##other); `set`: the listed ones ("" = no namespace). */
  mode: "any" | "not" | "set";
  ns: string;
  set: Set<string>;
  process: "strict" | "lax" | "skip";
}

export interface AttributeUse {
  ns: string;
  local: string;
  type: SimpleType;
  required: boolean;
  fixed: string | null;
}

export interface ElementDecl {
  ns: string;
  local: string;
  /** Resolved lazily (types may be recursive). */
  type: SimpleType | ComplexType;
  nillable: boolean;
  fixed: string | null;
  default: string | null;
  abstract: boolean;
}

export type ParticleTerm =
  | { kind: "element"; decl: ElementDecl; /** The name's id (name_ids.ts). */ id: number }
  | { kind: "any"; wildcard: Wildcard }
  | SequenceTerm
  | { kind: "choice" | "all"; items: Particle[] };

export interface SequenceTerm {
  kind: "sequence";
  items: Particle[];
  /** Item indices by the name ids that start them; null when an item starts with a wildcard. */
  jump: Map<number, number[]> | null;
  /** For each index k (and items.length), the first item from k on that must occur, or items.length if none must. */
  required: number[];
}

/** A term with its occurrence range and, once compiled, the names that can start it. */
export type Particle = ParticleTerm & {
  min: number;
  /** Infinity for unbounded. */
  max: number;
  /** Qualified names that can start one occurrence of the term. */
  first: Set<string>;
  /** The same names as ids (name_ids.ts), for matching. */
  firstIds: Set<number>;
  /** Wildcards that can start one occurrence of the term. */
  firstAny: Wildcard[];
  /** True when one occurrence of the term can be empty. */
  emptiable: boolean;
};

export interface ComplexType {
  kind: "complex";
  name: string;
  attributes: Map<string, AttributeUse>;
  required: AttributeUse[];
  anyAttribute: Wildcard | null;
  content: "empty" | "simple" | "element" | "mixed";
  simple: SimpleType | null;
  particle: Particle | null;
  abstract: boolean;
}

/** A compiled schema set: its global elements by qualified name. */
export interface CompiledSchema {
  /** A name for checks lists, e.g. `FA(3) 1-0E`. */
  name: string;
  /** @internal The global element declarations by qualified name (the validator's). */
  elements: Map<string, ElementDecl>;
  /** @internal A named type by qualified name (for xsi:type), compiled on first use. */
  type(key: string): SimpleType | ComplexType | null;
  /** Compiles every type now (types compile on first use otherwise): for tests that the whole schema is understood. */
  compileAll(): void;
}

/** Whether a wildcard admits a namespace. */
export function wildcardAllows(w: Wildcard, ns: string): boolean {
  if (w.mode === "any") return true;
  if (w.mode === "not") return ns !== "" && ns !== w.ns;
  return w.set.has(ns);
}
