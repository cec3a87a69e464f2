import assert from "node:assert/strict";
import { test } from "node:test";
import { compileXsdPattern, XsdRegexError } from "../../../lib/formats/xsd/regex.ts";

const CASES: { what: string; pattern: string; yes: string[]; no: string[] }[] = [
  { what: "is anchored at both ends", pattern: "\\d{2}", yes: ["12"], no: ["123", "a12", "12a"] },
  { what: "\\d is any Unicode decimal digit", pattern: "\\d+", yes: ["0123", "١٢٣"], no: ["x", "½"] },
  { what: "\\s is only space, tab, CR and LF", pattern: "a\\sb", yes: ["a b", "a\tb", "a\nb"], no: ["a\u00a0b", "a\u2003b"] },
  { what: "\\w excludes punctuation, separators and other", pattern: "\\w+", yes: ["Zażółć", "abc1"], no: ["a-b", "a b", "a.b"] },
  { what: ". excludes only CR and LF", pattern: "a.c", yes: ["abc", "a\u2028c", "a\tc"], no: ["a\nc", "a\rc"] },
  { what: "\\i and \\c are XML name characters", pattern: "\\i\\c*", yes: ["_a1", "x.y-z", "ółw"], no: ["1a", "-a", "a b"] },
  { what: "\\p{..} categories", pattern: "\\p{Lu}\\p{Ll}+", yes: ["Łódź"], no: ["łódź", "ŁÓDŹ"] },
  { what: "\\P{..} negated categories", pattern: "\\P{N}+", yes: ["abc"], no: ["a1"] },
  { what: "\\p{Is..} blocks", pattern: "\\p{IsBasicLatin}+", yes: ["abc~"], no: ["ąb"] },
  { what: "character-class subtraction", pattern: "[a-z-[aeiou]]+", yes: ["bcd"], no: ["bad"] },
  { what: "negated class with subtraction", pattern: "[^0-9-[x]]", yes: ["a"], no: ["1", "x"] },
  { what: "^ and $ are literal characters", pattern: "a^b$", yes: ["a^b$"], no: ["ab"] },
  { what: "escaped metacharacters", pattern: "\\(\\-\\)\\.\\*\\+\\?\\{\\}\\[\\]\\|\\\\\\^", yes: ["(-).*+?{}[]|\\^"], no: [""] },
  { what: "a trailing - in a class is literal", pattern: "[a-]+", yes: ["a-a"], no: ["b"] },
  { what: "characters that are syntax in JS classes stay literal", pattern: "[(){}/|&]+", yes: ["(){}/|&"], no: ["a"] },
  { what: "alternation and quantifiers", pattern: "(ab|cd){2,3}x?", yes: ["abcd", "cdcdabx"], no: ["ab", "abcdabcd"] },
  { what: "multi-character escapes inside classes", pattern: "[\\d\\s]+", yes: ["1 2"], no: ["a"] },
  { what: "negated multi-character escapes inside classes", pattern: "[\\S]+", yes: ["ab"], no: ["a b"] },
  { what: "astral characters are one character", pattern: ".", yes: ["😀"], no: ["ab"] },
  { what: "KSeF's TNrNIP", pattern: "[1-9]((\\d[1-9])|([1-9]\\d))\\d{7}", yes: ["5265877635"], no: ["0265877635", "5205877635x"] },
  { what: "KSeF's e-mail", pattern: "(.)+@(.)+", yes: ["a@b"], no: ["ab"] },
];

for (const c of CASES) {
  test(`compileXsdPattern(): ${c.what}`, () => {
    const re = compileXsdPattern(c.pattern);
    for (const s of c.yes) assert.ok(re.test(s), `${c.pattern} should match ${JSON.stringify(s)}`);
    for (const s of c.no) assert.ok(!re.test(s), `${c.pattern} should not match ${JSON.stringify(s)}`);
  });
}

test("compileXsdPattern() refuses what XSD regular expressions do not have", () => {
  for (const bad of ["a{2", "(a", "a)", "[a", "\\k", "*a", "[z-a]", "\\p{IsNoSuchBlock}"]) {
    assert.throws(() => compileXsdPattern(bad), XsdRegexError, bad);
  }
});
