/**
 * Raw-file downloads (README “Documents and the inbox”): Content-Length, a strong ETag from the
 * content hash with If-None-Match → 304, Content-Disposition with an ASCII
 * fallback and RFC 6266 `filename*`, single byte ranges → 206 / 416 (RFC 9110
 * §14), If-Range. Several ranges are answered with the whole file, which RFC
 * 9110 §14.2 allows. HEAD is handled by the adapter dropping the body.
 * @module
 */
import type { ApiRequest, ApiResponse, ResponseBody, StreamBody } from "./types.ts";

/** What to send. */
export interface Download {
  size: number;
  /** Content hash (hex) that identifies these exact bytes. */
  hash: string;
  contentType: string;
  /** Base name without extension, e.g. the invoice number; made filename-safe here. */
  filename: string;
  extension: string;
  /** The whole body in memory, or a stream for large ones. */
  body: Uint8Array | StreamBody;
}

/**
 * Characters that are dropped from a file name: C0 and C1 controls, bidi controls (an RLO turns "gpj.exe" into
 * "exe.jpg" on screen) and line/paragraph separators.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A Content-Disposition (RFC 6266) whose `filename` is made of `[A-Za-z0-9._-]` only, with the full name in
 * RFC 8187 `filename*` when that differs.
 */
export function contentDisposition(name: string, extension: string): string {
  const clean = name.replace(INVISIBLE, "").replace(/[/\\:*?"<>|]+/g, "_").trim() || "download";
  const ascii = clean.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9.-]+/g, "_");
  const full = `${clean}.${extension}`;
  const head = `attachment; filename="${/[A-Za-z0-9]/.test(ascii) ? ascii : "download"}.${extension}"`;
  if (ascii === clean) return head;
  const encoded = encodeURIComponent(full).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${head}; filename*=UTF-8''${encoded}`;
}

function _etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => {
    const v = t.trim();
    return v === etag || v === `W/${etag}`; // If-None-Match uses weak comparison (RFC 9110 §13.1.2)
  });
}

/** Parses a single `bytes=` range against `size`: [start, end) or "unsatisfiable", or null to send everything. */
export function parseRange(header: string | null, size: number): [number, number] | "unsatisfiable" | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null; // several ranges, other units or garbage: ignore Range (RFC 9110 §14.2)
  const [, a, b] = m;
  if (a === "" && b === "") return null;
  if (a === "") {
    const n = Number(b);
    if (n === 0) return "unsatisfiable";
    return [Math.max(0, size - n), size];
  }
  const start = Number(a);
  const end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size) return "unsatisfiable";
  if (end < start) return null;
  return [start, end + 1];
}

/** The response for a download request. */
export function downloadResponse(req: ApiRequest, d: Download): ApiResponse {
  const etag = `"${d.hash}"`;
  const headers: Record<string, string> = {
    "content-type": d.contentType,
    etag,
    "cache-control": "private, no-cache",
    "accept-ranges": "bytes",
    "content-disposition": contentDisposition(d.filename, d.extension),
  };
  const inm = req.header("if-none-match");
  if (inm !== null && _etagMatches(inm, etag)) return { status: 304, headers, body: null };
  const ifRange = req.header("if-range");
  const range = ifRange === null || ifRange.trim() === etag ? parseRange(req.header("range"), d.size) : null;
  if (range === "unsatisfiable") {
    headers["content-range"] = `bytes */${d.size}`;
    headers["content-length"] = "0";
    return { status: 416, headers, body: null };
  }
  const [start, end] = range ?? [0, d.size];
  headers["content-length"] = String(end - start);
  if (range) headers["content-range"] = `bytes ${start}-${end - 1}/${d.size}`;
  let body: ResponseBody;
  if (d.body instanceof Uint8Array) body = range ? d.body.subarray(start, end) : d.body;
  else {
    const src = d.body;
    body = { size: end - start, stream: () => src.stream(start, end) };
  }
  return { status: range ? 206 : 200, headers, body };
}
