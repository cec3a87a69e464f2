/**
 * What a route says of itself in the OpenAPI document: each route module keeps
 * its operation beside its route (the `openapi` field of ApiRoute), and
 * document.ts builds `paths` from the routes. The helpers here build the
 * success responses those operations name. This module imports no route
 * module and nothing that does (schemas.ts does), so route modules can import
 * it at load without a cycle.
 * @module
 */
import type { ErrorCode } from "../errors.ts";

export type Json = Record<string, unknown>;

/** What the route's method, pattern, scope and body kind do not say about its operation. */
export interface ApiOperation {
  id: string;
  tag: string;
  summary: string;
  description?: string;
  /** Names in components.parameters, path parameters first. */
  params?: string[];
  /**
   * For a route that reads a `json` body: its schema in components.schemas, and whether the body may be empty; for a
   * `multipart` or `invoice` route, its form's schema.
   */
  requestBody?: { schema: string; required: boolean };
  /** For an `invoice` or `any` route: the schema of its JSON body. */
  jsonBody?: string;
  /** Success (and download) responses. */
  ok: Record<string, Json>;
  /** Error codes this operation gives beyond those every operation of its kind gives. */
  errors?: ErrorCode[];
}

export const JSON_MEDIA = "application/json";
/** The list filters of the documents feed, names in components.parameters. */
export const DOCUMENT_FILTERS = ["Type", "Format", "IssueDateFrom", "IssueDateTo", "SellerTaxId", "BuyerTaxId", "XmlAvailable", "KsefNumber"];
/** The conditional and range parameters of every raw-file download. */
export const DOWNLOAD_PARAMS = ["IfNoneMatch", "Range", "IfRange"];

/** A `$ref` to a component of `kind` (as schemas.ts's `ref`, which this module cannot import without a cycle). */
function _ref(name: string, kind: "schemas" | "headers" | "responses" = "schemas"): Json {
  return { $ref: `#/components/${kind}/${name}` };
}

/** The headers of every `/api/v1/*` response. */
export function apiHeaders(): Record<string, Json> {
  return {
    "X-Request-Id": _ref("XRequestId", "headers"),
    "X-Correlation-Id": _ref("XCorrelationId", "headers"),
    "X-Content-Type-Options": _ref("XContentTypeOptions", "headers"),
    "RateLimit-Policy": _ref("RateLimitPolicy", "headers"),
    RateLimit: _ref("RateLimit", "headers"),
  };
}

/** A JSON response with the API's headers, `Cache-Control: no-store` (every JSON answer under `/api/v1/`) and `extra`. */
export function jsonResponse(description: string, schema: Json, extra: Record<string, Json> = {}): Json {
  const headers = { ...apiHeaders(), "Cache-Control": _ref("CacheControlNoStore", "headers"), ...extra };
  return { description, headers, content: { [JSON_MEDIA]: { schema } } };
}

/** A JSON response of the schema named `schema`. */
export function okJson(description: string, schema: string): Json {
  return jsonResponse(description, _ref(schema));
}

/** A created (or queued) resource with its Location. */
export function created(description: string, schema: string): Json {
  return jsonResponse(description, _ref(schema), { Location: _ref("Location", "headers") });
}

/** 200, 206, 304 and 416 of a download of `kind` (components.responses, built in document.ts). */
export function download(kind: "Xml" | "Pdf" | "Source"): Record<string, Json> {
  return {
    200: _ref(`${kind}File`, "responses"),
    206: _ref(`${kind}Range`, "responses"),
    304: _ref("NotModified", "responses"),
    416: _ref("RangeNotSatisfiable", "responses"),
  };
}
