import assert from "node:assert/strict";
import { test } from "node:test";
import { amountPattern } from "../../../lib/formats/xsd/amount_pattern.ts";
import { DecimalScan } from "../../../lib/formats/xsd/decimal_scan.ts";
import { compileXsdPattern } from "../../../lib/formats/xsd/regex.ts";

/** Literals from a small alphabet, so that signs, dots and zeros meet in every order. */
function _literals(): string[] {
  const out: string[] = ["٣", "1٣", "12345678901234567", "1234567890123456.5", "0.123456789"];
  const alphabet = ["0", "1", "9", ".", "-", "+"];
  const grow = (s: string, depth: number): void => {
    out.push(s);
    if (depth > 0) for (const c of alphabet) grow(s + c, depth - 1);
  };
  grow("", 6);
  return out;
}

test("amountPattern agrees with the regular expression on every decimal literal", () => {
  const sources = ["-?([1-9]\\d{0,15}|0)(\\.\\d{1,2})?", "-?([1-9]\\d{0,13}|0)(\\.\\d{1,8})?", "([1-9]\\d{0,2}|0)(\\.\\d{1,1})?", "-?([1-9]\\d{0,3}|0)"];
  const scan = new DecimalScan();
  for (const source of sources) {
    const amount = amountPattern(source)!;
    const re = compileXsdPattern(source);
    for (const v of _literals()) {
      if (!scan.read(v, false)) continue;
      assert.equal(amount(scan), re.test(v), `${source} on ${JSON.stringify(v)}`);
    }
  }
});

test("amountPattern leaves other patterns to the regular expression", () => {
  for (const source of ["[1-9]\\d{0,15}", "-?([1-9]\\d{0,15}|0)(\\.\\d{1,2})? | \\d+", "-?[0-9]*\\.[0-9]{2}", "-?([1-9]\\d*|0)(\\.\\d{1,2})?"]) {
    assert.equal(amountPattern(source), null, source);
  }
});
