/**
 * A request listener over node:http: timeouts against slow clients (checked every second), listening with an
 * operator's message instead of a stack trace when the port is taken (the contract
 * §11), and a graceful stop (stop accepting, let in-flight requests finish up to
 * a grace period, then cut the rest). It does not handle signals or exit.
 * @module
 */
import { createServer, type RequestListener, type Server } from "node:http";

/** The time limits of a server, ms. */
export interface ListenTimeouts {
  /** Time for a client to send its request headers. */
  headersMs: number;
  /** Time for a whole request, body included. */
  requestMs: number;
  /** How long an idle keep-alive connection is held. */
  keepAliveMs: number;
}

const TIMEOUTS: ListenTimeouts = {
  headersMs: 10_000, // slowloris: a client gets 10 s to send its headers
  requestMs: 120_000, // a 10 MiB upload at ~1 Mbit/s still fits; slower clients are cut off
  keepAliveMs: 5_000, // idle keep-alive sockets are not held longer
};
/** How often node:http looks for connections over their time limit (its default, 30 s, let limits slip 3–4×). */
const CONNECTIONS_CHECK_MS = 1_000;

/** A failure to listen that the operator can fix, with the one line to show them. */
export class ListenError extends Error {
  override name = "ListenError";
}

/** Where to listen. */
export interface ListenOptions {
  host: string;
  port: number;
  /** Other time limits than the defaults (tests). */
  timeouts?: ListenTimeouts;
  /**
   * Called with the server before it listens, to add listeners (the envelope for parser errors, the connection cap
   * of lib/http/node_server.ts); returns whether a connection was refused, whose requests are then not served.
   */
  guard?: (server: Server) => (socket: unknown) => boolean;
}

/** A listening server. */
export interface HttpListener {
  url: string;
  /** Stops accepting; resolves when in-flight requests are done, cutting them off after `graceMs`. */
  close(graceMs: number, onGraceOver: () => void): Promise<void>;
}

/** The URL of `host` and `port` (IPv6 hosts in brackets). */
export function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** The operator's message for a listen error, or null for one that is not theirs to fix. */
export function listenErrorMessage(code: unknown, options: ListenOptions): string | null {
  if (code === "EADDRINUSE") return `port ${options.port} is in use: set PORT or --port`;
  if (code === "EACCES") return `port ${options.port} needs privileges this process lacks: set PORT or --port`;
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") return `cannot listen on ${options.host}: no such local address: set HOST or --host`;
  return null;
}

/** Serves `listener` on `options.host:port`; rejects with a ListenError when the address cannot be used. */
export async function listenHttp(listener: RequestListener, options: ListenOptions): Promise<HttpListener> {
  const t = options.timeouts ?? TIMEOUTS;
  const server: Server = createServer({
    headersTimeout: t.headersMs, requestTimeout: t.requestMs, keepAliveTimeout: t.keepAliveMs, connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
  });
  const refused = options.guard?.(server) ?? (() => false);
  server.on("request", (req, res) => (refused(req.socket) ? res.destroy() : listener(req, res)));
  await new Promise<void>((done, fail) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      const message = listenErrorMessage(e.code, options);
      fail(message ? new ListenError(message) : e);
    };
    server.once("error", onError);
    server.listen(options.port, options.host, () => {
      server.off("error", onError);
      done();
    });
  });
  const addr = server.address();
  return {
    url: urlOf(options.host, typeof addr === "object" && addr ? addr.port : options.port),
    close(graceMs, onGraceOver) {
      const timer = setTimeout(() => {
        onGraceOver();
        server.closeAllConnections();
      }, graceMs);
      timer.unref();
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeIdleConnections();
      return closed.then(() => clearTimeout(timer)); // an embedder's process lives on: no late "grace over"
    },
  };
}
