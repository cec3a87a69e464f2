/**
 * `GET /console` and its assets under `/console/` (README "Console"): the page, its stylesheet and its script,
 * built once at startup and served as bytes, public (every piece of data the console shows comes from `/api/v1`
 * with the operator's token). Each answer carries the console's Content-Security-Policy (nothing but this origin's
 * own files; PDFs in frames from blob URLs), `Referrer-Policy: no-referrer` and a strong ETag (If-None-Match →
 * 304), and is compressed when the client accepts it (RFC 9110 §12.5.3) as `/docs` is (docs_route.ts).
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import type { ApiRequest, ApiResponse } from "../../http/types.ts";
import { docsResponse, type DocsPage } from "../docs/docs_route.ts";
import { CONSOLE_HTML } from "./page.ts";
import { CONSOLE_JS } from "./script.ts";
import { CONSOLE_CSS } from "./style.ts";

/**
 * The console's policy: its own origin only, images also from data: and blob: URLs, frames from blob: URLs (the
 * PDF it fetched with the token), no plugins, no <base>, never framed itself. No 'unsafe-inline' or 'unsafe-eval'.
 */
export const CONSOLE_CSP = "default-src 'self'; img-src 'self' data: blob:; frame-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** The console's files by path. */
export type ConsoleAssets = ReadonlyMap<string, DocsPage>;

function _asset(text: string, contentType: string): DocsPage {
  const body = Buffer.from(text, "utf8");
  const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
  return {
    body, etag, encoded: new Map(),
    headers: {
      "content-type": contentType, "content-security-policy": CONSOLE_CSP, "referrer-policy": "no-referrer",
      // Revalidated on every load (an ETag answer is a 304 of a few bytes), so a new version is never stale.
      "cache-control": "no-cache", "cross-origin-resource-policy": "same-origin", vary: "accept-encoding", etag,
    },
  };
}

/** Builds the console's files, once. */
export function createConsoleAssets(): ConsoleAssets {
  const page = _asset(CONSOLE_HTML, "text/html; charset=utf-8");
  return new Map([
    ["/console", page],
    ["/console/", page],
    ["/console/app.js", _asset(CONSOLE_JS, "text/javascript; charset=utf-8")],
    ["/console/app.css", _asset(CONSOLE_CSS, "text/css; charset=utf-8")],
  ]);
}

/** The answer to a GET or HEAD of a console path, or null when the path is none of the console's. */
export function consoleResponse(assets: ConsoleAssets, req: ApiRequest): ApiResponse | null {
  const asset = assets.get(req.path);
  return asset ? docsResponse(asset, req) : null;
}
