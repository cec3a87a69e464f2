/**
 * The routes outside `/api/v1/` (the OpenAPI document): `/healthz` (the process answers),
 * `/readyz` (storage usable; 503 while draining; `warnings` the operator should act on, such as a KSeF Offline
 * or sign-in certificate ending soon, or a KSeF source still on a token, which KSeF takes until 31 December 2026), `/metrics` (Prometheus text),
 * `/docs` (the reference page) and `/console` with its files (README "Console"). They need no API token and carry no correlation id;
 * operator detail (`/metrics`, the text of the warnings) goes only where ops_access.ts says (README "Security model"),
 * everyone else gets `/readyz` with its status and `warning_count`, and `/metrics` 403.
 * @module
 */
import { docsResponse, type DocsPage } from "../api/docs/docs_route.ts";
import { consoleResponse, type ConsoleAssets } from "../api/console/console_route.ts";
import type { Storage } from "../contracts/storage.ts";
import { ApiError, badRequest, notFound } from "../http/errors.ts";
import { json } from "../http/respond.ts";
import type { ApiRequest, ApiResponse } from "../http/types.ts";
import type { Metrics } from "../observe/metrics.ts";
import type { OpsAccess } from "./ops_access.ts";

/** What the operations routes look at. */
export interface OpsRoutesOptions {
  storage: Storage;
  metrics: Metrics;
  draining: () => boolean;
  /** The reference page, rendered once at startup. */
  docs: DocsPage;
  /** The console's page and files (README "Console"), built once at startup. */
  console?: ConsoleAssets;
  /** What the operator should know that does not stop the service (README "Offline invoices"). */
  warnings?: () => string[];
  /** Who sees operator detail. */
  access: OpsAccess;
}

/** Answers an operations request from `client` (its address after TRUST_PROXY); `route` is the path when it names one. */
export type OpsHandler = (req: ApiRequest, client: string) => { route: string | null; response: Promise<ApiResponse> };

type _Op = "health" | "ready" | "metrics" | "docs" | "console";
const OPS: Record<string, _Op> = { "/healthz": "health", "/readyz": "ready", "/metrics": "metrics", "/docs": "docs" };

/** The operations routes. */
export function createOpsRoutes(options: OpsRoutesOptions): OpsHandler {
  async function answer(req: ApiRequest, op: _Op, client: string): Promise<ApiResponse> {
    if (req.method !== "GET" && req.method !== "HEAD") {
      throw new ApiError("METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed here`, { allow: ["GET", "HEAD"] }, { allow: "GET, HEAD" });
    }
    if (op === "health") return json(200, { status: "ok" });
    if (op === "console") {
      for (const name of req.query.keys()) throw badRequest(name, "unknown parameter", `Unknown query parameter: ${name.slice(0, 64)}`);
      return consoleResponse(options.console!, req)!;
    }
    if (op === "docs") {
      // The page takes no parameters: one there is refused as under /api/v1/ (it would otherwise be ignored).
      for (const name of req.query.keys()) throw badRequest(name, "unknown parameter", `Unknown query parameter: ${name.slice(0, 64)}`);
      return docsResponse(options.docs, req);
    }
    if (op === "metrics") {
      if (!options.access(req, client)) throw new ApiError("FORBIDDEN", "Metrics are shown only to addresses in OPS_ALLOW or with Authorization: Bearer and the OPS_TOKEN");
      return { status: 200, headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" }, body: await options.metrics.render() };
    }
    if (options.draining()) throw new ApiError("SERVICE_UNAVAILABLE", "The server is shutting down", {}, { "retry-after": "1" });
    try {
      await options.storage.check();
    } catch {
      throw new ApiError("SERVICE_UNAVAILABLE", "Storage is not writable", {}, { "retry-after": "5" });
    }
    const warnings = options.warnings?.() ?? [];
    // The count for everyone, so that a monitor can alert on it; the text, which names tenants and files, for operators.
    if (warnings.length === 0 || !options.access(req, client)) return json(200, { status: "ready", warning_count: warnings.length });
    return json(200, { status: "ready", warning_count: warnings.length, warnings });
  }
  return (req, client) => {
    const op = OPS[req.path] ?? (options.console?.has(req.path) ? "console" : undefined);
    if (!op) return { route: null, response: Promise.reject(notFound("No such endpoint")) };
    return { route: req.path, response: answer(req, op, client) };
  };
}
