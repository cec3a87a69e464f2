/** The neutral view's helpers: XPath normalize-space, "has text", xs:boolean, and the walk by a syntax's name table. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { hasText, norm, walkTable, walkView, xsBoolean, type SemanticView } from "../../../../lib/formats/validation/en16931/semantic_view.ts";
import { parseXml } from "../../../../lib/formats/xml/parse.ts";

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

  test("walkView() applies a table's reader to every element it names in its namespace, in document order, with its parent", () => {
    const root = parseXml('<r xmlns:a="urn:a" xmlns:b="urn:b"><a:x>1</a:x><b:x>no</b:x><a:p><a:x>2</a:x><a:y>3</a:y></a:p><x>no</x></r>').root;
    const seen: string[] = [];
    const table = walkTable({
      "urn:a": { x: (el, parent) => seen.push(`x ${el.text} in ${parent?.local}`) },
      "urn:b": { y: (el) => seen.push(`y ${el.text}`) }, // a:y is not b:y
    });
    walkView(root, null, {} as SemanticView, table);
    assert.deepEqual(seen, ["x 1 in r", "x 2 in p"]);
  });

  test("walkTable() refuses a name given in two namespaces (one reader a name)", () => {
    assert.throws(() => walkTable({ "urn:a": { x: () => {} }, "urn:b": { x: () => {} } }), TypeError);
  });
});
