import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "../../lib/http/errors.ts";
import { createRequestLimits } from "../../lib/pipeline/limits.ts";

const ONE = { requests: 1, windowMs: 60_000, burst: 1 };
const refused = (f: () => unknown) => assert.throws(f, (e: unknown) => e instanceof ApiError && e.code === "RATE_LIMITED");

test("createRequestLimits() counts failed authentications per IPv6 /64, however the address is spelled", () => {
  const limits = createRequestLimits({ token: null, anonymous: ONE, now: () => 0 });
  assert.ok(limits("2001:db8::5", null, false));
  refused(() => limits("2001:db8::6", null, false)); // same /64, compressed
  refused(() => limits("2001:0db8:0000:0000:0000:0000:0000:0007", null, false)); // same /64, written out
  assert.ok(limits("2001:db8:0:1::5", null, false), "another /64 has its own bucket");
  assert.ok(limits("192.0.2.1", null, false));
  refused(() => limits("::ffff:192.0.2.1", null, false)); // the same IPv4 client, mapped
});
