/**
 * A small JSON Schema (2020-12) validator for exactly the subset that the
 * OpenAPI document of lib/api/openapi/ uses, so tests can hold real responses
 * against it. A keyword outside the subset throws instead of being ignored: a
 * schema the validator does not understand cannot pass by accident.
 */

/** A schema as the document holds it. */
export type Schema = Record<string, unknown> | boolean;

/** Keywords that constrain a value; each is checked below. */
const ASSERTIONS = new Set([
  "$ref", "type", "properties", "required", "additionalProperties", "items", "enum", "const", "pattern",
  "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "oneOf", "anyOf", "allOf", "format",
]);
/** Keywords that only annotate. */
const ANNOTATIONS = new Set(["description", "title", "examples", "default", "contentMediaType", "deprecated"]);
const FORMATS: Record<string, (s: string) => boolean> = {
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
  "date-time": (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)),
  uuid: (s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s),
  uri: (s) => URL.canParse(s),
};

/** The value a local reference (`#/components/schemas/X`) points to in `root`; throws when it does not resolve. */
export function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`Unsupported $ref ${ref}: only local references`);
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) throw new Error(`Unresolved $ref ${ref}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Every `$ref` value anywhere in `doc`, with where it was found. */
export function collectRefs(doc: unknown, at = "#"): { ref: string; at: string }[] {
  if (doc === null || typeof doc !== "object") return [];
  const out: { ref: string; at: string }[] = [];
  for (const [k, v] of Object.entries(doc)) {
    if (k === "$ref" && typeof v === "string") out.push({ ref: v, at });
    else out.push(...collectRefs(v, `${at}/${k}`));
  }
  return out;
}

/** Throws when `schema` (or a schema inside it) uses a keyword outside the subset. */
export function checkSchema(schema: Schema, at = "#"): void {
  if (typeof schema === "boolean") return;
  for (const [k, v] of Object.entries(schema)) {
    if (!ASSERTIONS.has(k) && !ANNOTATIONS.has(k)) throw new Error(`Unsupported keyword ${k} at ${at}`);
    if (k === "format" && !FORMATS[v as string]) throw new Error(`Unsupported format ${String(v)} at ${at}`);
    if (k === "properties") for (const [p, s] of Object.entries(v as Record<string, Schema>)) checkSchema(s, `${at}/properties/${p}`);
    if (k === "items" || k === "additionalProperties") checkSchema(v as Schema, `${at}/${k}`);
    if (k === "oneOf" || k === "anyOf" || k === "allOf") (v as Schema[]).forEach((s, i) => checkSchema(s, `${at}/${k}/${i}`));
  }
}

function _typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function _hasType(v: unknown, type: string): boolean {
  if (type === "integer") return typeof v === "number" && Number.isInteger(v);
  if (type === "number") return typeof v === "number" && Number.isFinite(v);
  return _typeOf(v) === type;
}

function _equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b); // values here are plain JSON with stable key order
}

/**
 * The ways `value` breaks `schema`, as "path: problem" lines; empty when it
 * conforms. `root` is the document that `$ref`s resolve against.
 */
export function validate(schema: Schema, value: unknown, root: unknown, path = "$"): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  const errors: string[] = [];
  const s = schema;
  if (typeof s.$ref === "string") errors.push(...validate(resolveRef(root, s.$ref) as Schema, value, root, path));
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => _hasType(value, t))) return [...errors, `${path}: expected ${types.join(" or ")}, got ${_typeOf(value)}`];
  }
  if (s.enum !== undefined && !(s.enum as unknown[]).some((e) => _equal(e, value))) errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
  if (s.const !== undefined && !_equal(s.const, value)) errors.push(`${path}: expected ${JSON.stringify(s.const)}, got ${JSON.stringify(value)}`);
  if (typeof value === "string") {
    const length = [...value].length; // JSON Schema counts code points
    if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(value)) errors.push(`${path}: ${JSON.stringify(value)} does not match ${s.pattern}`);
    if (typeof s.minLength === "number" && length < s.minLength) errors.push(`${path}: shorter than ${s.minLength}`);
    if (typeof s.maxLength === "number" && length > s.maxLength) errors.push(`${path}: longer than ${s.maxLength}`);
    if (typeof s.format === "string" && !FORMATS[s.format]!(value)) errors.push(`${path}: ${JSON.stringify(value)} is not a valid ${s.format}`);
  }
  if (typeof value === "number") {
    if (typeof s.minimum === "number" && value < s.minimum) errors.push(`${path}: ${value} is below ${s.minimum}`);
    if (typeof s.maximum === "number" && value > s.maximum) errors.push(`${path}: ${value} is above ${s.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === "number" && value.length < s.minItems) errors.push(`${path}: fewer than ${s.minItems} items`);
    if (typeof s.maxItems === "number" && value.length > s.maxItems) errors.push(`${path}: more than ${s.maxItems} items`);
    if (s.items !== undefined) value.forEach((item, i) => errors.push(...validate(s.items as Schema, item, root, `${path}[${i}]`)));
  }
  if (_typeOf(value) === "object") {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, Schema>;
    for (const key of (s.required ?? []) as string[]) if (!Object.hasOwn(obj, key)) errors.push(`${path}: missing ${key}`);
    for (const [key, v] of Object.entries(obj)) {
      if (Object.hasOwn(props, key)) errors.push(...validate(props[key]!, v, root, `${path}.${key}`));
      else if (s.additionalProperties !== undefined) errors.push(...validate(s.additionalProperties as Schema, v, root, `${path}.${key}`).map((e) => (s.additionalProperties === false ? `${path}: unexpected property ${key}` : e)));
    }
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) errors.push(...validate(sub, value, root, path));
  if (Array.isArray(s.anyOf)) {
    const results = (s.anyOf as Schema[]).map((sub) => validate(sub, value, root, path));
    if (!results.some((r) => r.length === 0)) errors.push(`${path}: matches none of anyOf (${results.map((r) => r[0]).join("; ")})`);
  }
  if (Array.isArray(s.oneOf)) {
    const results = (s.oneOf as Schema[]).map((sub) => validate(sub, value, root, path));
    const passing = results.filter((r) => r.length === 0).length;
    if (passing === 0) errors.push(`${path}: matches none of oneOf (${results.map((r) => r[0]).join("; ")})`);
    if (passing > 1) errors.push(`${path}: matches ${passing} branches of oneOf, exactly one expected`);
  }
  return errors;
}
