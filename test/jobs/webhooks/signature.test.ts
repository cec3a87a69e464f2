import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { Buffer } from "node:buffer";
import {
  DEFAULT_TOLERANCE_SECONDS,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  webhookHeaders,
} from "../../../lib/jobs/webhooks/signature.ts";

// The vector of the Standard Webhooks reference library
// (standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts, "sign function works").
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  msgId: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

/** The spec's definition, computed apart from the module: base64(HMAC-SHA256(decoded secret, "id.ts.body")). */
function specSignature(secret: string, msgId: string, ts: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return "v1," + createHmac("sha256", key).update(`${msgId}.${ts}.${body}`, "utf8").digest("base64");
}

test("signWebhook() reproduces the Standard Webhooks reference vector", () => {
  assert.equal(signWebhook(VECTOR.secret, VECTOR.msgId, VECTOR.timestamp, VECTOR.body), VECTOR.signature);
});

test("signWebhook() accepts a secret without the whsec_ prefix, as the reference libraries do", () => {
  assert.equal(signWebhook(VECTOR.secret.slice(6), VECTOR.msgId, VECTOR.timestamp, VECTOR.body), VECTOR.signature);
});

test("signWebhook() matches the spec definition for generated secrets and non-ASCII bodies", () => {
  const cases = [
    { what: "empty body", body: "" },
    { what: "JSON event", body: '{"type":"document.created","timestamp":"2026-11-21T23:25:01.123Z","data":{"id":"doc_1"}}' },
    { what: "Polish letters", body: '{"name":"Zażółć gęślą jaźń"}' },
    { what: "astral plane", body: '{"emoji":"🧾"}' },
  ];
  for (const { what, body } of cases) {
    const secret = generateWebhookSecret();
    assert.equal(signWebhook(secret, "evt_01JD", 1_800_000_000, body), specSignature(secret, "evt_01JD", 1_800_000_000, body), what);
  }
});

test("generateWebhookSecret() returns whsec_ and 32 random bytes in base64", () => {
  const a = generateWebhookSecret();
  const b = generateWebhookSecret();
  assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(a.slice(6), "base64").length, 32);
  assert.notEqual(a, b);
});

test("signWebhook() refuses a secret that is not base64 and a fractional timestamp", () => {
  assert.throws(() => signWebhook("whsec_not base64!", "m", 1, ""), TypeError);
  assert.throws(() => signWebhook("whsec_", "m", 1, ""), TypeError);
  assert.throws(() => signWebhook(VECTOR.secret, "m", 1.5, ""), RangeError);
});

test("webhookHeaders() carries the id, the timestamp and a fresh signature", () => {
  const h = webhookHeaders(VECTOR.secret, VECTOR.msgId, VECTOR.timestamp, VECTOR.body);
  assert.deepEqual(h, {
    "webhook-id": VECTOR.msgId,
    "webhook-timestamp": "1614265330",
    "webhook-signature": VECTOR.signature,
  });
});

test("verifyWebhook() accepts the reference vector within the tolerance", () => {
  const { secret, msgId, timestamp, body, signature } = VECTOR;
  assert.equal(verifyWebhook(secret, msgId, String(timestamp), signature, body, timestamp), true);
  assert.equal(verifyWebhook(secret, msgId, String(timestamp), signature, body, timestamp + DEFAULT_TOLERANCE_SECONDS), true);
  assert.equal(verifyWebhook(secret, msgId, String(timestamp), signature, body, timestamp - DEFAULT_TOLERANCE_SECONDS), true);
});

test("verifyWebhook() refuses tampering, stale or future timestamps and malformed headers", () => {
  const { secret, msgId, timestamp, body, signature } = VECTOR;
  const ts = String(timestamp);
  const other = generateWebhookSecret();
  const cases: { what: string; input: [string, string, string, string, string, number] }[] = [
    { what: "changed body", input: [secret, msgId, ts, signature, body + " ", timestamp] },
    { what: "changed id", input: [secret, "msg_other", ts, signature, body, timestamp] },
    { what: "changed timestamp", input: [secret, msgId, String(timestamp + 1), signature, body, timestamp] },
    { what: "other secret", input: [other, msgId, ts, signature, body, timestamp] },
    { what: "too old", input: [secret, msgId, ts, signature, body, timestamp + DEFAULT_TOLERANCE_SECONDS + 1] },
    { what: "too new", input: [secret, msgId, ts, signature, body, timestamp - DEFAULT_TOLERANCE_SECONDS - 1] },
    { what: "timestamp not a number", input: [secret, msgId, "hello", signature, body, timestamp] },
    { what: "timestamp with sign", input: [secret, msgId, "+" + ts, signature, body, timestamp] },
    { what: "truncated signature", input: [secret, msgId, ts, signature.slice(0, 8), body, timestamp] },
    { what: "empty v1", input: [secret, msgId, ts, "v1,", body, timestamp] },
    { what: "wrong version", input: [secret, msgId, ts, signature.replace("v1,", "v2,"), body, timestamp] },
    { what: "no comma", input: [secret, msgId, ts, signature.replace(",", ""), body, timestamp] },
    { what: "junk appended", input: [secret, msgId, ts, signature + "!", body, timestamp] },
  ];
  for (const { what, input } of cases) {
    assert.equal(verifyWebhook(...input), false, what);
  }
});

test("verifyWebhook() accepts a header listing several signatures when one matches", () => {
  const { secret, msgId, timestamp, body, signature } = VECTOR;
  const header = [
    "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
    "v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
    signature,
    "v1a,c2lnbmF0dXJl",
  ].join(" ");
  assert.equal(verifyWebhook(secret, msgId, String(timestamp), header, body, timestamp), true);
  assert.equal(verifyWebhook(secret, msgId, String(timestamp), header.replace(signature, ""), body, timestamp), false);
});
