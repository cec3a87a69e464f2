/** The neutral view's string helpers: XPath normalize-space, "has text", xs:boolean. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { hasText, norm, xsBoolean } from "../../../../lib/formats/validation/en16931/semantic_view.ts";

describe("semantic_view helpers", () => {
  test("norm() is XPath normalize-space", () => {
    const cases: [string | null, string][] = [
      [null, ""], ["", ""], ["S", "S"], ["VAT", "VAT"], [" S ", "S"], ["a  b", "a b"], ["a\tb", "a b"],
      ["\n  Item\r\n name ", "Item name"], ["one two three", "one two three"], ["   ", ""],
    ];
    for (const [input, expected] of cases) assert.equal(norm(input), expected, JSON.stringify(input));
  });

  test("hasText() is normalize-space(.) != ''", () => {
    assert.equal(hasText(null), false);
    assert.equal(hasText(" \t\r\n"), false);
    assert.equal(hasText(" x "), true);
  });

  test("xsBoolean() reads the four xs:boolean literals and nothing else", () => {
    assert.equal(xsBoolean("true"), true);
    assert.equal(xsBoolean(" 1 "), true);
    assert.equal(xsBoolean("false"), false);
    assert.equal(xsBoolean("0"), false);
    assert.equal(xsBoolean("TRUE"), null);
    assert.equal(xsBoolean(""), null);
  });
});
