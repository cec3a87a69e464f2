import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Lexer } from "../../../../lib/formats/pdf/read/lexer.ts";
import { DEFAULT_PDF_READ_LIMITS, ReadBudget } from "../../../../lib/formats/pdf/read/limits.ts";
import { locateStreamEnd, parseIndirect, parseValue } from "../../../../lib/formats/pdf/read/parse.ts";
import { PdfReadError } from "../../../../lib/formats/pdf/read/read_error.ts";
import { decodeTextString, type PdfValue } from "../../../../lib/formats/pdf/read/values.ts";

const bytes = (s: string): Uint8Array => Buffer.from(s, "latin1");
const budget = (): ReadBudget => new ReadBudget({ ...DEFAULT_PDF_READ_LIMITS });
const parse = (s: string): PdfValue => parseValue(new Lexer(bytes(s), 0, budget()));
const str = (s: string): PdfValue => ({ kind: "string", bytes: Uint8Array.from(bytes(s)) });
const name = (n: string): PdfValue => ({ kind: "name", name: n });

describe("parseValue()", () => {
  for (const { what, input, expected } of [
    { what: "an integer", input: "42 ", expected: 42 },
    { what: "a negative real", input: "-3.25", expected: -3.25 },
    { what: "a real starting with a point", input: ".5", expected: 0.5 },
    { what: "a doubled sign as lenient readers do", input: "--5", expected: -5 },
    { what: "booleans and null in an array", input: "[true false null]", expected: [true, false, null] },
    { what: "a name with #xx escapes", input: "/text#2Fxml", expected: name("text/xml") },
    { what: "an empty name", input: "/ ", expected: name("") },
    { what: "a literal string with nested parentheses", input: "(a (b) c)", expected: str("a (b) c") },
    { what: "a literal string with escapes", input: "(\\n\\r\\t\\b\\f\\(\\)\\\\\\q)", expected: str("\n\r\t\b\f()\\q") },
    { what: "octal escapes of one to three digits", input: "(\\101\\7\\0615)", expected: str("A\x071" + "5") },
    { what: "a backslash before an end of line", input: "(ab\\\r\ncd)", expected: str("abcd") },
    { what: "an end of line read as LF", input: "(a\r\nb\rc)", expected: str("a\nb\nc") },
    { what: "a hex string with white space and an odd digit", input: "<48 65 6c6C 7>", expected: str("Hell\x70") },
    { what: "a reference", input: "12 0 R", expected: { kind: "ref", num: 12, gen: 0 } },
    { what: "two integers that are not a reference", input: "[12 0 13]", expected: [12, 0, 13] },
    { what: "references in an array", input: "[1 0 R 2 0 R]", expected: [{ kind: "ref", num: 1, gen: 0 }, { kind: "ref", num: 2, gen: 0 }] },
    { what: "a dictionary with a comment", input: "<< /A 1 % note\n /B [/C] >>", expected: { kind: "dict", map: new Map<string, PdfValue>([["A", 1], ["B", [name("C")]]]) } },
    { what: "a dictionary without spaces", input: "<</A<</B(x)>>>>", expected: { kind: "dict", map: new Map<string, PdfValue>([["A", { kind: "dict", map: new Map<string, PdfValue>([["B", str("x")]]) }]]) } },
  ]) {
    test(`parseValue() reads ${what}`, () => assert.deepEqual(parse(input), expected));
  }

  for (const { what, input, reason } of [
    { what: "a dictionary cut by endobj", input: "<< /A 1 endobj", reason: "damaged" },
    { what: "an unmatched ]", input: "]", reason: "damaged" },
    { what: "the end of the data inside an array", input: "[1 2", reason: "damaged" },
    { what: "arrays nested deeper than the limit", input: "[".repeat(65), reason: "too_deep" },
  ]) {
    test(`parseValue() refuses ${what}`, () => {
      assert.throws(() => parse(input), (e) => e instanceof PdfReadError && e.reason === reason);
    });
  }
});

describe("parseIndirect() and locateStreamEnd()", () => {
  test("parseIndirect() finds where a stream's data starts after CR LF", () => {
    const pdf = bytes("7 0 obj\n<< /Length 3 >>\nstream\r\nabc\nendstream\nendobj\n");
    const obj = parseIndirect(pdf, 0, budget());
    assert.equal(obj.num, 7);
    assert.equal(obj.streamStart, Buffer.from(pdf).indexOf("abc"));
    assert.equal(locateStreamEnd(pdf, obj.streamStart!, 3, budget()), obj.streamStart! + 3);
  });

  test("locateStreamEnd() searches for endstream when /Length is wrong", () => {
    const pdf = bytes("stream\nabcdef\r\nendstream");
    assert.equal(locateStreamEnd(pdf, 7, 2, budget()), 13);
    assert.equal(locateStreamEnd(pdf, 7, null, budget()), 13);
  });

  test("locateStreamEnd() refuses a stream without endstream", () => {
    assert.throws(() => locateStreamEnd(bytes("stream\nabc"), 7, 99, budget()), (e) => e instanceof PdfReadError && e.reason === "damaged");
  });
});

describe("decodeTextString()", () => {
  test("decodeTextString() reads UTF-16BE with a BOM, UTF-8 with a BOM and PDFDocEncoding", () => {
    assert.equal(decodeTextString(Uint8Array.of(0xfe, 0xff, 0, 0x66, 0x01, 0x42)), "fł");
    assert.equal(decodeTextString(Uint8Array.of(0xef, 0xbb, 0xbf, 0xc5, 0x82)), "ł");
    assert.equal(decodeTextString(bytes("factur-x.xml")), "factur-x.xml");
  });
});
