import { test } from "node:test";
import assert from "node:assert/strict";
import { duplicateJsonKey } from "../../lib/http/json_keys.ts";

const CASES = [
  { what: "no keys", input: "{}", expected: null },
  { what: "the same key in nested objects", input: '{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}', expected: null },
  { what: "a value that looks like a key", input: '{"a": "a", "b": "a"}', expected: null },
  { what: "punctuation and quotes inside strings", input: '{"a": "{\\"a\\": 1, [", "b": ",:}"}', expected: null },
  { what: "a repeated key", input: '{"a": 1, "b": 2, "a": 3}', expected: "a" },
  { what: "a repeated key after a nested object", input: '{"a": {"x": [1, {"y": 2}]}, "a": 1}', expected: "a" },
  { what: "a repeated key inside an array's object", input: '[1, {"k": 1, "k": 2}]', expected: "k" },
  { what: "the same key spelt with an escape", input: '{"é": 1, "\\u00e9": 2}', expected: "é" },
  { what: "the empty key twice", input: '{"": 1, "": 2}', expected: "" },
];

for (const { what, input, expected } of CASES) {
  test(`duplicateJsonKey() on ${what}`, () => {
    JSON.parse(input); // the cases are valid JSON, as the function's input always is
    assert.equal(duplicateJsonKey(input), expected);
  });
}
