/**
 * GET /docs over a real server (lib/api/docs/docs_route.ts): public, HTML with
 * a Content-Security-Policy that allows only the page's own style by hash,
 * nosniff, a strong ETag with If-None-Match → 304, HEAD without a body, and
 * 405 for other methods.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { startServer, type TestServer } from "../../support/server.ts";

describe("GET /docs", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  test("answers without a token with the HTML page, its CSP, nosniff and a strong ETag", async () => {
    const res = await s.fetch("/docs", null);
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
    const etag = (await s.fetch("/docs", null)).headers.get("etag")!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await s.fetch("/docs", null, { headers: { "if-none-match": inm } });
      assert.equal(res.status, 304, inm);
      assert.equal(await res.text(), "");
    }
    assert.equal((await s.fetch("/docs", null, { headers: { "if-none-match": '"other"' } })).status, 200);
    const head = await s.fetch("/docs", null, { method: "HEAD" });
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
});
