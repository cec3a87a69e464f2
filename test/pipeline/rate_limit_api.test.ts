/**
 * Rate limiting through a real server (README “Security model”, the error envelope in the OpenAPI document, the idempotency conventions in /docs): the per-token bucket
 * with `RateLimit-Policy` / `RateLimit` headers on every `/api/v1` response,
 * 429 RATE_LIMITED with `Retry-After` after the burst, one bucket per token,
 * the per-address limit on failed authentications, and a 429 that is not kept
 * for its idempotency key. The clock is injected, so buckets refill only when
 * a test moves it.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { errorOf } from "../support/api.ts";

const COMPLEX = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml"));
const BAD_TOKEN = `itk_nobody000000_${"A".repeat(43)}`;

// 60 per minute is one token a second; the bursts are small so tests reach them quickly.
const TOKEN_LIMIT = { requests: 60, windowMs: 60_000, burst: 5 };
const ANON_LIMIT = { requests: 60, windowMs: 60_000, burst: 3 };



/** `r` and `t` of a `RateLimit` header (draft-ietf-httpapi-ratelimit-headers: `"name";r=…;t=…`). */
function parseRateLimit(value: string | null): { r: number; t: number } {
  const m = /^"[^"]*";r=(\d+);t=(\d+)$/.exec(value ?? "");
  assert.ok(m, `RateLimit header: ${value}`);
  return { r: Number(m[1]), t: Number(m[2]) };
}

/** The quota `q` of a `RateLimit-Policy` header, after checking its form and a positive window `w`. */
function policyQuota(value: string | null): number {
  const m = /^"[^"]*";q=(\d+);w=(\d+)$/.exec(value ?? "");
  assert.ok(m, `RateLimit-Policy header: ${value}`);
  assert.ok(Number(m[2]) >= 1, "a window of at least a second");
  return Number(m[1]);
}

async function drain(res: Response): Promise<Response> {
  await res.arrayBuffer();
  return res;
}

describe("the per-token limit (README “Security model”)", () => {
  let t = Date.parse("2026-11-20T10:00:00.000Z");
  let s: TestServer;
  before(async () => {
    s = await startServer({ now: () => t, rateLimit: TOKEN_LIMIT, anonymousLimit: ANON_LIMIT });
  });
  after(() => s.close());

  test("every /api/v1 response carries RateLimit-Policy and RateLimit, success and error alike", async () => {
    const token = (await s.token("headers")).token;
    const cases = [
      { what: "a list", input: "/api/v1/submissions", status: 200 },
      { what: "an unknown id", input: "/api/v1/submissions/sub_01JD0000000000000000000000", status: 404 },
      { what: "an unknown path", input: "/api/v1/nothing-here", status: 404 },
      { what: "a bad query parameter", input: "/api/v1/documents?limit=0", status: 400 },
    ];
    for (const { what, input, status } of cases) {
      const res = await drain(await s.fetch(input, token));
      assert.equal(res.status, status, what);
      assert.equal(policyQuota(res.headers.get("ratelimit-policy")), TOKEN_LIMIT.burst, what);
      parseRateLimit(res.headers.get("ratelimit"));
    }
  });

  test("a 401 carries the headers too (it spends the address's bucket)", async () => {
    t += 60_000; // refill the address's bucket after other tests
    const res = await drain(await s.fetch("/api/v1/documents", BAD_TOKEN));
    assert.equal(res.status, 401);
    assert.equal(policyQuota(res.headers.get("ratelimit-policy")), ANON_LIMIT.burst);
    parseRateLimit(res.headers.get("ratelimit"));
  });

  test("RateLimit counts down the burst; the next request is 429 RATE_LIMITED with Retry-After ≥ 1 and the envelope", async () => {
    const token = (await s.token("burst")).token;
    const remaining: number[] = [];
    for (let i = 0; i < TOKEN_LIMIT.burst; i++) {
      const res = await drain(await s.fetch("/api/v1/submissions", token));
      assert.equal(res.status, 200, `request ${i + 1}`);
      remaining.push(parseRateLimit(res.headers.get("ratelimit")).r);
    }
    assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
    const res = await s.fetch("/api/v1/submissions", token);
    assert.equal(policyQuota(res.headers.get("ratelimit-policy")), TOKEN_LIMIT.burst);
    assert.equal(parseRateLimit(res.headers.get("ratelimit")).r, 0);
    const retryAfter = res.headers.get("retry-after");
    assert.match(retryAfter ?? "", /^\d+$/, "Retry-After in whole seconds");
    assert.ok(Number(retryAfter) >= 1);
    await errorOf(res, 429, "RATE_LIMITED");
  });

  test("a limited token works again once Retry-After seconds have passed", async () => {
    const token = (await s.token("refill")).token;
    for (let i = 0; i < TOKEN_LIMIT.burst; i++) await drain(await s.fetch("/api/v1/submissions", token));
    const refused = await drain(await s.fetch("/api/v1/submissions", token));
    assert.equal(refused.status, 429);
    const wait = Number(refused.headers.get("retry-after"));
    t += wait * 1000 - 1;
    assert.equal((await drain(await s.fetch("/api/v1/submissions", token))).status, 429, "not before Retry-After");
    t += 1;
    assert.equal((await drain(await s.fetch("/api/v1/submissions", token))).status, 200, "at Retry-After");
    assert.equal((await drain(await s.fetch("/api/v1/submissions", token))).status, 429, "one token came back, not the burst");
  });

  test("a second token of the same tenant is unaffected", async () => {
    const first = (await s.token("shared-tenant")).token;
    const second = (await s.token("shared-tenant")).token;
    for (let i = 0; i < TOKEN_LIMIT.burst; i++) await drain(await s.fetch("/api/v1/submissions", first));
    await errorOf(await s.fetch("/api/v1/submissions", first), 429, "RATE_LIMITED");
    const res = await drain(await s.fetch("/api/v1/submissions", second));
    assert.equal(res.status, 200);
    assert.equal(parseRateLimit(res.headers.get("ratelimit")).r, 4);
  });

  test("every request counts, whatever its route or method", async () => {
    const token = (await s.token("mixed")).token;
    const paths = ["/api/v1/submissions", "/api/v1/documents", "/api/v1/nothing", "/api/v1/documents?page=1", "/api/v1/submissions"];
    for (const p of paths) assert.notEqual((await drain(await s.fetch(p, token))).status, 429, p);
    const head = await drain(await s.fetch("/api/v1/documents", token, { method: "HEAD" }));
    assert.equal(head.status, 429, "HEAD counts and is refused too");
    assert.match(head.headers.get("retry-after") ?? "", /^\d+$/);
  });

  test("a 429 is not kept for its Idempotency-Key: after the refill the key executes", async () => {
    const token = (await s.token("idem-429")).token;
    for (let i = 0; i < TOKEN_LIMIT.burst; i++) await drain(await s.fetch("/api/v1/submissions", token));
    const key = randomUUID();
    const post = () => {
      const form = new FormData();
      form.append("xml", new Blob([new Uint8Array(COMPLEX)], { type: "application/xml" }), "invoice.xml");
      return s.fetch("/api/v1/submissions", token, { method: "POST", body: form, headers: { "idempotency-key": key } });
    };
    const refused = await post();
    await errorOf(refused, 429, "RATE_LIMITED");
    t += 60_000;
    const res = await post();
    const text = await res.text();
    assert.equal(res.status, 201, text);
    assert.equal(res.headers.get("idempotent-replayed"), null);
  });

  test("the endpoints outside /api/v1 are not limited", async () => {
    for (let i = 0; i < 10; i++) assert.equal((await drain(await fetch(`${s.url}/healthz`))).status, 200);
  });
});

describe("the per-address limit on failed authentications (README “Security model”)", () => {
  let t = Date.parse("2026-11-20T10:00:00.000Z");
  let s: TestServer;
  before(async () => {
    s = await startServer({ now: () => t, rateLimit: TOKEN_LIMIT, anonymousLimit: ANON_LIMIT });
  });
  after(() => s.close());

  test("the 4th bad-token request from one address within the burst of 3 is 429, not 401", async () => {
    const tokens = [BAD_TOKEN, "", `itk_other000000_${"B".repeat(43)}`];
    for (const [i, bad] of tokens.entries()) {
      const res = await s.fetch("/api/v1/documents", bad);
      await errorOf(res, 401, "UNAUTHENTICATED");
      assert.equal(parseRateLimit(res.headers.get("ratelimit")).r, 2 - i);
    }
    const res = await s.fetch("/api/v1/documents", `itk_guess0000000_${"C".repeat(43)}`);
    const retryAfter = Number(res.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${res.headers.get("retry-after")}`);
    await errorOf(res, 429, "RATE_LIMITED");
    // Requests without any token spend the same bucket.
    await errorOf(await s.fetch("/api/v1/documents", null), 429, "RATE_LIMITED");
  });

  test("a valid token from the limited address is still served (it has its own bucket)", async () => {
    const good = (await s.token("acme")).token;
    const res = await drain(await s.fetch("/api/v1/documents", good));
    assert.equal(res.status, 200);
    assert.equal(policyQuota(res.headers.get("ratelimit-policy")), TOKEN_LIMIT.burst);
  });

  test("the address may try again after Retry-After", async () => {
    const refused = await drain(await s.fetch("/api/v1/documents", BAD_TOKEN));
    assert.equal(refused.status, 429);
    t += Number(refused.headers.get("retry-after")) * 1000;
    await errorOf(await s.fetch("/api/v1/documents", BAD_TOKEN), 401, "UNAUTHENTICATED");
  });

  test("the public GET /api/v1/openapi.json carries the headers and is limited per address too", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await drain(await s.fetch("/api/v1/openapi.json", null));
      policyQuota(res.headers.get("ratelimit-policy"));
      parseRateLimit(res.headers.get("ratelimit"));
      statuses.push(res.status);
      if (res.status === 429) {
        assert.match(res.headers.get("retry-after") ?? "", /^\d+$/);
        break;
      }
    }
    assert.equal(statuses[0], 200);
    assert.equal(statuses.at(-1), 429, statuses.join(" "));
  });

  test("the token is not echoed in the 429", async () => {
    const secret = "D".repeat(43);
    const res = await s.fetch("/api/v1/documents", `itk_echo00000000_${secret}`);
    const text = Buffer.from(await res.arrayBuffer()).toString("utf8");
    assert.equal(res.status, 429);
    assert.ok(!text.includes(secret));
  });
});
