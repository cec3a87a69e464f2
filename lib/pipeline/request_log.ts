/**
 * The last step of every request: the headers every response carries (the contract
 * §1: `X-Request-Id`, `nosniff`, the correlation id, the rate-limit headers),
 * `Connection: close` while draining, the request metrics and one log line
 * with both ids, the tenant and the key id (never the token).
 * @module
 */
import type { ApiRequest, ApiResponse } from "../http/types.ts";
import type { Logger } from "../observe/log.ts";
import type { Metrics } from "../observe/metrics.ts";

/** What the steps learned about a request, for its headers and its log line. */
export interface RequestFacts {
  requestId: string;
  correlationId: string | null;
  route: string | null;
  tenant: string | null;
  keyId: string | null;
  /** Rate-limit headers to add. */
  headers: Record<string, string> | null;
  started: number;
}

/** Finishes `res`: common headers, metrics, the log line. */
export function finishResponse(req: ApiRequest, res: ApiResponse, facts: RequestFacts, draining: boolean, metrics: Metrics, logger: Logger): ApiResponse {
  const h = res.headers;
  if (facts.headers) Object.assign(h, facts.headers);
  if (draining) h.connection = "close"; // keep-alive sockets end with this response, so shutdown need not wait for them
  h["x-content-type-options"] = "nosniff";
  h["x-request-id"] ??= facts.requestId; // a replayed error keeps the id its body names
  if (facts.correlationId) h["x-correlation-id"] = facts.correlationId;
  const seconds = (performance.now() - facts.started) / 1000;
  metrics.observeRequest(facts.route ?? "unmatched", res.status, seconds);
  if (logger.enabled("info")) {
    logger.info("request", {
      request_id: facts.requestId, correlation_id: facts.correlationId, method: req.method, route: facts.route, status: res.status,
      duration_ms: Math.round(seconds * 1e6) / 1e3, tenant: facts.tenant, key_id: facts.keyId,
    });
  }
  return res;
}
