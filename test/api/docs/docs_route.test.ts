/**
 * GET /docs over a real server (lib/api/docs/docs_route.ts): public, HTML with
 * a Content-Security-Policy that allows only the page's own style by hash,
 * nosniff, a strong ETag with If-None-Match → 304, HEAD without a body, and
 * 405 for other methods.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { after, before, describe, test } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { startServer, type TestServer } from "../../support/server.ts";

describe("GET /docs", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  test("answers without a token with the HTML page, its CSP, nosniff and a strong ETag", async () => {
    const res = await s.fetch("/docs", null, { headers: { "accept-encoding": "identity" } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.match(res.headers.get("x-request-id") ?? "", /^req_/);
    const html = await res.text();
    assert.match(html, /^<!doctype html>\n<html lang="en">/);
    assert.equal(res.headers.get("etag"), `"${createHash("sha256").update(html).digest("hex")}"`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const styles = [...html.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1]!);
    assert.equal(styles.length, 1);
    const hash = createHash("sha256").update(styles[0]!).digest("base64");
    assert.deepEqual(csp.split("; ").sort(), [
      "base-uri 'none'", "default-src 'none'", "form-action 'none'", "frame-ancestors 'none'", `style-src 'sha256-${hash}'`,
    ]);
  });

  test("If-None-Match with the ETag answers 304 without a body; HEAD has the headers and no body", async () => {
    // Identity: fetch implementations ask for different encodings by default (Deno adds br), each with its own ETag.
    const plain = { "accept-encoding": "identity" };
    const etag = (await s.fetch("/docs", null, { headers: plain })).headers.get("etag")!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await s.fetch("/docs", null, { headers: { ...plain, "if-none-match": inm } });
      assert.equal(res.status, 304, inm);
      assert.equal(await res.text(), "");
    }
    assert.equal((await s.fetch("/docs", null, { headers: { ...plain, "if-none-match": '"other"' } })).status, 200);
    const head = await s.fetch("/docs", null, { method: "HEAD", headers: plain });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("etag"), etag);
    assert.ok(Number(head.headers.get("content-length")) > 50_000);
    assert.equal(await head.text(), "");
  });

  test("other methods answer 405 with Allow", async () => {
    const res = await s.fetch("/docs", null, { method: "POST" });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "GET, HEAD");
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, "METHOD_NOT_ALLOWED");
  });
  test("is compressed as the client accepts (br before gzip), with Vary and an ETag per encoding", async () => {
    const raw = (acceptEncoding: string | null) => new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((done, fail) => {
      const req = httpGet(`${s.url}/docs`, { headers: acceptEncoding === null ? {} : { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c)).on("end", () => done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", fail);
    });
    const plain = await raw(null);
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.equal(plain.headers.vary, "accept-encoding");
    const html = plain.body.toString("utf8");
    for (const [accept, coding, decode] of [
      ["gzip, deflate, br", "br", brotliDecompressSync],
      ["gzip;q=1, br;q=0", "gzip", gunzipSync],
      ["*", "br", brotliDecompressSync],
    ] as const) {
      const res = await raw(accept);
      assert.equal(res.headers["content-encoding"], coding, accept);
      assert.equal(res.headers.vary, "accept-encoding");
      assert.ok(res.body.length < plain.body.length / 10, `${coding}: ${res.body.length} bytes`);
      assert.equal(decode(res.body).toString("utf8"), html);
      assert.notEqual(res.headers.etag, plain.headers.etag);
    }
    assert.equal((await raw("identity, gzip;q=0")).headers["content-encoding"], undefined);
  });

  test("a query parameter is 400 BAD_REQUEST unknown parameter, as under /api/v1/", async () => {
    const res = await s.fetch("/docs?x=", null);
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; details: Record<string, unknown> } };
    assert.equal(body.error.code, "BAD_REQUEST");
    assert.deepEqual(body.error.details, { field: "x", issue: "unknown parameter" });
  });
});
