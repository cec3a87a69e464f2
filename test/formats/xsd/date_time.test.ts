import assert from "node:assert/strict";
import { test } from "node:test";
import { compareDateTimes, hasTimezone, hasValidDateTimeFields } from "../../../lib/formats/xsd/date_time.ts";

test("hasValidDateTimeFields() checks months, days of the month, leap years, 24:00:00 and timezones of every form", () => {
  const cases: { what: string; valid: string[]; invalid: string[] }[] = [
    { what: "dates", valid: ["2024-02-29", "2000-02-29", "-0001-12-31", "12024-02-29Z"], invalid: ["2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00", "0000-01-01"] },
    { what: "times", valid: ["24:00:00", "24:00:00.000", "23:59:59.999+14:00", "00:00:00-14:00"], invalid: ["24:00:01", "24:00:00.001", "12:60:00", "12:00:60", "25:00:00", "12:00:00+14:01", "12:00:00+13:60"] },
    { what: "dateTimes", valid: ["2024-02-29T24:00:00", "2024-12-31T23:59:59.5Z"], invalid: ["2024-02-30T00:00:00", "2024-01-01T24:30:00"] },
    { what: "gYear and gYearMonth", valid: ["2024", "-0000", "2024-12", "99999-01+05:00"], invalid: ["0000", "2024-13", "2024-00"] },
    { what: "gMonth, gMonthDay and gDay", valid: ["--12", "--02-29", "--04-30", "---31", "---01Z"], invalid: ["--13", "--00", "--02-30", "--04-31", "---32", "---00"] },
  ];
  for (const c of cases) {
    for (const v of c.valid) assert.ok(hasValidDateTimeFields(v), `${c.what}: ${v}`);
    for (const v of c.invalid) assert.ok(!hasValidDateTimeFields(v), `${c.what}: ${v}`);
  }
});

test("compareDateTimes() orders by value: negative years, long years, fractions as numbers, timezones moved to UTC", () => {
  const ordered = [
    ["-10000-01-01", "-0002-01-01", "-0001-12-31", "0001-01-01", "2024-01-01", "10000-01-01", "100000-01-01"],
    ["2024-01-01T00:00:00+01:00", "2024-01-01T00:30:00Z", "2024-01-01T00:00:00-01:00", "2024-01-01T02:00:00.5"],
    ["0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00"],
    ["23:59:59", "23:59:59.05", "23:59:59.5"],
  ];
  for (const list of ordered) {
    for (let i = 0; i < list.length; i++) {
      for (let j = 0; j < list.length; j++) assert.equal(Math.sign(compareDateTimes(list[i]!, list[j]!)), Math.sign(i - j), `${list[i]} vs ${list[j]}`);
    }
  }
  assert.equal(compareDateTimes("10:00:00.5", "10:00:00.50"), 0);
  assert.equal(compareDateTimes("10:00:00", "10:00:00.000"), 0);
  assert.equal(compareDateTimes("2024-01-01T00:00:00+00:00", "2024-01-01T00:00:00Z"), 0);
});

test("hasTimezone() finds Z and ±hh:mm at the end, and nothing else", () => {
  for (const v of ["2024-01-01Z", "2024-01-01+01:00", "12:00:00-05:30", "2024Z"]) assert.ok(hasTimezone(v), v);
  for (const v of ["2024-01-01", "12:00:00", "2024-01", "---31", "2024-01-01T10:00:00"]) assert.ok(!hasTimezone(v), v);
});
