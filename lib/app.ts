/**
 * The application: one function from an ApiRequest to an ApiResponse. It gives
 * every response its request id and `nosniff`, every `/api/v1/*` response its
 * correlation id, routes (404 / 405 with Allow), authenticates, checks the
 * route's scope, runs the handler, and renders any error as the envelope of
 * API.md §2. It does no I/O of its own: storage and sources come in as options.
 * @module
 */
import { isTokenUsable, parseToken, secretMatches, type TokenRecord } from "./auth/tokens.ts";
import { createCursorCodec } from "./api/cursor.ts";
import { documentRoutes } from "./api/documents/routes.ts";
import { PdfFonts, type PdfFontFiles } from "./formats/pdf/pdf_fonts.ts";
import { DEFAULT_JSON_LIMIT } from "./http/body.ts";
import type { ApiRoute, AppServices } from "./api/context.ts";
import { ApiError, errorEnvelope, notFound } from "./http/errors.ts";
import { json } from "./http/respond.ts";
import { createRouter, type Router } from "./http/router.ts";
import type { ApiRequest, ApiResponse } from "./http/types.ts";
import { newId } from "./contracts/ids.ts";
import { Metrics } from "./observe/metrics.ts";
import { PageCache } from "./api/page_cache.ts";
import { InvoiceJsonCache } from "./api/invoice_expand.ts";
import { buildOpenApi } from "./api/openapi/document.ts";
import { createRateLimiter, rateLimitHeaders, type RateLimitConfig } from "./pipeline/rate_limit.ts";
import { silentLogger, type Logger } from "./observe/log.ts";
import type { Storage } from "./contracts/storage.ts";
import { createSyncRunner, type SyncRunner } from "./jobs/sync_runner.ts";
import { readJsonObject, readMultipartBody } from "./http/body.ts";
import type { RequestBody } from "./api/context.ts";
import { fingerprintOf, IDEMPOTENCY_TTL_MS, replayResponse, storedResponse } from "./pipeline/idempotency.ts";
import { parseIdempotencyKey } from "./pipeline/idempotency_key.ts";
import { submissionRoutes } from "./api/submissions/routes.ts";
import { DEFAULT_RETRY_SCHEDULE } from "./jobs/webhooks/retry_schedule.ts";
import { webhookRoutes } from "./api/webhooks/routes.ts";
import { createWebhookWorker, type WebhookTransport, type WebhookWorker } from "./jobs/webhooks/worker.ts";
import { syncRoutes } from "./api/sync/routes.ts";
import type { SourceFactory } from "./contracts/document_source.ts";

/** The default upload limit (API.md §9: 10 MiB). */
export const DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024;
/** API.md §9: 600 requests per minute per token, bursts of 100. */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { requests: 600, windowMs: 60_000, burst: 100 };
/**
 * Requests without a valid token (failed authentications), per client address: a client that probes every endpoint
 * is not refused, but guessing even a key id, let alone a 256-bit secret, runs at 5 attempts a second at most.
 */
export const DEFAULT_ANONYMOUS_LIMIT: RateLimitConfig = { requests: 300, windowMs: 60_000, burst: 100 };
const CORRELATION_RE = /^[\x21-\x7e]{1,128}$/; // API.md §1: visible ASCII, at most 128

/** Everything the app needs, in one options object (no module-level state). */
export interface AppOptions {
  storage: Storage;
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
  /** Webhook delivery; without a transport endpoints can be registered but nothing is delivered. */
  /** The TrueType files PDFs are drawn with (storage/fonts/font_files.ts reads the shipped ones); without them `/pdf` answers 500. */
  pdfFonts?: PdfFontFiles;
  webhooks?: { transport?: WebhookTransport; schedule?: readonly number[]; allowPrivate?: boolean; random?: () => number };
}

/** A running application. */
export interface App {
  handle(req: ApiRequest): Promise<ApiResponse>;
  routes: readonly ApiRoute[];
  sync: SyncRunner;
  /** The webhook delivery worker (start it with `webhooks.start(ms)`), or null without a transport. */
  webhooks: WebhookWorker | null;
  services: AppServices;
  metrics: Metrics;
  /** Readiness goes to 503 and new API requests are refused with 503 (shutdown). */
  drain(): void;
  /** Stops background work at a safe point. */
  close(): Promise<void>;
}

const JSON_TYPE = "application/json; charset=utf-8";

// IPv6 clients are limited per /64: one host usually owns the whole prefix.
function _clientKey(address: string): string {
  if (!address.includes(":") || address.startsWith("::ffff:")) return address.replace(/^::ffff:/, "");
  return address.split(":").slice(0, 4).join(":");
}

/** Builds the app from its options. */
export async function createApp(options: AppOptions): Promise<App> {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const metrics = options.metrics ?? new Metrics();
  const nodeId = options.nodeId ?? crypto.randomUUID();
  const sync = createSyncRunner({
    storage: options.storage, sources: options.sources ?? (() => []), now, logger, metrics, nodeId,
    ...(options.executeSyncs === false ? { execute: false } : {}),
  });
  const services: AppServices = {
    storage: options.storage,
    cursors: createCursorCodec(await options.storage.secret("cursor")),
    sync, logger, now,
    limits: { jsonBytes: options.jsonLimit ?? DEFAULT_JSON_LIMIT, uploadBytes: options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT },
    webhookAllowPrivate: options.webhooks?.allowPrivate ?? false,
    pages: new PageCache(),
    invoices: new InvoiceJsonCache(),
    pdfFonts: options.pdfFonts === undefined ? null : new PdfFonts(options.pdfFonts),
  };
  const wh = options.webhooks;
  const webhooks = wh?.transport
    ? createWebhookWorker({
      storage: options.storage, transport: wh.transport, schedule: wh.schedule ?? DEFAULT_RETRY_SCHEDULE, now, logger, metrics, nodeId,
      ...(wh.random ? { random: wh.random } : {}),
    })
    : null;
  if (webhooks) metrics.gauge("webhook_outbox_depth", "Events not yet delivered to enabled endpoints.", () => webhooks.depth());
  const routes: ApiRoute[] = [...documentRoutes, ...syncRoutes, ...submissionRoutes, ...webhookRoutes];
  const openapi = JSON.stringify(buildOpenApi([...routes, OPENAPI_ROUTE]));
  routes.push({ ...OPENAPI_ROUTE, handle: async () => json(200, openapi) });
  const router: Router<ApiRoute> = createRouter(routes.map((r) => ({ method: r.method, pattern: r.pattern, data: r })));
  const tokenPolicy = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  const anonPolicy = options.anonymousLimit === undefined ? DEFAULT_ANONYMOUS_LIMIT : options.anonymousLimit;
  const tokenLimiter = tokenPolicy ? createRateLimiter<string>(tokenPolicy, { now }) : null;
  const anonLimiter = anonPolicy ? createRateLimiter<string>(anonPolicy, { now }) : null;
  let draining = false;

  // Presented tokens already found to match their stored hash: a repeat skips hashing (revocation and expiry
  // are still checked on the stored record every time).
  const verified = new Map<string, string>();
  async function authenticate(req: ApiRequest): Promise<TokenRecord | null> {
    const value = req.header("x-api-token");
    const presented = parseToken(value);
    const token = presented ? await options.storage.tokens.find(presented.keyId) : null;
    if (!presented || !token || !isTokenUsable(token, now())) return null;
    if (verified.get(value!) !== token.secret_sha256) {
      if (!secretMatches(presented.secret, token.secret_sha256)) return null;
      if (verified.size >= 10_000) verified.clear();
      verified.set(value!, token.secret_sha256);
    }
    return token;
  }

  /** The part of a request's handling that depends on who asks; `log` collects what the log line reports. */
  async function handleApi(req: ApiRequest, requestId: string, log: _RequestLog, badCorrelation: boolean): Promise<ApiResponse> {
    const m = router.match(req.method, req.path);
    if (m.kind === "found") log.route = m.pattern;
    const token = m.kind === "found" && m.data.scope === null ? null : await authenticate(req);
    if (token) {
      log.tenant = token.tenant;
      log.keyId = token.key_id;
    }
    // Valid tokens spend their own bucket; public routes a per-address bucket of the same size; everything
    // else (failed authentication included) the stricter per-address one.
    const isPublic = m.kind === "found" && m.data.scope === null;
    const limiter = token || isPublic ? tokenLimiter : anonLimiter;
    const policy = token || isPublic ? tokenPolicy : anonPolicy;
    if (limiter && policy) {
      const client = _clientKey(req.remoteAddress);
      const r = limiter.take(token ? token.key_id : isPublic ? `public:${client}` : client);
      log.headers = rateLimitHeaders(policy, r, token ? "token" : "address");
      if (!r.allowed) throw new ApiError("RATE_LIMITED", `Too many requests: retry in ${r.retryAfterSeconds} s`, { retry_after_seconds: r.retryAfterSeconds });
    }
    if (badCorrelation) {
      throw new ApiError("BAD_REQUEST", "X-Correlation-Id must be 1 to 128 visible ASCII characters", { field: "X-Correlation-Id", issue: "invalid" });
    }
    if (draining) throw new ApiError("SERVICE_UNAVAILABLE", "The server is shutting down", {}, { "retry-after": "1" });
    if (m.kind === "not_found") throw notFound("No such endpoint");
    if (m.kind === "method_not_allowed") {
      throw new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed here`, { allow: m.allow }, { allow: m.allow.join(", ") });
    }
    const route = m.data;
    if (route.scope === null) return route.handle({ req, params: m.params, requestId, app: services });
    // One answer for missing, unknown, revoked and expired (API.md §2).
    if (!token) throw new ApiError("UNAUTHENTICATED", "Missing or invalid API token");
    if (!token.scopes.includes(route.scope)) {
      throw new ApiError("FORBIDDEN", `This token lacks the ${route.scope} scope`, { required_scope: route.scope });
    }
    const tenant = options.storage.tenant(token.tenant);
    // Errors up to here and in reading the body are not kept for the key (API.md §7: before execution).
    const key = req.method === "POST" ? parseIdempotencyKey(req.header("idempotency-key")) : null;
    const body: RequestBody = route.body === "json"
      ? { kind: "json", ...(await readJsonObject(req, services.limits.jsonBytes)) }
      : route.body === "multipart" ? { kind: "multipart", parts: await readMultipartBody(req, services.limits.uploadBytes) } : { kind: "none" };
    const ctx = { req, params: m.params, requestId, app: services, tenant, token, body, idempotency: null as { key: string; fingerprint: string } | null };
    if (key === null) return route.handle(ctx);

    const fingerprint = fingerprintOf(req.method, req.path, body);
    const replay = async (): Promise<ApiResponse | null> => {
      const kept = await tenant.getIdempotency(key, now(), IDEMPOTENCY_TTL_MS);
      if (kept && kept.fingerprint !== fingerprint) throw new ApiError("IDEMPOTENCY_KEY_MISMATCH", "This Idempotency-Key was used with a different request", {});
      return kept ? replayResponse(kept) : null;
    };
    const early = await replay();
    if (early) return early;
    if (!(await tenant.beginIdempotent(key))) {
      throw new ApiError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is still being processed", {}, { "retry-after": "1" });
    }
    ctx.idempotency = { key, fingerprint };
    try {
      // Another request with the key may have finished between the first look and the claim.
      const late = await replay();
      if (late) return late;
      let res: ApiResponse;
      try {
        res = await route.handle(ctx);
      } catch (err) {
        const e = errorEnvelope(err, requestId);
        if (e.status >= 500) throw err;
        res = { status: e.status, headers: { "content-type": JSON_TYPE, ...e.headers }, body: e.body };
      }
      const stored = storedResponse(res);
      // Effects commit their key themselves; responses without one (errors, coalesced runs) are kept here.
      if (stored && !(await tenant.getIdempotency(key, now(), IDEMPOTENCY_TTL_MS))) {
        await tenant.putIdempotency({ key, fingerprint, response: stored, created_at: new Date(now()).toISOString() });
      }
      return res;
    } finally {
      await tenant.endIdempotent(key);
    }
  }

  async function handleOps(req: ApiRequest, log: _RequestLog): Promise<ApiResponse> {
    const op = OPS[req.path];
    if (!op) throw notFound("No such endpoint");
    log.route = req.path;
    if (req.method !== "GET" && req.method !== "HEAD") {
      throw new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed here`, { allow: ["GET", "HEAD"] }, { allow: "GET, HEAD" });
    }
    if (op === "health") return json(200, { status: "ok" });
    if (op === "metrics") return { status: 200, headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" }, body: await metrics.render() };
    if (draining) throw new ApiError("SERVICE_UNAVAILABLE", "The server is shutting down", {}, { "retry-after": "1" });
    try {
      await options.storage.check();
    } catch {
      throw new ApiError("SERVICE_UNAVAILABLE", "Storage is not writable", {}, { "retry-after": "5" });
    }
    return json(200, { status: "ready" });
  }

  async function handle(req: ApiRequest): Promise<ApiResponse> {
    const started = performance.now();
    const requestId = newId("req", now());
    const isApi = req.path.startsWith("/api/v1/") || req.path === "/api/v1";
    const log: _RequestLog = { route: null, tenant: null, keyId: null, headers: null };
    let res: ApiResponse;
    let correlation: string | null = null;
    try {
      if (isApi) {
        correlation = req.header("x-correlation-id");
        const bad = correlation !== null && correlation !== "" && !CORRELATION_RE.test(correlation);
        if (bad || !correlation) correlation = crypto.randomUUID(); // a bad value is never reflected
        res = await handleApi(req, requestId, log, bad);
      } else {
        res = await handleOps(req, log);
      }
    } catch (caught) {
      let err = caught;
      // Storage that cannot be written (disk full, read-only, I/O error) is unavailable, not a bug.
      const code = (err as { code?: unknown } | null)?.code;
      if (!(err instanceof ApiError) && req.aborted?.() === true) {
        // The client went away mid-body: nobody reads this answer, and it is no server error.
        logger.info("request aborted by the client", { request_id: requestId, route: log.route });
        err = new ApiError("BAD_REQUEST", "The request body was not received completely", { field: "body", issue: "aborted" });
      } else if (typeof code === "string" && STORAGE_UNAVAILABLE.has(code)) {
        logger.error("storage unavailable", { request_id: requestId, correlation_id: correlation, route: log.route, code });
        err = new ApiError("SERVICE_UNAVAILABLE", "Storage is unavailable", {}, { "retry-after": "5" });
      }
      if (!(err instanceof ApiError)) {
        logger.error("unhandled error", { request_id: requestId, correlation_id: correlation, route: log.route, error: err instanceof Error ? err.stack : String(err) });
      }
      const e = errorEnvelope(err, requestId);
      res = { status: e.status, headers: { "content-type": JSON_TYPE, ...e.headers }, body: e.body };
    }
    const h = res.headers;
    if (log.headers) Object.assign(h, log.headers);
    if (draining) h.connection = "close"; // keep-alive sockets end with this response, so shutdown need not wait for them
    h["x-content-type-options"] = "nosniff";
    h["x-request-id"] ??= requestId; // a replayed error keeps the id its body names
    if (correlation) h["x-correlation-id"] = correlation;
    const seconds = (performance.now() - started) / 1000;
    metrics.observeRequest(log.route ?? "unmatched", res.status, seconds);
    if (logger.enabled("info")) {
      logger.info("request", {
        request_id: requestId, correlation_id: correlation, method: req.method, route: log.route, status: res.status,
        duration_ms: Math.round(seconds * 1e6) / 1e3, tenant: log.tenant, key_id: log.keyId,
      });
    }
    return res;
  }

  return {
    handle, routes, sync, webhooks, services, metrics,
    drain() {
      draining = true;
    },
    async close() {
      await sync.stop();
      await webhooks?.stop();
    },
  };
}

interface _RequestLog {
  route: string | null;
  tenant: string | null;
  keyId: string | null;
  headers: Record<string, string> | null;
}

const STORAGE_UNAVAILABLE = new Set(["ENOSPC", "EROFS", "EIO", "EDQUOT", "EMFILE", "ENFILE"]);

const OPENAPI_ROUTE: ApiRoute = { method: "GET", pattern: "/api/v1/openapi.json", scope: null, handle: async () => json(200, "{}") };

const OPS: Record<string, "health" | "ready" | "metrics"> = { "/healthz": "health", "/readyz": "ready", "/metrics": "metrics" };
