import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DEFAULT_RETRY_SCHEDULE,
  MAX_RETRY_AFTER_MS,
  nextAttemptDelay,
  parseDuration,
  parseRetryAfter,
  parseRetrySchedule,
} from "../../../lib/jobs/webhooks/retry_schedule.ts";

test("parseDuration() reads every unit", () => {
  const cases = [
    { what: "milliseconds", input: "250ms", expected: 250 },
    { what: "seconds", input: "5s", expected: 5_000 },
    { what: "minutes", input: "5m", expected: 300_000 },
    { what: "hours", input: "2h", expected: 7_200_000 },
    { what: "days", input: "1d", expected: 86_400_000 },
    { what: "zero", input: "0s", expected: 0 },
    { what: "surrounding space", input: " 30m ", expected: 1_800_000 },
    { what: "365 days", input: "365d", expected: 365 * 86_400_000 },
  ];
  for (const { what, input, expected } of cases) assert.equal(parseDuration(input), expected, what);
});

test("parseDuration() throws a RangeError on anything else", () => {
  const cases = ["", "5", "s", "5x", "5 s", "-5s", "1.5h", "5S", "5min", "1e3ms", "5s5m", "366d", "9999999999999s"];
  for (const input of cases) assert.throws(() => parseDuration(input), RangeError, JSON.stringify(input));
});

test("parseRetrySchedule() reads the documented default into DEFAULT_RETRY_SCHEDULE", () => {
  assert.deepEqual(parseRetrySchedule("5s,5m,30m,2h,5h,10h,14h,20h,24h"), DEFAULT_RETRY_SCHEDULE);
  assert.deepEqual(parseRetrySchedule("10ms, 20ms"), [10, 20]);
  assert.ok(Object.isFrozen(DEFAULT_RETRY_SCHEDULE));
});

test("parseRetrySchedule() throws a RangeError on empty or malformed schedules", () => {
  const cases = ["", " ", "5s,", ",5s", "5s,,5m", "5s;5m", Array(101).fill("1s").join(",")];
  for (const input of cases) assert.throws(() => parseRetrySchedule(input), RangeError, input.slice(0, 20));
});

const MIDDLE = () => 0.5; // no jitter
const LOWEST = () => 0; // -10 %
const HIGHEST = () => 0.999999; // just under +10 %

test("nextAttemptDelay() follows the schedule and gives up after its last entry", () => {
  const schedule = [1_000, 60_000, 3_600_000];
  const cases = [
    { what: "after the first attempt", input: 1, expected: 1_000 },
    { what: "after the second attempt", input: 2, expected: 60_000 },
    { what: "after the third attempt", input: 3, expected: 3_600_000 },
    { what: "after the last attempt", input: 4, expected: null },
    { what: "long after", input: 40, expected: null },
  ];
  for (const { what, input, expected } of cases) assert.equal(nextAttemptDelay(schedule, input, MIDDLE), expected, what);
  assert.equal(nextAttemptDelay(DEFAULT_RETRY_SCHEDULE, 9, MIDDLE), 86_400_000);
  assert.equal(nextAttemptDelay(DEFAULT_RETRY_SCHEDULE, 10, MIDDLE), null);
});

test("nextAttemptDelay() jitters by at most 10 % either way, never below zero", () => {
  assert.equal(nextAttemptDelay([5_000], 1, LOWEST), 4_500);
  assert.equal(nextAttemptDelay([5_000], 1, HIGHEST), 5_500);
  assert.equal(nextAttemptDelay([0], 1, LOWEST), 0);
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 1000; i++) {
    const d = nextAttemptDelay([300_000], 1, random)!;
    assert.ok(d >= 270_000 && d <= 330_000, String(d));
  }
});

test("nextAttemptDelay() honours a longer Retry-After, capped at 24 hours", () => {
  const cases = [
    { what: "shorter Retry-After is ignored", input: 1_000, expected: 5_000 },
    { what: "longer Retry-After wins", input: 120_000, expected: 120_000 },
    { what: "fractional Retry-After rounds up", input: 120_000.2, expected: 120_001 },
    { what: "huge Retry-After is capped", input: 10 * MAX_RETRY_AFTER_MS, expected: MAX_RETRY_AFTER_MS },
    { what: "zero Retry-After is ignored", input: 0, expected: 5_000 },
    { what: "absent Retry-After", input: null, expected: 5_000 },
  ];
  for (const { what, input, expected } of cases) assert.equal(nextAttemptDelay([5_000], 1, MIDDLE, input), expected, what);
  assert.equal(nextAttemptDelay([5_000], 2, MIDDLE, 60_000), null, "Retry-After does not extend the schedule");
});

test("nextAttemptDelay() throws a RangeError when no attempt was made", () => {
  assert.throws(() => nextAttemptDelay([5_000], 0, MIDDLE), RangeError);
  assert.throws(() => nextAttemptDelay([5_000], 1.5, MIDDLE), RangeError);
});

const NOW = Date.UTC(2026, 10, 21, 23, 25, 0); // Sat, 21 Nov 2026 23:25:00 GMT

test("parseRetryAfter() reads delay-seconds and the three HTTP-date forms", () => {
  const cases = [
    { what: "absent", input: null, expected: null },
    { what: "delay-seconds", input: "120", expected: 120_000 },
    { what: "zero seconds", input: "0", expected: 0 },
    { what: "with whitespace", input: " 5 ", expected: 5_000 },
    { what: "huge delay-seconds", input: "9".repeat(400), expected: Number.MAX_SAFE_INTEGER },
    { what: "IMF-fixdate a minute ahead", input: "Sat, 21 Nov 2026 23:26:00 GMT", expected: 60_000 },
    { what: "IMF-fixdate in the past", input: "Sat, 21 Nov 2026 23:00:00 GMT", expected: 0 },
    { what: "IMF-fixdate next day", input: "Sun, 22 Nov 2026 23:25:00 GMT", expected: 86_400_000 },
    { what: "RFC 850 date", input: "Saturday, 21-Nov-26 23:26:00 GMT", expected: 60_000 },
    { what: "asctime date", input: "Sat Nov 21 23:26:00 2026", expected: 60_000 },
    { what: "asctime date, one-digit day", input: "Tue Dec  1 23:25:00 2026", expected: 10 * 86_400_000 },
    { what: "empty", input: "", expected: null },
    { what: "negative", input: "-1", expected: null },
    { what: "fraction", input: "1.5", expected: null },
    { what: "garbage", input: "soon", expected: null },
    { what: "date without GMT", input: "Sat, 21 Nov 2026 23:26:00", expected: null },
    { what: "date in another zone", input: "Sat, 21 Nov 2026 23:26:00 +0100", expected: null },
    { what: "impossible day", input: "Tue, 31 Feb 2026 23:26:00 GMT", expected: null },
    { what: "impossible hour", input: "Sat, 21 Nov 2026 24:26:00 GMT", expected: null },
    { what: "ISO 8601 is not an HTTP-date", input: "2026-11-21T23:26:00Z", expected: null },
  ];
  for (const { what, input, expected } of cases) assert.equal(parseRetryAfter(input, NOW), expected, what);
});

test("parseRetryAfter() puts a two-digit RFC 850 year in the right century", () => {
  // 21-Nov-94 is 1994, not 2094: more than 50 years ahead means the past century.
  assert.equal(parseRetryAfter("Monday, 21-Nov-94 23:26:00 GMT", NOW), 0);
});
