/**
 * `GET /api/v1/token` (README "Security model") through a real server: any valid token learns its tenant, key id,
 * scopes and expiry, whatever its scopes; never its secret or the secret's hash; 401 without a usable token; HEAD,
 * 405 with Allow, and strict query parameters as everywhere under /api/v1.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hashSecret, SCOPES, type Scope } from "../../lib/auth/tokens.ts";
import { errorOf } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";
import { secretOf } from "../support/tokens.ts";

describe("GET /api/v1/token", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: "memory" });
  });
  after(() => s?.close());

  const cases: { what: string; tenant: string; scopes: readonly Scope[] }[] = [
    { what: "a documents:read token", tenant: "acme", scopes: ["documents:read"] },
    { what: "a token with write scopes only", tenant: "acme", scopes: ["submissions:write", "webhooks:write"] },
    { what: "a token of another tenant with every scope", tenant: "globex", scopes: SCOPES },
  ];
  for (const c of cases) {
    test(`answers ${c.what} with its tenant, key id and scopes, and no secret`, async () => {
      const { token, keyId } = await s.token(c.tenant, c.scopes);
      const res = await s.fetch("/api/v1/token", token);
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      const body = JSON.parse(text) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ["tenant", "key_id", "scopes", "created_at", "expires_at"]);
      assert.equal(body.tenant, c.tenant);
      assert.equal(body.key_id, keyId);
      assert.deepEqual(body.scopes, [...c.scopes]);
      assert.match(body.created_at as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.equal(body.expires_at, null);
      const secret = secretOf(token);
      assert.ok(!text.includes(secret), "the secret is not in the body");
      assert.ok(!text.includes(hashSecret(secret)), "nor its hash");
      res.headers.forEach((value, name) => assert.ok(!value.includes(secret), `nor in the ${name} header`));
    });
  }

  test("an expiring token is answered with its expiry", async () => {
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    const { token } = await s.token("acme", ["webhooks:read"], { expires_at: expires });
    const res = await s.fetch("/api/v1/token", token);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { expires_at: string };
    assert.equal(body.expires_at, expires);
  });

  test("without a token, with an expired one and with a revoked one it is 401", async () => {
    await errorOf(await s.fetch("/api/v1/token", null), 401, "UNAUTHENTICATED");
    const expired = await s.token("acme", ["documents:read"], { expires_at: new Date(Date.now() - 1000).toISOString() });
    await errorOf(await s.fetch("/api/v1/token", expired.token), 401, "UNAUTHENTICATED");
    const revoked = await s.token("acme", ["documents:read"]);
    await s.storage.tokens.revoke(revoked.keyId, new Date().toISOString());
    await errorOf(await s.fetch("/api/v1/token", revoked.token), 401, "UNAUTHENTICATED");
  });

  test("HEAD is answered with GET's headers and no body", async () => {
    const { token } = await s.token("acme", ["documents:read"]);
    const res = await s.fetch("/api/v1/token", token, { method: "HEAD" });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(await res.text(), "");
  });

  test("another method is 405 with Allow", async () => {
    const { token } = await s.token("acme");
    for (const method of ["POST", "DELETE", "PATCH"]) {
      const res = await s.fetch("/api/v1/token", token, { method });
      await errorOf(res, 405, "METHOD_NOT_ALLOWED");
      assert.equal(res.headers.get("allow"), "GET, HEAD");
    }
  });

  test("an unknown query parameter is 400 naming it", async () => {
    const { token } = await s.token("acme", ["documents:read"]);
    const error = await errorOf(await s.fetch("/api/v1/token?verbose=1", token), 400, "BAD_REQUEST");
    assert.deepEqual(error.details, { field: "verbose", issue: "unknown parameter" });
  });
});
