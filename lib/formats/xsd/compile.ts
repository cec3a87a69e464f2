/**
 * Compiles a set of XML Schema 1.0 documents (parsed by the project's XML parser)
 * into the model of model.ts, once, at start-up: follows `include` and `import`
 * (by schemaLocation relative to the including file, or by namespace among the given
 * files), resolves QNames, gathers facets and attribute uses along derivations and
 * precomputes each particle's first set. Identity constraints, substitution groups,
 * `redefine` and `block`/`final` are not used by the invoice schemas and are refused or ignored.
 * @module
 */

import { parseXml } from "../xml/parse.ts";
import type { XmlElement } from "../xml/tree.ts";
import { type AttributeUse, type CompiledSchema, type ComplexType, type ElementDecl, type Facets, type Particle, qualify, type SimpleType, type Wildcard } from "./model.ts";
import { LazyElementDecl } from "./element_decl.ts";
import { nameId } from "./name_ids.ts";
import { compileXsdPattern } from "./regex.ts";
import { occursOf, particleOf, sequenceTerm } from "./particles.ts";
import { attrOf, joinPath, withoutAnnotations, XSD_NS, xsdChildren } from "./schema_docs.ts";
import { anyType, builtinType, complexPlaceholder, emptyFacets } from "./builtin_types.ts";
import { normalizeSpace } from "./simple.ts";
import { BUILTINS, canonicalDecimal } from "./values.ts";

export { XSD_NS } from "./schema_docs.ts";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

/** One schema document: its path (for relative schemaLocations) and its bytes. */
export interface SchemaFile {
  path: string;
  bytes: Uint8Array | string;
}

/** A schema document that failed to compile: a bug in the shipped schemas or their loader. */
export class XsdCompileError extends Error {}

interface Doc {
  path: string;
  root: XmlElement;
  tns: string;
  elementQualified: boolean;
  attributeQualified: boolean;
}

type _DefKind = "element" | "type" | "group" | "attributeGroup" | "attribute";

interface Def {
  doc: Doc;
  el: XmlElement;
}

// Schemas are trusted start-up input, and UBL's common aggregates alone are 2.4 MB of annotations.
const SCHEMA_PARSE = { maxNodes: 50_000_000, maxElements: 10_000_000 };

/** Compiles the schemas rooted at `entries` (paths among `files`) and everything they include or import, as one set. */
export function compileSchema(name: string, files: readonly SchemaFile[], entries: readonly string[]): CompiledSchema {
  return new _Compiler(files).run(name, entries);
}

class _Compiler {
  #files = new Map<string, SchemaFile>();
  #docs = new Map<string, Doc>();
  #byNs = new Map<string, SchemaFile[]>();
  #defs = { element: new Map<string, Def>(), type: new Map<string, Def>(), group: new Map<string, Def>(), attributeGroup: new Map<string, Def>(), attribute: new Map<string, Def>() };
  #types = new Map<XmlElement, SimpleType | ComplexType>();
  #globals = new Map<string, ElementDecl>();
  #locals = new Map<XmlElement, ElementDecl>();
  #globalAttributes = new Set<XmlElement>();

  constructor(files: readonly SchemaFile[]) {
    for (const f of files) this.#files.set(f.path, f);
  }

  run(name: string, entries: readonly string[]): CompiledSchema {
    for (const entry of entries) this.#load(entry);
    const elements = new Map<string, ElementDecl>();
    for (const [key, def] of this.#defs.element) elements.set(key, this.#globalElement(key, def));
    const type = (key: string): SimpleType | ComplexType | null => {
      const def = this.#defs.type.get(key);
      return def ? this.#typeOf(def) : null;
    };
    const compileAll = (): void => {
      for (const key of this.#defs.type.keys()) type(key);
      for (const d of [...this.#globals.values(), ...this.#locals.values()]) void d.type;
    };
    return { name, elements, type, compileAll };
  }

  #load(path: string): Doc {
    const seen = this.#docs.get(path);
    if (seen) return seen;
    const file = this.#files.get(path);
    if (!file) throw new XsdCompileError(`Schema file ${path} is missing`);
    const root = parseXml(withoutAnnotations(file.bytes), SCHEMA_PARSE).root;
    if (root.ns !== XSD_NS || root.local !== "schema") throw new XsdCompileError(`${path} is not an XML Schema`);
    const doc: Doc = {
      path, root, tns: attrOf(root, "targetNamespace") ?? "",
      elementQualified: attrOf(root, "elementFormDefault") === "qualified",
      attributeQualified: attrOf(root, "attributeFormDefault") === "qualified",
    };
    this.#docs.set(path, doc);
    for (const c of xsdChildren(root)) {
      const loc = attrOf(c, "schemaLocation");
      if (c.local === "include") this.#load(joinPath(path, loc!));
      else if (c.local === "import") this.#import(path, loc, attrOf(c, "namespace") ?? "");
      else if (c.local === "redefine") throw new XsdCompileError(`${path}: xs:redefine is not supported`);
      else if (c.local === "complexType" || c.local === "simpleType") this.#define("type", doc, c);
      else if (c.local === "element" || c.local === "group" || c.local === "attributeGroup" || c.local === "attribute") {
        this.#define(c.local, doc, c);
        if (c.local === "attribute") this.#globalAttributes.add(c);
      }
    }
    return doc;
  }

  #define(kind: _DefKind, doc: Doc, el: XmlElement): void {
    const key = qualify(doc.tns, attrOf(el, "name")!);
    if (!this.#defs[kind].has(key)) this.#defs[kind].set(key, { doc, el });
  }

  #import(from: string, loc: string | null, ns: string): void {
    if (ns === XSD_NS || ns === "http://www.w3.org/XML/1998/namespace") return;
    if (loc !== null && !/^[a-z]+:/i.test(loc)) {
      const path = joinPath(from, loc);
      if (this.#files.has(path)) {
        this.#load(path);
        return;
      }
    }
    // An import without a (local) location: any given file whose targetNamespace is the namespace.
    if (this.#byNs.size === 0) {
      for (const f of this.#files.values()) {
        const text = typeof f.bytes === "string" ? f.bytes : new TextDecoder().decode(f.bytes.subarray(0, 4096));
        const m = /targetNamespace="([^"]*)"/.exec(text);
        const list = this.#byNs.get(m?.[1] ?? "") ?? [];
        list.push(f);
        this.#byNs.set(m?.[1] ?? "", list);
      }
    }
    const found = this.#byNs.get(ns);
    if (!found) throw new XsdCompileError(`${from}: no schema for imported namespace ${ns}`);
    for (const f of found) this.#load(f.path);
  }

  #resolve(doc: Doc, el: XmlElement, qname: string): { ns: string; local: string } {
    const colon = qname.indexOf(":");
    const prefix = colon < 0 ? "" : qname.slice(0, colon);
    const local = colon < 0 ? qname : qname.slice(colon + 1);
    for (const scope of [el, doc.root]) {
      for (const a of scope.attrs) {
        if (a.ns === XMLNS_NS && (prefix === "" ? a.local === "xmlns" && a.prefix === "" : a.local === prefix && a.prefix === "xmlns")) return { ns: a.value, local };
      }
    }
    if (prefix === "xml") return { ns: "http://www.w3.org/XML/1998/namespace", local };
    if (prefix === "") return { ns: "", local };
    throw new XsdCompileError(`${doc.path}: unbound prefix in ${qname}`);
  }

  #typeRef(doc: Doc, el: XmlElement, qname: string): SimpleType | ComplexType {
    const { ns, local } = this.#resolve(doc, el, qname);
    if (ns === XSD_NS) {
      if (local === "anyType") return anyType;
      if (!BUILTINS[local]) throw new XsdCompileError(`${doc.path}: unknown built-in type ${qname}`);
      return builtinType(local);
    }
    const def = this.#defs.type.get(qualify(ns, local));
    if (!def) throw new XsdCompileError(`${doc.path}: type ${qname} is not defined`);
    return this.#typeOf(def);
  }

  #typeOf(def: Def): SimpleType | ComplexType {
    return def.el.local === "simpleType" ? this.#simpleType(def.doc, def.el, attrOf(def.el, "name")!) : this.#complexType(def.doc, def.el, attrOf(def.el, "name")!);
  }

  #simpleType(doc: Doc, el: XmlElement, name: string): SimpleType {
    const cached = this.#types.get(el);
    if (cached) return cached as SimpleType;
    const d = xsdChildren(el)[0];
    if (!d) throw new XsdCompileError(`${doc.path}: empty simpleType ${name}`);
    let t: SimpleType;
    if (d.local === "restriction") {
      t = this.#restrict(doc, d, this.#simpleBase(doc, d), name);
    } else if (d.local === "list") {
      const itemRef = attrOf(d, "itemType");
      const item = itemRef !== null ? this.#typeRef(doc, d, itemRef) : this.#simpleType(doc, xsdChildren(d)[0]!, name);
      t = { kind: "simple", name, variety: "list", builtin: "anySimpleType", facets: emptyFacets("collapse"), item: item as SimpleType, members: [], accept: null };
    } else {
      const members: SimpleType[] = [];
      for (const q of (attrOf(d, "memberTypes") ?? "").split(/\s+/).filter(Boolean)) members.push(this.#typeRef(doc, d, q) as SimpleType);
      for (const c of xsdChildren(d)) members.push(this.#simpleType(doc, c, name));
      t = { kind: "simple", name, variety: "union", builtin: "anySimpleType", facets: emptyFacets("collapse"), item: null, members, accept: null };
    }
    this.#types.set(el, t);
    return t;
  }

  /** The base of a restriction: its `base` attribute or its inline simpleType. */
  #simpleBase(doc: Doc, d: XmlElement): SimpleType {
    const baseRef = attrOf(d, "base");
    const base = baseRef !== null ? this.#typeRef(doc, d, baseRef) : this.#simpleType(doc, xsdChildren(d).find((c) => c.local === "simpleType")!, "anonymous");
    if (base.kind === "complex") {
      if (!base.simple) throw new XsdCompileError(`${doc.path}: restriction of ${baseRef} has no simple content`);
      return base.simple;
    }
    return base;
  }

  /** A restriction of `base` by the facets among `d`'s children. */
  #restrict(doc: Doc, d: XmlElement, base: SimpleType, name: string): SimpleType {
    const f: Facets = { ...base.facets, patterns: [...base.facets.patterns], patternSources: [...base.facets.patternSources] };
    const enums: string[] = [];
    const patterns: string[] = [];
    const decimal = base.variety === "atomic" && BUILTINS[base.builtin]!.order === "decimal";
    for (const c of xsdChildren(d)) {
      const v = attrOf(c, "value") ?? "";
      switch (c.local) {
        case "enumeration": {
          const n = normalizeSpace(v, base.facets.whiteSpace);
          enums.push(decimal ? canonicalDecimal(n) : n);
          break;
        }
        case "pattern": patterns.push(v); break;
        case "whiteSpace": f.whiteSpace = v as Facets["whiteSpace"]; break;
        case "length": case "minLength": case "maxLength": case "totalDigits": case "fractionDigits":
          f[c.local] = Number(v);
          break;
        case "minInclusive": case "maxInclusive": case "minExclusive": case "maxExclusive":
          f[c.local] = v.trim();
          break;
        case "simpleType": case "attribute": case "attributeGroup": case "anyAttribute": case "sequence": case "choice": case "group": case "all":
          break;
        default: throw new XsdCompileError(`${doc.path}: facet ${c.local} is not supported`);
      }
    }
    if (enums.length > 0) f.enumeration = new Set(enums);
    if (patterns.length > 0) {
      f.patterns.push(compileXsdPattern(patterns.join("|")));
      f.patternSources.push(patterns.join(" | "));
    }
    return { kind: "simple", name, variety: base.variety, builtin: base.builtin, facets: f, item: base.item, members: base.members, accept: null };
  }

  #complexType(doc: Doc, el: XmlElement, name: string): ComplexType {
    const cached = this.#types.get(el);
    if (cached) return cached as ComplexType;
    const ct = complexPlaceholder(name);
    this.#types.set(el, ct);
    ct.abstract = attrOf(el, "abstract") === "true";
    let mixed = attrOf(el, "mixed") === "true";
    const body = xsdChildren(el);
    const first = body[0];
    if (first?.local === "simpleContent") {
      this.#simpleContent(doc, first, ct);
    } else if (first?.local === "complexContent") {
      mixed ||= attrOf(first, "mixed") === "true";
      const d = xsdChildren(first)[0]!;
      const base = this.#typeRef(doc, d, attrOf(d, "base")!);
      if (base.kind !== "complex") throw new XsdCompileError(`${doc.path}: complexContent of ${name} derives from a simple type`);
      const own = this.#particleOf(doc, xsdChildren(d));
      if (d.local === "extension") {
        this.#inherit(ct, base);
        ct.particle = base.particle && own ? particleOf(sequenceTerm([base.particle, own]), 1, 1) : base.particle ?? own;
        mixed ||= base.content === "mixed";
      } else {
        this.#inherit(ct, base);
        ct.particle = own;
      }
      this.#attributes(doc, xsdChildren(d), ct, d.local === "restriction");
      ct.content = ct.particle ? (mixed ? "mixed" : "element") : mixed ? "mixed" : "empty";
    } else {
      ct.particle = this.#particleOf(doc, body);
      this.#attributes(doc, body, ct, false);
      ct.content = ct.particle ? (mixed ? "mixed" : "element") : mixed ? "mixed" : "empty";
    }
    ct.required = [...ct.attributes.values()].filter((a) => a.required);
    return ct;
  }

  #inherit(ct: ComplexType, base: ComplexType): void {
    for (const [k, a] of base.attributes) ct.attributes.set(k, a);
    ct.anyAttribute = base.anyAttribute;
  }

  #simpleContent(doc: Doc, sc: XmlElement, ct: ComplexType): void {
    const d = xsdChildren(sc)[0]!;
    const base = this.#typeRef(doc, d, attrOf(d, "base")!);
    if (base.kind === "complex") this.#inherit(ct, base);
    const baseSimple = base.kind === "simple" ? base : base.simple;
    if (!baseSimple) throw new XsdCompileError(`${doc.path}: simpleContent of ${ct.name} has no simple base`);
    if (d.local === "extension") ct.simple = baseSimple;
    else {
      const inline = xsdChildren(d).find((c) => c.local === "simpleType");
      ct.simple = this.#restrict(doc, d, inline ? this.#simpleType(doc, inline, ct.name) : baseSimple, ct.name);
    }
    this.#attributes(doc, xsdChildren(d), ct, d.local === "restriction");
    ct.content = "simple";
  }

  /** Adds the attribute uses among `items` (attribute, attributeGroup, anyAttribute) to `ct`. */
  #attributes(doc: Doc, items: XmlElement[], ct: ComplexType, restriction: boolean): void {
    for (const c of items) {
      if (c.local === "attribute") {
        const use = attrOf(c, "use");
        const a = this.#attribute(doc, c);
        if (use === "prohibited") ct.attributes.delete(qualify(a.ns, a.local));
        else ct.attributes.set(qualify(a.ns, a.local), a);
      } else if (c.local === "attributeGroup") {
        const { ns, local } = this.#resolve(doc, c, attrOf(c, "ref")!);
        const def = this.#defs.attributeGroup.get(qualify(ns, local));
        if (!def) throw new XsdCompileError(`${doc.path}: attributeGroup ${local} is not defined`);
        this.#attributes(def.doc, xsdChildren(def.el), ct, restriction);
      } else if (c.local === "anyAttribute") {
        ct.anyAttribute = this.#wildcard(doc, c);
      }
    }
  }

  #attribute(doc: Doc, c: XmlElement): AttributeUse {
    const ref = attrOf(c, "ref");
    const required = attrOf(c, "use") === "required";
    if (ref !== null) {
      const { ns, local } = this.#resolve(doc, c, ref);
      const def = this.#defs.attribute.get(qualify(ns, local));
      if (!def) {
        if (ns === "http://www.w3.org/XML/1998/namespace") return { ns, local, type: builtinType(local === "lang" ? "language" : "string"), required, fixed: attrOf(c, "fixed") };
        throw new XsdCompileError(`${doc.path}: attribute ${ref} is not defined`);
      }
      return { ...this.#attribute(def.doc, def.el), ns, required, fixed: attrOf(c, "fixed") ?? attrOf(def.el, "fixed") };
    }
    const name = attrOf(c, "name")!;
    const form = attrOf(c, "form");
    const global = this.#globalAttributes.has(c);
    const ns = global || form === "qualified" || (form === null && doc.attributeQualified) ? doc.tns : "";
    const typeRef = attrOf(c, "type");
    const inline = xsdChildren(c).find((x) => x.local === "simpleType");
    const type = typeRef !== null ? this.#typeRef(doc, c, typeRef) : inline ? this.#simpleType(doc, inline, name) : builtinType("anySimpleType");
    if (type.kind !== "simple") throw new XsdCompileError(`${doc.path}: attribute ${name} has a complex type`);
    return { ns, local: name, type, required, fixed: attrOf(c, "fixed") };
  }

  #wildcard(doc: Doc, c: XmlElement): Wildcard {
    const ns = attrOf(c, "namespace") ?? "##any";
    const process = (attrOf(c, "processContents") ?? "strict") as Wildcard["process"];
    if (ns === "##any") return { mode: "any", ns: "", set: new Set(), process };
    if (ns === "##other") return { mode: "not", ns: doc.tns, set: new Set(), process };
    const set = new Set(ns.split(/\s+/).filter(Boolean).map((n) => (n === "##targetNamespace" ? doc.tns : n === "##local" ? "" : n)));
    return { mode: "set", ns: "", set, process };
  }

  /** The content particle among a type's children (sequence, choice, all or group), or null. */
  #particleOf(doc: Doc, items: XmlElement[]): Particle | null {
    const c = items.find((x) => x.local === "sequence" || x.local === "choice" || x.local === "all" || x.local === "group");
    return c ? this.#particle(doc, c) : null;
  }

  #particle(doc: Doc, c: XmlElement): Particle {
    const { min, max } = occursOf(c);
    switch (c.local) {
      case "element": {
        const decl = this.#elementDecl(doc, c);
        return particleOf({ kind: "element", decl, id: nameId(decl.ns, decl.local) }, min, max);
      }
      case "any": return particleOf({ kind: "any", wildcard: this.#wildcard(doc, c) }, min, max);
      case "group": {
        const { ns, local } = this.#resolve(doc, c, attrOf(c, "ref")!);
        const def = this.#defs.group.get(qualify(ns, local));
        if (!def) throw new XsdCompileError(`${doc.path}: group ${local} is not defined`);
        const inner = this.#particle(def.doc, xsdChildren(def.el)[0]!);
        return particleOf(inner, min, max);
      }
      case "sequence": case "choice": case "all": {
        const items = xsdChildren(c).map((x) => this.#particle(doc, x));
        return c.local === "sequence" ? particleOf(sequenceTerm(items), min, max) : particleOf({ kind: c.local, items }, min, max);
      }
      default: throw new XsdCompileError(`${doc.path}: ${c.local} is not a particle`);
    }
  }

  #globalElement(key: string, def: Def): ElementDecl {
    const seen = this.#globals.get(key);
    if (seen) return seen;
    const decl = new LazyElementDecl(def.doc.tns, attrOf(def.el, "name")!);
    this.#globals.set(key, decl);
    this.#fillDecl(def.doc, def.el, decl);
    return decl;
  }

  #elementDecl(doc: Doc, c: XmlElement): ElementDecl {
    const ref = attrOf(c, "ref");
    if (ref !== null) {
      const { ns, local } = this.#resolve(doc, c, ref);
      const key = qualify(ns, local);
      const def = this.#defs.element.get(key);
      if (!def) throw new XsdCompileError(`${doc.path}: element ${ref} is not defined`);
      return this.#globalElement(key, def);
    }
    const seen = this.#locals.get(c);
    if (seen) return seen;
    const form = attrOf(c, "form");
    const ns = form === "qualified" || (form === null && doc.elementQualified) ? doc.tns : "";
    const decl = new LazyElementDecl(ns, attrOf(c, "name")!);
    this.#locals.set(c, decl);
    this.#fillDecl(doc, c, decl);
    return decl;
  }

  #fillDecl(doc: Doc, c: XmlElement, decl: LazyElementDecl): void {
    if (attrOf(c, "substitutionGroup") !== null) throw new XsdCompileError(`${doc.path}: substitution groups are not supported`);
    const typeRef = attrOf(c, "type");
    const inline = xsdChildren(c).find((x) => x.local === "complexType" || x.local === "simpleType");
    // Compiled on first use: start-up only parses and indexes, and what no document uses is never compiled.
    decl.compute = (): SimpleType | ComplexType => {
      if (typeRef !== null) return this.#typeRef(doc, c, typeRef);
      if (inline) return inline.local === "complexType" ? this.#complexType(doc, inline, decl.local) : this.#simpleType(doc, inline, decl.local);
      return anyType;
    };
    decl.nillable = attrOf(c, "nillable") === "true";
    decl.fixed = attrOf(c, "fixed");
    decl.default = attrOf(c, "default");
    decl.abstract = attrOf(c, "abstract") === "true";
  }
}
