/**
 * Reading request bodies with a limit: `Content-Length` is checked before a
 * byte is read, and the limit is enforced while streaming anyway, because the
 * header may lie or be absent (chunked). JSON bodies must say so (415).
 * Multipart bodies are read by the pipeline's body step (lib/pipeline/body.ts).
 * @module
 */
import { duplicateJsonKey } from "./json_keys.ts";
import { ApiError, badRequest } from "./errors.ts";
import type { ApiRequest } from "./types.ts";

/** The default JSON body limit (README “Security model”: 64 KiB). */
export const DEFAULT_JSON_LIMIT = 64 * 1024;

/** 413 with the limit in details. */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `Request body is larger than ${limit} bytes`, { limit_bytes: limit });
}

/** Throws 413 when the declared Content-Length is over `limit`. */
export function checkContentLength(req: ApiRequest, limit: number): void {
  const cl = req.header("content-length");
  if (cl !== null && /^\d+$/.test(cl) && Number(cl) > limit) throw payloadTooLarge(limit);
}

/** The whole body, at most `limit` bytes. */
export async function readBody(req: ApiRequest, limit: number): Promise<Uint8Array> {
  checkContentLength(req, limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body) {
    size += chunk.length;
    if (size > limit) throw payloadTooLarge(limit);
    chunks.push(chunk);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** The media type of a Content-Type header, lower-case, without parameters. */
export function mediaType(req: ApiRequest): string | null {
  const ct = req.header("content-type");
  return ct === null ? null : ct.split(";")[0]!.trim().toLowerCase();
}

/** A JSON object body; an empty body is `{}` (for POSTs whose body is optional). Returns the raw bytes too. */
export async function readJsonObject(req: ApiRequest, limit = DEFAULT_JSON_LIMIT): Promise<{ value: Record<string, unknown>; raw: Uint8Array }> {
  const type = mediaType(req);
  const declared = req.header("content-length");
  if (type !== "application/json" && !(type === null && (declared === null || declared === "0"))) {
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json", { expected: "application/json" });
  }
  const raw = await readBody(req, limit);
  if (raw.length === 0) return { value: {}, raw };
  let value: unknown;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
    value = JSON.parse(text);
  } catch {
    throw badRequest("body", "malformed_json", "Request body is not valid JSON");
  }
  const dup = duplicateJsonKey(text);
  if (dup !== null) throw badRequest(dup.slice(0, 64), "duplicate key", `The request body gives the key ${JSON.stringify(dup.slice(0, 64))} twice in one object`);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("body", "not_an_object", "Request body must be a JSON object");
  }
  return { value: value as Record<string, unknown>, raw };
}
