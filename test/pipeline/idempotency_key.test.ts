import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { ApiError } from "../../lib/http/errors.ts";
import { fingerprintRequest, parseIdempotencyKey } from "../../lib/pipeline/idempotency_key.ts";
import type { FingerprintBody, FingerprintPart } from "../../lib/pipeline/idempotency_key.ts";

const KEY = "8e03978e-40d5-43e8-bc93-6894a57f9324";

test("parseIdempotencyKey() returns null when the header is absent", () => {
  assert.equal(parseIdempotencyKey(null), null);
});

test("parseIdempotencyKey() accepts canonical UUID v4 in any case and returns it in lower case", () => {
  const cases = [
    { what: "lower case", input: KEY, expected: KEY },
    { what: "upper case", input: KEY.toUpperCase(), expected: KEY },
    { what: "variant 8", input: "00000000-0000-4000-8000-000000000000", expected: "00000000-0000-4000-8000-000000000000" },
    { what: "variant 9", input: "ffffffff-ffff-4fff-9fff-ffffffffffff", expected: "ffffffff-ffff-4fff-9fff-ffffffffffff" },
    { what: "variant a", input: "12345678-9abc-4def-a123-456789abcdef", expected: "12345678-9abc-4def-a123-456789abcdef" },
    { what: "variant B", input: "12345678-9ABC-4DEF-B123-456789ABCDEF", expected: "12345678-9abc-4def-b123-456789abcdef" },
    { what: "surrounding whitespace", input: ` ${KEY}\t`, expected: KEY },
    { what: "Structured Field String form", input: `"${KEY}"`, expected: KEY },
    { what: "from crypto.randomUUID()", input: "RANDOM", expected: "RANDOM" },
  ];
  for (const { what, input, expected } of cases) {
    const value = input === "RANDOM" ? crypto.randomUUID() : input;
    assert.equal(parseIdempotencyKey(value), expected === "RANDOM" ? value : expected, what);
  }
});

test("parseIdempotencyKey() answers 400 on the Idempotency-Key field for anything but a UUID v4", () => {
  const cases = [
    { what: "empty", input: "" },
    { what: "spaces", input: "   " },
    { what: "version 1", input: "8e03978e-40d5-13e8-bc93-6894a57f9324" },
    { what: "version 7", input: "018f3d6c-40d5-73e8-bc93-6894a57f9324" },
    { what: "nil UUID", input: "00000000-0000-0000-0000-000000000000" },
    { what: "max UUID", input: "ffffffff-ffff-ffff-ffff-ffffffffffff" },
    { what: "variant c (Microsoft)", input: "8e03978e-40d5-43e8-cc93-6894a57f9324" },
    { what: "variant 7 (NCS)", input: "8e03978e-40d5-43e8-7c93-6894a57f9324" },
    { what: "no dashes", input: "8e03978e40d543e8bc936894a57f9324" },
    { what: "braces", input: `{${KEY}}` },
    { what: "URN", input: `urn:uuid:${KEY}` },
    { what: "one character short", input: KEY.slice(1) },
    { what: "one character long", input: KEY + "0" },
    { what: "non-hex digit", input: "8e03978g-40d5-43e8-bc93-6894a57f9324" },
    { what: "dash misplaced", input: "8e03978e4-0d5-43e8-bc93-6894a57f9324" },
    { what: "one quote", input: `"${KEY}` },
    { what: "two keys", input: `${KEY}, ${KEY}` },
    { what: "newline inside", input: `${KEY}\nx` },
    { what: "full-width digit", input: "８e03978e-40d5-43e8-bc93-6894a57f9324" },
    { what: "free text", input: "order-42" },
  ];
  for (const { what, input } of cases) {
    assert.throws(
      () => parseIdempotencyKey(input),
      (err: unknown) => {
        assert.ok(err instanceof ApiError, what);
        assert.equal(err.status, 400, what);
        assert.equal(err.code, "BAD_REQUEST", what);
        assert.deepEqual(err.details, { field: "Idempotency-Key", issue: "not_uuid_v4" }, what);
        return true;
      },
      what,
    );
  }
});

const bytes = (text: string) => new TextEncoder().encode(text);
const part = (name: string, body: string, filename: string | null = null, contentType: string | null = null): FingerprintPart =>
  ({ name, filename, contentType, body: bytes(body) });

/** The documented layout, written out again independently: 8-byte big-endian lengths, tags, SHA-256. */
function referenceFingerprint(method: string, path: string, body: FingerprintBody): string {
  const len = (n: number) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(n)); return b; };
  const field = (b: Uint8Array | string) => { const buf = Buffer.from(b); return Buffer.concat([len(buf.length), buf]); };
  const chunks = [field("idempotency-fingerprint-v1"), field(method), field(path)];
  if (body.kind === "empty") chunks.push(Buffer.from([0]));
  if (body.kind === "json") chunks.push(Buffer.from([1]), field(body.bytes));
  if (body.kind === "multipart") {
    chunks.push(Buffer.from([2]), len(body.parts.length));
    for (const p of body.parts) chunks.push(field(p.name), field(p.body));
  }
  return createHash("sha256").update(Buffer.concat(chunks)).digest("hex");
}

test("fingerprintRequest() is the SHA-256 of the documented length-prefixed layout", () => {
  const cases: { what: string; input: [string, string, FingerprintBody] }[] = [
    { what: "empty body", input: ["POST", "/api/v1/documents/sync", { kind: "empty" }] },
    { what: "JSON body", input: ["POST", "/api/v1/webhooks", { kind: "json", bytes: bytes('{"url":"https://example.com"}') }] },
    { what: "multipart body", input: ["POST", "/api/v1/submissions", { kind: "multipart", parts: [
      part("xml", "<Faktura/>", "fa.xml", "application/xml"), part("note", "zażółć"),
    ] }] },
  ];
  for (const { what, input } of cases) {
    const fingerprint = fingerprintRequest(...input);
    assert.match(fingerprint, /^[0-9a-f]{64}$/, what);
    assert.equal(fingerprint, referenceFingerprint(...input), what);
  }
});

test("fingerprintRequest() gives a multipart retry with a new boundary the same fingerprint", async () => {
  /** The raw encoding of a fresh FormData, and what a multipart parser yields from it, whatever the boundary. */
  async function encodeAndRead(): Promise<{ raw: string; body: FingerprintBody }> {
    const file = new File(["<Faktura/>"], "fa.xml", { type: "application/xml" });
    const form = new FormData();
    form.append("xml", file);
    form.append("note", "zażółć");
    const raw = await new Request("http://x/", { method: "POST", body: form }).text();
    const parts = [
      { name: "xml", filename: file.name, contentType: file.type, body: new Uint8Array(await file.arrayBuffer()) },
      part("note", "zażółć"),
    ];
    assert.ok(raw.includes('name="xml"; filename="fa.xml"') && raw.includes("<Faktura/>") && raw.includes("zażółć"));
    return { raw, body: { kind: "multipart", parts } };
  }
  const first = await encodeAndRead();
  const retry = await encodeAndRead();
  assert.notEqual(first.raw, retry.raw, "the encoder chose a new boundary");
  assert.equal(
    fingerprintRequest("POST", "/api/v1/submissions", first.body),
    fingerprintRequest("POST", "/api/v1/submissions", retry.body),
  );
});

test("fingerprintRequest() tells apart requests that differ only in framing a naive hash would merge", () => {
  const json = (text: string): FingerprintBody => ({ kind: "json", bytes: bytes(text) });
  const multi = (...parts: FingerprintPart[]): FingerprintBody => ({ kind: "multipart", parts });
  const cases: { what: string; input: [[string, string, FingerprintBody], [string, string, FingerprintBody]] }[] = [
    { what: "method and path boundary", input: [["POST", "/a", { kind: "empty" }], ["POS", "T/a", { kind: "empty" }]] },
    { what: "path and body boundary", input: [["POST", "/a", json("b")], ["POST", "/ab", json("")]] },
    { what: "method", input: [["POST", "/a", { kind: "empty" }], ["PUT", "/a", { kind: "empty" }]] },
    { what: "path", input: [["POST", "/a", { kind: "empty" }], ["POST", "/b", { kind: "empty" }]] },
    { what: "empty vs empty JSON bytes", input: [["POST", "/a", { kind: "empty" }], ["POST", "/a", json("")]] },
    { what: "JSON vs multipart", input: [["POST", "/a", json("")], ["POST", "/a", multi()]] },
    { what: "JSON whitespace (raw bytes count)", input: [["POST", "/a", json('{"a":1}')], ["POST", "/a", json('{"a": 1}')]] },
    { what: "part name and content boundary", input: [["POST", "/a", multi(part("ab", "c"))], ["POST", "/a", multi(part("a", "bc"))]] },
    { what: "part order", input: [["POST", "/a", multi(part("a", "1"), part("b", "2"))], ["POST", "/a", multi(part("b", "2"), part("a", "1"))]] },
    { what: "one part vs two", input: [["POST", "/a", multi(part("a", "12"))], ["POST", "/a", multi(part("a", "1"), part("a", "2"))]] },
    { what: "content", input: [["POST", "/a", multi(part("xml", "<a/>"))], ["POST", "/a", multi(part("xml", "<b/>"))]] },
  ];
  for (const { what, input: [a, b] } of cases) assert.notEqual(fingerprintRequest(...a), fingerprintRequest(...b), what);
});

test("fingerprintRequest() ignores a part's filename and content type (the idempotency conventions in /docs: name and content)", () => {
  const a = fingerprintRequest("POST", "/a", { kind: "multipart", parts: [part("xml", "<a/>", "a.xml", "application/xml")] });
  const b = fingerprintRequest("POST", "/a", { kind: "multipart", parts: [part("xml", "<a/>", null, "text/xml")] });
  assert.equal(a, b);
});

test("fingerprintRequest() is stable for equal requests", () => {
  const body: FingerprintBody = { kind: "json", bytes: bytes('{"events":["*"]}') };
  const again: FingerprintBody = { kind: "json", bytes: bytes('{"events":["*"]}') };
  assert.equal(fingerprintRequest("POST", "/api/v1/webhooks", body), fingerprintRequest("POST", "/api/v1/webhooks", again));
});
