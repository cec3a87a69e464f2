/**
 * The sender's HTTP exchanges with KSeF: its API and the URLs it hands out (batch part uploads, UPO downloads).
 * Over node:http/https with kept-alive connections, because a batch of 10,000 invoices means 10,000 UPO
 * downloads and `fetch` spends about three times node:http's CPU on each (bench/ksef_send.bench.ts). Redirects
 * are not followed (a 3xx is a failure, as fetch's `redirect: "error"`), and the timeout covers the whole
 * exchange. An embedder's own `fetch`, when given, is used instead (fetchTransport).
 * @module
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";

/** KSeF's answers are JSON pages and UPOs (a collective UPO page lists up to 10,000 invoices): far below this. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Connections kept per host: the sender's widest fan-out is 64 UPO downloads at once (batch_session.ts). */
const SOCKETS_PER_HOST = 64;

/** One request. */
export interface HttpExchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Uint8Array | string | null;
  signal: AbortSignal;
  timeoutMs: number;
}

/** One answer, its body read whole. */
export interface HttpAnswer {
  status: number;
  /** A response header by its lower-case name, or null. */
  header(name: string): string | null;
  body: Uint8Array;
}

/** How the sender talks HTTP. A failure to get an answer rejects (with a `TimeoutError` when the time ran out). */
export interface HttpTransport {
  request(x: HttpExchange): Promise<HttpAnswer>;
  /** Drops the kept-alive connections. */
  close(): void;
}

/** The exchange ran out of time (named as fetch's timeout, which callers already recognise). */
export class HttpTimeout extends Error {
  override name = "TimeoutError";
}

/**
 * node:http/https with kept-alive connections. A request that fails after its answer began (a redirect, an answer
 * too large) destroys its socket rather than returning it to the pool half read, and close() ends every connection
 * the transport opened, busy or idle.
 */
export function nodeTransport(): HttpTransport {
  const agents = { "http:": new HttpAgent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST }), "https:": new HttpsAgent({ keepAlive: true, maxSockets: SOCKETS_PER_HOST }) };
  const sockets = new Set<Socket>();
  return {
    request: (x) =>
      new Promise((resolve, reject) => {
        const u = new URL(x.url);
        if (u.protocol !== "http:" && u.protocol !== "https:") return reject(new TypeError(`Cannot request ${u.protocol} URLs`));
        if (x.signal.aborted) return reject(x.signal.reason);
        const send = u.protocol === "https:" ? httpsRequest : httpRequest;
        // Settles once; a failure also destroys the request and its socket. Once an answer has begun, node:http
        // reports a destroyed request on the response, not the request, so the promise cannot wait for an event.
        const fail = (e: unknown): void => {
          reject(e);
          req.destroy();
        };
        const req = send(u, { method: x.method, headers: x.headers, agent: agents[u.protocol] }, (res) => {
          _readAnswer(res).then(resolve, fail);
        });
        req.on("socket", (s: Socket) => {
          if (sockets.has(s)) return;
          sockets.add(s);
          s.once("close", () => sockets.delete(s));
        });
        const timer = setTimeout(() => fail(new HttpTimeout(`No answer within ${x.timeoutMs} ms`)), x.timeoutMs);
        const abort = (): void => fail(x.signal.reason);
        x.signal.addEventListener("abort", abort, { once: true });
        req.on("close", () => {
          clearTimeout(timer);
          x.signal.removeEventListener("abort", abort);
        });
        req.on("error", fail);
        // A body given whole makes node:http send its Content-Length (pre-signed upload URLs require it).
        req.end(x.body ?? undefined);
      }),
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
  };
}

/** An embedder's `fetch`. */
export function fetchTransport(f: typeof fetch): HttpTransport {
  return {
    async request(x) {
      const res = await f(x.url, {
        method: x.method, headers: x.headers, redirect: "error", body: x.body as BodyInit | null,
        signal: AbortSignal.any([x.signal, AbortSignal.timeout(x.timeoutMs)]),
      });
      const body = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, header: (name) => res.headers.get(name), body };
    },
    close() {},
  };
}

// The answer's body whole; a redirect or an answer over MAX_ANSWER_BYTES is a failure.
function _readAnswer(res: IncomingMessage): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400) return reject(new Error(`KSeF answered a redirect (HTTP ${status}), which is not followed`));
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_ANSWER_BYTES) return void chunks.push(c);
      res.destroy();
      reject(new RangeError(`KSeF's answer is over ${MAX_ANSWER_BYTES} bytes`));
    });
    res.on("error", reject);
    res.on("end", () => {
      const headers = res.headers;
      const header = (name: string): string | null => {
        const v = headers[name];
        return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
      };
      // A copy of its own: socket chunks and Buffer.concat's small results share larger buffers, which a kept UPO would hold.
      const body = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        body.set(c, at);
        at += c.length;
      }
      resolve({ status, header, body });
    });
  });
}
