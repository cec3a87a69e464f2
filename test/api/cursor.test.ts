import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createCursorCodec } from "../../lib/api/cursor.ts";
import { ApiError } from "../../lib/http/errors.ts";

const SECRET = new Uint8Array(32).fill(7);
const codec = createCursorCodec(SECRET);
const SCOPE = "acme\u0000documents";
const FILTERS = '[["type","invoice"]]';

/** Asserts that decoding throws 400 BAD_REQUEST on field "cursor" and returns its issue. */
function rejects(fn: () => unknown, what: string): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, what);
    assert.equal(e.status, 400, what);
    assert.equal(e.code, "BAD_REQUEST", what);
    assert.equal(e.details.field, "cursor", what);
    assert.equal(typeof e.details.issue, "string", what);
    return e.details.issue as string;
  }
  assert.fail(`${what}: accepted`);
}

describe("createCursorCodec()", () => {
  test("a cursor decodes to the position it was made with", () => {
    for (const position of [0, 1, 49, 50, 1_000_000, 2 ** 32, 2 ** 48 - 1]) {
      assert.equal(codec.decode(SCOPE, codec.encode(SCOPE, position, FILTERS), FILTERS), position, String(position));
    }
  });

  test("a cursor is short, opaque and URL-safe", () => {
    const cursor = codec.encode(SCOPE, 12345, FILTERS);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.ok(cursor.length <= 64, `${cursor.length} characters`);
    assert.ok(!cursor.includes("12345") && !cursor.includes("invoice") && !cursor.includes("acme"));
    assert.equal(encodeURIComponent(cursor), cursor);
  });

  test("a cursor carries no time: the same input makes the same cursor, which stays valid", () => {
    assert.equal(codec.encode(SCOPE, 7, FILTERS), codec.encode(SCOPE, 7, FILTERS));
    assert.equal(createCursorCodec(SECRET).decode(SCOPE, codec.encode(SCOPE, 7, FILTERS), FILTERS), 7, "a new codec with the same secret (a restart) reads it");
  });

  test("different positions make different cursors", () => {
    const seen = new Set<string>();
    for (let p = 0; p < 1000; p++) seen.add(codec.encode(SCOPE, p, FILTERS));
    assert.equal(seen.size, 1000);
  });

  test("a cursor of another scope (tenant or feed) is rejected", () => {
    const cursor = codec.encode(SCOPE, 5, FILTERS);
    const cases = ["globex\u0000documents", "acme\u0000submissions", "acm\u0000edocuments", "acme", ""];
    for (const scope of cases) assert.equal(rejects(() => codec.decode(scope, cursor, FILTERS), JSON.stringify(scope)), "bad_signature");
  });

  test("a cursor signed with another secret is rejected", () => {
    const foreign = createCursorCodec(new Uint8Array(32).fill(8)).encode(SCOPE, 5, FILTERS);
    assert.equal(rejects(() => codec.decode(SCOPE, foreign, FILTERS), "other secret"), "bad_signature");
  });

  test("a cursor used with other filters is rejected", () => {
    const cursor = codec.encode(SCOPE, 5, FILTERS);
    for (const filters of ["[]", '[["type","correction"]]', `${FILTERS} `]) {
      assert.equal(rejects(() => codec.decode(SCOPE, cursor, filters), filters), "filters_changed");
    }
  });

  test("any change of one character is rejected", () => {
    const cursor = codec.encode(SCOPE, 123456, FILTERS);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < cursor.length; i++) {
      for (const c of [alphabet[(alphabet.indexOf(cursor[i]!) + 1) % 64]!, alphabet[(alphabet.indexOf(cursor[i]!) + 32) % 64]!]) {
        const changed = cursor.slice(0, i) + c + cursor.slice(i + 1);
        rejects(() => codec.decode(SCOPE, changed, FILTERS), `position ${i} → ${c}`);
      }
    }
  });

  test("malformed cursors are rejected as malformed", () => {
    const cursor = codec.encode(SCOPE, 5, FILTERS);
    const cases = [
      { what: "empty", input: "" },
      { what: "padding", input: `${cursor}=` },
      { what: "standard base64 characters", input: cursor.replace(/.$/, "+") },
      { what: "a space", input: ` ${cursor}` },
      { what: "truncated", input: cursor.slice(0, 20) },
      { what: "too long", input: cursor + cursor },
      { what: "far too long", input: "A".repeat(10_000) },
      { what: "unicode", input: "ä".repeat(10) },
      { what: "another version", input: Buffer.from([2, ...Buffer.from(cursor, "base64url").subarray(1)]).toString("base64url") },
    ];
    for (const { what, input } of cases) assert.equal(rejects(() => codec.decode(SCOPE, input, FILTERS), what), "malformed", what);
  });

  test("the error message says what is wrong without echoing the cursor", () => {
    const bad = "Zm9vYmFyYmF6cXV4";
    try {
      codec.decode(SCOPE, bad, FILTERS);
      assert.fail("accepted");
    } catch (e) {
      assert.ok(e instanceof ApiError);
      assert.match(e.message, /cursor/i);
      assert.ok(!e.message.includes(bad));
    }
  });
});
