/**
 * The OpenAPI document (lib/api/openapi/) against the app it describes: it is
 * public, names exactly the routes of the router, resolves every reference,
 * and every real response (success, download and error, driven through a real
 * server) conforms to what the document gives for its route and status, body
 * and headers alike, checked with test/support/json_schema.ts.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import type { ApiRoute } from "../../lib/api/context.ts";
import { json } from "../../lib/http/respond.ts";
import { buildOpenApi } from "../../lib/api/openapi/document.ts";
import type { WebhookTransport } from "../../lib/jobs/webhooks/worker.ts";
import { checkSchema, collectRefs, resolveRef, validate, type Schema } from "../support/json_schema.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

type Json = Record<string, unknown>;
// Response bodies are checked against the schema first; after that the test reads them loosely.
type Body = any;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const SAMPLE_DIRS = ["ksef-fa2", "ksef-fa3", "ubl", "cii"];
const SAMPLES = SAMPLE_DIRS.flatMap((dir) =>
  readdirSync(fixturePath("samples", dir)).filter((f) => f.endsWith(".xml")).sort().map((f) => ({ name: `${dir}_${f}`, bytes: readFileSync(fixturePath("samples", dir, f)) })),
);
const UPO = readFileSync(fixturePath("samples", "ksef-upo", "upo-v4-3_faktura-kontekst-nip.xml"));
const PEPPOL = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"));
const FA3 = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"));
const UNKNOWN = { doc: "doc_00000000000000000000000000", sub: "sub_00000000000000000000000000", sync: "sync_00000000000000000000000000", whk: "whk_00000000000000000000000000" };

/** `v` with `$ref`s followed. */
function deref(doc: Json, v: unknown): Json {
  let node = v;
  while (node !== null && typeof node === "object" && typeof (node as Json).$ref === "string") node = resolveRef(doc, (node as Json).$ref as string);
  return node as Json;
}

/** The response object the document gives for an operation and status. */
function documented(doc: Json, method: string, path: string, status: number): Json {
  const op = (doc.paths as Record<string, Record<string, Json> | undefined>)[path]?.[method.toLowerCase()];
  assert.ok(op, `${method} ${path} is in the document`);
  const res = (op.responses as Json)[String(status)];
  assert.ok(res, `${method} ${path} documents status ${status}`);
  return deref(doc, res);
}

/** A header value as its schema types it: Retry-After and Content-Length are integers. */
function _headerValue(schema: Json, raw: string): unknown {
  return schema.type === "integer" && /^\d+$/.test(raw) ? Number(raw) : raw;
}

/** Checks `res` against a response object: required and present headers, media type, body; returns the parsed body. */
async function conform(doc: Json, res: Response, response: Json, what: string): Promise<Body> {
  for (const [name, h] of Object.entries((response.headers ?? {}) as Json)) {
    const header = deref(doc, h);
    const raw = res.headers.get(name);
    if (raw === null) {
      assert.ok(header.required !== true, `${what}: the required header ${name} is missing`);
      continue;
    }
    const schema = header.schema as Schema;
    assert.deepEqual(validate(schema, _headerValue(deref(doc, schema), raw), doc), [], `${what}: header ${name}: ${raw}`);
  }
  const text = await res.text();
  const content = response.content as Record<string, Json> | undefined;
  if (!content) {
    assert.equal(text, "", `${what}: no body`);
    return null;
  }
  const media = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
  const entry = content[media];
  assert.ok(entry, `${what}: content type ${media} is one of ${Object.keys(content).join(", ")}`);
  if (media !== "application/json") return text;
  const body = JSON.parse(text) as Body;
  assert.deepEqual(validate(entry.schema as Schema, body, doc), [], `${what}: ${text.slice(0, 400)}`);
  if (body && typeof body === "object" && "error" in body) assert.equal(body.error.request_id, res.headers.get("x-request-id"), `${what}: request ids`);
  return body;
}

/** Checks `res` against the document's response for `method path` and its status. */
function check(doc: Json, res: Response, method: string, path: string): Promise<Body> {
  return conform(doc, res, documented(doc, method, path, res.status), `${method} ${path} → ${res.status}`);
}

/** `res` must have `status` and `code`, and conform. */
async function checkError(doc: Json, res: Response, method: string, path: string, status: number, code: string): Promise<Body> {
  assert.equal(res.status, status, `${method} ${path}`);
  const body = await check(doc, res, method, path);
  assert.equal(body.error.code, code);
  return body;
}

function upload(s: TestServer, token: string | null, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.append("xml", new Blob([new Uint8Array(bytes)], { type: "application/xml" }), "invoice.xml");
  return s.fetch("/api/v1/submissions", token, { method: "POST", body: form, headers });
}

function postJson(s: TestServer, path: string, token: string | null, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return s.fetch(path, token, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

describe("the OpenAPI document", () => {
  let s: TestServer;
  let doc: Json;
  let token: string;
  const deliveries: { headers: Record<string, string>; body: string }[] = [];
  const transport: WebhookTransport = async (req) => {
    deliveries.push({ headers: req.headers, body: req.body });
    return { status: 200, retryAfter: null };
  };

  before(async () => {
    s = await startServer({ webhooks: { allowPrivate: true, transport, schedule: [1000] } });
    token = (await s.token("acme")).token;
    const res = await s.fetch("/api/v1/openapi.json", null);
    doc = (await res.clone().json()) as Json;
    await check(doc, res, "GET", "/api/v1/openapi.json");
  });
  after(() => s.close());

  test("GET /api/v1/openapi.json answers without a token with an OpenAPI 3.1.0 document", async () => {
    const res = await s.fetch("/api/v1/openapi.json", null);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    const body = (await check(doc, res, "GET", "/api/v1/openapi.json")) as Json;
    assert.equal(body.openapi, "3.1.0");
    assert.deepEqual(body, doc);
  });

  test("every route of the app is an operation of the document and every operation a route", () => {
    const routes = new Set(s.app.routes.map((r) => `${r.method.toLowerCase()} ${r.pattern.replace(/:([A-Za-z_]+)/g, "{$1}")}`));
    const operations = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const m of Object.keys(item)) if (METHODS.includes(m)) operations.add(`${m} ${path}`);
    }
    const ops = ["get /healthz", "get /readyz", "get /metrics", "get /docs"];
    assert.deepEqual([...operations].sort(), [...routes, ...ops].sort());
    assert.equal(routes.size, s.app.routes.length);
    for (const r of s.app.routes) {
      const op = (doc.paths as Record<string, Record<string, Json>>)[r.pattern.replace(/:([A-Za-z_]+)/g, "{$1}")]![r.method.toLowerCase()]!;
      // An empty list of scopes: any valid token (a requirement with no scopes), unlike a public route's [].
      const security = r.scope === null ? [] : typeof r.scope === "string" ? [{ ApiToken: [r.scope] }]
        : r.scope.length === 0 ? [{ ApiToken: [] }] : r.scope.map((sc) => ({ ApiToken: [sc] }));
      assert.deepEqual(op.security, security, `${r.method} ${r.pattern}: scope`);
    }
  });

  test("the document resolves every reference and uses only what the validator checks", () => {
    const refs = collectRefs(doc);
    assert.ok(refs.length > 100);
    for (const { ref, at } of refs) assert.doesNotThrow(() => resolveRef(doc, ref), `${ref} at ${at}`);
    const components = doc.components as Record<string, Record<string, Json>>;
    for (const [name, schema] of Object.entries(components.schemas!)) checkSchema(schema, `#/components/schemas/${name}`);
    for (const [name, p] of Object.entries(components.parameters!)) checkSchema(p.schema as Schema, `#/components/parameters/${name}`);
    for (const [name, h] of Object.entries(components.headers!)) checkSchema(h.schema as Schema, `#/components/headers/${name}`);
    const ids = new Set<string>();
    const operations = [
      ...Object.entries(doc.paths as Record<string, Json>).map(([path, item]) => [path, item] as const),
      ...Object.entries(doc.webhooks as Record<string, Json>).map(([name, item]) => [name, item] as const),
    ];
    for (const [path, item] of operations) {
      for (const [method, o] of Object.entries(item)) {
        const op = o as Json;
        const where = `${method} ${path}`;
        assert.ok(typeof op.operationId === "string" && !ids.has(op.operationId), `${where}: unique operationId`);
        ids.add(op.operationId as string);
        if (path.startsWith("/")) assert.ok(Array.isArray(op.security), `${where}: security`);
        const params = ((op.parameters ?? []) as Json[]).map((p) => deref(doc, p));
        for (const p of params) checkSchema(p.schema as Schema, where);
        for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
          assert.ok(params.some((p) => p.in === "path" && p.name === name && p.required === true), `${where}: path parameter ${name}`);
        }
        const body = op.requestBody as Json | undefined;
        for (const media of Object.values((body?.content ?? {}) as Record<string, Json>)) checkSchema(media.schema as Schema, `${where} request`);
        const responses = Object.entries(op.responses as Json);
        assert.ok(responses.length > 0, `${where}: responses`);
        for (const [status, r] of responses) {
          const res = deref(doc, r);
          assert.equal(typeof res.description, "string", `${where} ${status}: description`);
          for (const media of Object.values((res.content ?? {}) as Record<string, Json>)) checkSchema(media.schema as Schema, `${where} ${status}`);
        }
      }
    }
    const scheme = (doc.components as Json).securitySchemes as Record<string, Json>;
    assert.deepEqual(scheme.ApiToken, { ...scheme.ApiToken, type: "apiKey", in: "header", name: "X-API-Token" });
    assert.deepEqual((doc.paths as Record<string, Record<string, Json>>)["/api/v1/openapi.json"]!.get!.security, []);
  });

  test("buildOpenApi() throws a TypeError when a route and its operation disagree", () => {
    const extra = { method: "GET", pattern: "/api/v1/extra", scope: null, handle: async () => json(200, {}) } as unknown as ApiRoute;
    assert.throws(() => buildOpenApi([...s.app.routes, extra]), { name: "TypeError", message: /GET \/api\/v1\/extra has no OpenAPI operation/ });
    const get = s.app.routes.find((r) => r.method === "GET" && r.pattern === "/api/v1/webhooks/:id")!;
    const noParam = { ...get, openapi: { ...get.openapi, params: [] } } as ApiRoute;
    assert.throws(() => buildOpenApi([...s.app.routes.filter((r) => r !== get), noParam]), { name: "TypeError", message: /has no path parameter id/ });
    const withoutBody = s.app.routes.map((r) => (r.method === "POST" && r.scope !== null ? { ...r, body: undefined } as unknown as ApiRoute : r));
    assert.throws(() => buildOpenApi(withoutBody), { name: "TypeError", message: /reads a no body, its operation names a json request body/ });
    const noSchema = s.app.routes.map((r) => (r.scope !== null && r.body === "json" ? { ...r, openapi: { ...r.openapi, requestBody: undefined } } as unknown as ApiRoute : r));
    assert.throws(() => buildOpenApi(noSchema), { name: "TypeError", message: /names no request schema/ });
    assert.throws(() => buildOpenApi([...s.app.routes, s.app.routes[0]!]), { name: "TypeError", message: /twice/ });
  });

  test("the validator rejects bodies that break the schema", () => {
    const schemas = (doc.components as Record<string, Json>).schemas!;
    const good = {
      id: "doc_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T", source: "inbox", external_id: "A", format: "ubl", type: "invoice", number: "1",
      issue_date: "2026-11-20", currency: "EUR", seller: { name: "S", tax_id: "1" }, buyer: null,
      totals: { net: "1000.00", tax: "230.00", gross: "1230.00" }, ksef_number: null, xml_available: true, sha256: "a".repeat(64), size: 10,
      received_at: null, synced_at: "2026-11-21T08:00:00.000Z", updated_at: "2026-11-21T08:00:00.000Z",
      links: { self: "/api/v1/documents/doc_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T", xml: "/api/v1/documents/doc_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T/xml", pdf: "/api/v1/documents/doc_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T/pdf" },
    };
    const error = { error: { code: "NOT_FOUND", message: "Document not found", details: {}, request_id: "req_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T" } };
    const cases: { what: string; schema: string; input: unknown; expected: RegExp | null }[] = [
      { what: "a valid document", schema: "Document", input: good, expected: null },
      { what: "money as a JSON number", schema: "Document", input: { ...good, totals: { ...good.totals, gross: 1230 } }, expected: /totals\.gross: expected string or null/ },
      { what: "money in exponent form", schema: "Document", input: { ...good, totals: { ...good.totals, net: "1e3" } }, expected: /does not match/ },
      { what: "a missing field", schema: "Document", input: { ...good, sha256: undefined }, expected: /missing sha256/ },
      { what: "an extra field", schema: "Document", input: { ...good, secret: "x" }, expected: /unexpected property secret/ },
      { what: "a time without milliseconds", schema: "Document", input: { ...good, synced_at: "2026-11-21T08:00:00Z" }, expected: /synced_at/ },
      { what: "an unknown format", schema: "Document", input: { ...good, format: "pdf" }, expected: /not one of/ },
      { what: "an id of another type", schema: "Document", input: { ...good, id: "sub_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T" }, expected: /\$\.id/ },
      { what: "a valid error", schema: "NotFoundError", input: error, expected: null },
      { what: "an error with another code", schema: "NotFoundError", input: { error: { ...error.error, code: "FORBIDDEN" } }, expected: /expected "NOT_FOUND"/ },
      { what: "an error code outside the list", schema: "Error", input: { error: { ...error.error, code: "TEAPOT" } }, expected: /not one of/ },
      { what: "an error with a second top-level key", schema: "Error", input: { ...error, status: 404 }, expected: /unexpected property status/ },
      { what: "FORBIDDEN without required_scope", schema: "ForbiddenError", input: { error: { ...error.error, code: "FORBIDDEN" } }, expected: /missing required_scope/ },
      { what: "a feed page with a null next_cursor", schema: "DocumentList", input: { data: [], next_cursor: null, has_more: false }, expected: /none of oneOf/ },
      { what: "a page with both modes' keys", schema: "DocumentList", input: { data: [], next_cursor: "a", has_more: false, page: 1 }, expected: /none of oneOf/ },
      { what: "a webhook that shows its secret", schema: "Webhook", input: { id: "whk_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T", url: "https://x.example/", events: ["*"], description: null, status: "enabled", secret: "whsec_AA==", created_at: "2026-11-21T08:00:00.000Z" }, expected: /unexpected property secret/ },
    ];
    for (const c of cases) {
      const input = JSON.parse(JSON.stringify(c.input)) as unknown; // drops the undefined member
      const errors = validate(schemas[c.schema] as Schema, input, doc);
      if (c.expected === null) assert.deepEqual(errors, [], c.what);
      else assert.ok(errors.some((e) => c.expected!.test(e)), `${c.what}: ${errors.join("; ") || "no error"}`);
    }
    assert.throws(() => checkSchema({ type: "string", minContains: 1 }), /Unsupported keyword minContains/);
  });

  test("webhook endpoints, their errors and a deleted endpoint conform", async () => {
    const path = "/api/v1/webhooks";
    const kept = await check(doc, await postJson(s, path, token, { url: "http://127.0.0.1:9/hook", events: ["*"], description: "all" }), "POST", path);
    assert.match(kept.secret, /^whsec_/);
    const other = await check(doc, await postJson(s, path, token, { url: "https://example.com/hook", events: ["document.created"] }), "POST", path);
    const list = await check(doc, await s.fetch(path, token), "GET", path);
    assert.equal(list.data.length, 2);
    const one = await check(doc, await s.fetch(`${path}/${other.id}`, token), "GET", `${path}/{id}`);
    assert.equal(one.secret, undefined);
    assert.equal((await s.fetch(`${path}/${other.id}`, token, { method: "DELETE" })).status, 204);
    await checkError(doc, await s.fetch(`${path}/${other.id}`, token), "GET", `${path}/{id}`, 404, "NOT_FOUND");
    const deleted = await s.fetch(`${path}/${other.id}`, token, { method: "DELETE" });
    await checkError(doc, deleted, "DELETE", `${path}/{id}`, 404, "NOT_FOUND");
    const res204 = await s.fetch(`${path}/${(await check(doc, await postJson(s, path, token, { url: "https://e.example/", events: ["*"] }), "POST", path)).id}`, token, { method: "DELETE" });
    await check(doc, res204, "DELETE", `${path}/{id}`);
    const bad = await checkError(doc, await postJson(s, path, token, { url: "ftp://example.com/", events: ["*"] }), "POST", path, 422, "VALIDATION_ERROR");
    assert.equal(bad.error.details.field, "url");
    await checkError(doc, await postJson(s, path, token, { url: "https://example.com/", events: ["nope"] }), "POST", path, 422, "VALIDATION_ERROR");
    await checkError(doc, await s.fetch(path, token, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }), "POST", path, 415, "UNSUPPORTED_MEDIA_TYPE");
    await checkError(doc, await s.fetch(path, token, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }), "POST", path, 400, "BAD_REQUEST");
    const readOnly = (await s.token("acme", ["webhooks:read"])).token;
    const forbidden = await checkError(doc, await postJson(s, path, readOnly, { url: "https://e.example/", events: ["*"] }), "POST", path, 403, "FORBIDDEN");
    assert.equal(forbidden.error.details.required_scope, "webhooks:write");
    await checkError(doc, await s.fetch(`${path}/${UNKNOWN.whk}`, null, { method: "DELETE" }), "DELETE", `${path}/{id}`, 401, "UNAUTHENTICATED");
  });

  test("PATCH, the deliveries list and retry-now conform", async () => {
    const path = "/api/v1/webhooks";
    const tenant = (await s.token("deliveries")).token;
    const hook = await check(doc, await postJson(s, path, tenant, { url: "http://127.0.0.1:9/hook", events: ["submission.created"] }), "POST", path);
    await upload(s, tenant, FA3);
    await s.app.webhooks!.runOnce();
    const shown = await check(doc, await s.fetch(`${path}/${hook.id}`, tenant), "GET", `${path}/{id}`);
    assert.equal(typeof shown.last_success_at, "string");
    const list = await check(doc, await s.fetch(`${path}/${hook.id}/deliveries?limit=1`, tenant), "GET", `${path}/{id}/deliveries`);
    assert.equal(list.data.length, 1);
    await checkError(doc, await s.fetch(`${path}/${hook.id}/deliveries?cursor=x`, tenant), "GET", `${path}/{id}/deliveries`, 400, "BAD_REQUEST");
    await checkError(doc, await s.fetch(`${path}/${UNKNOWN.whk}/deliveries`, tenant), "GET", `${path}/{id}/deliveries`, 404, "NOT_FOUND");
    const retry = `${path}/{id}/deliveries/{evt_id}/retry`;
    await check(doc, await s.fetch(`${path}/${hook.id}/deliveries/${list.data[0].event_id}/retry`, tenant, { method: "POST" }), "POST", retry);
    await checkError(doc, await s.fetch(`${path}/${hook.id}/deliveries/evt_00000000000000000000000000/retry`, tenant, { method: "POST" }), "POST", retry, 404, "NOT_FOUND");
    const patch = (body: unknown) => s.fetch(`${path}/${hook.id}`, tenant, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const changed = await check(doc, await patch({ description: "changed", status: "disabled" }), "PATCH", `${path}/{id}`);
    assert.equal(changed.status, "disabled");
    await checkError(doc, await patch({ status: "paused" }), "PATCH", `${path}/{id}`, 422, "VALIDATION_ERROR");
    await checkError(doc, await s.fetch(`${path}/${hook.id}`, tenant, { method: "PATCH", headers: { "content-type": "application/json" }, body: "{" }), "PATCH", `${path}/{id}`, 400, "BAD_REQUEST");
  });

  test("submissions of every sample, their feed, downloads and errors conform", async () => {
    const path = "/api/v1/submissions";
    const statuses = new Set<number>();
    for (const sample of SAMPLES) {
      const res = await upload(s, token, sample.bytes);
      statuses.add(res.status);
      await check(doc, res, "POST", path);
    }
    assert.deepEqual([...statuses].sort(), [201, 409, 422], "accepted, duplicate and invalid (test/support/invalid_samples.ts) submissions");
    const first = (await s.fetch(`${path}?limit=1`, token).then((r) => check(doc, r, "GET", path))).data[0];
    let cursor: string | null = null;
    let seen = 0;
    for (;;) {
      // expand=invoice: every sample's whole invoice is checked against the Invoice schema (README “The invoice object”).
      const page: Body = await check(doc, await s.fetch(`${path}?limit=7&expand=invoice${cursor ? `&cursor=${cursor}` : ""}`, token), "GET", path);
      seen += page.data.length;
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    assert.ok(seen > 30);
    await check(doc, await s.fetch(`${path}/${first.id}`, token), "GET", `${path}/{id}`);
    const xml = await s.fetch(`${path}/${first.id}/xml`, token);
    const etag = xml.headers.get("etag")!;
    await check(doc, xml, "GET", `${path}/{id}/xml`);
    await check(doc, await s.fetch(`${path}/${first.id}/xml`, token, { headers: { "if-none-match": etag } }), "GET", `${path}/{id}/xml`);
    const partial = await s.fetch(`${path}/${first.id}/xml`, token, { headers: { range: "bytes=0-9" } });
    assert.equal(partial.status, 206);
    await check(doc, partial, "GET", `${path}/{id}/xml`);
    const unsatisfiable = await s.fetch(`${path}/${first.id}/xml`, token, { headers: { range: "bytes=999999999-" } });
    assert.equal(unsatisfiable.status, 416);
    await check(doc, unsatisfiable, "GET", `${path}/{id}/xml`);
    const pdf = await s.fetch(`${path}/${first.id}/pdf?lang=en`, token);
    assert.equal(pdf.status, 200);
    await check(doc, pdf, "GET", `${path}/{id}/pdf`);
    await checkError(doc, await s.fetch(`${path}/${first.id}/pdf?lang=xx`, token), "GET", `${path}/{id}/pdf`, 400, "BAD_REQUEST");
    for (const suffix of ["", "/xml", "/pdf"]) {
      await checkError(doc, await s.fetch(`${path}/${UNKNOWN.sub}${suffix}`, token), "GET", `${path}/{id}${suffix}`, 404, "NOT_FOUND");
    }
    await checkError(doc, await s.fetch(`${path}?cursor=tampered`, token), "GET", path, 400, "BAD_REQUEST");
    await checkError(doc, await s.fetch(`${path}?limit=501`, token), "GET", path, 400, "BAD_REQUEST");
    await checkError(doc, await s.fetch(path, null), "GET", path, 401, "UNAUTHENTICATED");
  });

  test("submission errors and idempotent replays conform", async () => {
    const path = "/api/v1/submissions";
    const { token: fresh } = await s.token("replay");
    const key = crypto.randomUUID();
    const first = await upload(s, fresh, PEPPOL, { "idempotency-key": key });
    const created = await check(doc, first, "POST", path);
    assert.equal(first.headers.get("location"), `${path}/${created.id}`);
    const replay = await upload(s, fresh, PEPPOL, { "idempotency-key": key });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await check(doc, replay, "POST", path), created);
    await checkError(doc, await upload(s, fresh, FA3, { "idempotency-key": key }), "POST", path, 422, "IDEMPOTENCY_KEY_MISMATCH");
    await checkError(doc, await upload(s, fresh, FA3, { "idempotency-key": "not-a-uuid" }), "POST", path, 400, "BAD_REQUEST");
    const dup = await checkError(doc, await upload(s, fresh, PEPPOL), "POST", path, 409, "DUPLICATE_SUBMISSION");
    assert.equal(dup.error.details.existing_id, created.id);
    const form = new FormData();
    form.append("note", "no xml here");
    await checkError(doc, await s.fetch(path, fresh, { method: "POST", body: form }), "POST", path, 422, "VALIDATION_ERROR");
    await checkError(doc, await upload(s, fresh, UPO), "POST", path, 422, "VALIDATION_ERROR");
    await checkError(doc, await upload(s, fresh, new TextEncoder().encode("<Invoice>")), "POST", path, 422, "VALIDATION_ERROR");
    await checkError(doc, await s.fetch(path, fresh, { method: "POST", headers: { "content-type": "application/xml" }, body: PEPPOL }), "POST", path, 415, "UNSUPPORTED_MEDIA_TYPE");
    const malformed = await s.fetch(path, fresh, { method: "POST", headers: { "content-type": "multipart/form-data; boundary=xyz" }, body: "this is not multipart" });
    await checkError(doc, malformed, "POST", path, 400, "BAD_REQUEST");
    const readOnly = (await s.token("replay", ["submissions:read"])).token;
    await checkError(doc, await upload(s, readOnly, PEPPOL), "POST", path, 403, "FORBIDDEN");
  });

  test("a sync run, every sample as a document, the list in both modes, downloads and errors conform", async () => {
    for (const sample of SAMPLES) s.drop("acme", sample.name, sample.bytes);
    s.drop("acme", "upo.xml", UPO);
    s.drop("acme", "pending.json", JSON.stringify({ type: "invoice", number: "P/1", issue_date: "2026-11-20", totals: { gross: "12.30" }, received_at: "2026-11-20T10:00:00Z" }));
    const sync = "/api/v1/documents/sync";
    const requested = await s.fetch(sync, token, { method: "POST" });
    assert.equal(requested.status, 202);
    const run = await check(doc, requested, "POST", sync);
    assert.equal(requested.headers.get("location"), `${sync}/${run.id}`);
    await s.app.sync.idle();
    const done = await check(doc, await s.fetch(`${sync}/${run.id}`, token), "GET", `${sync}/{id}`);
    assert.equal(done.status, "succeeded");
    assert.equal(done.counts.created, SAMPLES.length + 1);
    assert.equal(done.counts.failed, 1);
    await checkError(doc, await s.fetch(`${sync}/${UNKNOWN.sync}`, token), "GET", `${sync}/{id}`, 404, "NOT_FOUND");
    await checkError(doc, await postJson(s, sync, token, { source: "nowhere" }), "POST", sync, 422, "VALIDATION_ERROR");
    await checkError(doc, await s.fetch(sync, token, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }), "POST", sync, 415, "UNSUPPORTED_MEDIA_TYPE");
    await checkError(doc, await s.fetch(sync, token, { method: "POST", headers: { "content-type": "application/json" }, body: "[1" }), "POST", sync, 400, "BAD_REQUEST");
    await checkError(doc, await s.fetch(sync, (await s.token("acme", ["documents:read"])).token, { method: "POST" }), "POST", sync, 403, "FORBIDDEN");

    const path = "/api/v1/documents";
    const feed = await check(doc, await s.fetch(`${path}?limit=500&expand=invoice`, token), "GET", path);
    assert.equal(feed.data.length, SAMPLES.length + 1);
    assert.equal(feed.has_more, false);
    const page = await check(doc, await s.fetch(`${path}?page=2&per_page=5&sort=synced_at&type=invoice&xml_available=true`, token), "GET", path);
    assert.equal(page.page, 2);
    await check(doc, await s.fetch(`${path}?format=cii&issue_date_from=2000-01-01&issue_date_to=2100-12-31&limit=3`, token), "GET", path);
    for (const query of ["limit=0", "limit=501", "per_page=201&page=1", "page=0", "page=1&cursor=abc", "sort=size&page=1", "type=bill", "issue_date_from=2024-02-30", "xml_available=yes", "cursor=tampered", "page=101&per_page=100"]) {
      const bad = await checkError(doc, await s.fetch(`${path}?${query}`, token), "GET", path, 400, "BAD_REQUEST");
      assert.equal(typeof bad.error.details.field, "string");
    }
    const pending = feed.data.find((d: Body) => d.external_id === "pending");
    assert.equal(pending.xml_available, false);
    await check(doc, await s.fetch(`${path}/${pending.id}`, token), "GET", `${path}/{id}`);
    for (const suffix of ["/xml", "/pdf"]) {
      await checkError(doc, await s.fetch(`${path}/${pending.id}${suffix}`, token), "GET", `${path}/{id}${suffix}`, 404, "XML_NOT_AVAILABLE");
      await checkError(doc, await s.fetch(`${path}/${UNKNOWN.doc}${suffix}`, token), "GET", `${path}/{id}${suffix}`, 404, "NOT_FOUND");
    }
    await checkError(doc, await s.fetch(`${path}/${UNKNOWN.doc}`, token), "GET", `${path}/{id}`, 404, "NOT_FOUND");
    const withXml = feed.data.find((d: Body) => d.xml_available && /[^\x20-\x7e]/.test(d.number ?? "")) ?? feed.data[0];
    const xml = await s.fetch(`${path}/${withXml.id}/xml`, token);
    const etag = xml.headers.get("etag")!;
    await check(doc, xml, "GET", `${path}/{id}/xml`);
    await check(doc, await s.fetch(`${path}/${withXml.id}/xml`, token, { headers: { "if-none-match": etag } }), "GET", `${path}/{id}/xml`);
    const partial = await s.fetch(`${path}/${withXml.id}/xml`, token, { headers: { range: "bytes=-10" } });
    assert.equal(partial.status, 206);
    await check(doc, partial, "GET", `${path}/{id}/xml`);
    const pdf = await s.fetch(`${path}/${withXml.id}/pdf`, token);
    assert.equal(pdf.status, 200);
    await check(doc, pdf, "GET", `${path}/{id}/pdf`);
    await check(doc, await s.fetch(`${path}/${withXml.id}/pdf`, token, { headers: { range: "bytes=5-1" } }), "GET", `${path}/{id}/pdf`);
    await checkError(doc, await s.fetch(`${path}/${withXml.id}`, (await s.token("acme", ["submissions:read"])).token), "GET", `${path}/{id}`, 403, "FORBIDDEN");
  });

  test("webhook deliveries conform to the document's webhooks section", async () => {
    await upload(s, token, readFileSync(fixturePath("samples", "cii", "mustang_facturFrMinimum.xml")));
    deliveries.length = 0;
    await s.app.webhooks!.runOnce();
    const hooks = doc.webhooks as Record<string, Record<string, Json>>;
    const types = new Set<string>();
    for (const d of deliveries) {
      const body = JSON.parse(d.body) as { type: string };
      types.add(body.type);
      const op = hooks[body.type]?.post;
      assert.ok(op, `${body.type} is described`);
      const schema = ((op.requestBody as Json).content as Record<string, Json>)["application/json"]!.schema as Schema;
      assert.deepEqual(validate(schema, body, doc), [], d.body.slice(0, 300));
      for (const p of op.parameters as Json[]) {
        assert.deepEqual(validate(p.schema as Schema, d.headers[p.name as string], doc), [], `${p.name as string}: ${d.headers[p.name as string]}`);
      }
    }
    assert.deepEqual([...types].sort(), ["document.created", "submission.created", "sync.completed"]);
  });

  test("405, unknown paths, bad correlation ids and the public endpoints conform", async () => {
    const responses = (doc.components as Record<string, Record<string, Json>>).responses!;
    const notAllowed = await s.fetch("/api/v1/documents", token, { method: "PUT" });
    assert.equal(notAllowed.status, 405);
    const body = await conform(doc, notAllowed, deref(doc, responses.MethodNotAllowed), "PUT /api/v1/documents");
    assert.equal(body.error.code, "METHOD_NOT_ALLOWED");
    assert.equal(notAllowed.headers.get("allow"), "GET, HEAD");
    const opsNotAllowed = await s.fetch("/healthz", null, { method: "POST" });
    assert.equal(opsNotAllowed.status, 405);
    await conform(doc, opsNotAllowed, deref(doc, responses.MethodNotAllowed), "POST /healthz");
    const unknown = await s.fetch("/api/v1/nothing/here", token);
    assert.equal(unknown.status, 404);
    assert.equal((await conform(doc, unknown, deref(doc, responses.NotFound), "GET /api/v1/nothing/here")).error.code, "NOT_FOUND");
    const correlated = await s.fetch("/api/v1/webhooks", token, { headers: { "x-correlation-id": "abc-123" } });
    assert.equal(correlated.headers.get("x-correlation-id"), "abc-123");
    await check(doc, correlated, "GET", "/api/v1/webhooks");
    const badCorrelation = await checkError(doc, await s.fetch("/api/v1/webhooks", token, { headers: { "x-correlation-id": "x".repeat(129) } }), "GET", "/api/v1/webhooks", 400, "BAD_REQUEST");
    assert.equal(badCorrelation.error.details.field, "X-Correlation-Id");
    await checkError(doc, await s.fetch("/api/v1/openapi.json", null, { headers: { "x-correlation-id": "x".repeat(129) } }), "GET", "/api/v1/openapi.json", 400, "BAD_REQUEST");
    const me = await check(doc, await s.fetch("/api/v1/token", token), "GET", "/api/v1/token");
    assert.equal(me.tenant, "acme");
    await checkError(doc, await s.fetch("/api/v1/token", null), "GET", "/api/v1/token", 401, "UNAUTHENTICATED");
    assert.equal((await check(doc, await s.fetch("/healthz", null), "GET", "/healthz")).status, "ok");
    assert.equal((await check(doc, await s.fetch("/readyz", null), "GET", "/readyz")).status, "ready");
    const metrics = await s.fetch("/metrics", null);
    assert.equal(metrics.status, 200);
    assert.match(await check(doc, metrics, "GET", "/metrics"), /# TYPE/);
    const docs = await s.fetch("/docs", null);
    assert.match(await check(doc, docs, "GET", "/docs"), /^<!doctype html>/);
    const unchanged = await s.fetch("/docs", null, { headers: { "if-none-match": docs.headers.get("etag")! } });
    assert.equal(unchanged.status, 304);
    await check(doc, unchanged, "GET", "/docs");
  });
});

describe("the OpenAPI document under limits", () => {
  let s: TestServer;
  let doc: Json;
  before(async () => {
    s = await startServer({ rateLimit: { requests: 1, windowMs: 60_000, burst: 1 }, jsonLimit: 64, uploadLimit: 4096 });
    doc = (await (await s.fetch("/api/v1/openapi.json", null)).json()) as Json;
  });
  after(() => s.close());

  test("413, 429 with Retry-After and the RateLimit headers, and 503 while draining conform", async () => {
    const big = await postJson(s, "/api/v1/webhooks", (await s.token()).token, { url: "https://example.com/", events: ["*"], description: "x".repeat(100) });
    assert.ok(big.headers.get("ratelimit-policy"));
    const tooLarge = await checkError(doc, big, "POST", "/api/v1/webhooks", 413, "PAYLOAD_TOO_LARGE");
    assert.equal(tooLarge.error.details.limit_bytes, 64);
    await checkError(doc, await upload(s, (await s.token()).token, PEPPOL), "POST", "/api/v1/submissions", 413, "PAYLOAD_TOO_LARGE");
    const { token } = await s.token();
    await check(doc, await s.fetch("/api/v1/webhooks", token), "GET", "/api/v1/webhooks");
    const limited = await s.fetch("/api/v1/webhooks", token);
    await checkError(doc, limited, "GET", "/api/v1/webhooks", 429, "RATE_LIMITED");
    assert.ok(Number(limited.headers.get("retry-after")) >= 1);
    s.app.drain();
    await checkError(doc, await s.fetch("/api/v1/documents", (await s.token()).token), "GET", "/api/v1/documents", 503, "SERVICE_UNAVAILABLE");
    await checkError(doc, await s.fetch("/readyz", null), "GET", "/readyz", 503, "SERVICE_UNAVAILABLE");
  });
});

describe("the OpenAPI document on operator detail", () => {
  const warning = "KSeF source ksef of tenant acme: a certificate ends in 3 days";
  let s: TestServer;
  let doc: Json;
  before(async () => {
    s = await startServer({ storage: "memory", warnings: () => [warning], ops: { allow: "10.0.0.0/8", token: "ops-token-0123456789abcdef" } });
    doc = (await (await s.fetch("/api/v1/openapi.json", null)).json()) as Json;
  });
  after(() => s.close());

  test("/readyz with and without the warnings' text and the 403 of /metrics conform", async () => {
    assert.deepEqual(await check(doc, await s.fetch("/readyz", null), "GET", "/readyz"), { status: "ready", warning_count: 1 });
    const operator = { headers: { authorization: "Bearer ops-token-0123456789abcdef" } };
    assert.deepEqual(await check(doc, await s.fetch("/readyz", null, operator), "GET", "/readyz"), { status: "ready", warning_count: 1, warnings: [warning] });
    await checkError(doc, await s.fetch("/metrics", null), "GET", "/metrics", 403, "FORBIDDEN");
    assert.match(await check(doc, await s.fetch("/metrics", null, operator), "GET", "/metrics"), /# TYPE/);
  });
});
