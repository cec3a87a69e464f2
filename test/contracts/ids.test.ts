import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeOrdinalId, encodeOrdinalId, isWellFormedId, newId, type IdPrefix } from "../../lib/contracts/ids.ts";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const PREFIXES: IdPrefix[] = ["doc", "sub", "whk", "sync", "evt", "req"];
const T = Date.UTC(2026, 10, 21, 23, 25, 1, 123);

/** The milliseconds in the first 10 characters after the prefix. */
function timeOf(id: string): number {
  const body = id.slice(id.indexOf("_") + 1, id.indexOf("_") + 11);
  return [...body].reduce((n, c) => n * 32 + CROCKFORD.indexOf(c), 0);
}

describe("newId()", () => {
  test("is the prefix, an underscore and 26 Crockford base32 characters", () => {
    for (const prefix of PREFIXES) {
      const id = newId(prefix, T);
      assert.match(id, new RegExp(`^${prefix}_[${CROCKFORD}]{26}$`), id);
      assert.equal(encodeURIComponent(id), id, "URL-safe");
    }
  });

  test("starts with the time, so ids made later sort later", () => {
    const ids = [0, 1, 999, 1000, 86_400_000, 2 ** 40].map((dt) => newId("evt", T + dt));
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(timeOf(newId("doc", T)), T);
    assert.equal(timeOf(newId("doc", 0)), 0);
    assert.equal(timeOf(newId("doc", 2 ** 48 - 1)), 2 ** 48 - 1);
  });

  test("ids made one after another in the same millisecond sort in that order", () => {
    const ids = Array.from({ length: 1000 }, () => newId("doc", T + 5));
    assert.deepEqual([...ids].sort(), ids);
    assert.ok(ids.every((id) => timeOf(id) === T + 5));
  });

  test("ids made in the same millisecond differ", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId("req", T)));
    assert.equal(ids.size, 10_000);
  });
});

describe("encodeOrdinalId() and decodeOrdinalId()", () => {
  test("an ordinal comes back out of its id", () => {
    for (const ordinal of [0, 1, 31, 32, 1_000_000, 2 ** 35 - 1]) {
      const id = encodeOrdinalId("doc", T, ordinal);
      assert.match(id, new RegExp(`^doc_[${CROCKFORD}]{26}$`));
      assert.equal(decodeOrdinalId("doc", id), ordinal, String(ordinal));
      assert.equal(timeOf(id), T);
    }
  });

  test("ids of the same time sort by ordinal", () => {
    const ids = [0, 1, 2, 100, 5000, 2 ** 30].map((o) => encodeOrdinalId("sync", T, o));
    assert.deepEqual([...ids].sort(), ids);
  });

  test("two ids of the same ordinal and time still differ in their random part", () => {
    assert.notEqual(encodeOrdinalId("doc", T, 3), encodeOrdinalId("doc", T, 3));
  });

  test("an ordinal that does not fit its 35 bits throws a RangeError instead of wrapping around", () => {
    for (const ordinal of [2 ** 35, 2 ** 40, -1, 1.5]) {
      assert.throws(() => encodeOrdinalId("doc", T, ordinal), RangeError, String(ordinal));
    }
  });

  test("a malformed id decodes to -1", () => {
    const good = encodeOrdinalId("doc", T, 42);
    const cases = [
      { what: "empty", input: "" },
      { what: "the prefix alone", input: "doc_" },
      { what: "another prefix", input: good.replace("doc_", "sub_") },
      { what: "a longer prefix", input: `x${good}` },
      { what: "no underscore", input: good.replace("_", "-") },
      { what: "one character short", input: good.slice(0, -1) },
      { what: "one character long", input: `${good}0` },
      { what: "lower case", input: good.toLowerCase() },
      { what: "the letter I", input: `${good.slice(0, -1)}I` },
      { what: "the letter L", input: `${good.slice(0, -1)}L` },
      { what: "the letter O", input: `${good.slice(0, -1)}O` },
      { what: "the letter U", input: `${good.slice(0, -1)}U` },
      { what: "a slash", input: `${good.slice(0, -1)}/` },
    ];
    for (const { what, input } of cases) assert.equal(decodeOrdinalId("doc", input), -1, what);
  });
});

describe("isWellFormedId()", () => {
  test("accepts ids of its prefix and nothing else", () => {
    const cases = [
      { what: "a new id", input: ["doc", newId("doc", T)], expected: true },
      { what: "an ordinal id", input: ["sync", encodeOrdinalId("sync", T, 9)], expected: true },
      { what: "another prefix", input: ["doc", newId("sub", T)], expected: false },
      { what: "garbage", input: ["doc", "doc_hello"], expected: false },
      { what: "the example of the contract", input: ["doc", "doc_01JD..."], expected: false },
    ];
    for (const { what, input, expected } of cases) assert.equal(isWellFormedId(input[0] as IdPrefix, input[1]!), expected, what);
  });
});
