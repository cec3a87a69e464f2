/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses them) rendered as readable field
 * tables: name, type, required mark, description, enum values and constraints,
 * with inline nested objects in collapsible <details> and `$ref`s as links to
 * the schema's own section, so deep shapes (the invoice) stay legible and
 * cycles cannot recurse. It renders; it does not validate.
 * @module
 */
import { anchorId, code, escapeHtml, inline, link } from "./html.ts";

/** A JSON Schema or another OpenAPI object, as plain JSON. */
export type Json = Record<string, unknown>;

/** Nested inline objects deeper than this start closed (print opens them all, see style.ts). */
const OPEN_DEPTH = 1;
/** Inline nesting never goes deeper than this; past it the row says so (a schema this deep is a bug). */
const MAX_DEPTH = 24;
const SCHEMA_REF = "#/components/schemas/";

/** The anchor id of the component schema `name`. */
export function schemaAnchor(name: string): string {
  return anchorId("schema", name);
}

/** The component name of a `$ref` to a schema, or null. */
export function refName(schema: unknown): string | null {
  const r = (schema as Json | null)?.$ref;
  return typeof r === "string" && r.startsWith(SCHEMA_REF) ? r.slice(SCHEMA_REF.length) : null;
}

/** Follows a local `$ref` (`#/a/b`) in `doc`; undefined when it does not resolve. */
export function resolvePointer(doc: Json, ref: string): Json | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Json)[key];
  }
  return node !== null && typeof node === "object" ? (node as Json) : undefined;
}

/** Renders the schemas of one OpenAPI document. */
export class SchemaView {
  #doc: Json;
  // The same error and component schemas are resolved for every operation; merging allOf each time was most of the render time.
  #resolved = new WeakMap<Json, Json>();

  constructor(doc: Json) {
    this.#doc = doc;
  }

  /** `schema` with `$ref`s followed (at most a few hops) and `allOf` merged into one object; treat the result as read-only. */
  resolve(schema: Json): Json {
    let out = this.#resolved.get(schema);
    if (!out) {
      out = this.#resolve(schema);
      this.#resolved.set(schema, out);
    }
    return out;
  }

  #resolve(schema: Json): Json {
    let s = schema;
    for (let hops = 0; typeof s.$ref === "string" && hops < 8; hops++) {
      const target = resolvePointer(this.#doc, s.$ref);
      if (!target) return s;
      const { $ref: _, ...rest } = s;
      s = { ...target, ...rest };
    }
    return Array.isArray(s.allOf) ? this.#mergeAll(s) : s;
  }

  /** allOf members merged: properties deeply, required lists united, the outer description kept. */
  #mergeAll(schema: Json): Json {
    const { allOf, ...outer } = schema;
    let merged: Json = {};
    for (const member of allOf as Json[]) merged = _merge(merged, this.resolve(member));
    return _merge(merged, outer);
  }

  /** The type cell of a schema: links for `$ref`s, `a | b` for unions, `array of …`. */
  typeHtml(schema: Json): string {
    const name = refName(schema);
    if (name !== null) return link(schemaAnchor(name), escapeHtml(name));
    if (schema.$ref !== undefined) return code(String(schema.$ref));
    for (const key of ["oneOf", "anyOf"] as const) {
      if (Array.isArray(schema[key])) return (schema[key] as Json[]).map((s) => this.typeHtml(s)).join(" | ");
    }
    if (Array.isArray(schema.allOf)) return this.typeHtml(this.resolve(schema));
    if (schema.const !== undefined && schema.type === undefined) return `const ${code(JSON.stringify(schema.const))}`;
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === "string" ? [schema.type] : [];
    const parts = types.map((t) => {
      if (t === "array" && schema.items) return `array of ${this.typeHtml(schema.items as Json)}`;
      if (t === "string" && typeof schema.format === "string") return `string (${escapeHtml(schema.format)})`;
      return escapeHtml(t);
    });
    return parts.length > 0 ? parts.join(" | ") : "any";
  }

  /** Description, enum values and constraints of a schema, as HTML. */
  notesHtml(schema: Json, fallbackDescription?: unknown): string {
    const out: string[] = [];
    const description = typeof schema.description === "string" ? schema.description : fallbackDescription;
    if (typeof description === "string") out.push(`<span class="desc">${inline(description)}</span>`);
    const s = refName(schema) === null ? schema : this.resolve(schema);
    const items = s.type === "array" && s.items ? this.resolve(s.items as Json) : null;
    const values = Array.isArray(s.enum) ? s.enum : Array.isArray(items?.enum) ? items.enum : null;
    if (values && s.const === undefined) out.push(`<span class="enum">One of ${values.map((v) => code(v === null ? "null" : String(v))).join(" ")}</span>`);
    if (s.const !== undefined) out.push(`<span class="enum">Always ${code(JSON.stringify(s.const))}</span>`);
    const limits: string[] = [];
    for (const [key, label] of _LIMITS) if (typeof s[key] === "number") limits.push(`${label} ${s[key]}`);
    if (typeof s.pattern === "string") limits.push(`pattern ${code(s.pattern)}`);
    if (typeof s.contentMediaType === "string") limits.push(`content ${code(s.contentMediaType)}`);
    if (s.default !== undefined) limits.push(`default ${code(JSON.stringify(s.default))}`);
    if (Array.isArray(s.examples) && s.examples.length > 0) limits.push(`e.g. ${code(typeof s.examples[0] === "string" ? s.examples[0] : JSON.stringify(s.examples[0]))}`);
    if (limits.length > 0) out.push(`<span class="limits">${limits.join("; ")}</span>`);
    return out.join(" ");
  }

  /** The fields of an object schema as a table (alternatives for oneOf), or a one-line type for anything else. */
  shapeHtml(schema: Json, depth = 0): string {
    const s = this.resolve(schema);
    for (const key of ["oneOf", "anyOf"] as const) {
      if (Array.isArray(s[key])) {
        const alternatives = (s[key] as Json[]).map((alt) => {
          const name = refName(alt);
          const body = this.shapeHtml(alt, depth + 1);
          return `<li>${name !== null ? link(schemaAnchor(name), escapeHtml(name)) : "An object"}${this.#describe(this.resolve(alt))}${body}</li>`;
        });
        return `<p class="alt">One of:</p><ol class="alternatives">${alternatives.join("")}</ol>`;
      }
    }
    const properties = s.properties as Record<string, Json> | undefined;
    if (!properties || Object.keys(properties).length === 0) {
      return `<p class="type">${this.typeHtml(schema)} ${this.notesHtml(s)}</p>`;
    }
    return this.#table(s, properties, depth);
  }

  #describe(s: Json): string {
    return typeof s.description === "string" ? `: ${inline(s.description)}` : "";
  }

  #table(s: Json, properties: Record<string, Json>, depth: number): string {
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const rows = Object.entries(properties).map(([name, prop]) => {
      const mark = required.has(name) ? ' <span class="req" title="required">required</span>' : ' <span class="opt">optional</span>';
      const row = `<td class="field">${code(name)}${mark}</td><td class="ftype">${this.typeHtml(prop)}</td><td>${this.notesHtml(prop)}</td>`;
      // Nested fields get a full-width row of their own: a table inside the description cell would be squeezed.
      const nested = this.#nested(name, prop, depth);
      return nested === "" ? `<tr>${row}</tr>` : `<tr class="has-sub">${row}</tr><tr class="sub"><td colspan="3">${nested}</td></tr>`;
    });
    return `<table class="fields"><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  /** Inline objects (and arrays of them) nested in a property, as a collapsible table; `$ref`s are links instead. */
  #nested(name: string, prop: Json, depth: number): string {
    let inner = prop;
    let label = "Fields of";
    if (refName(inner) === null && _isArray(inner) && inner.items && refName(inner.items) === null) {
      inner = inner.items as Json;
      label = "Fields of each item of";
    }
    if (refName(inner) !== null) return "";
    const r = this.resolve(inner);
    const hasFields = r.properties && Object.keys(r.properties as Json).length > 0;
    const hasAlternatives = Array.isArray(r.oneOf) || Array.isArray(r.anyOf);
    if (!hasFields && !hasAlternatives) return "";
    if (depth >= MAX_DEPTH) return `<p class="limits">Nested deeper than ${MAX_DEPTH} levels: not shown</p>`;
    const open = depth < OPEN_DEPTH ? " open" : "";
    return `<details${open}><summary>${label} ${code(name)}</summary>${this.shapeHtml(r, depth + 1)}</details>`;
  }
}

const _LIMITS: [string, string][] = [
  ["minimum", "min"], ["maximum", "max"], ["minLength", "min length"], ["maxLength", "max length"],
  ["minItems", "min items"], ["maxItems", "max items"],
];

function _isArray(s: Json): boolean {
  return s.type === "array" || (Array.isArray(s.type) && s.type.includes("array"));
}

/** `b` merged over `a`: properties merged per field, required lists united. */
function _merge(a: Json, b: Json): Json {
  const out: Json = { ...a, ...b };
  if (a.properties || b.properties) {
    const props: Record<string, Json> = { ...(a.properties as Record<string, Json> | undefined) };
    for (const [k, v] of Object.entries((b.properties ?? {}) as Record<string, Json>)) props[k] = props[k] ? _merge(props[k], v) : v;
    out.properties = props;
  }
  if (Array.isArray(a.required) || Array.isArray(b.required)) {
    out.required = [...new Set([...((a.required ?? []) as string[]), ...((b.required ?? []) as string[])])];
  }
  return out;
}
