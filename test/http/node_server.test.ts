/**
 * node:http at the edges, over raw sockets: what its
 * parser refuses is answered with the envelope and the ids; time limits hold to
 * within a second; connections over the cap get a clear 503; an absolute-form
 * request line is routed by its path.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Server } from "node:http";
import { connect, type Socket } from "node:net";
import { createApp } from "../../lib/app.ts";
import { toNodeListener } from "../../lib/http/node_adapter.ts";
import { guardNodeServer } from "../../lib/http/node_server.ts";
import { listenHttp, type HttpListener } from "../../storage/process/http_listener.ts";
import { newId } from "../../lib/contracts/ids.ts";
import { MemoryStorage } from "../../storage/memory.ts";

const HEADERS_TIMEOUT_MS = 1_000;
const MAX_CONNECTIONS = 4;

let server: Server;
let listener: HttpListener;
let port = 0;
before(async () => {
  const app = await createApp({ storage: new MemoryStorage(), rateLimit: null, anonymousLimit: null });
  // Wired the way server.ts does, with a shorter headers timeout.
  listener = await listenHttp(toNodeListener(app.handle), {
    host: "127.0.0.1", port: 0, timeouts: { headersMs: HEADERS_TIMEOUT_MS, requestMs: 2_000, keepAliveMs: 500 },
    guard: (s) => ((server = s), guardNodeServer(s, { maxConnections: MAX_CONNECTIONS, requestId: () => newId("req", Date.now()) })),
  });
  port = Number(new URL(listener.url).port);
});
after(() => listener.close(0, () => {}));

/** Sends raw bytes and collects everything until the server closes the connection. */
function exchange(raw: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    s.on("data", (d) => chunks.push(d));
    s.on("error", reject);
    s.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    s.write(raw);
  });
}

/** Resolves once the server's count of open connections meets `ok` (asked again on each turn of the loop). */
async function connectionsReach(ok: (n: number) => boolean): Promise<void> {
  for (;;) {
    const n = await new Promise<number>((r, j) => server.getConnections((e, c) => (e ? j(e) : r(c))));
    if (ok(n)) return;
    await new Promise((r) => setImmediate(r));
  }
}

function parse(text: string) {
  const [head, body] = [text.slice(0, text.indexOf("\r\n\r\n")), text.slice(text.indexOf("\r\n\r\n") + 4)];
  const [status, ...lines] = head.split("\r\n");
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return { status: Number(status!.split(" ")[1]), headers, body };
}

const REFUSED = [
  { what: "Transfer-Encoding with Content-Length", raw: "POST /api/v1/documents HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400, code: "BAD_REQUEST" },
  { what: "two different Content-Lengths", raw: "POST /api/v1/documents HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", status: 400, code: "BAD_REQUEST" },
  { what: "obs-fold", raw: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  folded\r\n\r\n", status: 400, code: "BAD_REQUEST" },
  { what: "a NUL in a header", raw: "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n", status: 400, code: "BAD_REQUEST" },
  { what: "a garbage request line", raw: "HELLO\r\n\r\n", status: 400, code: "BAD_REQUEST" },
  { what: "a space in the path", raw: "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", status: 400, code: "BAD_REQUEST" },
  { what: "headers over the limit", raw: `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`, status: 431, code: "HEADERS_TOO_LARGE" },
];

describe("requests node:http's parser refuses", () => {
  for (const { what, raw, status, code } of REFUSED) {
    test(`${what}: ${status} ${code} with the envelope, X-Request-Id, nosniff, no-store, and the connection closed`, async () => {
      const res = parse(await exchange(raw));
      assert.equal(res.status, status);
      const body = JSON.parse(res.body) as { error: { code: string; request_id: string; details: unknown } };
      assert.equal(body.error.code, code);
      assert.match(body.error.request_id, /^req_/);
      assert.equal(res.headers.get("x-request-id"), body.error.request_id);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.equal(res.headers.get("connection"), "close");
      assert.equal(res.headers.get("content-length"), String(Buffer.byteLength(res.body)));
    });
  }
});

test("an absolute-form request line is routed by its path (RFC 9112 §3.2.2)", async () => {
  const res = parse(await exchange(`GET http://127.0.0.1:${port}/api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
  assert.equal(res.status, 200, res.body.slice(0, 200));
  assert.match(res.body, /"openapi"/);
  const health = parse(await exchange(`GET HTTP://example.com/healthz?x=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n`));
  assert.equal(health.status, 200);
});

test("a client that trickles its headers is closed within a second of the headers timeout", { timeout: 15_000 }, async () => {
  const s = connect(port, "127.0.0.1");
  const started = performance.now();
  s.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
  const trickle = setInterval(() => s.writable && s.write("X-Slow: 1\r\n"), 200);
  await new Promise<void>((r) => {
    s.on("close", () => r());
    s.on("error", () => {});
  });
  clearInterval(trickle);
  const ms = performance.now() - started;
  assert.ok(ms < HEADERS_TIMEOUT_MS + 1_500, `closed after ${Math.round(ms)} ms`);
});

// Deno's node:http emits no "connection" event for its sockets: the cap is Node's (server.ts runs WORKERS on Node too).
test("connections over the cap get 503 SERVICE_UNAVAILABLE with Retry-After and the envelope", { skip: "Deno" in globalThis ? "no connection event on Deno" : false }, async () => {
  const held: Socket[] = [];
  try {
    for (let i = 0; i < MAX_CONNECTIONS; i++) {
      const s = connect(port, "127.0.0.1");
      await new Promise((r) => s.once("connect", r));
      held.push(s);
    }
    await connectionsReach((n) => n === MAX_CONNECTIONS); // the server has accepted all of them
    const res = parse(await exchange("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    assert.equal(res.status, 503);
    assert.equal(res.headers.get("retry-after"), "1");
    assert.match(res.body, /"code":"SERVICE_UNAVAILABLE"/);
    assert.match(res.body, /Too many open connections/);
  } finally {
    for (const s of held) s.destroy();
  }
  // Once they are gone, connections are served again.
  await connectionsReach((n) => n === 0);
  assert.equal(parse(await exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).status, 200);
});
