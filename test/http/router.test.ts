import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRouter, type RouteDef } from "../../lib/http/router.ts";

const ROUTES: RouteDef<string>[] = [
  { method: "GET", pattern: "/api/v1/documents", data: "list" },
  { method: "GET", pattern: "/api/v1/documents/:id", data: "get" },
  { method: "GET", pattern: "/api/v1/documents/:id/xml", data: "xml" },
  { method: "POST", pattern: "/api/v1/documents/sync", data: "sync" },
  { method: "GET", pattern: "/api/v1/documents/sync/:id", data: "run" },
  { method: "POST", pattern: "/api/v1/webhooks", data: "create-hook" },
  { method: "DELETE", pattern: "/api/v1/webhooks/:id", data: "delete-hook" },
  { method: "GET", pattern: "/api/v1/webhooks/:id", data: "get-hook" },
];

const router = createRouter(ROUTES);

describe("createRouter().match()", () => {
  test("finds routes with their parameters", () => {
    const cases = [
      { what: "a static path", input: ["GET", "/api/v1/documents"], expected: { data: "list", params: {} } },
      { what: "a parameter", input: ["GET", "/api/v1/documents/doc_1"], expected: { data: "get", params: { id: "doc_1" } } },
      { what: "a parameter then a static", input: ["GET", "/api/v1/documents/doc_1/xml"], expected: { data: "xml", params: { id: "doc_1" } } },
      { what: "a static under a parameter's sibling", input: ["GET", "/api/v1/documents/sync/sync_9"], expected: { data: "run", params: { id: "sync_9" } } },
      { what: "another method on the same pattern", input: ["DELETE", "/api/v1/webhooks/whk_1"], expected: { data: "delete-hook", params: { id: "whk_1" } } },
    ];
    for (const { what, input, expected } of cases) {
      const m = router.match(input[0]!, input[1]!);
      assert.equal(m.kind, "found", what);
      if (m.kind === "found") assert.deepEqual({ data: m.data, params: m.params }, expected, what);
    }
  });

  test("a static segment beats a parameter", () => {
    const m = router.match("POST", "/api/v1/documents/sync");
    assert.equal(m.kind, "found");
    if (m.kind === "found") assert.equal(m.data, "sync");
  });

  test("static first also inside a longer path: /documents/sync/xml is the run \"xml\", not the XML of document \"sync\"", () => {
    const m = router.match("GET", "/api/v1/documents/sync/xml");
    assert.equal(m.kind, "found");
    if (m.kind === "found") assert.deepEqual([m.data, m.params], ["run", { id: "xml" }]);
  });

  test("the static path wins for the method it has, and others get 405 rather than the parameter route", () => {
    // GET /documents/sync could be read as GET /documents/:id with id "sync"; the static node decides.
    const m = router.match("GET", "/api/v1/documents/sync");
    assert.deepEqual(m, { kind: "method_not_allowed", allow: ["POST"] });
  });

  test("paths that match no pattern are not_found", () => {
    const cases = [
      "/", "", "/api", "/api/v1", "/api/v1/", "/api/v1/nope", "/api/v1/documents/", "/api/v1/documents//xml",
      "/api/v1/documents/doc_1/xml/more", "/api/v1/documents/doc_1/pdf", "/API/v1/documents", "/api/v1/documents/doc_1/",
    ];
    for (const path of cases) assert.deepEqual(router.match("GET", path), { kind: "not_found" }, JSON.stringify(path));
  });

  test("a path that exists without the method is method_not_allowed with the allowed methods", () => {
    const cases = [
      { what: "POST on a GET route", input: ["POST", "/api/v1/documents"], expected: ["GET", "HEAD"] },
      { what: "PUT on a parameter route", input: ["PUT", "/api/v1/documents/doc_1"], expected: ["GET", "HEAD"] },
      { what: "GET on a POST route", input: ["GET", "/api/v1/webhooks"], expected: ["POST"] },
      { what: "PATCH on GET and DELETE", input: ["PATCH", "/api/v1/webhooks/whk_1"], expected: ["DELETE", "GET", "HEAD"] },
    ];
    for (const { what, input, expected } of cases) {
      const m = router.match(input[0]!, input[1]!);
      assert.equal(m.kind, "method_not_allowed", what);
      if (m.kind === "method_not_allowed") assert.deepEqual([...m.allow].sort(), expected, what);
    }
  });

  test("HEAD matches wherever GET does, with the GET route", () => {
    for (const path of ["/api/v1/documents", "/api/v1/documents/doc_1", "/api/v1/documents/doc_1/xml", "/api/v1/documents/sync/sync_1"]) {
      const head = router.match("HEAD", path);
      const get = router.match("GET", path);
      assert.deepEqual(head, get, path);
    }
  });

  test("HEAD does not match where there is no GET", () => {
    assert.deepEqual(router.match("HEAD", "/api/v1/documents/sync"), { kind: "method_not_allowed", allow: ["POST"] });
  });

  test("a HEAD route of its own wins over GET", () => {
    const r = createRouter([
      { method: "GET", pattern: "/x", data: "get" },
      { method: "HEAD", pattern: "/x", data: "head" },
    ]);
    const m = r.match("HEAD", "/x");
    assert.equal(m.kind, "found");
    if (m.kind === "found") assert.equal(m.data, "head");
  });

  test("a static branch that dead-ends falls back to the parameter, without leaking parameters", () => {
    const r = createRouter([
      { method: "GET", pattern: "/a/:x/b", data: "deep" },
      { method: "GET", pattern: "/a/c/:y/z", data: "static-then-param" },
    ]);
    const m = r.match("GET", "/a/c/b");
    assert.equal(m.kind, "found");
    if (m.kind === "found") assert.deepEqual([m.data, m.params], ["deep", { x: "c" }]);
    const n = r.match("GET", "/a/c/q/z");
    assert.equal(n.kind, "found");
    if (n.kind === "found") assert.deepEqual([n.data, n.params], ["static-then-param", { y: "q" }]);
    assert.equal(r.match("GET", "/a/c/d/e").kind, "not_found");
  });

  test("the route table is kept as given", () => {
    assert.deepEqual(router.routes, ROUTES);
  });
});

describe("createRouter() refuses a broken table", () => {
  test("two routes with the same method and pattern throw a TypeError", () => {
    assert.throws(() => createRouter([
      { method: "GET", pattern: "/a/:id", data: 1 },
      { method: "GET", pattern: "/a/:id", data: 2 },
    ]), TypeError);
  });

  test("two parameter names at the same place throw a TypeError", () => {
    assert.throws(() => createRouter([
      { method: "GET", pattern: "/a/:id", data: 1 },
      { method: "DELETE", pattern: "/a/:key", data: 2 },
    ]), TypeError);
  });
});
