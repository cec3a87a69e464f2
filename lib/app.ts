/**
 * The application: one function from an ApiRequest to an ApiResponse, composed
 * of the pipeline's steps in order (lib/pipeline/): correlation id, routing,
 * authentication, rate limits, scope, body, idempotency, the route's handler,
 * the error envelope and the finishing headers, metrics and log line. It does no
 * I/O of its own: storage and sources come in as options.
 * @module
 */
import { createCursorCodec } from "./api/cursor.ts";
import { documentRoutes } from "./api/documents/routes.ts";
import { PdfFonts, type PdfFontFiles } from "./formats/pdf/pdf_fonts.ts";
import type { ApiRoute, AppServices, Context, KsefSendHook, RequestBody } from "./api/context.ts";
import { createDocsPage } from "./api/docs/docs_route.ts";
import { CONSOLE_CSP, createConsoleAssets } from "./api/console/console_route.ts";
import { MAX_EXPANDED_LIST_BYTES } from "./api/invoice_expand.ts";
import { ShaCache } from "./api/sha_cache.ts";
import { SharedBuilds } from "./api/shared_builds.ts";
import { buildOpenApi } from "./api/openapi/document.ts";
import { jsonResponse } from "./api/openapi/operation.ts";
import { PageCache } from "./api/page_cache.ts";
import { submissionRoutes } from "./api/submissions/routes.ts";
import { validationRoutes } from "./api/validation.ts";
import { conversionRoutes } from "./api/conversion.ts";
import { schemaSetOf, type SchemaFiles } from "./formats/validation/schema_set.ts";
import type { CheckedInvoice } from "./formats/validation/read_and_validate.ts";
import type { ValidationReport } from "./formats/validation/invoice_validation.ts";
import { deliveryRoutes } from "./api/webhooks/deliveries.ts";
import { syncRoutes } from "./api/sync/routes.ts";
import { summaryRoutes } from "./api/summary.ts";
import { tokenRoutes } from "./api/token.ts";
import { webhookRoutes } from "./api/webhooks/routes.ts";
import type { SourceFactory } from "./contracts/document_source.ts";
import { newId } from "./contracts/ids.ts";
import type { ImportedFields, Storage } from "./contracts/storage.ts";
import { DEFAULT_JSON_LIMIT } from "./http/body.ts";
import { ApiError, notFound } from "./http/errors.ts";
import { json } from "./http/respond.ts";
import { createRouter } from "./http/router.ts";
import type { ApiRequest, ApiResponse } from "./http/types.ts";
import { createSyncRunner, type SyncRunner } from "./jobs/sync_runner.ts";
import { DEFAULT_RETRY_SCHEDULE } from "./jobs/webhooks/retry_schedule.ts";
import { createVerdictBackfill, type VerdictBackfill } from "./jobs/verdict_backfill.ts";
import { createWebhookWorker, type WebhookTransport, type WebhookWorker } from "./jobs/webhooks/worker.ts";
import { silentLogger, type Logger } from "./observe/log.ts";
import { Metrics } from "./observe/metrics.ts";
import { createAuthenticator } from "./pipeline/authenticate.ts";
import { readRequestBody } from "./pipeline/body.ts";
import { readCorrelationId } from "./pipeline/correlation.ts";
import { envelopeResponse, errorResponse, OutageLog } from "./pipeline/error_response.ts";
import { createLargeReads, LARGE_XML_BYTES, type InvoiceReader, type PdfJob } from "./api/invoice_reader.ts";
import type { RenderedPdf } from "./formats/pdf/invoice_pdf.ts";
import { acceptedParameters, checkBody, checkQuery, operationKey } from "./pipeline/strict_params.ts";
import { runIdempotent } from "./pipeline/idempotency.ts";
import { parseIdempotencyKey } from "./pipeline/idempotency_key.ts";
import { createRequestLimits, DEFAULT_ANONYMOUS_LIMIT, DEFAULT_RATE_LIMIT } from "./pipeline/limits.ts";
import { createOpsRoutes } from "./pipeline/ops_routes.ts";
import { createOpsAccess, DEFAULT_OPS_ALLOW, parseOpsToken } from "./pipeline/ops_access.ts";
import { clientAddress } from "./pipeline/client_address.ts";
import { inCidrList, parseCidrList } from "./http/cidr.ts";
import type { RateLimitConfig } from "./pipeline/rate_limit.ts";
import { finishResponse, type RequestFacts } from "./pipeline/request_log.ts";
import { requireScope } from "./pipeline/require_scope.ts";

export { DEFAULT_ANONYMOUS_LIMIT, DEFAULT_RATE_LIMIT } from "./pipeline/limits.ts";

/** The default upload limit (README “Security model”: 10 MiB). */
export const DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024;

/** Everything the app needs, in one options object (no module-level state). */
export interface AppOptions {
  storage: Storage;
  /** Reads one invoice off the event loop (server.ts: worker threads); large reads are inline without it. */
  readInvoiceOffThread?: InvoiceReader;
  /** Builds one large invoice's JSON bytes off the event loop (server.ts: worker threads); without it the JSON is made here. */
  readInvoiceJsonOffThread?: (xml: Uint8Array) => Promise<Uint8Array>;
  /** Reads and validates one upload off the event loop (server.ts: worker threads given the schemas); inline without it. */
  checkUploadOffThread?: (xml: Uint8Array) => Promise<CheckedInvoice>;
  /** The verdict on one invoice off the event loop (server.ts: worker threads given the schemas); inline without it. */
  validateOffThread?: (xml: Uint8Array) => Promise<ValidationReport>;
  /** Reads one invoice's document fields and verdict off the event loop (server.ts: worker threads given the schemas), for sync runs; inline without it. */
  readFieldsOffThread?: (xml: Uint8Array) => Promise<ImportedFields>;
  /** Renders one large invoice's PDF off the event loop (server.ts: worker threads given the fonts); here without it. */
  renderPdfOffThread?: (xml: Uint8Array, options: PdfJob) => Promise<RenderedPdf>;
  /** The document sources of a tenant; the first is the default. */
  sources?: SourceFactory;
  now?: () => number;
  logger?: Logger;
  uploadLimit?: number;
  jsonLimit?: number;
  /** Per-token limit; null turns it off. */
  rateLimit?: RateLimitConfig | null;
  /** Per-address limit on requests without a valid token (failed authentications); null turns it off. */
  anonymousLimit?: RateLimitConfig | null;
  metrics?: Metrics;
  /** This node's name in leases (default: a random one per process). */
  nodeId?: string;
  /** False when another process runs the sync runs this app records (WORKERS > 1); default true. */
  executeSyncs?: boolean;
  /** Bytes a list page with `expand=invoice` may reach before it stops early (default MAX_EXPANDED_LIST_BYTES; tests set less). */
  expandedListLimit?: number;
  /** The TrueType files PDFs are drawn with (storage/fonts/font_files.ts reads the shipped ones); without them `/pdf` answers 500. */
  pdfFonts?: PdfFontFiles;
  /** Sending to KSeF (README "Sending to KSeF"): which tenants send and how to wake the sender. */
  ksefSend?: KsefSendHook | null;
  /** What the operator should act on beside the sender's, shown on /readyz (e.g. a KSeF source still on a token). */
  warnings?: () => string[];
  /** The XML Schemas invoices are validated against (storage/schemas/schema_files.ts reads the shipped ones); without them the schema check is left out. */
  schemas?: SchemaFiles;
  /**
   * Who sees operator detail, `/metrics` and the text of `/readyz`'s warnings (README "Security model"): `allow`, a
   * comma-separated CIDR list (default DEFAULT_OPS_ALLOW, loopback), and a bearer `token` that sees it from anywhere.
   */
  ops?: { allow?: string; token?: string | null };
  /** Proxies whose X-Forwarded-For is believed, a comma-separated CIDR list (default none): the client address for `ops` and the per-address limits. */
  trustProxy?: string;
  /** Webhook delivery; without a transport endpoints can be registered but nothing is delivered. */
  webhooks?: { transport?: WebhookTransport; schedule?: readonly number[]; allowPrivate?: boolean; random?: () => number };
}

/** A running application. */
export interface App {
  handle(req: ApiRequest): Promise<ApiResponse>;
  /** @internal The API's routes (the OpenAPI document is built from them); not part of the package's interface. */
  routes: readonly ApiRoute[];
  sync: SyncRunner;
  /** The webhook delivery worker (start it with `webhooks.start(ms)`), or null without a transport. */
  webhooks: WebhookWorker | null;
  /**
   * Judges documents stored before verdicts were kept (README "Summary"; start it with `backfill.start(ms)`), or null
   * where syncs are not executed or there are no schemas to judge with.
   */
  backfill: VerdictBackfill | null;
  /** @internal What the resources share (storage, readers, limits); not part of the package's interface. */
  services: AppServices;
  metrics: Metrics;
  /** Readiness goes to 503 and new API requests are refused with 503 (shutdown). */
  drain(): void;
  /** Stops background work at a safe point. */
  close(): Promise<void>;
}

/** Builds the app from its options. */
export async function createApp(options: AppOptions): Promise<App> {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const metrics = options.metrics ?? new Metrics();
  const nodeId = options.nodeId ?? crypto.randomUUID();
  const pdfFonts = options.pdfFonts === undefined ? null : new PdfFonts(options.pdfFonts);
  const schemas = options.schemas === undefined ? null : schemaSetOf(options.schemas);
  const reads = createLargeReads({
    offThreadCheck: options.checkUploadOffThread, offThreadValidate: options.validateOffThread, schemas,
    offThread: options.readInvoiceOffThread, offThreadJson: options.readInvoiceJsonOffThread,
    offThreadPdf: options.renderPdfOffThread, offThreadFields: options.readFieldsOffThread, fonts: pdfFonts,
  });
  const readInvoice = reads.read;
  const builds = new SharedBuilds();
  metrics.gauge("large_reads_waiting", "Reads of large invoices waiting for a slot (README \"Limits\").", () => reads.waiting());
  metrics.gauge("invoice_builds_joined", "Requests waiting for a build of the same invoice JSON, PDF or verdict that another request started.", () => builds.joined);
  const sources = options.sources ?? (() => []);
  const sync = createSyncRunner({
    storage: options.storage, sources, now, logger, metrics, nodeId, readFields: reads.fields,
    ...(options.executeSyncs === false ? { execute: false } : {}),
  });
  const services: AppServices = {
    storage: options.storage,
    cursors: createCursorCodec(await options.storage.secret("cursor")),
    sync, sources, logger, now,
    limits: {
      jsonBytes: options.jsonLimit ?? DEFAULT_JSON_LIMIT, uploadBytes: options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT,
      expandedListBytes: options.expandedListLimit ?? MAX_EXPANDED_LIST_BYTES,
    },
    webhookAllowPrivate: options.webhooks?.allowPrivate ?? false,
    pages: new PageCache(),
    readInvoice,
    readInvoiceJson: reads.json,
    renderPdf: reads.pdf,
    checkUpload: reads.check,
    validate: reads.validate,
    admitLarge: reads.admit,
    invoices: new ShaCache(),
    verdicts: new ShaCache(),
    builds,
    pdfFonts,
    ksefSend: options.ksefSend ?? null,
    schemas,
  };
  // Once per set of files and process, before the first request; not where threads validate (server.ts on Node):
  // the compiled schemas would only enlarge the heap that every major GC of the event loop's thread marks.
  if (!options.checkUploadOffThread || !options.validateOffThread) services.schemas?.compileAll();
  const webhooks = _webhookWorker(options, now, logger, metrics, nodeId);
  // The same reader and verdict as a sync's import, on the same threads; in the process that executes syncs.
  const backfill = options.executeSyncs === false || schemas === null ? null : createVerdictBackfill({
    storage: options.storage, logger, metrics, nodeId, judge: async (xml, o) => (await reads.fields(xml, o)).valid,
  });
  if (webhooks) metrics.gauge("webhook_outbox_depth", "Events not yet delivered to enabled endpoints.", () => webhooks.depth());
  const routes: ApiRoute[] = [...documentRoutes, ...syncRoutes, ...submissionRoutes, ...validationRoutes, ...conversionRoutes, ...webhookRoutes, ...deliveryRoutes, ...summaryRoutes, ...tokenRoutes];
  const openapiDoc = buildOpenApi([...routes, OPENAPI_ROUTE]);
  const openapi = JSON.stringify(openapiDoc);
  routes.push({ ...OPENAPI_ROUTE, handle: async () => json(200, openapi) });
  let draining = false;
  const isDraining = () => draining;
  const handleApi = _apiHandler(options, services, routes, openapiDoc as unknown as Record<string, unknown>, isDraining);
  const trusted = parseCidrList(options.trustProxy ?? "", "trustProxy");
  const access = createOpsAccess({ allow: parseCidrList(options.ops?.allow ?? DEFAULT_OPS_ALLOW, "ops.allow"), token: parseOpsToken(options.ops?.token ?? "", "ops.token") });
  const ops = createOpsRoutes({ storage: options.storage, metrics, draining: isDraining, access, docs: createDocsPage(openapiDoc), console: createConsoleAssets(), ...(options.ksefSend?.warnings || options.warnings ? { warnings: () => [...(options.warnings?.() ?? []), ...(options.ksefSend?.warnings?.() ?? [])] } : {}) });
  const outages = new OutageLog(now);
  let untrustedForwardSeen = false;

  async function handle(req: ApiRequest): Promise<ApiResponse> {
    const facts: RequestFacts = { requestId: newId("req", now()), correlationId: null, route: null, tenant: null, keyId: null, headers: null, started: performance.now() };
    let res: ApiResponse;
    const api = req.path.startsWith("/api/v1/") || req.path === "/api/v1";
    // Without the header or TRUST_PROXY (the default) the peer is the client.
    const forwarded = req.header("x-forwarded-for");
    const client = forwarded === null || trusted.length === 0 ? req.remoteAddress : clientAddress(req.remoteAddress, forwarded, trusted);
    // A proxy that TRUST_PROXY does not name makes every client behind it look like the proxy, often loopback and so
    // an operator (README "Security model"): said once per process, since anyone can send the header.
    if (forwarded !== null && !untrustedForwardSeen && !inCidrList(trusted, req.remoteAddress)) {
      untrustedForwardSeen = true;
      logger.warn("X-Forwarded-For ignored: its sender is not in TRUST_PROXY; if it is a proxy, every client behind it counts as its address for OPS_ALLOW and the per-address limits", { peer: req.remoteAddress });
    }
    try {
      if (api) {
        const correlation = readCorrelationId(req);
        facts.correlationId = correlation.id; // a malformed value is never reflected
        res = await handleApi(req, client, facts, correlation.malformed);
      } else {
        const op = ops(req, client);
        facts.route = op.route;
        res = await op.response;
      }
    } catch (caught) {
      res = errorResponse(caught, req, { request_id: facts.requestId, correlation_id: facts.correlationId, route: facts.route }, logger, outages);
    }
    // A JSON answer of /api/v1 (errors, 201 and 202 included, and the public OpenAPI document alike: one rule) may
    // hold a tenant's data, which no shared proxy or browser cache may keep (RFC 9111 §5.2.2.5); downloads have set
    // their own `private, no-cache` with an ETag.
    if (api) res.headers["cache-control"] ??= "no-store";
    // Every answer under /console (errors too: a 404, 405 or 400 there is a page of this origin) has its policy.
    if (req.path === "/console" || req.path.startsWith("/console/")) {
      res = { ...res, headers: { ...res.headers, "content-security-policy": CONSOLE_CSP, "referrer-policy": "no-referrer" } };
    }
    return finishResponse(req, res, facts, draining, metrics, logger);
  }

  return {
    handle, routes, sync, webhooks, backfill, services, metrics,
    drain() {
      draining = true;
    },
    async close() {
      await sync.stop();
      await backfill?.stop();
      await webhooks?.stop();
    },
  };
}

/**
 * An `/api/v1/*` request, from routing to the handler's answer: route, authenticate, limits, the correlation id's
 * verdict, draining, 404/405, strict parameters, scope, idempotency key, body, then the handler (once per key).
 */
function _apiHandler(
  options: AppOptions, services: AppServices, routes: readonly ApiRoute[], openapi: Record<string, unknown>, draining: () => boolean,
): (req: ApiRequest, client: string, facts: RequestFacts, badCorrelation: boolean) => Promise<ApiResponse> {
  const { now } = services;
  const router = createRouter(routes.map((r) => ({ method: r.method, pattern: r.pattern, data: r })));
  const authenticate = createAuthenticator(options.storage.tokens, now);
  const limits = createRequestLimits({
    token: options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit,
    anonymous: options.anonymousLimit === undefined ? DEFAULT_ANONYMOUS_LIMIT : options.anonymousLimit,
    now,
  });
  const accepted = acceptedParameters(openapi);
  // What each route takes, looked up once rather than per request (HEAD matches the GET route, whose key it has).
  const takesOf = new Map(routes.map((r) => [r, accepted.get(operationKey(r.method, r.pattern))]));
  return async (req, client, facts, badCorrelation) => {
    const m = router.match(req.method, req.path);
    if (m.kind === "found") facts.route = m.pattern;
    const isPublic = m.kind === "found" && m.data.scope === null;
    const token = isPublic ? null : await authenticate(req);
    if (token) {
      facts.tenant = token.tenant;
      facts.keyId = token.key_id;
    }
    facts.headers = limits(client, token, isPublic); // behind a trusted proxy, each client its own bucket, not one for all
    if (badCorrelation) {
      throw new ApiError("BAD_REQUEST", "X-Correlation-Id must be 1 to 128 visible ASCII characters", { field: "X-Correlation-Id", issue: "invalid" });
    }
    if (draining()) throw new ApiError("SERVICE_UNAVAILABLE", "The server is shutting down", {}, { "retry-after": "1" });
    if (m.kind === "not_found") throw notFound("No such endpoint");
    if (m.kind === "method_not_allowed") {
      throw new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed here`, { allow: m.allow }, { allow: m.allow.join(", ") });
    }
    const route = m.data;
    const takes = takesOf.get(route);
    if (route.scope === null) {
      if (takes) checkQuery(req.query, takes);
      return route.handle({ req, params: m.params, requestId: facts.requestId, app: services });
    }
    const granted = requireScope(token, route.scope, req);
    if (takes) checkQuery(req.query, takes); // strict parameters (the conventions in /docs), after who may ask has been settled
    // Errors up to here and in reading the body are not kept for the key (the idempotency conventions in /docs: before execution).
    const key = req.method === "POST" ? parseIdempotencyKey(req.header("idempotency-key")) : null;
    // A large upload that would be refused a place among the large reads is refused before its body is read.
    if (route.body !== undefined && route.body !== "json" && _declaredBytes(req) >= LARGE_XML_BYTES) _admitLarge(services, granted.tenant);
    const body = route.body === undefined ? NO_BODY : await readRequestBody(req, route.body, services.limits);
    if (takes && body.kind === "json") checkBody(body.value, takes);
    const ctx: Context = {
      req, params: m.params, requestId: facts.requestId, app: services,
      tenant: options.storage.tenant(granted.tenant), token: granted, body, idempotency: null,
    };
    if (key === null) return route.handle(ctx);
    return runIdempotent(ctx, key, now, (err) => envelopeResponse(err, facts.requestId), route.handle);
  };
}

// The body's declared size (Content-Length), 0 when it is not declared (chunked): such a body is judged once read.
function _declaredBytes(req: ApiRequest): number {
  const cl = req.header("content-length");
  return cl !== null && /^\d{1,15}$/.test(cl) ? Number(cl) : 0;
}

// The rest of the body stays unread: the answer closes the connection, as for a body refused mid-stream.
function _admitLarge(services: AppServices, tenant: string): void {
  try {
    services.admitLarge(tenant);
  } catch (e) {
    if (e instanceof ApiError) throw new ApiError({ code: e.code, status: e.status }, e.message, e.details, { ...e.headers, connection: "close" });
    throw e;
  }
}

function _webhookWorker(options: AppOptions, now: () => number, logger: Logger, metrics: Metrics, nodeId: string): WebhookWorker | null {
  const wh = options.webhooks;
  if (!wh?.transport) return null;
  return createWebhookWorker({
    storage: options.storage, transport: wh.transport, schedule: wh.schedule ?? DEFAULT_RETRY_SCHEDULE, now, logger, metrics, nodeId,
    ...(wh.random ? { random: wh.random } : {}),
  });
}

/** The body of a route that reads none (most requests: no await for it). */
const NO_BODY: RequestBody = { kind: "none" };

const OPENAPI_ROUTE: ApiRoute = {
  method: "GET", pattern: "/api/v1/openapi.json", scope: null, handle: async () => json(200, "{}"),
  openapi: {
    id: "getOpenApi", tag: "Operations", summary: "This OpenAPI document", description: "Public: no token needed.",
    ok: { 200: jsonResponse("The document", { type: "object", required: ["openapi", "info", "paths"], properties: { openapi: { const: "3.1.0" } } }) },
  },
};
