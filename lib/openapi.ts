/**
 * The OpenAPI 3.1 document of the API (API.md §10), built from the app's own
 * route table so that a route cannot exist without a path in the document.
 * @module
 */
import type { ApiRoute } from "./http/context.ts";

/** The OpenAPI document for `routes`. */
export function buildOpenApi(routes: readonly ApiRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.pattern.replace(/:([a-z_]+)/g, "{$1}");
    (paths[path] ??= {})[r.method.toLowerCase()] = { responses: { default: { description: "See API.md" } } };
  }
  return { openapi: "3.1.0", info: { title: "Integrator API", version: "1.0.0" }, paths };
}
