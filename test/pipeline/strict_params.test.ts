/**
 * Strict parameters (the conventions in /docs) through a real server: unknown
 * query parameters and body fields, and parameters of the other list mode, are
 * 400 naming the field; what OpenAPI documents is accepted; the README's table
 * says the same as the OpenAPI document.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { acceptedParameters } from "../../lib/pipeline/strict_params.ts";
import { errorOf } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";

describe("strict parameters", () => {
  let s: TestServer;
  let token: string;
  let hookId: string;
  before(async () => {
    s = await startServer({ webhooks: { allowPrivate: true } });
    token = (await s.token("acme")).token;
    const res = await s.fetch("/api/v1/webhooks", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "https://example.com/hook", events: ["document.created"] }) });
    hookId = ((await res.json()) as { id: string }).id;
  });
  after(() => s.close());

  const json = (method: string, body: unknown): RequestInit => ({ method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  const CASES = [
    { what: "sort without page", path: "/api/v1/documents?sort=-issue_date", field: "sort", issue: "applies to page mode only" },
    { what: "per_page without page", path: "/api/v1/documents?per_page=5", field: "per_page", issue: "applies to page mode only" },
    { what: "limit with page", path: "/api/v1/documents?page=1&limit=5", field: "limit", issue: "applies to cursor mode only" },
    { what: "a filter that submissions do not have", path: "/api/v1/submissions?status=rejected", field: "status", issue: "unknown parameter" },
    { what: "page mode on submissions", path: "/api/v1/submissions?page=1&per_page=2", field: "page", issue: "unknown parameter" },
    { what: "a misspelt filter", path: "/api/v1/documents?typ=invoice", field: "typ", issue: "unknown parameter" },
    { what: "a misspelt sync body field", path: "/api/v1/documents/sync", init: json("POST", { sourc: "inbox" }), field: "sourc", issue: "unknown parameter" },
    { what: "a repeated query parameter", path: "/api/v1/documents?limit=1&limit=abc", field: "limit", issue: "repeated parameter" },
    { what: "a repeated filter with the same value", path: "/api/v1/documents?page=1&type=invoice&type=invoice", field: "type", issue: "repeated parameter" },
    { what: "a duplicate key in a JSON body", path: "/api/v1/documents/sync", init: { method: "POST", headers: { "content-type": "application/json" }, body: '{"source": "inbox", "source": "erp"}' }, field: "source", issue: "duplicate key" },
    { what: "a duplicate key spelt with an escape, in a nested object", path: "/api/v1/webhooks", init: { method: "POST", headers: { "content-type": "application/json" }, body: '{"url": "https://example.com/h", "events": ["*"], "x": [{"a": 1, "\\u0061": 2}]}' }, field: "a", issue: "duplicate key" },
    { what: "a secret chosen by the client", path: "/api/v1/webhooks", init: json("POST", { url: "https://example.com/h", events: ["document.created"], secret: "mine" }), field: "secret", issue: "unknown parameter" },
  ];

  for (const c of CASES) {
    test(`${c.what} is 400 BAD_REQUEST with details.field and details.issue`, async () => {
      const error = await errorOf(await s.fetch(c.path, token, c.init), 400, "BAD_REQUEST");
      assert.deepEqual(error.details, { field: c.field, issue: c.issue });
    });
  }

  test("PATCH of a webhook with a field it does not take is 400 too, and changes nothing", async () => {
    const error = await errorOf(await s.fetch(`/api/v1/webhooks/${hookId}`, token, json("PATCH", { description: "x", secret: "mine" })), 400, "BAD_REQUEST");
    assert.deepEqual(error.details, { field: "secret", issue: "unknown parameter" });
    const hook = (await (await s.fetch(`/api/v1/webhooks/${hookId}`, token)).json()) as { description: string | null };
    assert.equal(hook.description, null);
  });

  test("every query parameter and body field the OpenAPI document lists is taken (never 'unknown parameter')", async () => {
    const doc = (await (await s.fetch("/api/v1/openapi.json", null)).json()) as Record<string, unknown>;
    const accepted = acceptedParameters(doc);
    assert.ok(accepted.size > 10);
    const ids: Record<string, string> = { "{id}": hookId, "{evt_id}": "evt_00000000000000000000000000" };
    for (const [key, takes] of accepted) {
      const [method, path] = key.split(" ") as [string, string];
      if (!path.startsWith("/api/v1/") || method === "DELETE") continue;
      const url = path.replace(/\{[a-z_]+\}/g, (m) => ids[m] ?? "x");
      for (const name of takes.query) {
        const res = await s.fetch(`${url}?${name}=1${["per_page", "sort"].includes(name) ? "&page=1" : ""}`, token, method === "GET" ? {} : { method });
        const text = await res.text();
        assert.doesNotMatch(text, /"issue":"unknown parameter"/, `${key} ${name}`);
      }
      for (const name of takes.body ?? []) {
        const res = await s.fetch(url, token, json(method, { [name]: null }));
        assert.doesNotMatch(await res.text(), /"issue":"unknown parameter"/, `${key} ${name}`);
      }
    }
  });

  test("the README lists what each endpoint takes, as the OpenAPI document does", async () => {
    const doc = (await (await s.fetch("/api/v1/openapi.json", null)).json()) as Record<string, unknown>;
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    for (const [key, takes] of acceptedParameters(doc)) {
      if (!key.includes("/api/v1/")) continue;
      const row = readme.split("\n").find((l) => l.startsWith(`| \`${key}\` |`));
      assert.ok(row, `README has a row for ${key}`);
      const [, , query, body] = row.split("|").map((c) => c.trim());
      const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();
      assert.deepEqual(names(query!), [...takes.query].sort(), `${key} query`);
      assert.deepEqual(names(body!), [...(takes.body ?? [])].sort(), `${key} body`);
    }
  });
});
