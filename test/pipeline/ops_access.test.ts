/**
 * Operator detail through a real server on 127.0.0.1 (README "Security model"): `/metrics` and the text of
 * `/readyz`'s warnings go to addresses in OPS_ALLOW or to `Authorization: Bearer <OPS_TOKEN>`; everyone else gets
 * `/readyz` with its status and `warning_count`, and `/metrics` 403. X-Forwarded-For counts only from TRUST_PROXY.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createApp } from "../../lib/app.ts";
import { toFetchHandler } from "../../lib/http/fetch_adapter.ts";
import { createJsonLogger } from "../../lib/observe/log.ts";
import { MemoryStorage } from "../../storage/memory.ts";
import { errorOf } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";

// What /readyz says about a tenant's key file, as the sign-in check words it.
const WARNING = "KSeF source ksef of tenant acme: the key file /srv/keys/acme.key.pem can be read by other users of this machine: chmod 600 it";
const OPS_TOKEN = "ops-token-0123456789abcdef";
const ELSEWHERE = "10.0.0.0/8"; // an allow-list that excludes the tests' 127.0.0.1

interface Ready {
  status: string;
  warning_count: number;
  warnings?: string[];
}

async function readyOf(s: TestServer, headers: Record<string, string> = {}): Promise<{ body: Ready; text: string }> {
  const res = await s.fetch("/readyz", null, { headers });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return { body: JSON.parse(text) as Ready, text };
}

/** Whether the request with `headers` saw operator detail on both routes (and they agree). */
async function seesDetail(s: TestServer, headers: Record<string, string> = {}): Promise<boolean> {
  const ready = await readyOf(s, headers);
  assert.equal(ready.body.warning_count, 1, ready.text);
  const metrics = await s.fetch("/metrics", null, { headers });
  if (metrics.status === 200) {
    assert.match(await metrics.text(), /# TYPE /);
    assert.deepEqual(ready.body, { status: "ready", warning_count: 1, warnings: [WARNING] });
    return true;
  }
  const error = await errorOf(metrics, 403, "FORBIDDEN");
  assert.match(error.message, /OPS_ALLOW/);
  assert.deepEqual(ready.body, { status: "ready", warning_count: 1 });
  assert.doesNotMatch(ready.text, /acme|\/srv\/keys|chmod/);
  return false;
}

describe("operator detail with the default OPS_ALLOW (loopback)", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: "memory", warnings: () => [WARNING] });
  });
  after(() => s.close());

  test("a client on 127.0.0.1 sees the metrics and the warnings' text", async () => {
    assert.equal(await seesDetail(s), true);
  });

  test("X-Forwarded-For from a peer that is not a trusted proxy is ignored: the peer is the client", async () => {
    assert.equal(await seesDetail(s, { "x-forwarded-for": "203.0.113.9" }), true);
  });

  test("/readyz without warnings says a count of 0 to everyone", async () => {
    const quiet = await startServer({ storage: "memory", ops: { allow: ELSEWHERE } });
    try {
      assert.deepEqual((await readyOf(quiet)).body, { status: "ready", warning_count: 0 });
    } finally {
      await quiet.close();
    }
  });
});

describe("operator detail when OPS_ALLOW excludes the client", () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ storage: "memory", warnings: () => [WARNING], ops: { allow: ELSEWHERE, token: OPS_TOKEN } });
  });
  after(() => s.close());

  test("/metrics is 403 FORBIDDEN in the error envelope and /readyz has the status and the count, without the text", async () => {
    assert.equal(await seesDetail(s), false);
  });

  test("HEAD /metrics is refused as GET is", async () => {
    const res = await s.fetch("/metrics", null, { method: "HEAD" });
    assert.equal(res.status, 403);
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  test("Authorization: Bearer with the OPS_TOKEN sees the detail from anywhere, the scheme in any case", async () => {
    assert.equal(await seesDetail(s, { authorization: `Bearer ${OPS_TOKEN}` }), true);
    assert.equal(await seesDetail(s, { authorization: `bearer ${OPS_TOKEN}` }), true);
  });

  test("a wrong, shortened, extended or misplaced token sees no detail", async () => {
    const cases = [
      { what: "another token of the same length", headers: { authorization: `Bearer ${OPS_TOKEN.replace(/f$/, "e")}` } },
      { what: "a prefix of the token", headers: { authorization: `Bearer ${OPS_TOKEN.slice(0, -1)}` } },
      { what: "the token and more", headers: { authorization: `Bearer ${OPS_TOKEN}0` } },
      { what: "the token as Basic credentials", headers: { authorization: `Basic ${OPS_TOKEN}` } },
      { what: "the scheme alone", headers: { authorization: "Bearer" } },
      { what: "the token in X-API-Token", headers: { "x-api-token": OPS_TOKEN } },
    ];
    for (const { what, headers } of cases) assert.equal(await seesDetail(s, headers), false, what);
  });

  test("X-Forwarded-For naming an allowed address from a peer that is not a trusted proxy is ignored", async () => {
    assert.equal(await seesDetail(s, { "x-forwarded-for": "10.1.2.3" }), false);
  });
});

describe("operator detail behind a trusted proxy (TRUST_PROXY)", () => {
  test("the client is the right-most X-Forwarded-For address that is not a trusted proxy", async () => {
    const s = await startServer({ storage: "memory", warnings: () => [WARNING], ops: { allow: ELSEWHERE }, trustProxy: "127.0.0.1, 198.51.100.0/24" });
    try {
      const cases = [
        { what: "a client in OPS_ALLOW", forwarded: "10.1.2.3", expected: true },
        { what: "a client outside OPS_ALLOW", forwarded: "203.0.113.9", expected: false },
        { what: "a client that claims an allowed address before the proxy wrote its own", forwarded: "10.1.2.3, 203.0.113.9", expected: false },
        { what: "a client in OPS_ALLOW behind a second trusted proxy", forwarded: "10.1.2.3, 198.51.100.4", expected: true },
        { what: "a client written with its port", forwarded: "10.1.2.3:51234", expected: true },
        { what: "an entry that is no address", forwarded: "10.1.2.3, unknown", expected: false },
      ];
      for (const { what, forwarded, expected } of cases) assert.equal(await seesDetail(s, { "x-forwarded-for": forwarded }), expected, what);
    } finally {
      await s.close();
    }
  });

  test("behind a proxy on loopback, a client the proxy names outside OPS_ALLOW does not inherit the proxy's loopback", async () => {
    const s = await startServer({ storage: "memory", warnings: () => [WARNING], trustProxy: "127.0.0.0/8" });
    try {
      assert.equal(await seesDetail(s, { "x-forwarded-for": "203.0.113.9" }), false);
      assert.equal(await seesDetail(s), true, "the proxy's own request, without the header, is the proxy's");
    } finally {
      await s.close();
    }
  });

  test("failed authentications are limited per client behind the proxy, not for all of them at once", async () => {
    const s = await startServer({ storage: "memory", anonymousLimit: { requests: 60, windowMs: 60_000, burst: 2 }, trustProxy: "127.0.0.1", now: () => 0 });
    try {
      const ask = (client: string) => s.fetch("/api/v1/documents", null, { headers: { "x-forwarded-for": client } });
      for (let i = 0; i < 2; i++) await errorOf(await ask("203.0.113.9"), 401, "UNAUTHENTICATED");
      await errorOf(await ask("203.0.113.9"), 429, "RATE_LIMITED");
      await errorOf(await ask("203.0.113.10"), 401, "UNAUTHENTICATED");
    } finally {
      await s.close();
    }
  });

  test("without TRUST_PROXY, clients named by X-Forwarded-For share their peer's limit", async () => {
    const s = await startServer({ storage: "memory", anonymousLimit: { requests: 60, windowMs: 60_000, burst: 2 }, now: () => 0 });
    try {
      const ask = (client: string) => s.fetch("/api/v1/documents", null, { headers: { "x-forwarded-for": client } });
      for (let i = 0; i < 2; i++) await errorOf(await ask("203.0.113.9"), 401, "UNAUTHENTICATED");
      await errorOf(await ask("203.0.113.10"), 429, "RATE_LIMITED");
    } finally {
      await s.close();
    }
  });
});

test("X-Forwarded-For from a peer outside TRUST_PROXY is logged once as a warning, since that peer may be a proxy nobody named", async () => {
  const lines: Record<string, unknown>[] = [];
  const s = await startServer({ storage: "memory", logger: createJsonLogger("warn", (l) => void lines.push(JSON.parse(l) as Record<string, unknown>)) });
  try {
    await (await s.fetch("/healthz", null)).arrayBuffer();
    assert.equal(lines.length, 0, "no header, nothing to say");
    for (let i = 0; i < 2; i++) await (await s.fetch("/healthz", null, { headers: { "x-forwarded-for": "203.0.113.9" } })).arrayBuffer();
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.equal(lines[0]!.level, "warn");
    assert.match(String(lines[0]!.msg), /TRUST_PROXY/);
    assert.match(String(lines[0]!.peer), /127\.0\.0\.1$/);
  } finally {
    await s.close();
  }
});

test("X-Forwarded-For from a trusted proxy is not warned about", async () => {
  const lines: string[] = [];
  const s = await startServer({ storage: "memory", trustProxy: "127.0.0.1", logger: createJsonLogger("warn", (l) => void lines.push(l)) });
  try {
    await (await s.fetch("/healthz", null, { headers: { "x-forwarded-for": "203.0.113.9" } })).arrayBuffer();
    assert.deepEqual(lines, []);
  } finally {
    await s.close();
  }
});

describe("operator detail through the fetch adapter", () => {
  test("an in-process request has no address unless the handler is given one; the runtime's address wins", async () => {
    const app = await createApp({ storage: new MemoryStorage() });
    try {
      const metrics = "http://localhost/metrics";
      assert.equal((await toFetchHandler(app.handle)(new Request(metrics))).status, 403);
      assert.equal((await toFetchHandler(app.handle, { remoteAddress: "127.0.0.1" })(new Request(metrics))).status, 200);
      assert.equal((await toFetchHandler(app.handle, { remoteAddress: "127.0.0.1" })(new Request(metrics), { remoteAddr: { hostname: "203.0.113.9" } })).status, 403);
      assert.equal((await toFetchHandler(app.handle)(new Request(metrics), { remoteAddr: { hostname: "::1" } })).status, 200);
    } finally {
      await app.close();
    }
  });

  test("createApp refuses a bad range or a guessable token at startup", async () => {
    await assert.rejects(createApp({ storage: new MemoryStorage(), ops: { allow: "10.0.0/8" } }), RangeError);
    await assert.rejects(createApp({ storage: new MemoryStorage(), trustProxy: "proxy" }), RangeError);
    await assert.rejects(createApp({ storage: new MemoryStorage(), ops: { token: "short" } }), RangeError);
  });
});
