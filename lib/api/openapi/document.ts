/**
 * The OpenAPI 3.1 document of the API, built from the app's own
 * route table: each route carries its operation (summaries, parameters,
 * responses; operation.ts) beside its method, pattern, scope and body kind, so
 * the document cannot drift from the router, and a route without one, or whose
 * operation disagrees with it, is a TypeError at startup. The error responses
 * of each operation follow from its scope, its method and its body kind.
 * Schemas live in schemas.ts beside it.
 * @module
 */
import type { ApiRoute } from "../context.ts";
import { ERROR_STATUS, type ErrorCode } from "../errors.ts";
import { invoiceSchemas } from "./invoice_schema.ts";
import { ERROR_CODES, errorSchemaName, headers, parameters, ref, schemas, type Json } from "./schemas.ts";
import { WEBHOOK_EVENT_TYPES } from "../../jobs/webhooks/events.ts";
import { apiHeaders, JSON_MEDIA, jsonResponse, type ApiOperation } from "./operation.ts";
import type { BodyKind } from "../context.ts";

/** The responses of raw-file downloads (README “Documents and the inbox”), kept once in components.responses; HEAD gives the same headers. */
function _downloadResponses(): Record<string, Json> {
  const common = {
    ...apiHeaders(),
    ETag: ref("ETag", "headers"),
    "Cache-Control": ref("CacheControl", "headers"),
    "Accept-Ranges": ref("AcceptRanges", "headers"),
    "Content-Disposition": ref("ContentDisposition", "headers"),
  };
  const length = { "Content-Length": ref("ContentLength", "headers") };
  const range = { "Content-Range": ref("ContentRange", "headers") };
  const file = (media: string): Json => ({ [media]: { schema: { type: "string", contentMediaType: media } } });
  return {
    XmlFile: { description: "The XML", headers: { ...common, ...length }, content: file("application/xml") },
    XmlRange: { description: "The requested byte range of the XML", headers: { ...common, ...length, ...range }, content: file("application/xml") },
    PdfFile: { description: "The PDF", headers: { ...common, ...length }, content: file("application/pdf") },
    PdfRange: { description: "The requested byte range of the PDF", headers: { ...common, ...length, ...range }, content: file("application/pdf") },
    SourceFile: { description: "The bytes as received: the JSON of a created invoice, the original of a converted one, the PDF of a Factur-X upload, else the XML", headers: { ...common, ...length }, content: { ...file("application/xml"), ...file("application/json"), ...file("application/pdf") } },
    SourceRange: { description: "The requested byte range of the source", headers: { ...common, ...length, ...range }, content: { ...file("application/xml"), ...file("application/json"), ...file("application/pdf") } },
    NotModified: { description: "Not modified: the If-None-Match ETag matches", headers: common },
    RangeNotSatisfiable: { description: "Range not satisfiable", headers: { ...common, ...range } },
  };
}

/**
 * The error responses for `codes`, grouped by status (several codes of one status
 * are a oneOf of their bodies) and kept once in `shared` (components.responses):
 * operations refer to them. `replayable` codes are the handler's own, which an
 * Idempotency-Key stores and replays (the idempotency conventions in /docs).
 */
function _errorResponses(codes: ReadonlySet<ErrorCode>, replayable: ReadonlySet<ErrorCode>, shared: Record<string, Json>): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const list = byStatus.get(ERROR_STATUS[code]) ?? [];
    list.push(code);
    byStatus.set(ERROR_STATUS[code], list);
  }
  const out: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const replayed = list.some((c) => replayable.has(c));
    const name = list.map((c) => errorSchemaName(c).slice(0, -"Error".length)).join("Or") + (replayed ? "Replayable" : "");
    if (!shared[name]) {
      const extra: Record<string, Json> = {};
      // Retry-After comes with 429, 503 and IDEMPOTENCY_KEY_IN_USE (the error envelope in the OpenAPI document).
      const retry = list.filter((c) => c === "RATE_LIMITED" || c === "SERVICE_UNAVAILABLE" || c === "IDEMPOTENCY_KEY_IN_USE");
      if (retry.length === list.length) extra["Retry-After"] = ref("RetryAfter", "headers");
      else if (retry.length > 0) extra["Retry-After"] = { description: `Seconds to wait before retrying, with ${retry.join(", ")}`, schema: { type: "integer", minimum: 1 } };
      if (list.includes("METHOD_NOT_ALLOWED")) extra.Allow = ref("Allow", "headers");
      if (replayed) extra["Idempotent-Replayed"] = ref("IdempotentReplayed", "headers");
      const schema = list.length === 1 ? ref(errorSchemaName(list[0]!)) : { oneOf: list.map((c) => ref(errorSchemaName(c))) };
      shared[name] = jsonResponse(list.map((c) => `${c}: ${ERROR_CODES[c].description}`).join(". "), schema, extra);
    }
    out[String(status)] = ref(name, "responses");
  }
  return out;
}

/** Every error code the operation can answer. */
function _codes(route: ApiRoute, op: ApiOperation): Set<ErrorCode> {
  // Every /api/v1 request: a bad X-Correlation-Id, the rate limit, bugs, draining.
  const codes = new Set<ErrorCode>(["BAD_REQUEST", "RATE_LIMITED", "INTERNAL_ERROR", "SERVICE_UNAVAILABLE"]);
  if (route.scope !== null) codes.add("UNAUTHENTICATED");
  if (route.scope !== null && route.scope.length > 0) codes.add("FORBIDDEN"); // an empty list: any valid token
  if (route.method === "POST") codes.add("IDEMPOTENCY_KEY_IN_USE").add("IDEMPOTENCY_KEY_MISMATCH");
  if (_bodyKind(route)) codes.add("PAYLOAD_TOO_LARGE").add("UNSUPPORTED_MEDIA_TYPE");
  for (const c of op.errors ?? []) codes.add(c);
  return codes;
}

/** The kind of body the route reads before its handler runs; public routes read none. */
function _bodyKind(route: ApiRoute): BodyKind | undefined {
  return route.scope === null ? undefined : route.body;
}

/** The request body of a route that reads one. */
function _requestBody(key: string, kind: BodyKind, op: ApiOperation): Json {
  if (kind !== "json") {
    // A multipart route may name its own form (POST /submissions has fields that POST /validate does not).
    const named = (kind === "multipart" || kind === "invoice") && op.requestBody;
    const form = { schema: ref(named ? op.requestBody!.schema : "SubmissionUpload"), encoding: { xml: { contentType: "application/xml, text/xml, application/octet-stream, text/plain" } } };
    const xml = { schema: { type: "string", contentMediaType: "application/xml", description: "The invoice XML itself" } };
    const content: Json = { "multipart/form-data": form };
    if (kind === "upload" || kind === "any") Object.assign(content, { "application/xml": xml, "text/xml": xml });
    if (kind === "invoice" || kind === "any") {
      if (!op.jsonBody) throw new TypeError(`Cannot build the OpenAPI document: ${key} reads an invoice's JSON, its operation names no jsonBody schema`);
      content[JSON_MEDIA] = { schema: ref(op.jsonBody) };
    }
    return { required: true, content };
  }
  const schema = op.requestBody;
  if (!schema) throw new TypeError(`Cannot build the OpenAPI document: ${key} reads a json body, its operation names no request schema`);
  return { required: schema.required, content: { [JSON_MEDIA]: { schema: ref(schema.schema) } } };
}

/** The operation object of `route`; TypeError when its operation names a missing path parameter or a request body the route does not read. */
function _operation(route: ApiRoute, key: string, op: ApiOperation, params: Record<string, Json>, shared: Record<string, Json>): Json {
  const names = op.params ?? [];
  for (const name of route.pattern.split("/").filter((s) => s.startsWith(":")).map((s) => s.slice(1))) {
    if (!names.some((p) => params[p]?.in === "path" && params[p]?.name === name)) {
      throw new TypeError(`Cannot build the OpenAPI document: ${key} has no path parameter ${name}`);
    }
  }
  for (const p of names) if (!params[p]) throw new TypeError(`Cannot build the OpenAPI document: ${key} names unknown parameter ${p}`);
  const kind = _bodyKind(route);
  if (op.requestBody && kind !== "json" && kind !== "multipart" && kind !== "invoice") throw new TypeError(`Cannot build the OpenAPI document: ${key} reads a ${kind ?? "no"} body, its operation names a json request body`);
  const post = route.method === "POST";
  const parameters = [...names, "XCorrelationId", ...(post ? ["IdempotencyKey"] : [])].map((p) => ref(p, "parameters"));
  const ok: Record<string, Json> = {};
  for (const [status, res] of Object.entries(op.ok)) {
    ok[status] = post ? { ...res, headers: { ...(res.headers as Json), "Idempotent-Replayed": ref("IdempotentReplayed", "headers") } } : res;
  }
  const body = kind ? _requestBody(key, kind, op) : undefined;
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    // A list of scopes is a choice (any one will do): OpenAPI's security requirements are alternatives.
    // An empty list is a token with no scope needed: a requirement without scopes, not the public `[]`.
    security: _security(route.scope),
    ...(route.scope === null ? {} : typeof route.scope === "string" ? { "x-required-scope": route.scope } : route.scope.length > 0 ? { "x-any-of-scopes": [...route.scope] } : {}),
    parameters,
    ...(body ? { requestBody: body } : {}),
    responses: { ...ok, ..._errorResponses(_codes(route, op), new Set(post ? op.errors : []), shared) },
  };
}

/** The security requirements of a route's scope: none when public, any valid token for an empty list. */
function _security(scope: ApiRoute["scope"]): Json[] {
  if (scope === null) return [];
  if (typeof scope === "string") return [{ ApiToken: [scope] }];
  return scope.length === 0 ? [{ ApiToken: [] }] : scope.map((s) => ({ ApiToken: [s] }));
}

/** /healthz, /readyz, /metrics and /docs (the OpenAPI document): outside /api/v1, public, no correlation id or rate limit. */
function _opsPaths(): Record<string, Json> {
  const h = { "X-Request-Id": ref("XRequestId", "headers"), "X-Content-Type-Options": ref("XContentTypeOptions", "headers") };
  const get = (id: string, summary: string, responses: Record<string, Json>, description?: string): Json => ({
    get: { operationId: id, tags: ["Operations"], summary, ...(description ? { description } : {}), security: [], responses },
  });
  // README "Security model": operator detail as GitLab's monitoring IP allow-list gives it.
  const operators = "a client at an address in OPS_ALLOW (default loopback; behind a proxy named in TRUST_PROXY, the address its X-Forwarded-For gives) or one sending `Authorization: Bearer` with the OPS_TOKEN";
  const body = (description: string, media: string, schema: Json): Json => ({ description, headers: h, content: { [media]: { schema } } });
  return {
    "/healthz": get("getHealth", "Liveness: the process is alive", { 200: body("Alive", JSON_MEDIA, ref("Health")) }),
    "/readyz": get("getReadiness", "Readiness: storage is usable and the server is not draining", {
      200: body("Ready, with the number of warnings for everyone and their text for operators", JSON_MEDIA, ref("Ready")),
      503: { ...body("SERVICE_UNAVAILABLE: draining for shutdown or storage not writable", JSON_MEDIA, ref(errorSchemaName("SERVICE_UNAVAILABLE"))), headers: { ...h, "Retry-After": ref("RetryAfter", "headers") } },
    }, `Public. \`warning_count\` is for everyone; \`warnings\`, their text, only for ${operators}.`),
    "/metrics": get("getMetrics", "Prometheus metrics", {
      200: body("Requests by route and status, latency histogram, sync runs, webhook deliveries, outbox depth", "text/plain", { type: "string", description: "Prometheus text exposition format 0.0.4" }),
      403: body("FORBIDDEN: the client is not an operator", JSON_MEDIA, ref("OpsForbiddenError")),
    }, `Only for ${operators}: the metrics label every tenant. Anyone else gets 403 FORBIDDEN.`),
    "/docs": get("getDocs", "The human reference: this document as one self-contained HTML page", {
      200: {
        ...body("The page; it loads nothing else (Content-Security-Policy)", "text/html", { type: "string", contentMediaType: "text/html" }),
        headers: { ...h, ETag: { description: "Strong, from the page's hash; If-None-Match gives 304", required: true, schema: { type: "string" } } },
      },
      304: { description: "Not modified: the If-None-Match ETag matches", headers: h },
    }),
  };
}

/** The `webhooks` section: the event deliveries of README “Webhooks” (Standard Webhooks). */
function _webhooks(): Record<string, Json> {
  const data: Record<string, string> = { document: "Document", submission: "Submission", sync: "SyncRun", ksef: "KsefCertificateExpiring" };
  const header = (name: string, schema: Json, description: string): Json => ({ name, in: "header", required: true, schema, description });
  const out: Record<string, Json> = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    out[type] = {
      post: {
        operationId: `on${type.split(".").map((w) => w[0]!.toUpperCase() + w.slice(1)).join("")}`,
        tags: ["Webhooks"],
        summary: `The ${type} event`,
        description: "Signed as Standard Webhooks: verify `webhook-signature` over `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret. At-least-once: deduplicate by `webhook-id`.",
        parameters: [
          header("webhook-id", { type: "string", pattern: "^evt_[0-9A-HJKMNP-TV-Z]{26}$" }, "The event id, the same on every retry"),
          header("webhook-timestamp", { type: "string", pattern: "^\\d+$" }, "Unix seconds of this attempt"),
          header("webhook-signature", { type: "string", pattern: "^v1,[A-Za-z0-9+/]+={0,2}$" }, "v1, then base64 HMAC-SHA256"),
        ],
        requestBody: {
          required: true,
          content: {
            [JSON_MEDIA]: {
              schema: {
                type: "object", required: ["type", "timestamp", "data"], additionalProperties: false,
                properties: { type: { type: "string", const: type }, timestamp: ref("Timestamp"), data: ref(data[type.split(".")[0]!]!) },
              },
            },
          },
        },
        responses: {
          "2XX": { description: "Delivered (within 10 s)" },
          410: { description: "Gone: the endpoint is disabled at once" },
          default: { description: "Failed: retried on the Standard Webhooks schedule (Retry-After honoured; redirects are failures), then the endpoint is disabled" },
        },
      },
    };
  }
  return out;
}

/** The OpenAPI document for `routes`; TypeError when a route and its operation disagree. */
export function buildOpenApi(routes: readonly ApiRoute[]): Record<string, unknown> {
  const params = parameters();
  const paths: Record<string, Record<string, unknown>> = {};
  const seen = new Set<string>();
  // Seeded with the answers that belong to no operation: unknown paths and unsupported methods.
  const responses: Record<string, Json> = {
    NotFound: jsonResponse(`NOT_FOUND: ${ERROR_CODES.NOT_FOUND.description}; also any unknown path under /api/v1/`, ref(errorSchemaName("NOT_FOUND"))),
    MethodNotAllowed: {
      description: "METHOD_NOT_ALLOWED: the path does not support the method (on every path, /healthz, /readyz and /metrics included)",
      headers: {
        ...apiHeaders(), "X-Correlation-Id": { description: "On /api/v1/ paths", schema: { type: "string" } }, Allow: ref("Allow", "headers"),
        "Cache-Control": { description: "`no-store` on /api/v1/ paths", schema: { type: "string" } },
      },
      content: { [JSON_MEDIA]: { schema: ref(errorSchemaName("METHOD_NOT_ALLOWED")) } },
    },
    ..._downloadResponses(),
  };
  for (const route of routes) {
    const key = `${route.method} ${route.pattern}`;
    const op = route.openapi as ApiOperation | undefined;
    if (!op) throw new TypeError(`Cannot build the OpenAPI document: route ${key} has no OpenAPI operation`);
    if (seen.has(key)) throw new TypeError(`Cannot build the OpenAPI document: route ${key} is listed twice`);
    seen.add(key);
    const path = route.pattern.replace(/:([A-Za-z_]+)/g, "{$1}");
    (paths[path] ??= {})[route.method.toLowerCase()] = _operation(route, key, op, params, responses);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Integrator API",
      version: "1.0.0",
      description: [
        "E-invoice documents, submissions, sync runs and webhooks for integrators.",
        "Every endpoint under /api/v1/ except this document needs an `X-API-Token` with the operation's scope (401 without a usable token, 403 without the scope); `GET /api/v1/token` answers any valid token with its scopes, so a client can learn what it may do without being refused.",
        "Every JSON answer under /api/v1/, errors included, carries `Cache-Control: no-store`: it may hold a tenant's data, which no shared cache may keep. Downloads carry `Cache-Control: private, no-cache` with a strong `ETag` instead.",
        "Times are ISO 8601 UTC with milliseconds; money is a decimal string; ids are opaque and typed by prefix (`doc_`, `sub_`, `sync_`, `whk_`, `evt_`).",
        "HEAD is answered wherever GET is. A method a path does not support answers 405 with `Allow` (components/responses/MethodNotAllowed); an unknown path under /api/v1/ answers 404 (components/responses/NotFound). Parameters are strict: a query parameter or JSON body field that the operation does not take, or one of the other mode (`sort` without `page`), is 400 BAD_REQUEST with `details.field` and `details.issue` (`unknown parameter`, `applies to page mode only`).",
        "Errors are `{\"error\": {code, message, details, request_id}}` with the closed list of codes in components/schemas/ErrorCode.",
      ].join("\n\n"),
    },
    tags: [
      { name: "Documents", description: "Invoices synchronized from document sources" },
      { name: "Sync", description: "Sync runs that pull documents from a source" },
      { name: "Submissions", description: "Invoices uploaded by the integrator" },
      { name: "Webhooks", description: "Event delivery endpoints (Standard Webhooks)" },
      { name: "Operations", description: "Health, readiness, metrics and this document: no API token; metrics and the text of readiness warnings for operators only" },
    ],
    security: [{ ApiToken: [] }],
    paths: { ...paths, ..._opsPaths() },
    webhooks: _webhooks(),
    components: {
      securitySchemes: {
        ApiToken: { type: "apiKey", in: "header", name: "X-API-Token", description: "`itk_<key id>_<secret>`; a token in the query string is never used" },
      },
      schemas: { ...schemas(), ...invoiceSchemas() },
      parameters: params,
      headers: headers(),
      responses,
    },
  };
}
