/**
 * Reads the `invoice` of a JSON request (README "Creating invoices") into the invoice model: the same shape the API
 * answers with (the OpenAPI document's `Invoice` schema and its components, the one description of it), except that
 * every field may be left out: an absent value is null, an absent list empty, an absent flag false. Types, decimal
 * strings, dates and enumerations are checked against those schemas, and unknown fields are refused, each finding
 * naming its JSON path (`invoice.lines[2].net_price`). What the values mean is checked later, by the computation
 * and by the written XML's validation.
 * @module
 */
import type { Invoice } from "../../formats/invoice/model.ts";
import { invoiceSchemas } from "../openapi/invoice_schema.ts";
import type { Json } from "../openapi/schemas.ts";

/** A value of the request that does not fit the invoice object: `field` is its JSON path. */
export interface InputFinding {
  field: string;
  message: string;
}

/**
 * Longest list read, so that a hostile body costs bounded work: 10,000 lines is past what KSeF takes in one file
 * (1 MB without attachments). Nesting needs no limit: the schemas bound it.
 */
const _MAX_ITEMS = 10_000;
const _MAX_FINDINGS = 100;

let _schemas: Record<string, Json> | null = null;

/** The invoice of `value`, with every field the request left out filled in, and what does not fit. */
export function readInvoiceInput(value: unknown, path = "invoice"): { invoice: Invoice; findings: InputFinding[] } {
  _schemas ??= invoiceSchemas();
  const findings: InputFinding[] = [];
  const invoice = _read(value, _schemas["Invoice"]!, path, findings) as Invoice;
  return { invoice, findings: findings.slice(0, _MAX_FINDINGS) };
}

function _resolve(schema: Json): Json {
  const r = schema["$ref"];
  return typeof r === "string" ? _schemas![r.slice(r.lastIndexOf("/") + 1)]! : schema;
}

/** What an absent value of `schema` becomes: null where null is allowed, [] for a list, false for a flag, an object filled in. */
function _absent(schema: Json, path: string, findings: InputFinding[]): unknown {
  const s = _resolve(schema);
  if (Array.isArray(s["oneOf"])) return null; // every oneOf of the invoice schemas is "this, or null"
  const type = s["type"];
  if (Array.isArray(type) && type.includes("null")) return null;
  if (type === "array") return [];
  if (type === "boolean") return false;
  if (type === "object") return _read({}, s, path, findings);
  findings.push({ field: path, message: `${path} is required` });
  return null;
}

function _read(value: unknown, schema: Json, path: string, findings: InputFinding[]): unknown {
  if (findings.length > _MAX_FINDINGS) return null;
  const s = _resolve(schema);
  if (value === null) {
    if (Array.isArray(s["oneOf"]) || (Array.isArray(s["type"]) && (s["type"] as string[]).includes("null"))) return null;
    return _absent(s, path, findings);
  }
  if (Array.isArray(s["oneOf"])) return _read(value, (s["oneOf"] as Json[])[0]!, path, findings);
  const type = Array.isArray(s["type"]) ? (s["type"] as string[]).find((t) => t !== "null") : (s["type"] as string);
  switch (type) {
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) return _wrong(path, "an object", findings);
      const props = s["properties"] as Record<string, Json>;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        if (!Object.hasOwn(props, key)) findings.push({ field: `${path}.${key}`, message: `${path}.${key} is not a field of the invoice object` });
      }
      for (const [key, sub] of Object.entries(props)) {
        const v = (value as Record<string, unknown>)[key];
        out[key] = v === undefined ? _absent(sub, `${path}.${key}`, findings) : _read(v, sub, `${path}.${key}`, findings);
      }
      return out;
    }
    case "array": {
      if (!Array.isArray(value)) return _wrong(path, "a list", findings);
      if (value.length > _MAX_ITEMS) {
        findings.push({ field: path, message: `${path} has ${value.length} items; at most ${_MAX_ITEMS} are read` });
        return [];
      }
      const items = s["items"] as Json;
      return value.map((v, i) => _read(v, items, `${path}[${i}]`, findings));
    }
    case "boolean":
      return typeof value === "boolean" ? value : _wrong(path, "true or false", findings);
    case "string": {
      if (typeof value !== "string") {
        return _wrong(path, typeof value === "number" && s["pattern"] !== undefined ? "a decimal string (\"123.45\"), not a JSON number" : "a string", findings);
      }
      const e = s["enum"] as string[] | undefined;
      if (e !== undefined && !e.includes(value)) {
        findings.push({ field: path, message: `${path} must be one of ${e.join(", ")}` });
        return null;
      }
      const pattern = s["pattern"] as string | undefined;
      if (pattern !== undefined && !_pattern(pattern).test(value)) {
        findings.push({ field: path, message: `${path} must be ${pattern.includes("\\d{4}-") ? "a date YYYY-MM-DD" : "a decimal string such as \"123.45\""}` });
        return null;
      }
      return value;
    }
  }
  return value;
}

const _patterns = new Map<string, RegExp>();
function _pattern(source: string): RegExp {
  let re = _patterns.get(source);
  if (re === undefined) _patterns.set(source, (re = new RegExp(source)));
  return re;
}

function _wrong(path: string, expected: string, findings: InputFinding[]): null {
  findings.push({ field: path, message: `${path} must be ${expected}` });
  return null;
}
