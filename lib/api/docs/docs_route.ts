/**
 * `GET /docs` (API.md §10): the reference page rendered once at startup and
 * served as bytes, public, with a strong ETag (If-None-Match → 304) and a
 * Content-Security-Policy that allows nothing but the page's own inline style
 * (by hash, CSP Level 3 §2.3.1), so the page can load nothing from anywhere.
 * The caller adds `nosniff` and the request id, as for every response.
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import type { ApiRequest, ApiResponse } from "../../http/types.ts";
import { renderDocsPage } from "./page.ts";
import type { Json } from "./schema_view.ts";
import { DOCS_CSS } from "./style.ts";

/** The rendered page and the headers it is served with. */
export interface DocsPage {
  body: Uint8Array;
  etag: string;
  headers: Record<string, string>;
}

/** Renders the page for the OpenAPI document `doc`, once. */
export function createDocsPage(doc: Json): DocsPage {
  const body = Buffer.from(renderDocsPage(doc), "utf8");
  const etag = `"${createHash("sha256").update(body).digest("hex")}"`;
  const styleHash = createHash("sha256").update(DOCS_CSS, "utf8").digest("base64");
  const csp = [
    "default-src 'none'", `style-src 'sha256-${styleHash}'`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join("; ");
  return {
    body, etag,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": csp,
      "cache-control": "no-cache",
      "referrer-policy": "no-referrer",
      etag,
    },
  };
}

/** The answer to a GET or HEAD of the page: 304 when If-None-Match names its ETag. */
export function docsResponse(page: DocsPage, req: ApiRequest): ApiResponse {
  const inm = req.header("if-none-match");
  if (inm !== null && _matches(inm, page.etag)) return { status: 304, headers: { ...page.headers }, body: null };
  return { status: 200, headers: { ...page.headers }, body: page.body };
}

// If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/"x" matches "x".
function _matches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim() === etag || t.trim() === `W/${etag}`);
}
