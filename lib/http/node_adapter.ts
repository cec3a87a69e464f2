/**
 * Serves the app through node:http without going through web Request/Response
 * (a third of the throughput on Node). Structural types stand in for
 * IncomingMessage and ServerResponse, so lib/ imports nothing from node:http.
 * @module
 */
import { Buffer } from "node:buffer";
import { isStreamBody, type ApiRequest, type ApiResponse } from "./types.ts";

/** The parts of node:http's IncomingMessage that the adapter uses. */
export interface NodeRequestLike extends AsyncIterable<Uint8Array> {
  method?: string | undefined;
  url?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined; readonly destroyed?: boolean };
  readonly complete?: boolean;
  readonly destroyed?: boolean;
  /** Node's Readable#iterator: an iterator that leaves the stream open when the reader stops early. */
  iterator?(options: { destroyOnReturn: boolean }): AsyncIterator<Uint8Array>;
  resume?(): unknown;
  on?(event: "data" | "end" | "close", listener: (chunk?: Uint8Array) => void): unknown;
}

/** The parts of node:http's ServerResponse that the adapter uses. */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: Uint8Array): boolean;
  end(chunk?: Uint8Array | string): unknown;
  once(event: "drain" | "close", listener: () => void): unknown;
  off(event: "drain" | "close", listener: () => void): unknown;
  destroy(error?: Error): unknown;
  readonly destroyed: boolean;
}

const SLASH = 0x2f;

/** The core's request for a node:http request. */
export function fromNodeRequest(req: NodeRequestLike): ApiRequest {
  return new _NodeRequest(req);
}

// A class rather than an object literal of closures: its methods are made once, not per request.
class _NodeRequest implements ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  remoteAddress: string;
  #req: NodeRequestLike;

  constructor(req: NodeRequestLike) {
    let url = req.url ?? "/";
    // RFC 9112 §3.2.2: a server must accept the absolute form (`GET http://host/path`); the path is what routes.
    // The origin form (a leading "/") is nearly every request, and is told apart without a regular expression.
    if (url.charCodeAt(0) !== SLASH && /^https?:\/\//i.test(url)) {
      const at = url.indexOf("/", url.indexOf("//") + 2);
      url = at < 0 ? "/" : url.slice(at);
    }
    const q = url.indexOf("?");
    this.method = (req.method ?? "GET").toUpperCase();
    this.path = q < 0 ? url : url.slice(0, q);
    this.query = new URLSearchParams(q < 0 ? "" : url.slice(q + 1));
    this.remoteAddress = req.socket.remoteAddress ?? "";
    this.#req = req;
  }

  // Made when a route reads it (most requests have none): not an object and a closure per request.
  get body(): AsyncIterable<Uint8Array> {
    const req = this.#req;
    // A reader that stops early (a body over its limit) must not destroy the request: that would close the socket
    // under a client still sending, which then sees a broken pipe instead of the 413 (toNodeListener drains it).
    return typeof req.iterator === "function" ? { [Symbol.asyncIterator]: () => req.iterator!({ destroyOnReturn: false }) } : req;
  }

  header(name: string): string | null {
    const v = this.#req.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  }

  // Gone mid-body, or gone before the body (complete but unread) was consumed.
  aborted(): boolean {
    const req = this.#req;
    return (req.destroyed === true && req.complete !== true) || req.socket.destroyed === true;
  }
}

/** Writes a core response to node:http, streaming large bodies with backpressure. */
export async function writeNodeResponse(method: string, res: ApiResponse, out: NodeResponseLike): Promise<void> {
  const body = res.body;
  const headers = res.headers;
  if (body === null) {
    out.writeHead(res.status, headers);
    out.end();
    return;
  }
  if (!isStreamBody(body)) {
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    headers["content-length"] ??= String(bytes.length);
    out.writeHead(res.status, headers);
    if (method === "HEAD") out.end();
    else out.end(bytes);
    return;
  }
  headers["content-length"] ??= String(body.size);
  out.writeHead(res.status, headers);
  if (method === "HEAD") return void out.end();
  try {
    // Leaving the loop early (client gone) closes the stream and its file.
    for await (const chunk of body.stream(0, body.size)) {
      if (out.destroyed) return;
      if (!out.write(chunk)) await new Promise<void>((resolve) => {
        // Whichever comes first; the other listener goes too, or a long download piles them up.
        const done = (): void => {
          out.off("drain", done);
          out.off("close", done);
          resolve();
        };
        out.once("drain", done);
        out.once("close", done);
      });
    }
    out.end();
  } catch {
    out.destroy(); // a read error mid-body: the client sees a truncated response, not a wrong one
  }
}

/** A node:http request listener for `handle`. */
export function toNodeListener(handle: (req: ApiRequest) => Promise<ApiResponse>): (req: NodeRequestLike, out: NodeResponseLike) => void {
  return (req: NodeRequestLike, out: NodeResponseLike): void => {
    const request = fromNodeRequest(req);
    handle(request)
      .then((res) => (req.complete === false && request.aborted?.() !== true ? _answerBeforeBody(request.method, req, res, out) : writeNodeResponse(request.method, res, out)))
      .catch(() => out.destroy());
  };
}

/** What a client may still send after an early answer before the connection is closed under it. */
export const LINGER_LIMITS = { bytes: 64 * 1024 * 1024, ms: 10_000 };

/**
 * An answer given before the request's body was read to its end (a 413 found while streaming, a 401 before an
 * upload). Closing at once would reset the connection while the client is still sending, and most clients then
 * report a broken pipe instead of the answer. So the answer is written whole with `Connection: close`, the rest of
 * the body is read and dropped, and only then is the response ended, within LINGER_LIMITS (RFC 9112 §9.6).
 */
async function _answerBeforeBody(method: string, req: NodeRequestLike, res: ApiResponse, out: NodeResponseLike): Promise<void> {
  if (isStreamBody(res.body) || typeof req.on !== "function" || typeof req.resume !== "function") return writeNodeResponse(method, res, out);
  const bytes = res.body === null ? new Uint8Array(0) : typeof res.body === "string" ? Buffer.from(res.body) : res.body;
  out.writeHead(res.status, { ...res.headers, "content-length": String(bytes.length), connection: "close" });
  out.write(bytes);
  await new Promise<void>((resolve) => {
    let dropped = 0;
    const timer = setTimeout(resolve, LINGER_LIMITS.ms);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    req.on!("data", (chunk) => {
      dropped += chunk?.length ?? 0;
      if (dropped > LINGER_LIMITS.bytes) done();
    });
    req.on!("end", done);
    req.on!("close", done);
    req.resume!();
  });
  out.end();
}
