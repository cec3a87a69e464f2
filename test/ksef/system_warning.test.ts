/**
 * parseSystemWarning(): KSeF's `X-System-Warning` header (KSeF API 2.6.0; open-api.json `SystemWarning`:
 * `[code]: message | [code]: message`) read into warnings.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSystemWarning } from "../../lib/ksef/system_warning.ts";

const cases = [
  { what: "no header", input: null, expected: [] },
  { what: "a blank header", input: "  ", expected: [] },
  { what: "one warning", input: "[W-1]: Pole zostanie usuniete", expected: [{ code: "W-1", message: "Pole zostanie usuniete" }] },
  {
    what: "two warnings, spaces around the bar",
    input: "[W-1]: Pierwsze | [W-2]: Drugie",
    expected: [{ code: "W-1", message: "Pierwsze" }, { code: "W-2", message: "Drugie" }],
  },
  { what: "a part without the form, kept whole without a code", input: "Bez kodu | [W-2]: Drugie", expected: [{ code: null, message: "Bez kodu" }, { code: "W-2", message: "Drugie" }] },
  { what: "a repeated warning, once", input: "[W-1]: A | [W-1]: A | [W-1]: B", expected: [{ code: "W-1", message: "A" }, { code: "W-1", message: "B" }] },
  { what: "empty parts between bars", input: "| [W-1]: A ||", expected: [{ code: "W-1", message: "A" }] },
  { what: "a code with spaces inside brackets", input: "[ W 1 ]: A", expected: [{ code: "W 1", message: "A" }] },
];

for (const c of cases) {
  test(`parseSystemWarning() reads ${c.what}`, () => {
    assert.deepEqual(parseSystemWarning(c.input), c.expected);
  });
}

test("parseSystemWarning() reads at most 8192 characters of a header", () => {
  const long = `[W-1]: ${"a".repeat(10_000)}`;
  const [w] = parseSystemWarning(long);
  assert.equal(w!.code, "W-1");
  assert.equal(w!.message.length, 8192 - "[W-1]: ".length);
});
