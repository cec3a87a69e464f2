/**
 * addUpstreamWarnings(): the warnings a run or a submission keeps (README "KSeF"): each distinct one once, with the
 * first operation that drew it and when, at most MAX_UPSTREAM_WARNINGS, each message cut to its bound.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { addUpstreamWarnings, MAX_UPSTREAM_WARNING_CHARS, MAX_UPSTREAM_WARNINGS } from "../../lib/contracts/upstream_warnings.ts";

const AT = "2026-12-01T09:00:00.000Z";
const LATER = "2026-12-01T10:00:00.000Z";

test("addUpstreamWarnings() adds a new warning with when it was heard", () => {
  assert.deepEqual(addUpstreamWarnings([], [{ code: "W-1", message: "A", operation: "POST /invoices/exports" }], AT), [
    { code: "W-1", message: "A", operation: "POST /invoices/exports", at: AT },
  ]);
});

test("addUpstreamWarnings() gives null when every warning heard is kept already, whatever its operation", () => {
  const kept = addUpstreamWarnings([], [{ code: "W-1", message: "A", operation: "POST /auth/challenge" }], AT)!;
  assert.equal(addUpstreamWarnings(kept, [{ code: "W-1", message: "A", operation: "POST /invoices/exports" }], LATER), null);
  assert.equal(addUpstreamWarnings(kept, [], LATER), null);
});

test("addUpstreamWarnings() tells warnings apart by code and message, a missing code being its own", () => {
  const kept = addUpstreamWarnings([], [
    { code: "W-1", message: "A", operation: "GET /x" }, { code: "W-1", message: "B", operation: "GET /x" },
    { code: "W-2", message: "A", operation: "GET /x" }, { code: null, message: "A", operation: "GET /x" }, { code: "W-1", message: "A", operation: "GET /y" },
  ], AT)!;
  assert.deepEqual(kept.map((w) => [w.code, w.message, w.operation]), [["W-1", "A", "GET /x"], ["W-1", "B", "GET /x"], ["W-2", "A", "GET /x"], [null, "A", "GET /x"]]);
});

test("addUpstreamWarnings() keeps the first MAX_UPSTREAM_WARNINGS distinct warnings and gives null once full", () => {
  const heard = Array.from({ length: MAX_UPSTREAM_WARNINGS + 5 }, (_, i) => ({ code: `W-${i}`, message: "A", operation: "GET /x" }));
  const kept = addUpstreamWarnings([], heard, AT)!;
  assert.deepEqual(kept.map((w) => w.code), heard.slice(0, MAX_UPSTREAM_WARNINGS).map((w) => w.code));
  assert.equal(addUpstreamWarnings(kept, [{ code: "W-new", message: "A", operation: "GET /x" }], LATER), null);
});

test("addUpstreamWarnings() cuts a long message to its bound, ending in an ellipsis, and knows it again", () => {
  const long = { code: "W-1", message: "x".repeat(MAX_UPSTREAM_WARNING_CHARS + 100), operation: "GET /x" };
  const kept = addUpstreamWarnings([], [long], AT)!;
  assert.equal(kept[0]!.message.length, MAX_UPSTREAM_WARNING_CHARS);
  assert.ok(kept[0]!.message.endsWith("…"));
  assert.equal(addUpstreamWarnings(kept, [long], LATER), null, "the same long warning is not new");
});
