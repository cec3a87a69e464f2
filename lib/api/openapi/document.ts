/**
 * The OpenAPI 3.1 document of the API, built from the app's own
 * route table: what the table lacks (summaries, parameters, responses) is kept
 * here keyed by "METHOD pattern", and a route without an entry, or an entry
 * without a route, is a TypeError at startup, so the document cannot drift from
 * the router. The error responses of each operation follow from its scope, its
 * method and its body kind. Schemas live in schemas.ts beside it.
 * @module
 */
import type { ApiRoute } from "../context.ts";
import { ERROR_STATUS, type ErrorCode } from "../errors.ts";
import { invoiceSchemas } from "./invoice_schema.ts";
import { ERROR_CODES, errorSchemaName, headers, parameters, ref, schemas, type Json } from "./schemas.ts";
import { WEBHOOK_EVENT_TYPES } from "../../jobs/webhooks/events.ts";
import { MAX_WEBHOOKS_PER_TENANT, MAX_WEBHOOKS_PER_URL } from "../webhooks/routes.ts";

/** What the route table does not say about an operation. */
interface _Operation {
  id: string;
  tag: string;
  summary: string;
  description?: string;
  /** Names in components.parameters, path parameters first. */
  params?: string[];
  /** Must equal the route's `body`. */
  body?: "json" | "multipart" | "upload";
  /** Success (and download) responses. */
  ok: Record<string, Json>;
  /** Error codes this operation gives beyond those every operation of its kind gives. */
  errors?: ErrorCode[];
}

const JSON_MEDIA = "application/json";
const FILTERS = ["Type", "Format", "IssueDateFrom", "IssueDateTo", "SellerTaxId", "BuyerTaxId", "XmlAvailable", "KsefNumber"];
const DOWNLOAD_PARAMS = ["IfNoneMatch", "Range", "IfRange"];

/** The headers of every `/api/v1/*` response. */
function _apiHeaders(): Record<string, Json> {
  return {
    "X-Request-Id": ref("XRequestId", "headers"),
    "X-Correlation-Id": ref("XCorrelationId", "headers"),
    "X-Content-Type-Options": ref("XContentTypeOptions", "headers"),
    "RateLimit-Policy": ref("RateLimitPolicy", "headers"),
    RateLimit: ref("RateLimit", "headers"),
  };
}

function _json(description: string, schema: Json, extra: Record<string, Json> = {}): Json {
  return { description, headers: { ..._apiHeaders(), ...extra }, content: { [JSON_MEDIA]: { schema } } };
}

function _created(description: string, schema: string): Json {
  return _json(description, ref(schema), { Location: ref("Location", "headers") });
}

/** The responses of raw-file downloads (README “Documents and the inbox”), kept once in components.responses; HEAD gives the same headers. */
function _downloadResponses(): Record<string, Json> {
  const common = {
    ..._apiHeaders(),
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
    NotModified: { description: "Not modified: the If-None-Match ETag matches", headers: common },
    RangeNotSatisfiable: { description: "Range not satisfiable", headers: { ...common, ...range } },
  };
}

/** 200, 206, 304 and 416 of a download of `kind`. */
function _download(kind: "Xml" | "Pdf"): Record<string, Json> {
  return {
    200: ref(`${kind}File`, "responses"),
    206: ref(`${kind}Range`, "responses"),
    304: ref("NotModified", "responses"),
    416: ref("RangeNotSatisfiable", "responses"),
  };
}

/** The operations of the route table, keyed by "METHOD pattern". */
const OPERATIONS: Record<string, _Operation> = {
  "GET /api/v1/documents": {
    id: "listDocuments", tag: "Documents", summary: "List documents: the change feed or pages",
    description: "Without `page`: cursor mode, the change feed in order of last change, oldest first (a document that changes again moves to the end; delivery is at-least-once, deduplicate by id). With `page`: page mode for browsing. Filters apply to both.",
    params: ["Cursor", "Limit", "Page", "PerPage", "Sort", ...FILTERS, "Expand"],
    ok: { 200: _json("A page of documents", ref("DocumentList")) },
  },
  "GET /api/v1/documents/:id": {
    id: "getDocument", tag: "Documents", summary: "Get a document", params: ["DocumentId"],
    ok: { 200: _json("The document", ref("Document")) }, errors: ["NOT_FOUND"],
  },
  "GET /api/v1/documents/:id/xml": {
    id: "getDocumentXml", tag: "Documents", summary: "Download a document's XML",
    description: "The exact bytes received from the source.", params: ["DocumentId", ...DOWNLOAD_PARAMS],
    ok: _download("Xml"), errors: ["NOT_FOUND", "XML_NOT_AVAILABLE"],
  },
  "GET /api/v1/documents/:id/pdf": {
    id: "getDocumentPdf", tag: "Documents", summary: "Download a document's PDF rendering",
    description: "An A4 rendering of the invoice, made from its XML (deterministic: same XML, same bytes).",
    params: ["DocumentId", "Lang", ...DOWNLOAD_PARAMS],
    ok: _download("Pdf"), errors: ["NOT_FOUND", "XML_NOT_AVAILABLE"],
  },
  "POST /api/v1/documents/sync": {
    id: "requestSync", tag: "Sync", summary: "Request a sync run",
    description: "Queues a run and returns at once. While a run of the same source is queued or running, that run is returned instead (requests coalesce).",
    body: "json",
    ok: { 202: _created("The queued (or already queued or running) run", "SyncRun") },
    errors: ["VALIDATION_ERROR"],
  },
  "GET /api/v1/documents/sync/:id": {
    id: "getSyncRun", tag: "Sync", summary: "Get a sync run", params: ["SyncRunId"],
    ok: { 200: _json("The run", ref("SyncRun")) }, errors: ["NOT_FOUND"],
  },
  "POST /api/v1/submissions": {
    id: "createSubmission", tag: "Submissions", summary: "Submit an invoice",
    description: "The invoice goes in the `xml` part. It must be well-formed (no DTD), a supported format, hold a number, an issue date and the seller's tax id, and pass validation: KSeF's file rules and the FA schema for KSeF invoices; the UBL or CII schema and, for documents that claim EN 16931, its business rules. An invoice with errors is refused with 422 `VALIDATION_ERROR`, `details.field` = `xml:<path of the first error>` and `details.violations` listing every error and warning (at most 200); warnings never refuse.",
    body: "multipart",
    ok: { 201: _created("The accepted submission", "Submission") },
    errors: ["DUPLICATE_SUBMISSION", "VALIDATION_ERROR"],
  },
  "POST /api/v1/validate": {
    id: "validateInvoice", tag: "Submissions", summary: "Validate an invoice without submitting it",
    description: "The same checks as an upload, answered as a verdict: multipart like `POST /submissions` (the `xml` part), or the XML itself with `Content-Type: application/xml`. Nothing is stored and no event fires. A body that is not XML or not a supported format is 422 as for an upload.",
    body: "upload",
    ok: { 200: _json("The verdict", ref("ValidationReport")) },
    errors: ["VALIDATION_ERROR", "UNSUPPORTED_MEDIA_TYPE"],
  },
  "GET /api/v1/submissions": {
    id: "listSubmissions", tag: "Submissions", summary: "List submissions (the feed)",
    description: "The change feed in order of last change, oldest first: a submission whose KSeF state changes moves to the end, so a client following the feed sees each KSeF outcome (deduplicate by id).",
    params: ["Cursor", "Limit", "KsefStatus", "SubmissionFormat", "SubmissionType", "Expand"],
    ok: { 200: _json("A page of submissions", ref("SubmissionFeedPage")) },
  },
  "GET /api/v1/submissions/:id": {
    id: "getSubmission", tag: "Submissions", summary: "Get a submission", params: ["SubmissionId"],
    ok: { 200: _json("The submission", ref("Submission")) }, errors: ["NOT_FOUND"],
  },
  "GET /api/v1/submissions/:id/xml": {
    id: "getSubmissionXml", tag: "Submissions", summary: "Download a submission's XML",
    description: "The exact uploaded bytes.", params: ["SubmissionId", ...DOWNLOAD_PARAMS],
    ok: _download("Xml"), errors: ["NOT_FOUND"],
  },
  "GET /api/v1/submissions/:id/pdf": {
    id: "getSubmissionPdf", tag: "Submissions", summary: "Download a submission's PDF rendering",
    description: "Once KSeF accepted the submission, the rendering shows its KSeF number.",
    params: ["SubmissionId", "Lang", ...DOWNLOAD_PARAMS], ok: _download("Pdf"), errors: ["NOT_FOUND"],
  },
  "GET /api/v1/submissions/:id/upo": {
    id: "getSubmissionUpo", tag: "Submissions", summary: "Download a submission's official KSeF receipt (UPO)",
    description: "The UPO (`Potwierdzenie`, XAdES-signed XML) exactly as KSeF issued it for this invoice, once `ksef.status` is accepted.",
    params: ["SubmissionId", ...DOWNLOAD_PARAMS], ok: _download("Xml"), errors: ["NOT_FOUND", "UPO_NOT_AVAILABLE"],
  },
  "POST /api/v1/webhooks": {
    id: "createWebhook", tag: "Webhooks", summary: "Register a webhook endpoint",
    description: `Deliveries start with the changes made after registration. The secret is shown only in this response. A tenant has at most ${MAX_WEBHOOKS_PER_TENANT} endpoints and at most ${MAX_WEBHOOKS_PER_URL} with the same \`url\`; beyond, 422 with \`details.issue\` \`too_many_webhooks\` or \`too_many_webhooks_for_url\` and \`details.limit\`.`,
    body: "json",
    ok: { 201: _created("The endpoint with its secret", "WebhookCreated") },
    errors: ["VALIDATION_ERROR"],
  },
  "GET /api/v1/webhooks": {
    id: "listWebhooks", tag: "Webhooks", summary: "List webhook endpoints",
    ok: { 200: _json("Enabled and disabled endpoints, oldest first", ref("WebhookList")) },
  },
  "GET /api/v1/webhooks/:id": {
    id: "getWebhook", tag: "Webhooks", summary: "Get a webhook endpoint", params: ["WebhookId"],
    ok: { 200: _json("The endpoint, without its secret", ref("Webhook")) }, errors: ["NOT_FOUND"],
  },
  "PATCH /api/v1/webhooks/:id": {
    id: "updateWebhook", tag: "Webhooks", summary: "Change a webhook endpoint",
    description: "Any of `url`, `events`, `description`, `status`, validated as on registration. Setting `status` to `enabled` on a disabled endpoint resumes delivery from where it stopped, nothing skipped; `disabled` pauses it. Once the answer is sent, the next attempt uses the new `url`, and after a pause or DELETE no attempt starts (only one already in flight completes). A new `url` counts against the same-URL limit of registration.",
    params: ["WebhookId"], body: "json",
    ok: { 200: _json("The endpoint, without its secret", ref("Webhook")) }, errors: ["NOT_FOUND", "VALIDATION_ERROR"],
  },
  "GET /api/v1/webhooks/:id/deliveries": {
    id: "listWebhookDeliveries", tag: "Webhooks", summary: "List an endpoint's recent delivery attempts",
    description: "Cursor mode, newest last: store `next_cursor` and ask again later for the attempts made since. Attempts are kept 30 days or the last 1,000 per endpoint, whichever is less.",
    params: ["WebhookId", "Cursor", "Limit"],
    ok: { 200: _json("A page of attempts", ref("DeliveryList")) }, errors: ["NOT_FOUND"],
  },
  "POST /api/v1/webhooks/:id/deliveries/:evt_id/retry": {
    id: "retryWebhookDelivery", tag: "Webhooks", summary: "Send an event to an endpoint once more, now",
    description: "For an event in the endpoint's deliveries. One attempt, also while the endpoint is disabled; the retry schedule is unaffected.",
    params: ["WebhookId", "EventId"],
    ok: { 202: _json("Queued", ref("RedeliveryAccepted")) }, errors: ["NOT_FOUND"],
  },
  "DELETE /api/v1/webhooks/:id": {
    id: "deleteWebhook", tag: "Webhooks", summary: "Delete a webhook endpoint", params: ["WebhookId"],
    ok: { 204: { description: "Deleted; nothing more is delivered to it", headers: _apiHeaders() } }, errors: ["NOT_FOUND"],
  },
  "GET /api/v1/openapi.json": {
    id: "getOpenApi", tag: "Operations", summary: "This OpenAPI document", description: "Public: no token needed.",
    ok: { 200: _json("The document", { type: "object", required: ["openapi", "info", "paths"], properties: { openapi: { const: "3.1.0" } } }) },
  },
};

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
      shared[name] = _json(list.map((c) => `${c}: ${ERROR_CODES[c].description}`).join(". "), schema, extra);
    }
    out[String(status)] = ref(name, "responses");
  }
  return out;
}

/** Every error code the operation can answer. */
function _codes(route: ApiRoute, op: _Operation): Set<ErrorCode> {
  // Every /api/v1 request: a bad X-Correlation-Id, the rate limit, bugs, draining.
  const codes = new Set<ErrorCode>(["BAD_REQUEST", "RATE_LIMITED", "INTERNAL_ERROR", "SERVICE_UNAVAILABLE"]);
  if (route.scope !== null) codes.add("UNAUTHENTICATED").add("FORBIDDEN");
  if (route.method === "POST") codes.add("IDEMPOTENCY_KEY_IN_USE").add("IDEMPOTENCY_KEY_MISMATCH");
  if (op.body) codes.add("PAYLOAD_TOO_LARGE").add("UNSUPPORTED_MEDIA_TYPE");
  for (const c of op.errors ?? []) codes.add(c);
  return codes;
}

/** JSON request bodies; the sync body may be empty (README “Documents and the inbox”). */
const JSON_BODIES: Record<string, { name: string; required: boolean }> = {
  "POST /api/v1/documents/sync": { name: "SyncRunRequest", required: false },
  "POST /api/v1/webhooks": { name: "WebhookRequest", required: true },
  "PATCH /api/v1/webhooks/:id": { name: "WebhookPatch", required: true },
};

/** The request body of a route that reads one. */
function _requestBody(key: string, kind: "json" | "multipart" | "upload"): Json {
  if (kind === "multipart" || kind === "upload") {
    const form = { schema: ref("SubmissionUpload"), encoding: { xml: { contentType: "application/xml, text/xml, application/octet-stream, text/plain" } } };
    const xml = { schema: { type: "string", contentMediaType: "application/xml", description: "The invoice XML itself" } };
    return { required: true, content: kind === "multipart" ? { "multipart/form-data": form } : { "multipart/form-data": form, "application/xml": xml, "text/xml": xml } };
  }
  const schema = JSON_BODIES[key];
  if (!schema) throw new TypeError(`Cannot build the OpenAPI document: ${key} has no request schema`);
  return { required: schema.required, content: { [JSON_MEDIA]: { schema: ref(schema.name) } } };
}

/** The operation object of `route`; TypeError when its entry names a missing path parameter or the wrong body kind. */
function _operation(route: ApiRoute, key: string, op: _Operation, params: Record<string, Json>, shared: Record<string, Json>): Json {
  const names = op.params ?? [];
  for (const name of route.pattern.split("/").filter((s) => s.startsWith(":")).map((s) => s.slice(1))) {
    if (!names.some((p) => params[p]?.in === "path" && params[p]?.name === name)) {
      throw new TypeError(`Cannot build the OpenAPI document: ${key} has no path parameter ${name}`);
    }
  }
  for (const p of names) if (!params[p]) throw new TypeError(`Cannot build the OpenAPI document: ${key} names unknown parameter ${p}`);
  const routeBody = route.scope === null ? undefined : route.body;
  if (routeBody !== op.body) throw new TypeError(`Cannot build the OpenAPI document: ${key} reads a ${routeBody ?? "no"} body, its entry says ${op.body ?? "none"}`);
  const post = route.method === "POST";
  const parameters = [...names, "XCorrelationId", ...(post ? ["IdempotencyKey"] : [])].map((p) => ref(p, "parameters"));
  const ok: Record<string, Json> = {};
  for (const [status, res] of Object.entries(op.ok)) {
    ok[status] = post ? { ...res, headers: { ...(res.headers as Json), "Idempotent-Replayed": ref("IdempotentReplayed", "headers") } } : res;
  }
  const body = op.body ? _requestBody(key, op.body) : undefined;
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security: route.scope === null ? [] : [{ ApiToken: [route.scope] }],
    ...(route.scope === null ? {} : { "x-required-scope": route.scope }),
    parameters,
    ...(body ? { requestBody: body } : {}),
    responses: { ...ok, ..._errorResponses(_codes(route, op), new Set(post ? op.errors : []), shared) },
  };
}

/** /healthz, /readyz, /metrics and /docs (the OpenAPI document): outside /api/v1, public, no correlation id or rate limit. */
function _opsPaths(): Record<string, Json> {
  const h = { "X-Request-Id": ref("XRequestId", "headers"), "X-Content-Type-Options": ref("XContentTypeOptions", "headers") };
  const get = (id: string, summary: string, responses: Record<string, Json>): Json => ({
    get: { operationId: id, tags: ["Operations"], summary, security: [], responses },
  });
  const body = (description: string, media: string, schema: Json): Json => ({ description, headers: h, content: { [media]: { schema } } });
  return {
    "/healthz": get("getHealth", "Liveness: the process is alive", { 200: body("Alive", JSON_MEDIA, ref("Health")) }),
    "/readyz": get("getReadiness", "Readiness: storage is usable and the server is not draining", {
      200: body("Ready", JSON_MEDIA, ref("Ready")),
      503: { ...body("SERVICE_UNAVAILABLE: draining for shutdown or storage not writable", JSON_MEDIA, ref(errorSchemaName("SERVICE_UNAVAILABLE"))), headers: { ...h, "Retry-After": ref("RetryAfter", "headers") } },
    }),
    "/metrics": get("getMetrics", "Prometheus metrics", {
      200: body("Requests by route and status, latency histogram, sync runs, webhook deliveries, outbox depth", "text/plain", { type: "string", description: "Prometheus text exposition format 0.0.4" }),
    }),
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
  const data: Record<string, string> = { document: "Document", submission: "Submission", sync: "SyncRun" };
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

/** The OpenAPI document for `routes`; TypeError when a route and the operations table disagree. */
export function buildOpenApi(routes: readonly ApiRoute[]): Record<string, unknown> {
  const params = parameters();
  const paths: Record<string, Record<string, unknown>> = {};
  const seen = new Set<string>();
  // Seeded with the answers that belong to no operation: unknown paths and unsupported methods.
  const responses: Record<string, Json> = {
    NotFound: _json(`NOT_FOUND: ${ERROR_CODES.NOT_FOUND.description}; also any unknown path under /api/v1/`, ref(errorSchemaName("NOT_FOUND"))),
    MethodNotAllowed: {
      description: "METHOD_NOT_ALLOWED: the path does not support the method (on every path, /healthz, /readyz and /metrics included)",
      headers: { ..._apiHeaders(), "X-Correlation-Id": { description: "On /api/v1/ paths", schema: { type: "string" } }, Allow: ref("Allow", "headers") },
      content: { [JSON_MEDIA]: { schema: ref(errorSchemaName("METHOD_NOT_ALLOWED")) } },
    },
    ..._downloadResponses(),
  };
  for (const route of routes) {
    const key = `${route.method} ${route.pattern}`;
    const op = OPERATIONS[key];
    if (!op) throw new TypeError(`Cannot build the OpenAPI document: route ${key} has no entry in lib/api/openapi/document.ts`);
    if (seen.has(key)) throw new TypeError(`Cannot build the OpenAPI document: route ${key} is listed twice`);
    seen.add(key);
    const path = route.pattern.replace(/:([A-Za-z_]+)/g, "{$1}");
    (paths[path] ??= {})[route.method.toLowerCase()] = _operation(route, key, op, params, responses);
  }
  for (const key of Object.keys(OPERATIONS)) {
    if (!seen.has(key)) throw new TypeError(`Cannot build the OpenAPI document: entry ${key} has no route`);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Integrator API",
      version: "1.0.0",
      description: [
        "E-invoice documents, submissions, sync runs and webhooks for integrators.",
        "Every endpoint under /api/v1/ except this document needs an `X-API-Token` with the operation's scope (401 without a usable token, 403 without the scope).",
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
      { name: "Operations", description: "Health, readiness, metrics and this document: public" },
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
