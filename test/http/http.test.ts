/**
 * The HTTP conventions of the conventions in /docs and the error envelope of §2, driven
 * through a real server on 127.0.0.1 as a client sees them: request and
 * correlation ids, nosniff, 404 / 405 / HEAD, unknown query parameters, and
 * the JSON body rules of POST /api/v1/documents/sync (415, 400, 413).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Buffer } from "node:buffer";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { createServer } from "node:http";
import { createApp } from "../../lib/app.ts";
import { generateToken } from "../../lib/auth/tokens.ts";
import { toNodeListener } from "../../lib/http/node_adapter.ts";
import { createJsonLogger } from "../../lib/observe/log.ts";
import type { TenantStore } from "../../lib/contracts/storage.ts";
import { MemoryStorage } from "../../storage/memory.ts";
import { errorOf } from "../support/api.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { secretOf } from "../support/tokens.ts";

const REQUEST_ID_RE = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SAMPLE = fixturePath("samples", "ksef-fa3", "FA_3_complex.xml");

/** A request through node:http, which sends header bytes as latin1 (fetch refuses some of the values tested here). */
function nodeRequest(url: string, path: string, headers: Record<string, string>, method = "GET"): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("latin1") }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The raw bytes a server sends back for a request written by hand (Connection: close). */
function rawExchange(url: string, head: string): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(head));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => resolve(Buffer.concat(chunks)));
    socket.on("error", reject);
  });
}

/** Headers of a response without those that differ between any two requests. */
function stableHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!["x-request-id", "date", "keep-alive", "connection"].includes(k)) out[k] = v;
  });
  return out;
}

describe("request and correlation ids (the conventions in /docs)", () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = (await s.token("acme")).token;
  });
  after(() => s.close());

  test("every response carries a fresh req_ request id", async () => {
    const paths = ["/api/v1/documents", "/healthz", "/nope", "/api/v1/nope"];
    const seen = new Set<string>();
    for (const path of paths) {
      const res = await s.fetch(path, token);
      await res.arrayBuffer();
      const id = res.headers.get("x-request-id") ?? "";
      assert.match(id, REQUEST_ID_RE, path);
      seen.add(id);
    }
    assert.equal(seen.size, paths.length);
  });

  test("an /api/v1 response echoes the client's X-Correlation-Id", async () => {
    const value = "order-4711:retry#2";
    const res = await s.fetch("/api/v1/documents", token, { headers: { "x-correlation-id": value } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-correlation-id"), value);
  });

  test("an /api/v1 response carries a generated UUID when the client sent no correlation id", async () => {
    const a = await s.fetch("/api/v1/documents", token);
    const b = await s.fetch("/api/v1/documents", null);
    assert.match(a.headers.get("x-correlation-id") ?? "", UUID_RE);
    assert.match(b.headers.get("x-correlation-id") ?? "", UUID_RE, "errors carry one too");
    assert.notEqual(a.headers.get("x-correlation-id"), b.headers.get("x-correlation-id"));
  });

  test("a correlation id of exactly 128 visible ASCII characters is accepted", async () => {
    const value = "!~".repeat(64);
    const res = await s.fetch("/api/v1/documents", token, { headers: { "x-correlation-id": value } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-correlation-id"), value);
  });

  const badCorrelationIds = [
    { what: "129 characters", input: "a".repeat(129) },
    { what: "an inner space", input: "bad value" },
    { what: "a tab", input: "bad\tvalue" },
    { what: "a latin1 letter", input: "caf\u00e9-<script>" },
    { what: "UTF-8 bytes read as latin1", input: Buffer.from("zażółć", "utf8").toString("latin1") },
  ];
  for (const { what, input } of badCorrelationIds) {
    test(`a correlation id with ${what} is 400 BAD_REQUEST naming X-Correlation-Id and is not reflected`, async () => {
      const res = await nodeRequest(s.url, "/api/v1/documents", { "x-api-token": token, "x-correlation-id": input });
      assert.equal(res.status, 400);
      const body = JSON.parse(res.body) as { error: { code: string; details: Record<string, unknown>; request_id: string } };
      assert.equal(body.error.code, "BAD_REQUEST");
      assert.equal(body.error.details.field, "X-Correlation-Id");
      assert.equal(body.error.request_id, res.headers["x-request-id"]);
      assert.equal(res.headers["x-content-type-options"], "nosniff");
      assert.ok(!res.body.includes(input), "the body does not contain the bad value");
      const echoed = String(res.headers["x-correlation-id"] ?? "");
      assert.notEqual(echoed, input);
      assert.match(echoed, UUID_RE, "a generated id takes its place");
    });
  }

  test("a bad correlation id is rejected before authentication", async () => {
    const res = await nodeRequest(s.url, "/api/v1/documents", { "x-correlation-id": "x".repeat(200) });
    assert.equal(res.status, 400);
  });

  test("a correlation id outside /api/v1 is neither checked nor echoed", async () => {
    const res = await nodeRequest(s.url, "/healthz", { "x-correlation-id": "x".repeat(200) });
    assert.equal(res.status, 200);
    assert.equal(res.headers["x-correlation-id"], undefined);
  });
});

describe("nosniff and the error envelope on every response (the conventions in /docs, the error envelope in the OpenAPI document)", () => {
  let s: TestServer;
  let token: string;
  let readOnly: string;
  let docId: string;
  before(async () => {
    s = await startServer();
    token = (await s.token("acme")).token;
    readOnly = (await s.token("acme", ["documents:read"])).token;
    s.drop("acme", "FA_3_complex.xml", readFileSync(SAMPLE));
    await s.sync(token);
    const list = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] };
    docId = list.data[0]!.id;
  });
  after(() => s.close());

  test("X-Content-Type-Options: nosniff is on successes, errors, downloads and /healthz", async () => {
    const cases = [
      { what: "list", path: "/api/v1/documents", init: {}, status: 200 },
      { what: "document", path: `/api/v1/documents/${docId}`, init: {}, status: 200 },
      { what: "XML download", path: `/api/v1/documents/${docId}/xml`, init: {}, status: 200 },
      { what: "range", path: `/api/v1/documents/${docId}/xml`, init: { headers: { range: "bytes=0-9" } }, status: 206 },
      { what: "unsatisfiable range", path: `/api/v1/documents/${docId}/xml`, init: { headers: { range: "bytes=99999999-" } }, status: 416 },
      { what: "unknown document", path: "/api/v1/documents/doc_nope", init: {}, status: 404 },
      { what: "unknown API path", path: "/api/v1/nope", init: {}, status: 404 },
      { what: "unknown path outside the API", path: "/nope", init: {}, status: 404 },
      { what: "405", path: "/api/v1/documents", init: { method: "DELETE" }, status: 405 },
      { what: "400", path: "/api/v1/documents?limit=0", init: {}, status: 400 },
      { what: "403", path: "/api/v1/documents/sync", init: { method: "POST" }, status: 403, token: readOnly },
      { what: "401", path: "/api/v1/documents", init: {}, status: 401, token: null },
      { what: "/healthz", path: "/healthz", init: {}, status: 200 },
      { what: "/readyz", path: "/readyz", init: {}, status: 200 },
    ];
    for (const c of cases) {
      const res = await s.fetch(c.path, c.token === undefined ? token : c.token, c.init);
      await res.arrayBuffer();
      assert.equal(res.status, c.status, c.what);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff", c.what);
      assert.match(res.headers.get("x-request-id") ?? "", REQUEST_ID_RE, c.what);
    }
  });

  test("a 304 Not Modified carries nosniff and a request id too", async () => {
    const first = await s.fetch(`/api/v1/documents/${docId}/xml`, token);
    await first.arrayBuffer();
    const res = await s.fetch(`/api/v1/documents/${docId}/xml`, token, { headers: { "if-none-match": first.headers.get("etag")! } });
    assert.equal(res.status, 304);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.match(res.headers.get("x-request-id") ?? "", REQUEST_ID_RE);
  });

  test("every error body is exactly {error: {code, message, details, request_id}}", async () => {
    const cases = [
      { path: "/api/v1/nope", status: 404, code: "NOT_FOUND" },
      { path: "/nope", status: 404, code: "NOT_FOUND" },
      { path: "/api/v1/documents?page=0", status: 400, code: "BAD_REQUEST" },
      { path: "/api/v1/documents", status: 401, code: "UNAUTHENTICATED", token: null },
    ];
    for (const c of cases) {
      const error = await errorOf(await s.fetch(c.path, c.token === undefined ? token : c.token), c.status, c.code);
      assert.deepEqual(Object.keys(error).sort(), ["code", "details", "message", "request_id"], c.path);
      assert.doesNotMatch(error.message, /\n\s+at |\/work\/|node_modules/, "no stack traces or paths");
    }
  });

  test("details is {} when there is nothing to add", async () => {
    const error = await errorOf(await s.fetch("/api/v1/nope", token), 404, "NOT_FOUND");
    assert.deepEqual(error.details, {});
  });

  test("an unknown path under /api/v1 is 404 NOT_FOUND, with or without a token", async () => {
    for (const path of ["/api/v1/nope", "/api/v1", "/api/v1/", "/api/v1/documents/doc_x/xml/more", "/api/v1/documents/"]) {
      await errorOf(await s.fetch(path, token), 404, "NOT_FOUND");
      await errorOf(await s.fetch(path, null), 404, "NOT_FOUND");
    }
  });

  test("a bad query value is 400 with details.field and details.issue", async () => {
    const error = await errorOf(await s.fetch("/api/v1/documents?limit=abc", token), 400, "BAD_REQUEST");
    assert.equal(error.details.field, "limit");
    assert.equal(typeof error.details.issue, "string");
  });
});

describe("405 and HEAD (the conventions in /docs)", () => {
  let s: TestServer;
  let token: string;
  let docId: string;
  let runId: string;
  before(async () => {
    s = await startServer();
    token = (await s.token("acme")).token;
    s.drop("acme", "FA_3_complex.xml", readFileSync(SAMPLE));
    runId = (await s.sync(token)).id as string;
    const list = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] };
    docId = list.data[0]!.id;
  });
  after(() => s.close());

  const allowOf = (res: Response): string[] => (res.headers.get("allow") ?? "").split(",").map((m) => m.trim()).sort();

  test("a method the path does not support is 405 METHOD_NOT_ALLOWED with Allow", async () => {
    const cases = [
      { what: "DELETE on the list", method: "DELETE", path: "/api/v1/documents", allow: ["GET", "HEAD"] },
      { what: "POST on the list", method: "POST", path: "/api/v1/documents", allow: ["GET", "HEAD"] },
      { what: "PUT on a document", method: "PUT", path: `/api/v1/documents/${docId}`, allow: ["GET", "HEAD"] },
      { what: "PATCH on the XML", method: "PATCH", path: `/api/v1/documents/${docId}/xml`, allow: ["GET", "HEAD"] },
      { what: "GET on the sync endpoint", method: "GET", path: "/api/v1/documents/sync", allow: ["POST"] },
      { what: "DELETE on a sync run", method: "DELETE", path: `/api/v1/documents/sync/${runId}`, allow: ["GET", "HEAD"] },
    ];
    for (const c of cases) {
      const res = await s.fetch(c.path, token, { method: c.method });
      const error = await errorOf(res, 405, "METHOD_NOT_ALLOWED");
      assert.ok(error.message.length > 0);
      assert.deepEqual(allowOf(res), c.allow, c.what);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    }
  });

  test("405 is answered before authentication, so a client learns the methods without a token", async () => {
    const res = await s.fetch("/api/v1/documents", null, { method: "DELETE" });
    await errorOf(res, 405, "METHOD_NOT_ALLOWED");
    assert.deepEqual(allowOf(res), ["GET", "HEAD"]);
  });

  for (const path of ["/healthz", "/readyz"]) {
    test(`a method ${path} does not support is 405 with Allow: GET, HEAD`, async () => {
      for (const method of ["POST", "DELETE"]) {
        const res = await s.fetch(path, null, { method });
        await errorOf(res, 405, "METHOD_NOT_ALLOWED");
        assert.deepEqual(allowOf(res), ["GET", "HEAD"]);
      }
    });
  }

  test("HEAD is answered wherever GET is, with the same status and headers and no body", async () => {
    const paths = [
      "/api/v1/documents",
      "/api/v1/documents?page=1",
      `/api/v1/documents/${docId}`,
      `/api/v1/documents/${docId}/xml`,
      `/api/v1/documents/sync/${runId}`,
      "/api/v1/documents/doc_unknown",
      "/healthz",
      "/readyz",
    ];
    const init = { headers: { "x-correlation-id": "same-for-both" } };
    for (const path of paths) {
      const get = await s.fetch(path, token, init);
      const getBody = new Uint8Array(await get.arrayBuffer());
      const head = await s.fetch(path, token, { ...init, method: "HEAD" });
      assert.equal(head.status, get.status, path);
      assert.deepEqual(stableHeaders(head), stableHeaders(get), path);
      assert.equal(head.headers.get("content-length"), String(getBody.length), `${path}: Content-Length of the GET body`);
      assert.equal((await head.arrayBuffer()).byteLength, 0, path);
    }
  });

  test("HEAD sends no body bytes on the wire, for JSON and for downloads", async () => {
    for (const path of [`/api/v1/documents/${docId}`, `/api/v1/documents/${docId}/xml`]) {
      const raw = await rawExchange(s.url, `HEAD ${path} HTTP/1.1\r\nHost: x\r\nX-API-Token: ${token}\r\nConnection: close\r\n\r\n`);
      const text = raw.toString("latin1");
      assert.match(text, /^HTTP\/1\.1 200 /, path);
      const end = text.indexOf("\r\n\r\n");
      assert.ok(end > 0);
      assert.equal(raw.length, end + 4, `${path}: nothing after the headers`);
      assert.match(text, /\r\ncontent-length: [1-9]\d*\r\n/i, path);
    }
  });

  test("HEAD is not answered where only POST is: it gets 405", async () => {
    const res = await s.fetch("/api/v1/documents/sync", token, { method: "HEAD" });
    assert.equal(res.status, 405);
    assert.deepEqual(allowOf(res), ["POST"]);
  });
});

describe("query parameters (the conventions in /docs)", () => {
  let s: TestServer;
  let token: string;
  let docId: string;
  before(async () => {
    s = await startServer();
    token = (await s.token("acme")).token;
    s.drop("acme", "FA_3_complex.xml", readFileSync(SAMPLE));
    await s.sync(token);
    const list = (await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] };
    docId = list.data[0]!.id;
  });
  after(() => s.close());

  test("an unknown query parameter is 400 BAD_REQUEST naming it on every /api/v1 endpoint; outside /api/v1 it is ignored", async () => {
    for (const path of ["/api/v1/documents", "/api/v1/documents?page=1", `/api/v1/documents/${docId}`, `/api/v1/documents/${docId}/xml`, "/api/v1/openapi.json"]) {
      const sep = path.includes("?") ? "&" : "?";
      for (const noise of ["foo=bar", "LIMIT=0", "Page=0", "utm_source=x"]) {
        const res = await s.fetch(`${path}${sep}${noise}`, token);
        const body = (await res.json()) as { error: { code: string; details: { field: string; issue: string } } };
        assert.equal(res.status, 400, `${path} ${noise}`);
        assert.deepEqual(body.error.details, { field: noise.split("=")[0], issue: "unknown parameter" }, `${path} ${noise}`);
      }
    }
    const health = await s.fetch("/healthz?foo=bar", token);
    assert.equal(health.status, 200);
    await health.arrayBuffer();
  });
});

describe("JSON request bodies on POST /api/v1/documents/sync (the error envelope in the OpenAPI document, README “Security model”)", () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer();
    token = (await s.token("acme")).token;
  });
  after(() => s.close());

  const post = (init: RequestInit): Promise<Response> => s.fetch("/api/v1/documents/sync", token, { method: "POST", ...init });

  test("an empty body, {} and an empty body with Content-Type: application/json are accepted", async () => {
    for (const init of [{}, { body: "{}", headers: { "content-type": "application/json" } }, { body: "", headers: { "content-type": "application/json; charset=utf-8" } }]) {
      const res = await post(init);
      assert.equal(res.status, 202, JSON.stringify(init));
      await res.arrayBuffer();
      await s.app.sync.idle();
    }
  });

  test("a body that is not declared as JSON is 415 UNSUPPORTED_MEDIA_TYPE with details.expected", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp"]) {
      const error = await errorOf(await post({ body: "{}", headers: { "content-type": type } }), 415, "UNSUPPORTED_MEDIA_TYPE");
      assert.equal(error.details.expected, "application/json", type);
    }
  });

  test("a JSON body without any Content-Type is 415", async () => {
    const res = await post({ body: new Blob(["{}"]) }); // a Blob without a type sends no Content-Type
    await errorOf(res, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  test("malformed JSON is 400 BAD_REQUEST with details.field and details.issue", async () => {
    const cases = [
      { what: "truncated", input: "{" },
      { what: "trailing garbage", input: "{} x" },
      { what: "single quotes", input: "{'source':'inbox'}" },
      { what: "invalid UTF-8", input: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) },
      { what: "an array", input: "[]" },
      { what: "null", input: "null" },
      { what: "a string", input: '"inbox"' },
    ];
    for (const { what, input } of cases) {
      const error = await errorOf(await post({ body: input, headers: { "content-type": "application/json" } }), 400, "BAD_REQUEST");
      assert.equal(typeof error.details.field, "string", what);
      assert.equal(typeof error.details.issue, "string", what);
    }
  });

  test("a body over the JSON limit is 413 PAYLOAD_TOO_LARGE with details.limit_bytes", async () => {
    const big = JSON.stringify({ source: "inbox", pad: "x".repeat(64 * 1024) });
    const error = await errorOf(await post({ body: big, headers: { "content-type": "application/json" } }), 413, "PAYLOAD_TOO_LARGE");
    assert.equal(error.details.limit_bytes, 64 * 1024);
  });

  test("a chunked body over the JSON limit is 413 too, though it declares no length", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent++ < 8) ctrl.enqueue(chunk);
        else ctrl.close();
      },
    });
    const res = await post({ body, headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit);
    const error = await errorOf(res, 413, "PAYLOAD_TOO_LARGE");
    assert.equal(error.details.limit_bytes, 64 * 1024);
  });

  test("a body of exactly the limit is read, not refused", async () => {
    const body = `{"source":"inbox"${" ".repeat(64 * 1024 - 18)}}`; // whitespace pads it: every field must be known
    assert.equal(body.length, 64 * 1024);
    const res = await post({ body, headers: { "content-type": "application/json" } });
    assert.equal(res.status, 202);
    await res.arrayBuffer();
    await s.app.sync.idle();
  });
});

describe("unexpected errors (the conventions in /docs, the error envelope in the OpenAPI document)", () => {
  const SECRET_DETAIL = "EACCES /var/lib/integrator/tenants/acme/documents.log";

  /** A memory storage whose document feed throws like a broken disk would. */
  class BrokenStorage extends MemoryStorage {
    override tenant(id: string): TenantStore {
      const real = super.tenant(id);
      return new Proxy(real, {
        get(target, prop, receiver) {
          if (prop === "documentChanges") return async () => { throw new Error(SECRET_DETAIL); };
          const v = Reflect.get(target, prop, receiver) as unknown;
          return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    }
  }

  let lines: string[];
  let app: Awaited<ReturnType<typeof createApp>>;
  let server: ReturnType<typeof createServer>;
  let url: string;
  let token: string;
  before(async () => {
    lines = [];
    const storage = new BrokenStorage();
    app = await createApp({ storage, logger: createJsonLogger("debug", (l) => void lines.push(l)) });
    server = createServer(toNodeListener(app.handle));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const addr = server.address();
    url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
    const t = generateToken();
    await storage.tokens.create({
      key_id: t.keyId, tenant: "acme", secret_sha256: t.secretSha256, scopes: ["documents:read"],
      created_at: new Date().toISOString(), expires_at: null, revoked_at: null,
    });
    token = t.token;
  });
  after(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  });

  const failingRequest = (): Promise<Response> => fetch(`${url}/api/v1/documents`, { headers: { "x-api-token": token, "x-correlation-id": "corr-500" } });
  const errorLines = (): Record<string, unknown>[] => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === "error");

  test("a bug is 500 INTERNAL_ERROR in the usual envelope, without its message", async () => {
    const res = await failingRequest();
    const error = await errorOf(res, 500, "INTERNAL_ERROR");
    assert.deepEqual(error.details, {});
    assert.ok(!error.message.includes("EACCES") && !error.message.includes("/var/lib"), error.message);
    assert.equal(res.headers.get("x-correlation-id"), "corr-500");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  });

  test("a bug is logged once, with the request id and the correlation id and without the token", async () => {
    lines.length = 0;
    const res = await failingRequest();
    const error = await errorOf(res, 500, "INTERNAL_ERROR");
    const logged = errorLines();
    assert.equal(logged.length, 1, lines.join(""));
    const line = JSON.stringify(logged[0]);
    assert.ok(line.includes(error.request_id), "the log line carries the request id");
    assert.ok(!line.includes(secretOf(token)), "the log line never carries the token");
    assert.ok(line.includes("corr-500"), "the log line carries the correlation id");
  });
});
