/** The exact xs:decimal arithmetic of the EN 16931 rules: parsing, XPath round(), two-decimal rounding. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { abs, add, cmp, dec, mul, percentOf, round, round2, sub, sum, type Dec } from "../../../../lib/formats/validation/en16931/semantic_decimal.ts";

const d = (s: string) => dec(s) as Dec;
const show = (x: Dec) => {
  const neg = x.units < 0n;
  let s = (neg ? -x.units : x.units).toString().padStart(x.scale + 1, "0");
  if (x.scale > 0) s = `${s.slice(0, -x.scale)}.${s.slice(-x.scale)}`;
  return (neg ? "-" : "") + s;
};

describe("semantic_decimal", () => {
  test("dec() reads the xs:decimal lexical space and nothing else", () => {
    for (const [text, value] of [["1", "1"], ["-1.50", "-1.50"], ["+.5", "0.5"], ["5.", "5"], [" 12.30 ", "12.30"], ["12345678901234567890.123", "12345678901234567890.123"]] as const) {
      assert.equal(show(d(text)), value, text);
    }
    for (const bad of ["", ".", "-", "1e3", "1,5", "abc", "1.2.3", "0x10"]) assert.equal(dec(bad), null, bad);
  });

  test("round() is XPath round: halves go towards positive infinity", () => {
    assert.equal(show(round(d("2.5"))), "3");
    assert.equal(show(round(d("-2.5"))), "-2");
    assert.equal(show(round(d("-2.51"))), "-3");
    assert.equal(show(round(d("0.49"))), "0");
  });

  test("round2() is round(x * 100) div 100", () => {
    assert.equal(show(round2(d("1.005"))), "1.01");
    assert.equal(show(round2(d("-1.005"))), "-1.00");
    assert.equal(show(round2(d("1.004999"))), "1.00");
    assert.equal(show(round2(d("7"))), "7");
  });

  test("arithmetic is exact", () => {
    assert.equal(show(add(d("0.1"), d("0.2"))), "0.3");
    assert.equal(cmp(add(d("0.1"), d("0.2")), d("0.3")), 0);
    assert.equal(show(sub(d("1"), d("0.01"))), "0.99");
    assert.equal(show(mul(d("314.86"), percentOf(d("7")))), "22.0402");
    assert.equal(show(abs(d("-3.5"))), "3.5");
    assert.equal(show(sum([d("1.10"), d("2.205"), d("-0.005")])), "3.300");
  });
});
