/**
 * Holds HTTP exchanges against KSeF's own API description (test/fixtures/ksef/
 * open-api.json, see SOURCES.md there): a request must name an operation that
 * exists, with its declared path, query and header parameters, the media type
 * and JSON body its requestBody allows, an `Accept` its answers can satisfy,
 * and the range limits the description states in prose (a date range of at most
 * 3 months, `InvoiceQueryFilters.dateRange`); an answer must have a status the
 * operation documents, that status's content type, and a body valid against
 * its schema. The simulator runs every exchange through these checks, so a
 * misreading of KSeF shared by the client and the simulator fails a test.
 * Reusable by any test that talks KSeF: pass the spec, the request and the
 * answer; an empty list means conformant.
 */
import { readFileSync } from "node:fs";
import { validate30, type Schema30 } from "./openapi30_schema.ts";
import { fixturePath } from "./server.ts";

/** The parts of an OpenAPI 3.0 document these checks read. */
export interface OpenApi30 {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema30> };
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Schema30;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema30 }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema30 }>; headers?: Record<string, { schema?: Schema30 }> }>;
  security?: Record<string, string[]>[];
}

/** A request as the server received it; `path` is relative to the API root (e.g. `/invoices/exports?x=1`). */
export interface CheckedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array | null;
}

/** An answer as the server sent it. */
export interface CheckedResponse {
  status: number;
  headers: Record<string, string | undefined>;
  body: Uint8Array | null;
}

let cached: OpenApi30 | null = null;

/** KSeF's open-api.json from the test fixtures (read once). */
export function ksefSpec(): OpenApi30 {
  cached ??= JSON.parse(readFileSync(fixturePath("ksef", "open-api.json"), "utf8")) as OpenApi30;
  return cached;
}

/** open-api.json InvoiceQueryFilters.dateRange: "Maksymalny dozwolony okres wynosi 3 miesiące". */
export const MAX_RANGE_MONTHS = 3;

/** `ms` plus `months` calendar months in UTC, the day clamped to the month's last (as .NET's AddMonths). */
export function addMonthsUtc(ms: number, months: number): number {
  const d = new Date(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return target.getTime();
}

/** The operation a method and path name, with its path parameters; null when the document has none. */
export function findOperation(spec: OpenApi30, method: string, path: string): { template: string; op: Operation; params: Record<string, string> } | null {
  const m = method.toLowerCase();
  const matches: { template: string; op: Operation; params: Record<string, string>; vars: number }[] = [];
  for (const [template, ops] of Object.entries(spec.paths)) {
    const names: string[] = [];
    const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, (_, n: string) => (names.push(n), "([^/]+)"))}$`);
    const hit = re.exec(path);
    if (!hit || !ops[m]) continue;
    const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(hit[i + 1]!)]));
    matches.push({ template, op: ops[m]!, params, vars: names.length });
  }
  // A literal path wins over a template (`/auth/sessions` over `/auth/{referenceNumber}`).
  matches.sort((a, b) => a.vars - b.vars);
  return matches[0] ?? null;
}

/** Every way a request departs from open-api.json (empty when it conforms); `now` dates an open range's end. */
export function checkRequest(spec: OpenApi30, req: CheckedRequest, now = Date.now()): string[] {
  const url = new URL(req.path, "http://x");
  const where = `${req.method} ${url.pathname}`;
  const found = findOperation(spec, req.method, url.pathname);
  if (!found) return [`${where}: no such operation in open-api.json`];
  const { op, params } = found;
  const out: string[] = [];
  const header = (n: string): string | undefined => {
    const v = req.headers[n.toLowerCase()];
    return Array.isArray(v) ? v.join(", ") : v;
  };
  const declared = op.parameters ?? [];
  for (const p of declared) {
    const raw = p.in === "path" ? params[p.name] : p.in === "query" ? url.searchParams.get(p.name) ?? undefined : p.in === "header" ? header(p.name) : undefined;
    if (raw === undefined) {
      if (p.required) out.push(`${where}: the required ${p.in} parameter ${p.name} is missing`);
      continue;
    }
    if (p.in === "query" && url.searchParams.getAll(p.name).length > 1) out.push(`${where}: query parameter ${p.name} is repeated`);
    for (const v of validate30(spec, p.schema ?? {}, _coerce(spec, p.schema ?? {}, raw))) out.push(`${where}: ${p.in} parameter ${p.name} ${v.message}`);
  }
  for (const name of new Set(url.searchParams.keys())) {
    if (!declared.some((p) => p.in === "query" && p.name === name)) out.push(`${where}: query parameter ${name} is not declared`);
  }
  if (op.security?.some((s) => "Bearer" in s) && !/^Bearer \S+$/.test(header("authorization") ?? "")) out.push(`${where}: no Authorization: Bearer token`);
  const accept = header("accept");
  if (accept !== undefined) {
    const offered = Object.entries(op.responses).filter(([s]) => s.startsWith("2")).flatMap(([, r]) => Object.keys(r.content ?? {}));
    if (offered.length > 0 && !offered.some((t) => _accepts(accept, t))) out.push(`${where}: Accept ${accept} matches none of the answers (${offered.join(", ")})`);
  }
  out.push(..._checkBody(spec, op, req, header("content-type"), where, now));
  return out;
}

function _checkBody(spec: OpenApi30, op: Operation, req: CheckedRequest, type: string | undefined, where: string, now: number): string[] {
  const has = req.body !== null && req.body.length > 0;
  if (!op.requestBody) return has ? [`${where}: sends a body the operation does not take`] : [];
  if (!has) return op.requestBody.required ? [`${where}: the required body is missing`] : [];
  const media = (type ?? "").split(";")[0]!.trim().toLowerCase();
  const content = op.requestBody.content[media];
  if (!content) return [`${where}: Content-Type ${type ?? "(none)"} is not one of ${Object.keys(op.requestBody.content).join(", ")}`];
  if (media !== "application/json") return [];
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(req.body!));
  } catch {
    return [`${where}: the body is not JSON`];
  }
  const out = validate30(spec, content.schema ?? {}, body, { strictProperties: true }).map((v) => `${where}: body ${v.at} ${v.message}`);
  // InvoiceQueryFilters.dateRange (the body of /invoices/query/metadata, `filters` of /invoices/exports): at most 3 months.
  const b = body as { dateRange?: unknown; filters?: { dateRange?: unknown } } | null;
  const range = (b?.filters?.dateRange ?? b?.dateRange) as { from?: unknown; to?: unknown } | undefined;
  if (range && typeof range.from === "string") {
    const from = Date.parse(range.from.replace(/(\.\d{3})\d+/, "$1"));
    const to = typeof range.to === "string" ? Date.parse(range.to.replace(/(\.\d{3})\d+/, "$1")) : now;
    if (to > addMonthsUtc(from, MAX_RANGE_MONTHS)) out.push(`${where}: dateRange ${range.from} to ${typeof range.to === "string" ? range.to : "now"} is longer than ${MAX_RANGE_MONTHS} months`);
    if (to < from) out.push(`${where}: dateRange ends before it starts`);
  }
  return out;
}

/** Every way an answer departs from open-api.json for the operation of `req` (empty when it conforms). */
export function checkResponse(spec: OpenApi30, req: Pick<CheckedRequest, "method" | "path">, res: CheckedResponse): string[] {
  const url = new URL(req.path, "http://x");
  const where = `${req.method} ${url.pathname} → ${res.status}`;
  const found = findOperation(spec, req.method, url.pathname);
  if (!found) return [`${where}: answered an operation open-api.json does not have`];
  const doc = found.op.responses[String(res.status)];
  // The description documents no 5xx: those are the infrastructure's, with no body the client may rely on.
  if (!doc) return res.status >= 500 ? [] : [`${where}: status ${res.status} is not documented for the operation`];
  const out: string[] = [];
  const type = (res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const size = res.body?.length ?? 0;
  if (!doc.content) return size > 0 ? [`${where}: a body where the description documents none`] : [];
  const content = doc.content[type];
  if (!content) return [`${where}: Content-Type ${type || "(none)"} is not one of ${Object.keys(doc.content).join(", ")}`];
  // limity-api.md §2: a 429 says in Retry-After (seconds) when to try again.
  if (res.status === 429 && !/^\d+$/.test(res.headers["retry-after"] ?? "")) out.push(`${where}: no Retry-After in seconds`);
  for (const [name, h] of Object.entries(doc.headers ?? {})) {
    const v = res.headers[name.toLowerCase()];
    if (v !== undefined) for (const e of validate30(spec, h.schema ?? {}, _coerce(spec, h.schema ?? {}, v))) out.push(`${where}: header ${name} ${e.message}`);
  }
  if (!type.endsWith("json")) return size > 0 ? out : [...out, `${where}: an empty ${type} body`];
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(res.body ?? new Uint8Array()));
  } catch {
    return [...out, `${where}: the body is not JSON`];
  }
  for (const v of validate30(spec, content.schema ?? {}, body, { strictProperties: true })) out.push(`${where}: body ${v.at} ${v.message}`);
  return out;
}

// A query, path or header value is text; an integer or boolean schema reads it as such.
function _coerce(spec: OpenApi30, schema: Schema30, raw: string): unknown {
  let s = schema;
  while (typeof s.$ref === "string") s = spec.components.schemas[s.$ref.split("/").pop()!] ?? {};
  const type = s.type ?? (s.allOf as Schema30[] | undefined)?.map((p) => (typeof p.$ref === "string" ? spec.components.schemas[p.$ref.split("/").pop()!]?.type : p.type)).find(Boolean);
  if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

// RFC 9110 §12.5.1 media ranges, without weights: `type/subtype`, `type/*` or `*/*`.
function _accepts(accept: string, type: string): boolean {
  return accept.split(",").some((r) => {
    const range = r.split(";")[0]!.trim().toLowerCase();
    return range === "*/*" || range === type || (range.endsWith("/*") && type.startsWith(range.slice(0, -1)));
  });
}
