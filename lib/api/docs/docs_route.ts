/**
 * `GET /docs` (the OpenAPI document): the reference page rendered once at startup and
 * served as bytes, public, with a strong ETag (If-None-Match → 304) and a
 * Content-Security-Policy that allows nothing but the page's own inline style
 * (by hash, CSP Level 3 §2.3.1), so the page can load nothing from anywhere.
 * Compressed with brotli or gzip when the client accepts it (RFC 9110 §12.5.3), each encoding built on first
 * use and kept: the page is about 1 MB, and 28 KB as brotli. The caller adds `nosniff` and the request id.
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { ApiRequest, ApiResponse } from "../../http/types.ts";
import { renderDocsPage } from "./page.ts";
import type { Json } from "./schema_view.ts";
import { DOCS_CSS } from "./style.ts";

/** The rendered page and the headers it is served with. */
export interface DocsPage {
  body: Uint8Array;
  etag: string;
  headers: Record<string, string>;
  /** The compressed bodies built so far, by content coding. */
  encoded: Map<_Coding, Uint8Array>;
}

type _Coding = "br" | "gzip";

/**
 * Brotli quality 5: measured on this page, 28 KB in about 90 ms once, against 24 KB in 2.7 s at the default
 * 11; gzip level 9 gives 70 KB in about 60 ms.
 */
const BROTLI_QUALITY = 5;

const _COMPRESS: Record<_Coding, (b: Uint8Array) => Uint8Array> = {
  br: (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
  gzip: (b) => gzipSync(b, { level: 9 }),
};

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
      vary: "accept-encoding",
      etag,
    },
    encoded: new Map(),
  };
}

/** The answer to a GET or HEAD of the page: 304 when If-None-Match names its ETag; compressed when accepted. */
export function docsResponse(page: DocsPage, req: ApiRequest): ApiResponse {
  const coding = _preferredCoding(req.header("accept-encoding"));
  // Each encoding is its own representation with its own strong ETag (RFC 9110 §8.8.3).
  const etag = coding ? `${page.etag.slice(0, -1)}-${coding}"` : page.etag;
  const headers: Record<string, string> = { ...page.headers, etag, ...(coding ? { "content-encoding": coding } : {}) };
  const inm = req.header("if-none-match");
  if (inm !== null && _matches(inm, etag)) return { status: 304, headers, body: null };
  if (!coding) return { status: 200, headers, body: page.body };
  let body = page.encoded.get(coding);
  if (!body) page.encoded.set(coding, (body = _COMPRESS[coding](page.body)));
  return { status: 200, headers, body };
}

// br before gzip when both are accepted with a q above 0 (or by "*"); null for identity.
function _preferredCoding(header: string | null): _Coding | null {
  if (header === null) return null;
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m);
    q.set(name.trim(), weight ? Number(weight[1]) : 1);
  }
  const accepts = (c: string) => (q.get(c) ?? q.get("*") ?? 0) > 0;
  return accepts("br") ? "br" : accepts("gzip") ? "gzip" : null;
}

// If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/"x" matches "x".
function _matches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim() === etag || t.trim() === `W/${etag}`);
}
