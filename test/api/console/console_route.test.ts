/**
 * `GET /console` and its files over HTTP (README "Console"): each answer carries exactly the console's
 * Content-Security-Policy (no 'unsafe-inline', no 'unsafe-eval'), nosniff and no-referrer, errors under /console
 * too; a strong ETag answered 304; gzip when accepted; the page loads only its own two files; all of it under
 * 150 KB; the script parses and sets API values as text only (no innerHTML, no eval, no token in a URL).
 */
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { CONSOLE_JS } from "../../../lib/api/console/script.ts";
import { startServer, type TestServer } from "../../support/server.ts";

const CSP = "default-src 'self'; img-src 'self' data: blob:; frame-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
const FILES = [["/console", "text/html"], ["/console/app.js", "text/javascript"], ["/console/app.css", "text/css"]] as const;
/** The budget of README "Console": everything the console loads. */
const BUDGET = 150 * 1024;

/** A GET through node:http (fetch would decompress and hide Content-Encoding). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject).end();
  });
}

describe("GET /console and its files", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: "memory" });
  });
  after(() => s.close());

  for (const [path, type] of FILES) {
    test(`${path}: the policy, nosniff, no-referrer, an ETag answered 304, gzip when accepted`, async () => {
      const plain = await get(s.url + path);
      assert.equal(plain.status, 200);
      assert.ok(String(plain.headers["content-type"]).startsWith(type));
      assert.equal(plain.headers["content-security-policy"], CSP);
      assert.doesNotMatch(CSP, /unsafe/);
      assert.equal(plain.headers["x-content-type-options"], "nosniff");
      assert.equal(plain.headers["referrer-policy"], "no-referrer");
      const etag = String(plain.headers.etag);
      assert.match(etag, /^"[0-9a-f]+"$/);
      const again = await get(s.url + path, { "if-none-match": etag });
      assert.equal(again.status, 304);
      assert.equal(again.body.length, 0);
      assert.equal(again.headers["content-security-policy"], CSP);
      const gz = await get(s.url + path, { "accept-encoding": "gzip" });
      assert.equal(gz.headers["content-encoding"], "gzip");
      assert.deepEqual(gunzipSync(gz.body), plain.body);
      assert.ok(gz.body.length < plain.body.length);
      assert.equal((await get(s.url + path, { "accept-encoding": "gzip", "if-none-match": String(gz.headers.etag) })).status, 304);
    });
  }

  test("errors under /console carry the policy too", async () => {
    for (const path of ["/console/nothing.js", "/console?x=1"]) {
      const res = await get(s.url + path);
      assert.ok(res.status === 404 || res.status === 400, `${path}: ${res.status}`);
      assert.equal(res.headers["content-security-policy"], CSP, path);
      assert.equal(res.headers["referrer-policy"], "no-referrer", path);
    }
  });

  test("the page loads its own two files and nothing else; all of it is under 150 KB", async () => {
    const html = (await get(s.url + "/console")).body.toString("utf8");
    const loads = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(loads, ["data:,", "/console/app.css", "/console/app.js"]);
    assert.doesNotMatch(html, /<script>|<style|style="/, "nothing inline");
    let total = 0;
    for (const [path] of FILES) total += (await get(s.url + path)).body.length;
    assert.ok(total < BUDGET, `${total} bytes`);
    process.stderr.write(`console: ${total} bytes uncompressed\n`);
  });

  test("the script parses, and never writes markup, evaluates strings or puts the token in a URL or storage that outlives the tab", () => {
    assert.doesNotThrow(() => new Function(CONSOLE_JS));
    for (const bad of [/innerHTML/, /outerHTML/, /insertAdjacentHTML/, /document\.write/, /\beval\(/, /new Function/, /localStorage/, /document\.cookie/]) {
      assert.doesNotMatch(CONSOLE_JS, bad);
    }
    assert.match(CONSOLE_JS, /sessionStorage\.setItem\(TOKEN_KEY/);
    assert.match(CONSOLE_JS, /headers\.set\("X-API-Token", state\.token\)/);
  });
});
