import assert from "node:assert/strict";
import { test } from "node:test";
import { DecimalScan, EXACT_DIGITS } from "../../../lib/formats/xsd/decimal_scan.ts";
import { decimalDigits } from "../../../lib/formats/xsd/values.ts";

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const INTEGER = /^[+-]?\d+$/;

/** Literals from a small alphabet, so that signs, dots and zeros meet in every order. */
function _literals(): string[] {
  const out = ["", "٣", "1e5", " 1", "1 ", "0x1", "123456789012345", "1234567890123456", "-999999999999999.9", "0.000000000000001", "99999999999999.99", "4674.00", "-0", "+.5"];
  const alphabet = ["0", "1", "9", ".", "-", "+", "5"];
  const grow = (s: string, depth: number): void => {
    out.push(s);
    if (depth > 0) for (const c of alphabet) grow(s + c, depth - 1);
  };
  grow("", 5);
  return out;
}

test("DecimalScan agrees with the lexical patterns, decimalDigits and Number", () => {
  const scan = new DecimalScan();
  let exact = 0;
  for (const v of _literals()) {
    assert.equal(scan.read(v, false), DECIMAL.test(v), `decimal ${JSON.stringify(v)}`);
    assert.equal(scan.read(v, true), INTEGER.test(v), `integer ${JSON.stringify(v)}`);
    if (!scan.read(v, false)) continue;
    const d = decimalDigits(v);
    assert.equal(Math.max(scan.int + scan.frac, 1), d.total, `total digits of ${v}`);
    assert.equal(scan.frac, d.fraction, `fraction digits of ${v}`);
    if (scan.int + scan.frac <= EXACT_DIGITS) {
      assert.ok(Object.is(scan.value, Number(v)), `value of ${v}: ${scan.value}`);
      exact++;
    }
  }
  assert.ok(exact > 3000, `${exact} values compared`);
});
