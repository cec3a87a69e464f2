/**
 * Strict parameters (the conventions in /docs, the way Stripe answers): a query parameter or
 * JSON body field that the operation does not take is 400 BAD_REQUEST with
 * `details.field` and `details.issue: "unknown parameter"`. What each operation
 * takes is read from the OpenAPI document, so the document and the server
 * cannot disagree. Mode rules (page-only parameters) stay with their parser
 * (lib/api/list_query.ts). Header and path parameters are not checked here.
 * @module
 */
import { badRequest } from "../http/errors.ts";

type Json = Record<string, unknown>;

/** The query parameters and JSON body fields one operation takes (body null: it reads no JSON body). */
export interface AcceptedParameters {
  query: ReadonlySet<string>;
  body: ReadonlySet<string> | null;
}

function _deref(doc: Json, v: unknown): Json {
  const r = (v as { $ref?: unknown } | null)?.$ref;
  if (typeof r !== "string") return (v ?? {}) as Json;
  return r.split("/").slice(1).reduce<unknown>((o, k) => (o as Json | undefined)?.[k], doc) as Json;
}

/** What each operation of an OpenAPI document takes, keyed by "METHOD /path/{param}". */
export function acceptedParameters(doc: Json): Map<string, AcceptedParameters> {
  const out = new Map<string, AcceptedParameters>();
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      const o = op as Json;
      const query = new Set<string>();
      for (const p of (o.parameters ?? []) as unknown[]) {
        const param = _deref(doc, p);
        if (param.in === "query" && typeof param.name === "string") query.add(param.name);
      }
      const content = (_deref(doc, o.requestBody).content ?? {}) as Record<string, Json>;
      const schema = content["application/json"] ? _deref(doc, content["application/json"].schema) : null;
      out.set(`${method.toUpperCase()} ${path}`, { query, body: schema ? new Set(Object.keys((schema.properties ?? {}) as Json)) : null });
    }
  }
  return out;
}

/** The key of a route in acceptedParameters(): HEAD is answered as GET, `:id` is `{id}`. */
export function operationKey(method: string, pattern: string): string {
  return `${method === "HEAD" ? "GET" : method} ${pattern.replace(/:([A-Za-z_]+)/g, "{$1}")}`;
}

/**
 * Throws 400 naming the first query parameter the operation does not take, or one given twice: no parameter
 * of this API is a list, and `limit=1&limit=abc` must not mean whichever one a reader happens to take.
 */
export function checkQuery(query: URLSearchParams, accepted: AcceptedParameters): void {
  // An array rather than a set made per request: it holds accepted names only, each once, so it stays short.
  const seen: string[] = [];
  for (const name of query.keys()) {
    if (!accepted.query.has(name)) throw badRequest(name, "unknown parameter", `Unknown query parameter: ${name.slice(0, 64)}`);
    if (seen.includes(name)) throw badRequest(name, "repeated parameter", `Query parameter given more than once: ${name.slice(0, 64)}`);
    seen.push(name);
  }
}

/** Throws 400 naming the first JSON body field the operation does not take. */
export function checkBody(value: Record<string, unknown>, accepted: AcceptedParameters): void {
  for (const name of Object.keys(value)) {
    if (!accepted.body?.has(name)) throw badRequest(name, "unknown parameter", `Unknown field in the request body: ${name.slice(0, 64)}`);
  }
}
