import { test } from "node:test";
import assert from "node:assert/strict";
import {
  createRateLimiter,
  DEFAULT_MAX_KEYS,
  formatRateLimit,
  formatRateLimitPolicy,
  parseRateLimit,
  perWorkerRateLimit,
  rateLimitHeaders,
} from "../../lib/pipeline/rate_limit.ts";
import type { RateLimitConfig } from "../../lib/pipeline/rate_limit.ts";

/** A clock the test moves by hand. */
function fakeClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

test("parseRateLimit() reads counts, units, bursts and off", () => {
  const cases = [
    { what: "documented default", input: "600/min,burst=100", expected: { requests: 600, windowMs: 60_000, burst: 100 } },
    { what: "per second", input: "10/s,burst=5", expected: { requests: 10, windowMs: 1_000, burst: 5 } },
    { what: "burst defaults to the count", input: "10/min", expected: { requests: 10, windowMs: 60_000, burst: 10 } },
    { what: "spaces and case", input: " 5/Hour , Burst=2 ", expected: { requests: 5, windowMs: 3_600_000, burst: 2 } },
    { what: "long unit names", input: "1/second", expected: { requests: 1, windowMs: 1_000, burst: 1 } },
    { what: "per day", input: "1000/d,burst=1", expected: { requests: 1000, windowMs: 86_400_000, burst: 1 } },
    { what: "off", input: "off", expected: null },
    { what: "OFF", input: " OFF ", expected: null },
  ];
  for (const { what, input, expected } of cases) assert.deepEqual(parseRateLimit(input), expected, what);
});

test("parseRateLimit() throws a RangeError on anything else", () => {
  const cases = ["", "600", "600/", "/min", "600/fortnight", "0/min", "600/min,burst=0", "600/min,burst=",
    "600/min,burst=10,burst=5", "600/min,foo=1", "-1/min", "1.5/s", "600/min burst=100", "2000000/s", "on"];
  for (const input of cases) assert.throws(() => parseRateLimit(input), RangeError, JSON.stringify(input));
});

const TEN_PER_SECOND: RateLimitConfig = { requests: 10, windowMs: 1_000, burst: 5 };

test("a limiter allows a burst, then refuses with a Retry-After of when one token is back", () => {
  const clock = fakeClock();
  const limiter = createRateLimiter(TEN_PER_SECOND, clock);
  const remaining = [];
  for (let i = 0; i < 5; i++) {
    const r = limiter.take("tok_a");
    assert.equal(r.allowed, true);
    assert.equal(r.retryAfterSeconds, 0);
    remaining.push(r.remaining);
  }
  assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
  const refused = limiter.take("tok_a");
  assert.deepEqual(refused, { allowed: false, limit: 5, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
  // One token takes 100 ms: refused at 99 ms, allowed at 100 ms.
  clock.advance(99);
  assert.equal(limiter.take("tok_a").allowed, false);
  clock.advance(1);
  assert.equal(limiter.take("tok_a").allowed, true);
  assert.equal(limiter.take("tok_a").allowed, false);
});

test("a limiter's Retry-After is never earlier than the next token, for slow refills", () => {
  const cases = [
    { what: "one a minute", input: { requests: 1, windowMs: 60_000, burst: 1 }, expected: 60 },
    { what: "7 a minute (fractional interval)", input: { requests: 7, windowMs: 60_000, burst: 3 }, expected: 9 },
    { what: "11 a minute (5.45 s rounds up)", input: { requests: 11, windowMs: 60_000, burst: 2 }, expected: 6 },
    { what: "600 a minute", input: { requests: 600, windowMs: 60_000, burst: 100 }, expected: 1 },
    { what: "10 an hour", input: { requests: 10, windowMs: 3_600_000, burst: 20 }, expected: 360 },
  ];
  for (const { what, input, expected } of cases) {
    const clock = fakeClock();
    const limiter = createRateLimiter(input, clock);
    for (let i = 0; i < input.burst; i++) assert.equal(limiter.take("k").allowed, true, `${what}: burst ${i}`);
    const refused = limiter.take("k");
    assert.equal(refused.allowed, false, what);
    assert.equal(refused.retryAfterSeconds, expected, what);
    // Waiting exactly Retry-After always succeeds; waiting a second less does not (for waits over 1 s).
    if (expected > 1) {
      clock.advance((expected - 1) * 1000);
      assert.equal(limiter.take("k").allowed, false, `${what}: early`);
      clock.advance(1000);
    } else {
      clock.advance(expected * 1000);
    }
    assert.equal(limiter.take("k").allowed, true, `${what}: after Retry-After`);
  }
});

test("a limiter refills over time up to the burst, and no further", () => {
  const clock = fakeClock();
  const limiter = createRateLimiter(TEN_PER_SECOND, clock);
  for (let i = 0; i < 5; i++) limiter.take("k");
  clock.advance(300); // three tokens back
  assert.deepEqual([1, 2, 3, 4].map(() => limiter.take("k").allowed), [true, true, true, false]);
  clock.advance(60_000); // a minute idle refills only the burst
  const results = Array.from({ length: 6 }, () => limiter.take("k").allowed);
  assert.deepEqual(results, [true, true, true, true, true, false]);
});

test("a limiter's bucket drains at the sustained rate under steady load", () => {
  const clock = fakeClock();
  const limiter = createRateLimiter({ requests: 600, windowMs: 60_000, burst: 100 }, clock);
  let allowed = 0;
  // 20 requests a second from 0 to 60 s inclusive: 100 burst + 600 refilled = 700 allowed.
  for (let i = 0; i <= 1200; i++) {
    if (limiter.take("k").allowed) allowed++;
    clock.advance(50);
  }
  assert.equal(allowed, 700);
});

test("a limiter keeps two keys independent", () => {
  const clock = fakeClock();
  const limiter = createRateLimiter(TEN_PER_SECOND, clock);
  for (let i = 0; i < 5; i++) limiter.take("tok_a");
  assert.equal(limiter.take("tok_a").allowed, false);
  const b = limiter.take("tok_b");
  assert.equal(b.allowed, true);
  assert.equal(b.remaining, 4);
});

test("a limiter works on keys that are not strings", () => {
  const clock = fakeClock();
  const limiter = createRateLimiter<number>({ requests: 10, windowMs: 60_000, burst: 2 }, clock);
  assert.equal(limiter.take(1).allowed, true);
  assert.equal(limiter.take(1).allowed, true);
  assert.equal(limiter.take(1).allowed, false);
  assert.equal(limiter.take(2).allowed, true);
});

test("a limiter drops buckets that are full again, keeping the map small under 100,000 distinct keys", () => {
  const clock = fakeClock();
  // Refills in 1 s; one new key every millisecond, so about 1000 keys are active at any time.
  const limiter = createRateLimiter(TEN_PER_SECOND, clock);
  let largest = 0;
  for (let i = 0; i < 100_000; i++) {
    limiter.take(`203.0.113.${i}`);
    clock.advance(1);
    largest = Math.max(largest, limiter.size());
  }
  assert.ok(largest <= 3000, `largest map was ${largest}`);
  clock.advance(1000);
  for (let i = 0; i < 2048; i++) limiter.take("same"); // enough calls to trigger a sweep
  assert.equal(limiter.size(), 1);
});

test("a limiter caps its map at maxKeys even when every key is active", () => {
  const clock = fakeClock();
  const limiter = createRateLimiter({ requests: 10, windowMs: 60_000, burst: 20 }, { now: clock.now, maxKeys: 10_000 });
  for (let i = 0; i < 100_000; i++) {
    limiter.take(`key-${i}`);
    assert.ok(limiter.size() <= 10_000);
  }
  assert.equal(DEFAULT_MAX_KEYS, 100_000);
});

test("a limiter forgets the least recently allowed key first at the cap", () => {
  const clock = fakeClock();
  const limiter = createRateLimiter({ requests: 1, windowMs: 60_000, burst: 1 }, { now: clock.now, maxKeys: 10 });
  for (let i = 0; i < 10; i++) limiter.take(`k${i}`);
  limiter.take("k10"); // over the cap: the oldest keys go
  assert.equal(limiter.take("k0").allowed, true, "k0 was forgotten");
  assert.equal(limiter.take("k10").allowed, false, "k10 is still tracked");
});

test("createRateLimiter() refuses configs that cannot describe a bucket", () => {
  const clock = fakeClock();
  assert.throws(() => createRateLimiter({ requests: 0, windowMs: 1000, burst: 1 }, clock), RangeError);
  assert.throws(() => createRateLimiter({ requests: 1, windowMs: 1000, burst: 0.5 }, clock), RangeError);
  assert.throws(() => createRateLimiter(TEN_PER_SECOND, { now: clock.now, maxKeys: 0 }), RangeError);
});

test("formatRateLimitPolicy() states the bucket size and the seconds to refill it", () => {
  const cases = [
    { what: "documented default", input: { requests: 600, windowMs: 60_000, burst: 100 }, expected: '"default";q=100;w=10' },
    { what: "failed authentications", input: { requests: 10, windowMs: 60_000, burst: 20 }, expected: '"default";q=20;w=120' },
    { what: "refill under a second", input: { requests: 100, windowMs: 1_000, burst: 5 }, expected: '"default";q=5;w=1' },
    { what: "fractional refill rounds up", input: { requests: 7, windowMs: 60_000, burst: 3 }, expected: '"default";q=3;w=26' },
  ];
  for (const { what, input, expected } of cases) assert.equal(formatRateLimitPolicy(input), expected, what);
  assert.equal(formatRateLimitPolicy(TEN_PER_SECOND, 'per"token'), '"per\\"token";q=5;w=1');
  assert.throws(() => formatRateLimitPolicy(TEN_PER_SECOND, "bad\nname"), TypeError);
});

test("rateLimitHeaders() gives the draft's fields, and Retry-After no earlier than t when refused", () => {
  const clock = fakeClock();
  const config = { requests: 600, windowMs: 60_000, burst: 100 };
  const limiter = createRateLimiter(config, clock);
  let r = limiter.take("k");
  assert.deepEqual(rateLimitHeaders(config, r), { "ratelimit-policy": '"default";q=100;w=10', ratelimit: '"default";r=99;t=1' });
  for (let i = 0; i < 99; i++) r = limiter.take("k");
  assert.equal(formatRateLimit(r), '"default";r=0;t=10');
  r = limiter.take("k");
  const headers = rateLimitHeaders(config, r);
  assert.equal(headers.ratelimit, '"default";r=0;t=1');
  assert.equal(headers["retry-after"], "1");
});

test("perWorkerRateLimit() gives each worker its share of requests and burst, at least 1", () => {
  const limit: RateLimitConfig = { requests: 600, windowMs: 60_000, burst: 100 };
  assert.equal(perWorkerRateLimit(limit, 1), limit);
  assert.equal(perWorkerRateLimit(null, 4), null);
  assert.deepEqual(perWorkerRateLimit(limit, 4), { requests: 150, windowMs: 60_000, burst: 25 });
  assert.deepEqual(perWorkerRateLimit({ requests: 3, windowMs: 1_000, burst: 1 }, 8), { requests: 1, windowMs: 1_000, burst: 1 });
});
