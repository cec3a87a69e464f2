import { test } from "node:test";
import assert from "node:assert/strict";
import { generateToken, hashSecret, parseToken } from "../../lib/auth/tokens.ts";
import { secretOf } from "../support/tokens.ts";

// A base64url secret may begin with or contain `_`: `split("_")[2]` then yields a fragment, or "" (which every
// string includes), and a "the secret never leaks" assertion passes by chance.
const CASES = [
  { what: "a secret that begins with _", keyId: "0123456789abcdef", secret: `_${"A".repeat(42)}` },
  { what: "a secret with _ inside", keyId: "0123456789abcdef", secret: `${"B".repeat(20)}_${"C".repeat(22)}` },
  { what: "a secret of - and _ only", keyId: "0123456789abcdef", secret: "-_".repeat(22) },
];

for (const { what, keyId, secret } of CASES) {
  test(`parseToken() and the tests' secretOf() read ${what} whole`, () => {
    const token = `itk_${keyId}_${secret}`;
    assert.deepEqual(parseToken(token), { keyId, secret });
    assert.equal(secretOf(token), secret);
  });
}

test("a generated token's secret matches its stored hash when read with secretOf()", () => {
  for (let i = 0; i < 200; i++) {
    const t = generateToken();
    assert.equal(hashSecret(secretOf(t.token)), t.secretSha256);
    assert.ok(secretOf(t.token).length >= 43, "long enough that an includes() check cannot pass by chance");
  }
});
