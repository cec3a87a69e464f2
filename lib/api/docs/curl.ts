/**
 * The `curl` example of an operation on the reference page: the token header,
 * an Idempotency-Key on POST (a fresh UUID v4, the idempotency conventions in /docs), path ids from the
 * schemas' examples, a JSON body built from the request schema's required
 * fields, `-F xml=@invoice.xml` for multipart, and `-sf -OJ` for downloads.
 * It builds shell text; it does not escape it for HTML (the page does).
 * @module
 */
import { SchemaView, type Json } from "./schema_view.ts";

/** The server a reader runs by default (README “Configuration”: HOST 127.0.0.1, PORT 8080). */
export const EXAMPLE_ORIGIN = "http://127.0.0.1:8080";
const UUID_COMMAND = `$(node -e 'console.log(crypto.randomUUID())')`;
const EXAMPLE_URL = "https://example.com/hooks/invoices";
/** Example values nest no deeper than this. */
const MAX_EXAMPLE_DEPTH = 6;

/** What the example needs to know about an operation. */
export interface CurlOperation {
  method: string;
  path: string;
  /** Resolved parameter objects. */
  parameters: Json[];
  /** The operation's requestBody, if any. */
  requestBody?: Json;
  /** True when the operation needs a token. */
  authenticated: boolean;
  /** True when a success response is a raw file, not JSON. */
  download: boolean;
}

/** The curl command line for `op`, one option per line with `\` continuations. */
export function curlExample(view: SchemaView, op: CurlOperation): string {
  let path = op.path;
  for (const p of op.parameters.filter((p) => p.in === "path")) {
    path = path.replace(`{${String(p.name)}}`, String(exampleValue(view, (p.schema ?? {}) as Json, 0) ?? "ID"));
  }
  const lines = [op.download ? "curl -sf -OJ" : "curl -s"];
  if (op.method === "HEAD") lines[0] += " -I";
  else if (op.method !== "GET" && !(op.method === "POST" && op.requestBody)) lines.push(`-X ${op.method}`);
  if (op.authenticated) lines.push(`-H "X-API-Token: $TOKEN"`);
  if (op.method === "POST" && path.startsWith("/api/")) lines.push(`-H "Idempotency-Key: ${UUID_COMMAND}"`);
  const content = (op.requestBody?.content ?? {}) as Record<string, Json>;
  if (content["multipart/form-data"]) {
    lines.push("-F xml=@invoice.xml");
  } else if (content["application/json"]) {
    const body = exampleValue(view, (content["application/json"].schema ?? {}) as Json, 0) ?? {};
    lines.push(`-H "Content-Type: application/json"`, `-d '${JSON.stringify(body).replace(/'/g, `'\\''`)}'`);
  }
  lines.push(`"${EXAMPLE_ORIGIN}${path}"`);
  return lines.join(" \\\n  ");
}

/** A plausible value for `schema`: its example, const, default or first enum value; objects with their required fields. */
export function exampleValue(view: SchemaView, schema: Json, depth: number): unknown {
  const s = view.resolve(schema);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null && v !== "*") ?? s.enum[0];
  for (const key of ["oneOf", "anyOf"] as const) if (Array.isArray(s[key])) return exampleValue(view, (s[key] as Json[])[0]!, depth + 1);
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : s.type;
  if (depth > MAX_EXAMPLE_DEPTH) return null;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const required = new Set((s.required ?? []) as string[]);
      for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
        if (required.has(name)) out[name] = exampleValue(view, prop, depth + 1);
      }
      return out;
    }
    case "array": return s.items ? [exampleValue(view, s.items as Json, depth + 1)] : [];
    case "integer": case "number": return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean": return true;
    case "string": return s.format === "uri" ? EXAMPLE_URL : "string";
    default: return null;
  }
}
