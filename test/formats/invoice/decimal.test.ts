import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  addDecimals, compareDecimals, divideDecimals, isDecimal, multiplyDecimals, negateDecimal, parseDecimal, roundDecimal,
  subtractDecimals, sumDecimals,
} from "../../../lib/formats/invoice/decimal.ts";

describe("parseDecimal()", () => {
  const cases: { what: string; input: string; expected: string }[] = [
    { what: "keeps trailing zeros as written", input: "1230.00", expected: "1230.00" },
    { what: "keeps an integer", input: "123", expected: "123" },
    { what: "drops a plus sign", input: "+5", expected: "5" },
    { what: "keeps a minus sign", input: "-565.80", expected: "-565.80" },
    { what: "expands a positive exponent", input: "1E3", expected: "1000" },
    { what: "expands a lower-case exponent with a fraction", input: "1.50e2", expected: "150" },
    { what: "keeps scale left over after an exponent", input: "1.2345E2", expected: "123.45" },
    { what: "expands a negative exponent", input: "1.5E-3", expected: "0.0015" },
    { what: "expands an exponent with a plus sign", input: "-2.5E+1", expected: "-25" },
    { what: "adds a leading zero to a bare fraction", input: ".5", expected: "0.5" },
    { what: "drops a trailing dot", input: "5.", expected: "5" },
    { what: "drops leading zeros", input: "007.10", expected: "7.10" },
    { what: "writes negative zero as zero", input: "-0.00", expected: "0.00" },
    { what: "writes a bare negative zero as zero", input: "-0", expected: "0" },
    { what: "keeps a single zero", input: "0", expected: "0" },
    { what: "drops a leading zero before a fraction-less integer", input: "00", expected: "0" },
    { what: "trims XML whitespace", input: " \n\t0.00 ", expected: "0.00" },
    { what: "keeps many fraction digits", input: "53.5993543", expected: "53.5993543" },
    { what: "reads a large amount exactly", input: "123456789012345678.99", expected: "123456789012345678.99" },
  ];
  for (const { what, input, expected } of cases) {
    test(`parseDecimal() ${what}: ${JSON.stringify(input)}`, () => {
      assert.equal(parseDecimal(input), expected);
      assert.equal(isDecimal(input), true);
    });
  }

  const invalid: { what: string; input: string }[] = [
    { what: "the empty string", input: "" },
    { what: "only whitespace", input: "   " },
    { what: "a comma as decimal separator", input: "12,50" },
    { what: "a thousands separator", input: "1 000.00" },
    { what: "a lone sign", input: "-" },
    { what: "a lone dot", input: "." },
    { what: "two dots", input: "1.2.3" },
    { what: "two signs", input: "+-1" },
    { what: "an exponent without digits", input: "1E" },
    { what: "an exponent without a mantissa", input: "E5" },
    { what: "a fractional exponent", input: "1E2.5" },
    { what: "a currency suffix", input: "100 PLN" },
    { what: "hexadecimal", input: "0x10" },
    { what: "Infinity", input: "Infinity" },
    { what: "NaN", input: "NaN" },
    { what: "an exponent too large to expand", input: "1E999999999" },
    { what: "more digits than any amount has", input: "1".repeat(150) },
  ];
  for (const { what, input } of invalid) {
    test(`parseDecimal() rejects ${what}`, () => {
      assert.equal(parseDecimal(input), null);
      assert.equal(isDecimal(input), false);
    });
  }

  test("parseDecimal() passes null through", () => {
    assert.equal(parseDecimal(null), null);
    assert.equal(parseDecimal(undefined), null);
  });
});

describe("addDecimals() and sumDecimals()", () => {
  const sums: { what: string; input: string[]; expected: string | null }[] = [
    { what: "uses the larger scale", input: ["100.00", "23.5"], expected: "123.50" },
    { what: "adds integers", input: ["13915", "0"], expected: "13915" },
    { what: "adds a negative and a positive amount", input: ["-15993.6", "18214.94"], expected: "2221.34" },
    { what: "sums to a negative amount", input: ["-3678.53", "1457.19"], expected: "-2221.34" },
    { what: "keeps zeros at their scale", input: ["0.00", "0.00", "0.00"], expected: "0.00" },
    { what: "sums to zero without a sign", input: ["-1.10", "1.1"], expected: "0.00" },
    { what: "handles a value below one", input: ["0.01", "0.002"], expected: "0.012" },
    { what: "sums every KSeF net field of FA_3_complex", input: [
      "1000.00", "500.00", "2000.00", "300.00", "150.00", "100.00", "200.00", "50.00", "400.00", "250.00",
      "180.00", "320.00", "500.00",
    ], expected: "5950.00" },
    { what: "is exact where binary floating point is not", input: ["0.1", "0.2"], expected: "0.3" },
    { what: "is exact past 2^53", input: ["9007199254740993.01", "1"], expected: "9007199254740994.01" },
    { what: "returns a single value normalised", input: ["+7.50"], expected: "7.50" },
    { what: "returns null for nothing", input: [], expected: null },
  ];
  for (const { what, input, expected } of sums) {
    test(`sumDecimals() ${what}`, () => {
      assert.equal(sumDecimals(input), expected);
    });
  }

  test("addDecimals() adds two values at the larger scale", () => {
    assert.equal(addDecimals("100.00", "23.5"), "123.50");
    assert.equal(addDecimals("-200", "37.40"), "-162.60");
  });

  test("addDecimals() and sumDecimals() reject invalid input with a RangeError", () => {
    assert.throws(() => addDecimals("1,5", "1"), RangeError);
    assert.throws(() => addDecimals("1", ""), RangeError);
    assert.throws(() => sumDecimals(["1", "abc"]), RangeError);
  });
});

describe("negateDecimal() and compareDecimals()", () => {
  test("negateDecimal() flips the sign and keeps the scale", () => {
    assert.equal(negateDecimal("1.50"), "-1.50");
    assert.equal(negateDecimal("-565.80"), "565.80");
    assert.equal(negateDecimal("0.00"), "0.00");
    assert.throws(() => negateDecimal("x"), RangeError);
  });

  const comparisons: { what: string; input: [string, string]; expected: -1 | 0 | 1 }[] = [
    { what: "equal values at different scales", input: ["1.0", "1"], expected: 0 },
    { what: "a smaller value", input: ["99.99", "100"], expected: -1 },
    { what: "a larger value", input: ["100.001", "100"], expected: 1 },
    { what: "negative values", input: ["-2", "-10"], expected: 1 },
    { what: "negative and positive zero", input: ["-0.00", "0"], expected: 0 },
    { what: "exponent and plain notation", input: ["1E3", "1000.00"], expected: 0 },
  ];
  for (const { what, input, expected } of comparisons) {
    test(`compareDecimals() orders ${what}`, () => {
      assert.equal(compareDecimals(input[0], input[1]), expected);
    });
  }

  test("compareDecimals() rejects invalid input with a RangeError", () => {
    assert.throws(() => compareDecimals("1", "one"), RangeError);
  });
});

describe("multiplying, dividing and rounding", () => {
  const rounding: [string, number, string][] = [
    ["2.345", 2, "2.35"], ["-2.345", 2, "-2.35"], ["2.3449999", 2, "2.34"], ["2.3450001", 2, "2.35"],
    ["5", 2, "5.00"], ["0.005", 2, "0.01"], ["-0.004", 2, "0.00"], ["1.2", 2, "1.20"], ["99.995", 2, "100.00"],
  ];
  for (const [input, places, expected] of rounding) {
    test(`roundDecimal() rounds ${input} half away from zero to ${places} places: ${expected}`, () => {
      assert.equal(roundDecimal(input, places), expected);
    });
  }
  test("multiplyDecimals() keeps every digit: 3 × 33.333 and 0.1 × 0.2", () => {
    assert.equal(multiplyDecimals("3", "33.333"), "99.999");
    assert.equal(multiplyDecimals("0.1", "0.2"), "0.02");
    assert.equal(multiplyDecimals("-1.5", "2"), "-3.0");
  });
  test("subtractDecimals() is exact at the larger scale", () => {
    assert.equal(subtractDecimals("100", "0.01"), "99.99");
    assert.equal(subtractDecimals("1.10", "2.2"), "-1.10");
  });
  test("divideDecimals() rounds the quotient half away from zero", () => {
    assert.equal(divideDecimals("10", "3", 2), "3.33");
    assert.equal(divideDecimals("20", "3", 2), "6.67");
    assert.equal(divideDecimals("-20", "3", 2), "-6.67");
    assert.equal(divideDecimals("1.25", "0.5", 4), "2.5000");
    assert.throws(() => divideDecimals("1", "0.00", 2), RangeError);
  });
});
