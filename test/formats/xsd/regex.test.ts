import assert from "node:assert/strict";
import { test } from "node:test";
import { compileXsdPattern, LINEAR_FROM, parseXsdPattern, type RegexNode, XsdRegexError } from "../../../lib/formats/xsd/regex.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { createRandom } from "../../support/random.ts";

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

/** Every `pattern` facet of the shipped schemas (storage/schemas). */
function _schemaPatterns(): string[] {
  const out = new Set<string>();
  const unescape = (v: string): string => v.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  for (const file of Object.values(readSchemaFiles()).flat()) {
    const text = typeof file.bytes === "string" ? file.bytes : new TextDecoder().decode(file.bytes);
    for (const m of text.matchAll(/<xsd?:pattern value="([^"]*)"/g)) out.add(unescape(m[1]!));
  }
  return [...out];
}

// Characters values are made of: ASCII, the XML whitespace, and a few beyond (Polish, Arabic digits, an emoji, spaces).
const POOL = [..." !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~", "\t", "\n", "\r", ..."ąłŻé·١٢😀\u00a0\u2003\u2028"];

/** A value the pattern matches, made by a random walk of its tree (repetitions without a bound end by 3). */
function _sample(node: RegexNode, random: () => number): string {
  switch (node.kind) {
    case "char": {
      const re = new RegExp(`^${node.source}$`, "v");
      const fits = POOL.filter((c) => re.test(c));
      return fits.length === 0 ? "" : fits[Math.floor(random() * fits.length)]!;
    }
    case "seq": return node.items.map((n) => _sample(n, random)).join("");
    case "group": return _sample(node.node, random);
    case "alt": return _sample(node.branches[Math.floor(random() * node.branches.length)]!, random);
    case "repeat": {
      const n = node.min + Math.floor(random() * (Math.min(node.max, node.min + 3) - node.min + 1));
      return Array.from({ length: n }, () => _sample(node.node, random)).join("");
    }
  }
}

test("the linear matcher of long values gives the RegExp's verdict, on every pattern of the schemas and above, near matches included", () => {
  const random = createRandom(20);
  let matched = 0, compared = 0;
  for (const pattern of [..._schemaPatterns(), ...CASES.map((c) => c.pattern)]) {
    const usual = compileXsdPattern(pattern), linear = compileXsdPattern(pattern, 0);
    const tree = parseXsdPattern(pattern);
    for (let k = 0; k < 60; k++) {
      const chars = [..._sample(tree, random)];
      // Every other value is changed a little: a character replaced, added or dropped.
      if (k % 2 === 1) {
        const at = Math.floor(random() * (chars.length + 1)), c = POOL[Math.floor(random() * POOL.length)]!;
        const how = Math.floor(random() * 3);
        if (how === 0) chars.splice(at, 1, c);
        else if (how === 1) chars.splice(at, 0, c);
        else chars.splice(at, 1);
      }
      const value = chars.join("");
      const expected = usual.test(value);
      assert.equal(linear.test(value), expected, `${pattern} on ${JSON.stringify(value)}`);
      if (expected) matched++;
      compared++;
    }
  }
  assert.ok(matched > compared / 3 && matched < compared, `${matched} of ${compared} values matched: both verdicts are tried`);
});

test("a value of millions of characters is matched in linear time, where the RegExp overflows its stack or takes quadratic time", () => {
  const long = 10_000_000;
  const cases = [
    { pattern: "(.)+@(.)+", value: `${"a".repeat(long)}@b`, expected: true }, // KSeF's TAdresEmail: RangeError in V8
    { pattern: "(.)+@(.)+", value: "a".repeat(long), expected: false },
    { pattern: "[ a]*b", value: `${" ".repeat(long)}c`, expected: false },
    { pattern: "\\d{10}", value: "1".repeat(long), expected: false },
  ];
  for (const c of cases) assert.equal(compileXsdPattern(c.pattern).test(c.value), c.expected, c.pattern);
  assert.equal(LINEAR_FROM <= long, true);
});
