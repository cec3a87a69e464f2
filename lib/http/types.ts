/**
 * The core's own small request/response model. Adapters map node:http and the
 * fetch API straight onto it; converting through web Request/Response on Node
 * costs a third of the throughput (see STYLE.md), so the core never does.
 * @module
 */

/** An incoming request as the core sees it. */
export interface ApiRequest {
  /** Upper-case method. */
  method: string;
  /** The path as received, without the query string. */
  path: string;
  query: URLSearchParams;
  /** A header's value by lower-case name, or null. Repeated headers are joined with ", ". */
  header(name: string): string | null;
  /** The body as it arrives; read it at most once. */
  body: AsyncIterable<Uint8Array>;
  /** The client's address, for per-address limits and logs. */
  remoteAddress: string;
  /**
   * True when the client closed the connection (if the adapter can tell): before the request body was complete,
   * or later, while its answer is being made (then costly work for it is dropped).
   */
  aborted?: () => boolean;
}

/** A body that is streamed from storage in chunks rather than held in memory. */
export interface StreamBody {
  size: number;
  /** Bytes [start, end) in chunks. */
  stream(start: number, end: number): AsyncIterable<Uint8Array>;
}

/** The body of a response. */
export type ResponseBody = string | Uint8Array | StreamBody | null;

/** A response as the core produces it. Header names are lower-case. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: ResponseBody;
}

/** True when the body is streamed. */
export function isStreamBody(body: ResponseBody): body is StreamBody {
  return body !== null && typeof body === "object" && !(body instanceof Uint8Array);
}
