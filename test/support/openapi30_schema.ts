/**
 * A small validator for the schema dialect of OpenAPI 3.0 documents such as
 * KSeF's open-api.json (JSON Schema draft-05 subset plus `nullable`): type,
 * properties, required, additionalProperties, items, enum, pattern,
 * min/maxLength, minimum/maximum, min/maxItems, allOf/oneOf/anyOf, format
 * (date, date-time, int32, int64, double, byte, uri) and local `$ref`s. A
 * keyword outside that set throws, so a schema it does not understand cannot
 * pass by accident. Optionally strict about properties no schema names
 * (OpenAPI allows them by default; a misspelt field is what the strict mode
 * catches).
 */

/** A schema object of the document. */
export type Schema30 = Record<string, unknown>;

/** One place where a value does not match its schema. */
export interface SchemaViolation {
  /** JSON pointer into the value, e.g. `/filters/dateRange/from`. */
  at: string;
  message: string;
}

const ASSERTIONS = new Set([
  "$ref", "type", "properties", "required", "additionalProperties", "items", "enum", "pattern", "minimum", "maximum",
  "minLength", "maxLength", "minItems", "maxItems", "allOf", "oneOf", "anyOf", "format", "nullable",
]);
const ANNOTATIONS = new Set(["description", "title", "example", "examples", "default", "deprecated", "readOnly", "writeOnly", "x-summary"]);

const INT32 = 2 ** 31;
const FORMATS: Record<string, (v: unknown) => boolean> = {
  date: (v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
  // RFC 3339 (OpenAPI 3.0 "date-time"): an offset or Z is required; KSeF writes up to 7 fraction digits.
  "date-time": (v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i.test(v) && !Number.isNaN(Date.parse(v.replace(/(\.\d{3})\d+/, "$1"))),
  int32: (v) => typeof v !== "number" || (Number.isInteger(v) && v >= -INT32 && v < INT32),
  int64: (v) => typeof v !== "number" || Number.isSafeInteger(v),
  double: (v) => typeof v !== "number" || Number.isFinite(v),
  byte: (v) => typeof v === "string" && /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(v),
  uri: (v) => typeof v === "string" && URL.canParse(v),
};

/** The value a local reference (`#/components/schemas/X`) points to in `root`. */
export function resolve30(root: unknown, ref: string): Schema30 {
  if (!ref.startsWith("#/")) throw new Error(`Unsupported $ref ${ref}: only local references`);
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) throw new Error(`Unresolved $ref ${ref}`);
    node = (node as Record<string, unknown>)[key];
  }
  return node as Schema30;
}

/** Options of `validate30`. */
export interface Validate30Options {
  /** Report object properties that no `properties` of the schema (or its allOf parts) names. */
  strictProperties?: boolean;
}

/** Every violation of `value` against `schema` (empty when valid); `root` resolves `$ref`s. */
export function validate30(root: unknown, schema: Schema30, value: unknown, options: Validate30Options = {}, at = ""): SchemaViolation[] {
  const out: SchemaViolation[] = [];
  _check(root, schema, value, at, options, out, options.strictProperties === true);
  return out;
}

// `strictHere`: whether this level reports unnamed properties (false inside $ref/allOf parts, whose level reports
// them once with every part's names).
function _check(root: unknown, schema: Schema30, value: unknown, at: string, o: Validate30Options, out: SchemaViolation[], strictHere: boolean): void {
  for (const k of Object.keys(schema)) {
    if (!ASSERTIONS.has(k) && !ANNOTATIONS.has(k)) throw new Error(`Schema keyword "${k}" at ${at || "/"} is outside the supported subset`);
  }
  if (value === null && schema.nullable === true) return;
  const bad = (message: string): void => void out.push({ at: at || "/", message });
  if (typeof schema.$ref === "string") _check(root, resolve30(root, schema.$ref), value, at, o, out, false);
  for (const part of (schema.allOf as Schema30[] | undefined) ?? []) _check(root, part, value, at, o, out, false);
  for (const [kw, want] of [["oneOf", 1], ["anyOf", 0]] as const) {
    const list = schema[kw] as Schema30[] | undefined;
    if (!list) continue;
    const passing = list.filter((s) => validate30(root, s, value, o, at).length === 0).length;
    if (want === 1 ? passing !== 1 : passing === 0) bad(`matches ${passing} of the ${kw} schemas`);
  }
  if (value === null && (schema.type !== undefined || schema.$ref !== undefined || schema.allOf !== undefined) && schema.nullable !== true) {
    if (schema.type !== undefined) bad("is null, and the schema is not nullable");
    return;
  }
  if (schema.type !== undefined && !_isType(value, schema.type as string)) return bad(`is not of type ${String(schema.type)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) bad(`is not one of ${schema.enum.slice(0, 8).join(", ")}${schema.enum.length > 8 ? ", …" : ""}`);
  if (typeof schema.format === "string") {
    const f = FORMATS[schema.format];
    if (!f) throw new Error(`Unsupported format ${schema.format}`);
    if ((typeof value === "string" || typeof value === "number") && !f(value)) bad(`is not a valid ${schema.format}`);
  }
  if (typeof value === "string") _string(schema, value, bad);
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) bad(`is below the minimum ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) bad(`is above the maximum ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) bad(`has fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) bad(`has more than ${schema.maxItems} items`);
    if (schema.items) value.forEach((v, i) => _check(root, schema.items as Schema30, v, `${at}/${i}`, o, out, o.strictProperties === true));
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) _object(root, schema, value as Record<string, unknown>, at, o, out, strictHere);
}

function _string(schema: Schema30, value: string, bad: (m: string) => void): void {
  if (typeof schema.minLength === "number" && [...value].length < schema.minLength) bad(`is shorter than ${schema.minLength} characters`);
  if (typeof schema.maxLength === "number" && [...value].length > schema.maxLength) bad(`is longer than ${schema.maxLength} characters`);
  // The patterns are .NET regular expressions (e.g. `\ ` escapes), which the non-Unicode JavaScript syntax reads alike.
  if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value)) bad(`does not match ${schema.pattern}`);
}

function _object(root: unknown, schema: Schema30, value: Record<string, unknown>, at: string, o: Validate30Options, out: SchemaViolation[], strictHere: boolean): void {
  for (const name of (schema.required as string[] | undefined) ?? []) {
    if (!Object.hasOwn(value, name)) out.push({ at: at || "/", message: `lacks the required property ${name}` });
  }
  const props = (schema.properties as Record<string, Schema30> | undefined) ?? {};
  for (const [k, v] of Object.entries(value)) {
    const p = `${at}/${k}`;
    if (Object.hasOwn(props, k)) _check(root, props[k]!, v, p, o, out, o.strictProperties === true);
    else if (schema.additionalProperties === false) out.push({ at: p, message: "is not allowed (additionalProperties: false)" });
    else if (schema.additionalProperties && typeof schema.additionalProperties === "object") _check(root, schema.additionalProperties as Schema30, v, p, o, out, o.strictProperties === true);
  }
  if (strictHere && schema.additionalProperties === undefined) {
    const known = _knownProperties(root, schema);
    if (known !== null) {
      for (const k of Object.keys(value)) if (!known.has(k)) out.push({ at: `${at}/${k}`, message: "is a property the schema does not name" });
    }
  }
}

// The property names a schema and its $ref/allOf parts name; null when a part makes it open (oneOf, anyOf, a map).
function _knownProperties(root: unknown, schema: Schema30): Set<string> | null {
  if (schema.oneOf || schema.anyOf || schema.additionalProperties !== undefined) return null;
  const names = new Set(Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}));
  const parts = [...((schema.allOf as Schema30[] | undefined) ?? []), ...(typeof schema.$ref === "string" ? [resolve30(root, schema.$ref)] : [])];
  for (const part of parts) {
    const more = _knownProperties(root, part);
    if (more === null) return null;
    for (const n of more) names.add(n);
  }
  return names;
}

function _isType(v: unknown, type: string): boolean {
  switch (type) {
    case "object": return v !== null && typeof v === "object" && !Array.isArray(v);
    case "array": return Array.isArray(v);
    case "string": return typeof v === "string";
    case "integer": return typeof v === "number" && Number.isInteger(v);
    case "number": return typeof v === "number" && Number.isFinite(v);
    case "boolean": return typeof v === "boolean";
    default: throw new Error(`Unsupported type ${type}`);
  }
}
