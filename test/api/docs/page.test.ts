/**
 * renderDocsPage() (lib/api/docs/page.ts) on the app's own OpenAPI document and
 * on hostile and deep hand-made ones: every operation and schema has its
 * section, every internal link resolves, ids are unique, nothing from the
 * document can add a tag or an attribute, and deep or cyclic schemas render.
 */
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { renderDocsPage } from "../../../lib/api/docs/page.ts";
import { createApp } from "../../../lib/app.ts";
import { buildOpenApi } from "../../../lib/api/openapi/document.ts";
import { MemoryStorage } from "../../../storage/memory.ts";

type Json = Record<string, unknown>;
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const TAGS = new Set(["html", "head", "meta", "title", "style", "body", "div", "nav", "main", "header", "section", "h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "a", "span", "code", "pre", "table", "thead", "tbody", "tr", "th", "td", "details", "summary", "br", "wbr"]);
const ATTRIBUTES = new Set(["lang", "charset", "name", "content", "id", "class", "href", "title", "open", "aria-label", "data-lang", "colspan"]);

/** Every tag and attribute name in `html` (outside the <style> element), which must all be in the allow lists. */
function markup(html: string): { tags: Set<string>; attributes: Set<string> } {
  const tags = new Set<string>();
  const attributes = new Set<string>();
  const body = html.replace(/<style>[^<]*<\/style>/, "<style></style>").replace(/^<!doctype html>/, "");
  for (const m of body.matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)([^>]*)>/g)) {
    tags.add(m[1]!.toLowerCase());
    // Values are escaped, so a `"` inside one cannot end it early.
    const rest = m[2]!.replace(/="[^"]*"/g, "");
    for (const a of rest.trim().split(/\s+/).filter(Boolean)) attributes.add(a.toLowerCase());
  }
  return { tags, attributes };
}

function ids(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!);
}

function brokenLinks(html: string): string[] {
  const known = new Set(ids(html));
  return [...html.matchAll(/\shref="#([^"]*)"/g)].map((m) => m[1]!).filter((t) => !known.has(t));
}

function operations(doc: Json): { method: string; path: string; id: string }[] {
  const out: { method: string; path: string; id: string }[] = [];
  for (const group of ["paths", "webhooks"]) {
    for (const [path, item] of Object.entries((doc[group] ?? {}) as Record<string, Json>)) {
      for (const m of METHODS) if (item[m]) out.push({ method: m.toUpperCase(), path, id: String((item[m] as Json).operationId) });
    }
  }
  return out;
}

describe("renderDocsPage() on the app's OpenAPI document", () => {
  let doc: Json;
  let html: string;
  before(async () => {
    const app = await createApp({ storage: new MemoryStorage() });
    doc = buildOpenApi(app.routes) as Json;
    await app.close();
    html = renderDocsPage(doc);
  });

  test("every operation of the document has a section with its method, path, summary and a table-of-contents entry", () => {
    const ops = operations(doc);
    assert.ok(ops.length >= 20);
    for (const op of ops) {
      const start = html.indexOf(`<section class="op" id="op-${op.id}">`);
      assert.ok(start >= 0, `${op.method} ${op.path}: section op-${op.id}`);
      const section = html.slice(start, html.indexOf("</section>", start));
      assert.ok(section.includes(`>${op.method}</span> <span class="path">${op.path}</span>`), `${op.id}: method and path`);
      assert.ok(html.includes(`<a href="#op-${op.id}">`), `${op.id}: linked from the contents`);
      if (op.path.startsWith("/api/")) assert.match(section, /<pre class="code" data-lang="sh"><code>curl -s/, `${op.id}: curl`);
    }
  });

  test("every schema of components has a section", () => {
    for (const name of Object.keys((doc.components as Json).schemas as Json)) assert.ok(html.includes(`<section class="schema" id="schema-${name}">`), name);
  });

  test("every internal link resolves and ids are unique", () => {
    assert.deepEqual(brokenLinks(html), []);
    const all = ids(html);
    assert.deepEqual(all.filter((id, i) => all.indexOf(id) !== i), []);
  });

  test("the page has the conventions, the error codes and no external reference", () => {
    for (const id of ["authentication", "tenants", "idempotency", "cursors", "downloads", "webhooks", "limits", "errors"]) assert.ok(html.includes(`id="conventions-${id}"`), id);
    for (const c of ((doc.components as Json).schemas as Record<string, Json>).ErrorCode!.enum as string[]) assert.ok(html.includes(`id="error-${c}"`), c);
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//);
    assert.doesNotMatch(html, /<script|<link|<img|@import|url\(/i);
    const { tags, attributes } = markup(html);
    assert.deepEqual([...tags].filter((t) => !TAGS.has(t)), []);
    assert.deepEqual([...attributes].filter((a) => !ATTRIBUTES.has(a)), []);
  });

  test("curl examples carry the token, an Idempotency-Key on POST, a JSON body from the schema, and -sf -OJ on downloads", () => {
    const section = (id: string): string => html.slice(html.indexOf(`id="op-${id}"`), html.indexOf("</section>", html.indexOf(`id="op-${id}"`)));
    assert.match(section("createWebhook"), /-H &quot;X-API-Token: \$TOKEN&quot;[\s\S]*Idempotency-Key: \$\(node -e &#39;console\.log\(crypto\.randomUUID\(\)\)&#39;\)[\s\S]*-d &#39;\{&quot;url&quot;:&quot;https:\/\/example\.com\/hooks\/invoices&quot;,&quot;events&quot;:\[&quot;document\.created&quot;\]\}&#39;/);
    assert.match(section("createSubmission"), /-F xml=@invoice\.xml/);
    assert.match(section("getDocumentPdf"), /curl -sf -OJ[\s\S]*\/api\/v1\/documents\/doc_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T\/pdf/);
    assert.doesNotMatch(section("getOpenApi"), /X-API-Token/);
    // Operations open to any valid token, or to any one of several scopes, need the token all the same.
    assert.match(section("getToken"), /-H &quot;X-API-Token: \$TOKEN&quot;[\s\S]*\/api\/v1\/token/);
    assert.match(section("getToken"), /any valid token, no scope/);
    assert.match(section("getSummary"), /-H &quot;X-API-Token: \$TOKEN&quot;/);
    assert.match(section("deleteWebhook"), /-X DELETE/);
  });
});

describe("renderDocsPage() on hand-made documents", () => {
  const evil = `"'><script>alert(1)</script><img src=x onerror=alert(1)>&amp;`;
  const hostile: Json = {
    openapi: "3.1.0",
    info: { title: evil, version: evil, description: `${evil}\n\n\`${evil}\`` },
    tags: [{ name: evil, description: evil }],
    paths: {
      [`/api/v1/x/{id}/${evil}`]: {
        get: {
          operationId: `get"><b>${evil}`, tags: [evil], summary: evil, description: evil, security: [], "x-required-scope": evil,
          parameters: [{ name: evil, in: "path", required: true, description: evil, schema: { type: "string", pattern: evil, enum: [evil], examples: [evil] } }],
          responses: {
            [evil]: { description: evil, headers: { [evil]: { description: evil } }, content: { "application/json": { schema: { $ref: "#/components/schemas/Evil" } }, [evil]: { schema: { type: "string" } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Evil: {
          type: "object", description: evil, required: [evil],
          properties: { [evil]: { type: [evil, "null"], format: evil, description: evil, const: evil, default: evil }, nested: { type: "object", properties: { [evil]: { type: "string", description: evil } } } },
        },
      },
    },
  };

  test("nothing in the document can add a tag or an attribute (every string is escaped)", () => {
    const html = renderDocsPage(hostile);
    const { tags, attributes } = markup(html);
    assert.deepEqual([...tags].filter((t) => !TAGS.has(t)), []);
    assert.deepEqual([...attributes].filter((a) => !ATTRIBUTES.has(a)), []);
    assert.doesNotMatch(html, /<script|<img|<b>/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.deepEqual(brokenLinks(html), []);
  });

  test("deep inline objects nest in <details>, and cyclic $refs are links, not recursion", () => {
    let leaf: Json = { type: "object", properties: { value: { type: "string", description: "the bottom" } } };
    for (let i = 0; i < 8; i++) leaf = { type: "object", required: [`level${i}`], properties: { [`level${i}`]: i % 2 === 0 ? leaf : { type: "array", items: leaf } } };
    const doc: Json = {
      openapi: "3.1.0", info: { title: "T", version: "1" }, paths: {},
      components: {
        schemas: {
          Deep: leaf,
          A: { type: "object", properties: { b: { $ref: "#/components/schemas/B" }, list: { type: "array", items: { $ref: "#/components/schemas/A" } } } },
          B: { type: "object", properties: { a: { $ref: "#/components/schemas/A" } }, allOf: [{ $ref: "#/components/schemas/A" }] },
        },
      },
    };
    const html = renderDocsPage(doc);
    const deep = html.slice(html.indexOf('id="schema-Deep"'), html.indexOf("</section>", html.indexOf('id="schema-Deep"')));
    assert.equal(deep.match(/<details/g)?.length, 8);
    assert.equal(deep.match(/<details open>/g)?.length, 1);
    assert.match(deep, /Fields of each item of <code>level/);
    assert.match(deep, /the bottom/);
    assert.match(html, /<td class="ftype">array of <a href="#schema-A">A<\/a><\/td>/);
    assert.deepEqual(brokenLinks(html), []);
  });
});
