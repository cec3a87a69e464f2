/**
 * GET /docs in a real headless browser (Debian's chromium), from a real server:
 * the page loads with no console message at all (no errors, no blocked loads
 * under its Content-Security-Policy), shows every operation of the OpenAPI
 * document, and every internal link resolves to an element id. A control page
 * with a broken link and an error shows that the checks can fail.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromiumSkip, loadPage, requireChromium, screenshot } from "../../support/chromium.ts";
import { startServer, type TestServer } from "../../support/server.ts";

type Json = Record<string, unknown>;
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Decodes the five entities chromium's serializer writes in attribute values. */
function _attr(v: string): string {
  return v.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

/** Internal links whose target id is not on the page. */
function brokenLinks(dom: string): string[] {
  const ids = new Set([...dom.matchAll(/\sid="([^"]*)"/g)].map((m) => _attr(m[1]!)));
  const targets = [...dom.matchAll(/\shref="#([^"]*)"/g)].map((m) => decodeURIComponent(_attr(m[1]!)));
  assert.ok(targets.length > 0, "the page has internal links");
  return [...new Set(targets.filter((t) => !ids.has(t)))];
}

/** The section of the operation `operationId` as the browser built it, or null. */
function operationSection(dom: string, operationId: string): string | null {
  const start = dom.indexOf(`<section class="op" id="op-${operationId}">`);
  return start < 0 ? null : dom.slice(start, dom.indexOf("</section>", start));
}

const skip = chromiumSkip();

describe("GET /docs in headless chromium", { skip }, () => {
  let s: TestServer;
  let doc: Json;
  before(async () => {
    if (process.env.CI === "true") requireChromium();
    s = await startServer();
    doc = (await (await s.fetch("/api/v1/openapi.json", null)).json()) as Json;
  });
  after(() => s?.close());

  test("the page loads without console messages, shows every operation and every internal link resolves", async () => {
    const page = await loadPage(`${s.url}/docs`);
    assert.deepEqual(page.console, [], "console messages");
    assert.match(page.dom, /<h1>Integrator API/);
    const operations: [string, string, Json][] = [];
    for (const group of ["paths", "webhooks"] as const) {
      for (const [path, item] of Object.entries(doc[group] as Record<string, Json>)) {
        for (const m of METHODS) if (item[m]) operations.push([m.toUpperCase(), path, item[m] as Json]);
      }
    }
    assert.ok(operations.length >= 20, `${operations.length} operations`);
    for (const [method, path, op] of operations) {
      const section = operationSection(page.dom, String(op.operationId));
      assert.ok(section, `${method} ${path} (${String(op.operationId)}) is on the page`);
      assert.ok(section.includes(`>${method}</span>`) && section.includes(`<span class="path">${path}</span>`), `${method} ${path}: method and path shown`);
      if (path.startsWith("/api/")) assert.match(section, /curl -s/, `${method} ${path}: curl example`);
    }
    assert.deepEqual(brokenLinks(page.dom), []);
  });

  test("a screenshot of the page renders", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-shot-"));
    try {
      const file = join(dir, "docs.png");
      await screenshot(`${s.url}/docs`, file);
      assert.ok(existsSync(file));
      const png = readFileSync(file);
      assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
      assert.equal(png.readUInt32BE(16), 1280);
      // A blank page compresses to a few kilobytes; the reference is text-dense.
      assert.ok(png.length > 100_000, `${png.length} bytes`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the checks fail on a page with a console error and a broken link", async () => {
    const html = `<!doctype html><p id="here"><a href="#here">ok</a> <a href="#nowhere">broken</a></p><script>console.error("control")</script>`;
    const control = createServer((_req, res) => void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
    await new Promise<void>((done) => control.listen(0, "127.0.0.1", done));
    try {
      const addr = control.address();
      const page = await loadPage(`http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/`);
      assert.equal(page.console.length, 1);
      assert.match(page.console[0]!, /"control"/);
      assert.deepEqual(brokenLinks(page.dom), ["nowhere"]);
    } finally {
      await new Promise<void>((done) => control.close(() => done()));
    }
  });
});
