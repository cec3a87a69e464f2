/**
 * What node:http needs beyond the request listener to keep the contract at the
 * edges (the conventions in /docs, README “Security model”): requests its own parser refuses answered with the
 * error envelope and the ids, and a cap on open connections answered with a
 * clear 503. Structural types stand in for node:http and node:net, so lib/
 * imports neither. The timeouts are storage/process's.
 * @module
 */
import { Buffer } from "node:buffer";
import { ApiError, errorEnvelope } from "./errors.ts";

/**
 * Open connections per process by default: well under the usual 1024-descriptor soft limit once files and the
 * database are counted; raised with MAX_CONNECTIONS where that limit is raised too.
 */
export const DEFAULT_MAX_CONNECTIONS = 1_000;

/** The parts of a net.Socket used here. */
export interface SocketLike {
  readonly writable: boolean;
  write(data: string, cb?: (err?: Error | null) => void): unknown;
  end(data?: string): unknown;
  destroy(): unknown;
  once(event: "close", listener: () => void): unknown;
  on(event: "error", listener: (err: Error) => void): unknown;
}

/** The parts of an http.Server used here. */
export interface NodeServerLike {
  on(event: "clientError", listener: (err: Error & { code?: string }, socket: SocketLike) => void): unknown;
  on(event: "connection", listener: (socket: SocketLike) => void): unknown;
}

const REASONS: Record<number, string> = { 400: "Bad Request", 431: "Request Header Fields Too Large", 503: "Service Unavailable" };

/** A whole HTTP/1.1 response with the error envelope, its request id, `nosniff` and `no-store`, closing the connection. */
export function rawErrorResponse(err: ApiError, requestId: string): string {
  const e = errorEnvelope(err, requestId);
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(e.body)),
    "x-request-id": requestId, "x-content-type-options": "nosniff", "cache-control": "no-store", connection: "close", ...e.headers,
  };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  return `HTTP/1.1 ${e.status} ${REASONS[e.status] ?? "Error"}\r\n${head}\r\n${e.body}`;
}

/** The answer to a request that node:http's parser refused, or null to close without one. */
function _clientErrorAnswer(code: string | undefined): ApiError | null {
  if (code === "HPE_HEADER_OVERFLOW") return new ApiError("HEADERS_TOO_LARGE", "Request headers are too large");
  // A client that went away, or one over its time limit: nobody is waiting for an answer.
  if (code === "ECONNRESET" || code === "ERR_HTTP_REQUEST_TIMEOUT" || code === "EPIPE") return null;
  return new ApiError("BAD_REQUEST", "The request is not valid HTTP/1.1", { field: "request", issue: "malformed" });
}

/** Options of guardNodeServer. */
export interface NodeGuardOptions {
  /** Open connections at most; one more is answered 503 and closed. */
  maxConnections: number;
  /** A new request id (`req_…`) for each answer given here. */
  requestId: () => string;
}

/**
 * Adds the envelope answer to requests node:http refuses (malformed, conflicting Content-Length and
 * Transfer-Encoding, headers too large → 431) and the cap on open connections. Returns a predicate the request
 * listener asks to ignore requests on a connection that was refused.
 */
export function guardNodeServer(server: NodeServerLike, o: NodeGuardOptions): (socket: unknown) => boolean {
  const refused = new WeakSet<object>();
  let open = 0;
  server.on("clientError", (err, socket) => {
    const answer = _clientErrorAnswer(err.code);
    if (!answer || !socket.writable) return void socket.destroy();
    socket.end(rawErrorResponse(answer, o.requestId()));
  });
  server.on("connection", (socket) => {
    socket.on("error", () => {}); // a reset while refusing is no concern of the process
    if (open >= o.maxConnections) {
      refused.add(socket);
      socket.write(rawErrorResponse(new ApiError("SERVICE_UNAVAILABLE", `Too many open connections (at most ${o.maxConnections}): retry shortly`, {}, { "retry-after": "1" }), o.requestId()), () => socket.destroy());
      return;
    }
    open++;
    socket.once("close", () => open--);
  });
  return (socket) => typeof socket === "object" && socket !== null && refused.has(socket);
}
