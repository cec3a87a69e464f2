import assert from "node:assert/strict";
import { test } from "node:test";
import { hasPlainDateShape, isPlainDate } from "../../../lib/formats/xsd/plain_date.ts";
import { checkBuiltin } from "../../../lib/formats/xsd/values.ts";

test("isPlainDate agrees with checkBuiltin on every YYYY-MM-DD of a few years, months 00-13 and days 00-32", () => {
  let n = 0;
  for (const y of ["0000", "0001", "1900", "2000", "2024", "2026", "9999"]) {
    for (let m = 0; m <= 13; m++) {
      for (let d = 0; d <= 32; d++) {
        const v = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
        assert.equal(isPlainDate(v), checkBuiltin("date", v) === null, v);
        n++;
      }
    }
  }
  assert.equal(n, 7 * 14 * 33);
});

test("other forms are not plain dates (checkBuiltin decides them)", () => {
  for (const v of ["2026-01-01Z", "2026-01-01+01:00", "-2026-01-01", "12026-01-01", "2026-1-01", "2026/01/01", "２０２６-01-01", "2026-01-0a", ""]) {
    assert.equal(isPlainDate(v), false, v);
  }
  assert.equal(hasPlainDateShape("2026-99-99"), true);
  assert.equal(isPlainDate("2026-99-99"), false);
});
