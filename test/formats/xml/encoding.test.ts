import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseXml, XmlError } from "../../../lib/formats/xml/parse.ts";

const POLISH = "Zażółć gęślą jaźń";
/** POLISH in ISO-8859-2 and windows-1250, byte by byte from the code charts (they differ in ą, ś, ź). */
const POLISH_LATIN2 = [0x5a, 0x61, 0xbf, 0xf3, 0xb3, 0xe6, 0x20, 0x67, 0xea, 0xb6, 0x6c, 0xb1, 0x20, 0x6a, 0x61, 0xbc, 0xf1];
const POLISH_1250 = [0x5a, 0x61, 0xbf, 0xf3, 0xb3, 0xe6, 0x20, 0x67, 0xea, 0x9c, 0x6c, 0xb9, 0x20, 0x6a, 0x61, 0x9f, 0xf1];

function ascii(text: string): number[] {
  return Array.from(text, (ch) => {
    assert.ok(ch.charCodeAt(0) < 0x80);
    return ch.charCodeAt(0);
  });
}

function bytes(...parts: (string | number[])[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? ascii(p) : p)));
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function utf16(text: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const units = (bom ? "\uFEFF" : "") + text;
  const out = new Uint8Array(units.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < units.length; i++) view.setUint16(i * 2, units.charCodeAt(i), littleEndian);
  return out;
}

function refused(input: Uint8Array | string): XmlError {
  try {
    parseXml(input);
  } catch (e) {
    assert.ok(e instanceof XmlError, `expected an XmlError, got ${String(e)}`);
    return e;
  }
  assert.fail("expected the document to be refused");
}

describe("parseXml() decodes bytes", () => {
  const cases: { what: string; input: Uint8Array; expected: { encoding: string; text: string; attr?: string } }[] = [
    { what: "UTF-8 without a declaration", input: utf8(`<a>${POLISH}</a>`), expected: { encoding: "utf-8", text: POLISH } },
    { what: "UTF-8 with a declaration", input: utf8(`<?xml version="1.0" encoding="UTF-8"?><a>${POLISH}</a>`), expected: { encoding: "utf-8", text: POLISH } },
    { what: "UTF-8 declared in lower case", input: utf8(`<?xml version='1.0' encoding='utf-8'?><a>${POLISH}</a>`), expected: { encoding: "utf-8", text: POLISH } },
    { what: "UTF-8 with a byte order mark", input: bytes([0xef, 0xbb, 0xbf], [...utf8(`<a>${POLISH}</a>`)]), expected: { encoding: "utf-8", text: POLISH } },
    { what: "UTF-8 with a byte order mark and a declaration", input: bytes([0xef, 0xbb, 0xbf], [...utf8(`<?xml version="1.0" encoding="UTF-8"?><a>x</a>`)]), expected: { encoding: "utf-8", text: "x" } },
    { what: "UTF-8 with a character above #xFFFF", input: utf8("<a>\u{1F600}</a>"), expected: { encoding: "utf-8", text: "\u{1F600}" } },
    { what: "UTF-16LE with a byte order mark", input: utf16(`<a>${POLISH}\u{1F600}</a>`, true, true), expected: { encoding: "utf-16le", text: `${POLISH}\u{1F600}` } },
    { what: "UTF-16BE with a byte order mark", input: utf16(`<a>${POLISH}</a>`, false, true), expected: { encoding: "utf-16be", text: POLISH } },
    { what: "UTF-16LE with a byte order mark and a declaration", input: utf16(`<?xml version="1.0" encoding="UTF-16"?><a>${POLISH}</a>`, true, true), expected: { encoding: "utf-16le", text: POLISH } },
    { what: "UTF-16LE without a byte order mark (Appendix F '<?' pattern)", input: utf16(`<?xml version="1.0" encoding="UTF-16LE"?><a>${POLISH}</a>`, true, false), expected: { encoding: "utf-16le", text: POLISH } },
    { what: "UTF-16BE without a byte order mark", input: utf16(`<?xml version="1.0" encoding="UTF-16BE"?><a>${POLISH}</a>`, false, false), expected: { encoding: "utf-16be", text: POLISH } },
    { what: "ISO-8859-2", input: bytes(`<?xml version="1.0" encoding="ISO-8859-2"?><a x="`, POLISH_LATIN2, `">`, POLISH_LATIN2, "</a>"), expected: { encoding: "iso-8859-2", text: POLISH, attr: POLISH } },
    { what: "ISO-8859-2 by its alias latin2", input: bytes(`<?xml version='1.0' encoding='latin2'?><a>`, POLISH_LATIN2, "</a>"), expected: { encoding: "iso-8859-2", text: POLISH } },
    { what: "windows-1250", input: bytes(`<?xml version="1.0" encoding="windows-1250"?><a x="`, POLISH_1250, `">`, POLISH_1250, "</a>"), expected: { encoding: "windows-1250", text: POLISH, attr: POLISH } },
    { what: "windows-1250 by its alias cp1250", input: bytes(`<?xml version="1.0" encoding="CP1250"?><a>`, POLISH_1250, "</a>"), expected: { encoding: "windows-1250", text: POLISH } },
    { what: "ISO-8859-1 byte for character, 0x80-0x9F included", input: bytes(`<?xml version="1.0" encoding="ISO-8859-1"?><a>`, [0x80, 0x9f, 0xe9, 0xff], "</a>"), expected: { encoding: "iso-8859-1", text: "\u0080\u009F\u00E9\u00FF" } },
    { what: "windows-1252, where 0x80 is the euro sign", input: bytes(`<?xml version="1.0" encoding="windows-1252"?><a>`, [0x80, 0xe9], "</a>"), expected: { encoding: "windows-1252", text: "€é" } },
    { what: "US-ASCII", input: bytes(`<?xml version="1.0" encoding="US-ASCII"?><a>plain</a>`), expected: { encoding: "us-ascii", text: "plain" } },
    { what: "CRLF line ends in bytes", input: utf8("<?xml version='1.0'?>\r\n<a>1\r\n2</a>\r\n"), expected: { encoding: "utf-8", text: "1\n2" } },
  ];
  for (const { what, input, expected } of cases) {
    test(`parseXml() decodes ${what}`, () => {
      const doc = parseXml(input);
      assert.equal(doc.encoding, expected.encoding);
      assert.equal(doc.root.text, expected.text);
      if (expected.attr !== undefined) assert.equal(doc.root.attrs[0]!.value, expected.attr);
    });
  }
});

describe("parseXml() refuses bytes it cannot decode faithfully", () => {
  const decl = `<?xml version="1.0" encoding="`;
  const cases: { what: string; input: Uint8Array; expected: { message: RegExp; line: number; column: number } }[] = [
    { what: "an unsupported encoding", input: bytes(`${decl}EBCDIC-XYZ"?><a/>`), expected: { message: /Unsupported encoding 'EBCDIC-XYZ'/, line: 1, column: 31 } },
    { what: "a declaration contradicting the UTF-8 byte order mark", input: bytes([0xef, 0xbb, 0xbf], `${decl}ISO-8859-2"?><a/>`), expected: { message: /contradicts the UTF-8 byte order mark/, line: 1, column: 31 } },
    { what: "a declaration contradicting a UTF-16 byte order mark", input: utf16(`${decl}UTF-8"?><a/>`, true, true), expected: { message: /contradicts the UTF-16 byte order/, line: 1, column: 31 } },
    { what: "UTF-16 declared in single-byte text", input: bytes(`${decl}UTF-16"?><a/>`), expected: { message: /which is not UTF-16/, line: 1, column: 31 } },
    { what: "a byte over 0x7F in US-ASCII", input: bytes(`${decl}US-ASCII"?>\n<a>ab`, [0xe9], "</a>"), expected: { message: /Invalid US-ASCII byte/, line: 2, column: 6 } },
    { what: "a malformed declaration in bytes", input: bytes(`<?xml version="1.0" standalone="x"?><a/>`), expected: { message: /standalone must be 'yes' or 'no'/, line: 1, column: 33 } },
    { what: "a lone surrogate in UTF-16", input: bytes([0xff, 0xfe, 0x3c, 0x00, 0x61, 0x00, 0x3e, 0x00, 0x00, 0xd8, 0x3c, 0x00]), expected: { message: /Invalid UTF-16LE byte sequence/, line: 1, column: 4 } },
  ];
  for (const { what, input, expected } of cases) {
    test(`parseXml() refuses ${what}`, () => {
      const e = refused(input);
      assert.match(e.message, expected.message);
      assert.deepEqual([e.line, e.column], [expected.line, expected.column], e.message);
    });
  }

  const invalidUtf8: { what: string; input: number[] }[] = [
    { what: "a lone continuation byte", input: [0x80] },
    { what: "an overlong '/' (C0 AF)", input: [0xc0, 0xaf] },
    { what: "an overlong three-byte form", input: [0xe0, 0x80, 0xaf] },
    { what: "an encoded surrogate (ED A0 80)", input: [0xed, 0xa0, 0x80] },
    { what: "a code point above U+10FFFF", input: [0xf4, 0x90, 0x80, 0x80] },
    { what: "the byte FF", input: [0xff] },
    { what: "a sequence cut short before ASCII", input: [0xe2, 0x82] },
    { what: "a five-byte form", input: [0xf8, 0x88, 0x80, 0x80, 0x80] },
  ];
  for (const { what, input } of invalidUtf8) {
    test(`parseXml() refuses invalid UTF-8: ${what}, at its line and column`, () => {
      const e = refused(bytes("<a>\r\n", [...utf8("żab")], input, "</a>"));
      assert.match(e.message, /Invalid UTF-8 byte sequence/);
      assert.deepEqual([e.line, e.column], [2, 4]);
    });
  }

  test("parseXml() refuses UTF-8 cut short at the very end", () => {
    const e = refused(bytes("<a/>", [0xc5]));
    assert.match(e.message, /Invalid UTF-8 byte sequence/);
    assert.deepEqual([e.line, e.column], [1, 5]);
  });
});

describe("parseXml() with text input", () => {
  test("parseXml() takes text as decoded and reports the encoding its declaration names", () => {
    const doc = parseXml(`<?xml version="1.0" encoding="ISO-8859-2"?><a>${POLISH}</a>`);
    assert.deepEqual([doc.encoding, doc.root.text], ["iso-8859-2", POLISH]);
  });

  test("parseXml() does not refuse text whose declaration names an encoding no decoder knows", () => {
    assert.equal(parseXml(`<?xml version="1.0" encoding="x-made-up"?><a/>`).encoding, "x-made-up");
  });
});
