import assert from "node:assert/strict";
import { test } from "node:test";
import { canonicalDecimal, checkBuiltin, compareDecimal, decimalDigits, isBase64Binary } from "../../../lib/formats/xsd/values.ts";
import { createRandom } from "../../support/random.ts";

/** Ten million characters: over what V8's backtracking stack holds for a pattern with a loop (it throws RangeError). */
const LONG = 10_000_000;
const d = (n: number): string => "1".repeat(n);

test("checkBuiltin() decides values of ten million characters of the built-ins, valid and not, without overflowing", { timeout: 120_000 }, () => {
  const cases: [string, string, boolean][] = [
    ["base64Binary", "QUJD".repeat(LONG / 4), true],
    ["base64Binary", `${"QU JD ".repeat(LONG / 6)}QQ==`, true],
    ["base64Binary", `${"QUJD".repeat(LONG / 4)}Q`, false],
    ["hexBinary", "0a".repeat(LONG / 2), true],
    ["decimal", `-${d(LONG)}.${d(LONG / 10)}`, true],
    ["decimal", `${d(LONG)}x`, false],
    ["integer", d(LONG), true],
    ["byte", d(LONG), false], // out of range, decided without BigInt
    ["unsignedLong", `+${"0".repeat(LONG)}18446744073709551615`, true],
    ["double", `${d(LONG)}e-${d(100)}`, true],
    ["duration", `P${d(LONG)}Y${d(10)}DT1.${d(LONG / 10)}S`, true],
    ["duration", `P${d(LONG)}YT`, false],
    ["date", `1${"0".repeat(LONG)}-02-29`, true], // a year of ten million digits divisible by 400
    ["date", `1${"0".repeat(LONG - 1)}4-02-30`, false],
    ["dateTime", `2024-02-29T23:59:59.${d(LONG)}+14:00`, true],
    ["gYear", `-${d(LONG)}Z`, true],
    ["language", `en${"-abcdefgh".repeat(LONG / 9)}`, true],
    ["NMTOKENS", `${"ab ".repeat(LONG / 3)}c`, true],
    ["IDREFS", `${"a1 ".repeat(LONG / 3)}1`, false],
    ["QName", `${"a".repeat(LONG)}:b`, true],
  ];
  for (const [type, value, valid] of cases) assert.equal(checkBuiltin(type, value) === null, valid, `${type} of ${value.length} characters`);
  assert.match(checkBuiltin("byte", d(LONG))!, /^'1{77}\.\.\.' is out of the range of byte$/, "a long value is quoted cut short");
});

test("decimalDigits(), compareDecimal() and canonicalDecimal() take one pass over long runs of zeros", () => {
  const zeros = "0".repeat(1_000_000); // a regular expression that trims them retries the run from each zero
  const value = `${zeros}1.${zeros}1`;
  const started = performance.now();
  assert.deepEqual(decimalDigits(value), { total: 1_000_002, fraction: 1_000_001 });
  assert.equal(compareDecimal(value, "1"), 1);
  assert.equal(compareDecimal(`-${zeros}.${zeros}`, "0"), 0);
  assert.equal(canonicalDecimal(`+${zeros}.${zeros}`), "0");
  assert.ok(performance.now() - started < 5_000, `${Math.round(performance.now() - started)} ms`);
});

// The production of XML Schema Part 2 (second edition) §3.2.16, as a RegExp: the reference on short values.
const BASE64 = /^(([A-Za-z0-9+/] ?){4})*(([A-Za-z0-9+/] ?){3}[A-Za-z0-9+/]|([A-Za-z0-9+/] ?){2}[AEIMQUYcgkosw048] ?=|[A-Za-z0-9+/] ?[AQgw] ?= ?=)?$/;

test("isBase64Binary() agrees with the schema's production on every short value of a small alphabet", () => {
  const alphabet = ["A", "Q", "g", "B", "z", "+", "/", "0", "=", " ", "-", "\n"];
  const random = createRandom(64);
  let valid = 0;
  for (let k = 0; k < 60_000; k++) {
    let v = "";
    const n = Math.floor(random() * 13);
    for (let i = 0; i < n; i++) v += alphabet[Math.floor(random() * alphabet.length)]!;
    assert.equal(isBase64Binary(v), BASE64.test(v), JSON.stringify(v));
    if (BASE64.test(v)) valid++;
  }
  for (const v of ["", "QUJD", "QUI=", "QQ==", "Q Q = =", "QUJD ", " QUJD", "QUJ D", "QU  JD", "QR==", "QUJ=", "QUJDQ"]) {
    assert.equal(isBase64Binary(v), BASE64.test(v), JSON.stringify(v));
  }
  assert.ok(valid > 100, `${valid} valid values among them`);
});
