/**
 * The application: one function from an ApiRequest to an ApiResponse. It gives
 * every response its request id and `nosniff`, every `/api/v1/*` response its
 * correlation id, routes (404 / 405 with Allow), authenticates, checks the
 * route's scope, runs the handler, and renders any error as the envelope of
 * API.md §2. It does no I/O of its own: storage and sources come in as options.
 * @module
 */
import { isTokenUsable, parseToken, secretMatches, type TokenRecord } from "./auth/tokens.ts";
import { createCursorCodec } from "./cursor.ts";
import { documentRoutes } from "./documents/routes.ts";
import { DEFAULT_JSON_LIMIT } from "./http/body.ts";
import type { ApiRoute, AppServices } from "./http/context.ts";
import { ApiError, errorEnvelope, notFound } from "./http/errors.ts";
import { json } from "./http/respond.ts";
import { createRouter, type Router } from "./http/router.ts";
import type { ApiRequest, ApiResponse } from "./http/types.ts";
import { newId } from "./ids.ts";
import { silentLogger, type Logger } from "./log.ts";
import type { Storage } from "./storage.ts";
import { createSyncRunner, type EventSink, type SyncRunner } from "./sync/runner.ts";
import { syncRoutes } from "./sync/routes.ts";
import type { SourceFactory } from "./sync/source.ts";

/** The default upload limit (API.md §9: 10 MiB). */
export const DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024;
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
  onEvent?: EventSink;
}

/** A running application. */
export interface App {
  handle(req: ApiRequest): Promise<ApiResponse>;
  routes: readonly ApiRoute[];
  sync: SyncRunner;
  services: AppServices;
  /** Stops background work at a safe point. */
  close(): Promise<void>;
}

const PUBLIC: Record<string, string> = { "x-content-type-options": "nosniff" };

/** Builds the app from its options. */
export async function createApp(options: AppOptions): Promise<App> {
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  const sync = createSyncRunner({
    storage: options.storage, sources: options.sources ?? (() => []), now, logger,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  const services: AppServices = {
    storage: options.storage,
    cursors: createCursorCodec(await options.storage.secret("cursor")),
    sync, logger, now,
    limits: { jsonBytes: options.jsonLimit ?? DEFAULT_JSON_LIMIT, uploadBytes: options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT },
  };
  const routes: ApiRoute[] = [...documentRoutes, ...syncRoutes];
  const router: Router<ApiRoute> = createRouter(routes.map((r) => ({ method: r.method, pattern: r.pattern, data: r })));

  async function authenticate(req: ApiRequest): Promise<TokenRecord> {
    const presented = parseToken(req.header("x-api-token"));
    const token = presented ? await options.storage.tokens.find(presented.keyId) : null;
    // One answer for missing, unknown, revoked and expired (API.md §2).
    if (!presented || !token || !secretMatches(presented.secret, token.secret_sha256) || !isTokenUsable(token, now())) {
      throw new ApiError("UNAUTHENTICATED", "Missing or invalid API token");
    }
    return token;
  }

  async function handleApi(req: ApiRequest, requestId: string): Promise<ApiResponse> {
    const m = router.match(req.method, req.path);
    if (m.kind === "not_found") throw notFound("No such endpoint");
    if (m.kind === "method_not_allowed") {
      throw new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed here`, { allow: m.allow }, { allow: m.allow.join(", ") });
    }
    const route = m.data;
    if (route.scope === null) return route.handle({ req, params: m.params, requestId, app: services });
    const token = await authenticate(req);
    if (!token.scopes.includes(route.scope)) {
      throw new ApiError("FORBIDDEN", `This token lacks the ${route.scope} scope`, { required_scope: route.scope });
    }
    const tenant = options.storage.tenant(token.tenant);
    return route.handle({ req, params: m.params, requestId, app: services, tenant, token });
  }

  async function handle(req: ApiRequest): Promise<ApiResponse> {
    const requestId = newId("req", now());
    const isApi = req.path.startsWith("/api/v1/") || req.path === "/api/v1";
    let res: ApiResponse;
    let correlation: string | null = null;
    try {
      if (isApi) {
        correlation = req.header("x-correlation-id");
        if (correlation !== null && correlation !== "" && !CORRELATION_RE.test(correlation)) {
          correlation = null; // never reflected
          throw new ApiError("BAD_REQUEST", "X-Correlation-Id must be 1 to 128 visible ASCII characters", {
            field: "X-Correlation-Id", issue: "invalid",
          });
        }
        res = await handleApi(req, requestId);
      } else if (req.path === "/healthz") {
        res = json(200, { status: "ok" });
      } else if (req.path === "/readyz") {
        await options.storage.check();
        res = json(200, { status: "ready" });
      } else {
        throw notFound("No such endpoint");
      }
    } catch (err) {
      if (!(err instanceof ApiError)) logger.error("unhandled error", { request_id: requestId, error: err instanceof Error ? err.stack : String(err) });
      const e = errorEnvelope(err, requestId);
      res = { status: e.status, headers: { "content-type": "application/json; charset=utf-8", ...e.headers }, body: e.body };
    }
    Object.assign(res.headers, PUBLIC);
    res.headers["x-request-id"] = requestId;
    if (isApi) res.headers["x-correlation-id"] = correlation || crypto.randomUUID();
    return res;
  }

  return {
    handle, routes, sync, services,
    async close() {
      await sync.stop();
    },
  };
}
