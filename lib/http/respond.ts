/**
 * Small builders for JSON responses. Feed pages are assembled from the stored
 * JSON bytes of each item without parsing or re-serialising them.
 * @module
 */
import { Buffer } from "node:buffer";
import type { ApiResponse } from "./types.ts";

const JSON_TYPE = "application/json; charset=utf-8";

/** A JSON response from a value, a serialised string or bytes. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  const text = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  return { status, headers: { "content-type": JSON_TYPE, ...headers }, body: text };
}

const OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(",");

/** `{"data":[…items…],<tail>}` where tail is already-serialised members, e.g. `"next_cursor":"…","has_more":true`. */
export function listBody(items: Uint8Array[], tail: string): Uint8Array {
  const parts: Uint8Array[] = [OPEN];
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(items[i]!);
  }
  parts.push(Buffer.from(`],${tail}}`));
  return Buffer.concat(parts);
}
