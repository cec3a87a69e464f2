import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../../lib/http/errors.ts";
import { buildEventBody, eventMatches, validateEvents, WEBHOOK_EVENT_TYPES } from "../../../lib/jobs/webhooks/events.ts";

test("validateEvents() accepts known event types and removes duplicates in order", () => {
  const cases = [
    { what: "one type", input: ["document.created"], expected: ["document.created"] },
    { what: "every type", input: [...WEBHOOK_EVENT_TYPES], expected: [...WEBHOOK_EVENT_TYPES] },
    { what: "duplicates", input: ["sync.failed", "document.created", "sync.failed"], expected: ["sync.failed", "document.created"] },
    { what: "wildcard", input: ["*"], expected: ["*"] },
    { what: "repeated wildcard", input: ["*", "*"], expected: ["*"] },
  ];
  for (const { what, input, expected } of cases) assert.deepEqual(validateEvents(input), expected, what);
});

test("validateEvents() answers 422 on the events field for anything else", () => {
  const cases = [
    { what: "absent", input: undefined, expected: "required" },
    { what: "null", input: null, expected: "required" },
    { what: "a string", input: "document.created", expected: "invalid_type" },
    { what: "an object", input: { 0: "document.created" }, expected: "invalid_type" },
    { what: "empty", input: [], expected: "empty" },
    { what: "a number inside", input: ["document.created", 1], expected: "invalid_type" },
    { what: "unknown name", input: ["document.deleted"], expected: "unknown_event" },
    { what: "wrong case", input: ["Document.Created"], expected: "unknown_event" },
    { what: "prefix wildcard", input: ["document.*"], expected: "unknown_event" },
    { what: "wildcard with names", input: ["*", "sync.failed"], expected: "wildcard_not_alone" },
  ];
  for (const { what, input, expected } of cases) {
    assert.throws(() => validateEvents(input), (err: unknown) => {
      assert.ok(err instanceof ApiError, what);
      assert.equal(err.status, 422, what);
      assert.deepEqual(err.details, { field: "events", issue: expected }, what);
      return true;
    }, what);
  }
});

test("validateEvents() does not echo a huge unknown name whole", () => {
  // The echo is cut at 64 characters; the rest of the message is the list of valid types.
  const bound = 64 + WEBHOOK_EVENT_TYPES.join(", ").length + 100;
  assert.throws(() => validateEvents(["x".repeat(10_000)]), (err: unknown) => err instanceof ApiError && err.message.length < bound && !err.message.includes("x".repeat(65)));
});

test("eventMatches() matches listed types and the wildcard only", () => {
  assert.equal(eventMatches(["document.created"], "document.created"), true);
  assert.equal(eventMatches(["document.created"], "document.updated"), false);
  assert.equal(eventMatches(["*"], "submission.created"), true);
  assert.equal(eventMatches([], "sync.completed"), false);
});

test("buildEventBody() gives type, timestamp and data in that order", () => {
  const body = buildEventBody("document.created", "2026-11-21T23:25:01.123Z", { id: "doc_1", total: "1230.00" });
  assert.equal(body, '{"type":"document.created","timestamp":"2026-11-21T23:25:01.123Z","data":{"id":"doc_1","total":"1230.00"}}');
});

test("validateEvents() lists the event types when a name is unknown", () => {
  assert.throws(() => validateEvents(["document.deleted"]), (err: unknown) => {
    assert.ok(err instanceof ApiError);
    for (const type of WEBHOOK_EVENT_TYPES) assert.ok(err.message.includes(type), `${type} in: ${err.message}`);
    assert.match(err.message, /\["\*"\]/);
    return true;
  });
});
