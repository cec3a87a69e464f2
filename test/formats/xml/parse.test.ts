import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseXml, XML_PARSE_LIMITS, XmlError } from "../../../lib/formats/xml/parse.ts";
import { XML_NS, XMLNS_NS } from "../../../lib/formats/xml/namespaces.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";

/** A compact, comparable view of an element: "{ns}local" names, attrs by "{ns}local", empty fields left out. */
interface Shape {
  name: string;
  prefix?: string;
  attrs?: Record<string, string>;
  text?: string;
  children?: Shape[];
}

function _name(ns: string, local: string): string {
  return ns === "" ? local : `{${ns}}${local}`;
}

function shape(el: XmlElement): Shape {
  const out: Shape = { name: _name(el.ns, el.local) };
  if (el.prefix !== "") out.prefix = el.prefix;
  if (el.attrs.length > 0) out.attrs = Object.fromEntries(el.attrs.map((a) => [_name(a.ns, a.local), a.value]));
  if (el.text !== "") out.text = el.text;
  if (el.children.length > 0) out.children = el.children.map(shape);
  return out;
}

function refused(input: string | Uint8Array): XmlError {
  try {
    parseXml(input);
  } catch (e) {
    assert.ok(e instanceof XmlError, `expected an XmlError, got ${String(e)}`);
    return e;
  }
  assert.fail(`expected ${JSON.stringify(input)} to be refused`);
}

describe("parseXml() accepts well-formed documents (XML 1.0 5th ed.)", () => {
  const cases: { what: string; input: string; expected: Shape }[] = [
    // [1] document, [22] prolog, [27] Misc
    { what: "[1] a lone empty-element tag", input: "<a/>", expected: { name: "a" } },
    { what: "[1] a start and an end tag", input: "<a></a>", expected: { name: "a" } },
    {
      what: "[22] a prolog of declaration, comment, PI and white space; [27] an epilog of the same",
      input: '<?xml version="1.0"?>\n<!-- c -->\n<?pi data?>\n\t<a/>\n<!-- after -->\n<?pi after?>\n\n',
      expected: { name: "a" },
    },
    { what: "[1] a byte order mark in text input", input: "\uFEFF<?xml version='1.0'?><a/>", expected: { name: "a" } },
    // [2] Char
    {
      what: "[2] tab, LF and characters at the edges of the Char ranges",
      input: "<a>\t\n \uD7FF\uE000\uFFFD\u{10000}\u{10FFFF}\u{1F600}</a>",
      expected: { name: "a", text: "\t\n \uD7FF\uE000\uFFFD\u{10000}\u{10FFFF}\u{1F600}" },
    },
    // [3] S
    { what: "[3] white space of all kinds inside tags", input: '<a \n\tx \t= \n"1"\n/>', expected: { name: "a", attrs: { x: "1" } } },
    { what: "[42] white space before '>' of an end tag", input: "<a></a \n\t>", expected: { name: "a" } },
    // [4] [4a] [5] names
    { what: "[4] names with _, -, . and digits", input: "<_a-b.c1 d_-.9='x'/>", expected: { name: "_a-b.c1", attrs: { "d_-.9": "x" } } },
    { what: "[4] Latin, Greek, Cyrillic and CJK names", input: "<Faktúra><Żółw/><αβγ/><Счёт/><請求書/></Faktúra>", expected: { name: "Faktúra", children: [{ name: "Żółw" }, { name: "αβγ" }, { name: "Счёт" }, { name: "請求書" }] } },
    { what: "[4a] #xB7, combining marks and #x203F after the first character", input: "<a\u00B7\u0300\u203F/>", expected: { name: "a\u00B7\u0300\u203F" } },
    { what: "[4] a name starting with a character above #xFFFF", input: "<\u{10000}x/>", expected: { name: "\u{10000}x" } },
    { what: "[4] names that start with 'xml' are not reserved in element names", input: "<xmlfoo xmlbar='1'/>", expected: { name: "xmlfoo", attrs: { xmlbar: "1" } } },
    // [10] AttValue
    { what: "[10] single and double quotes holding the other quote", input: `<a x='say "hi"' y="it's"/>`, expected: { name: "a", attrs: { x: 'say "hi"', y: "it's" } } },
    { what: "[10] '>' in an attribute value", input: "<a x='a>b'/>", expected: { name: "a", attrs: { x: "a>b" } } },
    { what: "[10] an empty attribute value", input: "<a x=''/>", expected: { name: "a", attrs: { x: "" } } },
    { what: "[10] references in an attribute value", input: "<a x='&lt;&gt;&amp;&apos;&quot;&#65;&#x42;'/>", expected: { name: "a", attrs: { x: "<>&'\"AB" } } },
    // §3.3.3 attribute-value normalisation (CDATA type: no DTD says otherwise)
    { what: "§3.3.3 literal tab and LF become spaces", input: "<a x='a\tb\nc  d'/>", expected: { name: "a", attrs: { x: "a b c  d" } } },
    { what: "§3.3.3 CRLF becomes one space, after line-end normalisation", input: "<a x='a\r\nb\rc'/>", expected: { name: "a", attrs: { x: "a b c" } } },
    { what: "§3.3.3 referenced white space is kept as it is", input: "<a x='&#9;&#10;&#13;&#32;'/>", expected: { name: "a", attrs: { x: "\t\n\r " } } },
    // [14] CharData
    { what: "[14] '>', ']]' and ']>' alone in text", input: "<a>a>b ]] ]> ]]</a>", expected: { name: "a", text: "a>b ]] ]> ]]" } },
    { what: "[14] an empty text between tags leaves text empty", input: "<a><b/></a>", expected: { name: "a", children: [{ name: "b" }] } },
    // §2.11 end-of-line handling
    { what: "§2.11 CRLF and CR in text become LF", input: "<a>1\r\n2\r3\n4\r\r\n5</a>", expected: { name: "a", text: "1\n2\n3\n4\n\n5" } },
    { what: "§2.11 a referenced CR stays", input: "<a>1&#13;&#10;2&#xD;</a>", expected: { name: "a", text: "1\r\n2\r" } },
    // [15] Comment
    { what: "[15] an empty comment", input: "<a><!----></a>", expected: { name: "a" } },
    { what: "[15] single hyphens, markup and '&' in a comment", input: "<a><!-- - <b>&nope; -x- --></a>", expected: { name: "a" } },
    { what: "[15] a comment that starts with a hyphen", input: "<a><!---x--></a>", expected: { name: "a" } },
    // [16] PI
    { what: "[16] a PI without data", input: "<a><?pi?></a>", expected: { name: "a" } },
    { what: "[16] a PI holding '<', '&' and '?'", input: "<a><?pi <b> & ? x?></a>", expected: { name: "a" } },
    { what: "[17] a PI target that starts with xml", input: "<?xml-stylesheet href='a.xsl'?><a/>", expected: { name: "a" } },
    // [18]-[21] CDATA
    { what: "[18] a CDATA section holding markup and references literally", input: "<a><![CDATA[<b>&amp;</b>]]></a>", expected: { name: "a", text: "<b>&amp;</b>" } },
    { what: "[18] an empty CDATA section", input: "<a><![CDATA[]]></a>", expected: { name: "a" } },
    { what: "[20] ']' and ']]' inside a CDATA section", input: "<a><![CDATA[]]]]><![CDATA[x]y]]></a>", expected: { name: "a", text: "]]x]y" } },
    // [23]-[26], [32], [80], [81] XML declaration
    { what: "[23] a declaration with version only", input: "<?xml version='1.0'?><a/>", expected: { name: "a" } },
    { what: "[23] a declaration with all three pseudo-attributes", input: '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a/>', expected: { name: "a" } },
    { what: "[25] white space around '=' and before '?>'", input: "<?xml version = '1.0'\n encoding\t=\t'utf-8' standalone='no' \n?><a/>", expected: { name: "a" } },
    { what: "[26] another 1.x version, read as 1.0", input: "<?xml version='1.1'?><a/>", expected: { name: "a" } },
    { what: "[81] an encoding name with '.', '_' and '-'", input: "<?xml version='1.0' encoding='x.y_z-1'?><a/>", expected: { name: "a" } },
    // [39]-[44] elements, [43] content
    {
      what: "[43] mixed content: text, CDATA and references around children are concatenated",
      input: "<a>one<b>two</b> &amp; <![CDATA[three]]><c/>four</a>",
      expected: { name: "a", text: "one & threefour", children: [{ name: "b", text: "two" }, { name: "c" }] },
    },
    { what: "[44] an empty-element tag with attributes and white space", input: "<a x='1' />", expected: { name: "a", attrs: { x: "1" } } },
    // [66]-[68] references
    { what: "[66] decimal and hexadecimal references with leading zeros", input: "<a>&#0065;&#x0042;&#x63;&#x1F600;&#1114111;</a>", expected: { name: "a", text: "ABc\u{1F600}\u{10FFFF}" } },
    { what: "[68] the five predefined entities in text", input: "<a>&lt;&gt;&amp;&apos;&quot;</a>", expected: { name: "a", text: "<>&'\"" } },
    { what: "[68] an escaped ']]>' in text", input: "<a>]]&gt;</a>", expected: { name: "a", text: "]]>" } },
  ];
  for (const { what, input, expected } of cases) {
    test(`parseXml() accepts ${what}`, () => {
      assert.deepEqual(shape(parseXml(input).root), expected);
    });
  }
});

describe("parseXml() resolves namespaces (Namespaces in XML 1.0)", () => {
  const cases: { what: string; input: string; expected: Shape }[] = [
    { what: "a default namespace, inherited by children", input: "<a xmlns='urn:d'><b/></a>", expected: { name: "{urn:d}a", attrs: { [`{${XMLNS_NS}}xmlns`]: "urn:d" }, children: [{ name: "{urn:d}b" }] } },
    { what: "a prefixed namespace", input: "<p:a xmlns:p='urn:p'><p:b/><c/></p:a>", expected: { name: "{urn:p}a", prefix: "p", attrs: { [`{${XMLNS_NS}}p`]: "urn:p" }, children: [{ name: "{urn:p}b", prefix: "p" }, { name: "c" }] } },
    { what: "unprefixed attributes in no namespace, even under a default namespace", input: "<a xmlns='urn:d' x='1'/>", expected: { name: "{urn:d}a", attrs: { [`{${XMLNS_NS}}xmlns`]: "urn:d", x: "1" } } },
    { what: "a prefixed attribute", input: "<a xmlns:p='urn:p' p:x='1'/>", expected: { name: "a", attrs: { [`{${XMLNS_NS}}p`]: "urn:p", "{urn:p}x": "1" } } },
    { what: "a prefix declared after its use on the same element", input: "<p:a p:x='1' xmlns:p='urn:p'/>", expected: { name: "{urn:p}a", prefix: "p", attrs: { "{urn:p}x": "1", [`{${XMLNS_NS}}p`]: "urn:p" } } },
    { what: "the same local name in no namespace and in a namespace", input: "<a xmlns:p='urn:p' x='1' p:x='2'/>", expected: { name: "a", attrs: { [`{${XMLNS_NS}}p`]: "urn:p", x: "1", "{urn:p}x": "2" } } },
    { what: "xmlns='' undeclaring the default namespace", input: "<a xmlns='urn:d'><b xmlns=''><c/></b><d/></a>", expected: { name: "{urn:d}a", attrs: { [`{${XMLNS_NS}}xmlns`]: "urn:d" }, children: [{ name: "b", attrs: { [`{${XMLNS_NS}}xmlns`]: "" }, children: [{ name: "c" }] }, { name: "{urn:d}d" }] } },
    { what: "a prefix rebound in an inner scope and restored after it", input: "<p:a xmlns:p='urn:1'><p:b xmlns:p='urn:2'><p:c/></p:b><p:d/></p:a>", expected: { name: "{urn:1}a", prefix: "p", attrs: { [`{${XMLNS_NS}}p`]: "urn:1" }, children: [{ name: "{urn:2}b", prefix: "p", attrs: { [`{${XMLNS_NS}}p`]: "urn:2" }, children: [{ name: "{urn:2}c", prefix: "p" }] }, { name: "{urn:1}d", prefix: "p" }] } },
    { what: "two prefixes for one namespace", input: "<a xmlns:p='urn:x' xmlns:q='urn:x'><p:b/><q:b/></a>", expected: { name: "a", attrs: { [`{${XMLNS_NS}}p`]: "urn:x", [`{${XMLNS_NS}}q`]: "urn:x" }, children: [{ name: "{urn:x}b", prefix: "p" }, { name: "{urn:x}b", prefix: "q" }] } },
    { what: "the xml prefix without a declaration", input: "<a xml:lang='pl' xml:space='preserve'/>", expected: { name: "a", attrs: { [`{${XML_NS}}lang`]: "pl", [`{${XML_NS}}space`]: "preserve" } } },
    { what: "the xml prefix declared to its own namespace", input: `<a xmlns:xml='${XML_NS}'/>`, expected: { name: "a", attrs: { [`{${XMLNS_NS}}xml`]: XML_NS } } },
    { what: "an empty-element tag's declarations, which end with it", input: "<a><p:b xmlns:p='urn:p'/><b xmlns='urn:d'/><c/></a>", expected: { name: "a", children: [{ name: "{urn:p}b", prefix: "p", attrs: { [`{${XMLNS_NS}}p`]: "urn:p" } }, { name: "{urn:d}b", attrs: { [`{${XMLNS_NS}}xmlns`]: "urn:d" } }, { name: "c" }] } },
    { what: "a namespace name with references and normalised white space", input: "<a xmlns='urn:a&amp;b\tc'/>", expected: { name: "{urn:a&b c}a", attrs: { [`{${XMLNS_NS}}xmlns`]: "urn:a&b c" } } },
  ];
  for (const { what, input, expected } of cases) {
    test(`parseXml() resolves ${what}`, () => {
      assert.deepEqual(shape(parseXml(input).root), expected);
    });
  }

  test("parseXml() reports namespace declarations as attributes in the xmlns namespace, prefix as written", () => {
    const { root } = parseXml("<a xmlns='urn:d' xmlns:p='urn:p'/>");
    assert.deepEqual(root.attrs, [
      { ns: XMLNS_NS, local: "xmlns", prefix: "", value: "urn:d" },
      { ns: XMLNS_NS, local: "p", prefix: "xmlns", value: "urn:p" },
    ]);
  });
});

describe("parseXml() builds the element tree", () => {
  test("parseXml() gives each element the line and column of its '<'", () => {
    const input = "<?xml version='1.0'?>\r\n<r>\r\n  <a/><b>\r\n\t<c\r\n/></b>\r<d/>\n</r>";
    const { root } = parseXml(input);
    const positions = [root, ...root.children, ...root.children[1]!.children].map((e) => [e.local, e.line, e.column]);
    assert.deepEqual(positions, [["r", 2, 1], ["a", 3, 3], ["b", 3, 7], ["d", 6, 1], ["c", 4, 2]]);
  });

  test("parseXml() counts columns after a byte order mark from the first character", () => {
    assert.deepEqual([parseXml("\uFEFF<a/>").root.column, parseXml("\uFEFF <a/>").root.column], [1, 2]);
  });

  test("parseXml() keeps children in document order and text of each element apart", () => {
    const { root } = parseXml("<r><a>1</a>x<a>2</a>y<b><a>3</a></b></r>");
    assert.deepEqual(root.children.map((c) => c.text), ["1", "2", ""]);
    assert.equal(root.text, "xy");
    assert.equal(root.children[2]!.children[0]!.text, "3");
  });

  test("parseXml() returns separate but equal name strings for repeated names", () => {
    const { root } = parseXml("<r><x:a xmlns:x='urn:x' k='1'/><x:a xmlns:x='urn:y' k='2'/></r>");
    assert.deepEqual(root.children.map((c) => [c.ns, c.local, c.attrs[1]!.value]), [["urn:x", "a", "1"], ["urn:y", "a", "2"]]);
  });

  test("parseXml() reads names right when they repeat with variations (one name a prefix of another)", () => {
    const { root } = parseXml("<r><ab/><a/><ab/><a b='1'/><a/><a\n/><abc/><ab\t/><p:a xmlns:p='u'/><a/></r>");
    assert.deepEqual(root.children.map((c) => _name(c.ns, c.local)), ["ab", "a", "ab", "a", "a", "a", "abc", "ab", "{u}a", "a"]);
  });

  test("parseXml() throws XmlError, an Error with name, line and column", () => {
    const e = refused("<a>");
    assert.ok(e instanceof Error);
    assert.deepEqual([e.name, e.line, e.column], ["XmlError", 1, 4]);
  });

  test("parseXml() reports utf-8 for text input without an encoding declaration", () => {
    assert.equal(parseXml("<a/>").encoding, "utf-8");
  });
});

describe("parseXml() refuses documents that are not well-formed", () => {
  const cases: { what: string; input: string; expected: RegExp }[] = [
    // [1] document
    { what: "[1] an empty document", input: "", expected: /No root element/ },
    { what: "[1] only white space and a comment", input: " \n<!-- c -->\n", expected: /No root element/ },
    { what: "[1] text before the root", input: "x<a/>", expected: /Text is not allowed before the root/ },
    { what: "[1] text after the root", input: "<a/>x", expected: /Text is not allowed after the root/ },
    { what: "[1] a reference after the root", input: "<a/>&amp;", expected: /Text is not allowed after the root/ },
    { what: "[1] two root elements", input: "<a/><b/>", expected: /Only one root element/ },
    { what: "[1] a CDATA section before the root", input: "<![CDATA[x]]><a/>", expected: /CDATA section outside the root/ },
    { what: "[1] an end tag before the root", input: "</a><a/>", expected: /End tag before the root/ },
    { what: "[1] an end tag after the root", input: "<a></a></a>", expected: /End tag after the root/ },
    // [2] Char
    { what: "[2] NUL in text", input: "<a>\u0000</a>", expected: /U\+0000 is not allowed/ },
    { what: "[2] a C0 control in text", input: "<a>\u001F</a>", expected: /U\+001F is not allowed/ },
    { what: "[2] vertical tab in an attribute", input: "<a x='\u000B'/>", expected: /U\+000B is not allowed/ },
    { what: "[2] form feed in a comment", input: "<a><!--\u000C--></a>", expected: /U\+000C/ },
    { what: "[2] #xFFFE in a PI", input: "<a><?pi \uFFFE?></a>", expected: /U\+FFFE/ },
    { what: "[2] #xFFFF in CDATA", input: "<a><![CDATA[\uFFFF]]></a>", expected: /U\+FFFF/ },
    { what: "[2] a lone high surrogate", input: "<a>\uD800x</a>", expected: /U\+D800/ },
    { what: "[2] a lone low surrogate", input: "<a>\uDC00</a>", expected: /U\+DC00/ },
    { what: "[2] a high surrogate at the very end", input: "<a/>\uDBFF", expected: /U\+DBFF/ },
    // [4] [5] names
    { what: "[4] a name starting with a digit", input: "<1a/>", expected: /Expected an element name, found '1'/ },
    { what: "[4] a name starting with '-'", input: "<-a/>", expected: /Expected an element name/ },
    { what: "[4] a name starting with '.'", input: "<.a/>", expected: /Expected an element name/ },
    { what: "[4] a name starting with a combining mark", input: "<\u0300a/>", expected: /Expected an element name/ },
    { what: "[4] a name starting with #xB7", input: "<\u00B7a/>", expected: /Expected an element name/ },
    { what: "[4] a name holding #xD7", input: "<a\u00D7b/>", expected: /Expected white space, '>' or '\/>'/ },
    { what: "[4] a space after '<'", input: "< a/>", expected: /Expected an element name, found ' '/ },
    { what: "[4] an attribute name starting with a digit", input: "<a 1x='1'/>", expected: /Expected an attribute name/ },
    // [40]-[44] tags
    { what: "[41] an attribute without a value", input: "<a x/>", expected: /Expected '=' after the attribute name/ },
    { what: "[41] an attribute without '='", input: "<a x '1'/>", expected: /Expected '='/ },
    { what: "[10] an unquoted attribute value", input: "<a x=1/>", expected: /Expected a quoted attribute value/ },
    { what: "[10] mismatched quotes", input: "<a x=\"1'/>", expected: /Unexpected end of document in an attribute value/ },
    { what: "[10] '<' in an attribute value", input: "<a x='a<b'/>", expected: /'<' is not allowed in an attribute value/ },
    { what: "[40] no white space between attributes", input: "<a x='1'y='2'/>", expected: /Expected white space, '>' or '\/>'/ },
    { what: "[40] a duplicate attribute", input: "<a x='1' y='2' x='3'/>", expected: /Duplicate attribute 'x'/ },
    { what: "[44] a space between '/' and '>'", input: "<a/ >", expected: /Expected '>' after '\/'/ },
    { what: "[42] a space after '</'", input: "<a></ a>", expected: /Expected an element name in the end tag/ },
    { what: "[42] attributes in an end tag", input: "<a></a x='1'>", expected: /Expected '>' to close the end tag/ },
    { what: "[42] a mismatched end tag", input: "<a><b></a></b>", expected: /End tag 'a' does not match start tag 'b' of line 1/ },
    { what: "[42] an end tag longer than the start tag", input: "<a></ab>", expected: /End tag 'ab' does not match start tag 'a'/ },
    { what: "[42] an end tag with a different prefix", input: "<p:a xmlns:p='u' xmlns:q='u'></q:a>", expected: /End tag 'q:a' does not match start tag 'p:a'/ },
    { what: "[39] an unclosed element", input: "<a><b></b>", expected: /element 'a' is not closed/ },
    { what: "[39] an unterminated end tag", input: "<a></a", expected: /Unexpected end of document: expected '>' to close the end tag/ },
    { what: "[14] ']]>' in text", input: "<a>x]]>y</a>", expected: /']]>' is not allowed in text/ },
    // [15] comments
    { what: "[15] '--' inside a comment", input: "<a><!-- a -- b --></a>", expected: /'--' is not allowed inside a comment/ },
    { what: "[15] a comment ending in '--->'", input: "<a><!-- a ---></a>", expected: /'--' is not allowed inside a comment/ },
    { what: "[15] an unterminated comment", input: "<a><!-- a </a>", expected: /Unterminated comment/ },
    { what: "[15] a comment opened with one hyphen", input: "<a><!- a --></a>", expected: /Expected a comment or a CDATA section/ },
    // [16] [17] PIs
    { what: "[17] the PI target 'xml' after the start", input: "<a><?xml version='1.0'?></a>", expected: /XML declaration is allowed only at the very start/ },
    { what: "[17] the PI target 'XmL' in any case", input: "<?XmL x?><a/>", expected: /target 'XmL' is reserved/ },
    { what: "[16] a PI without a target", input: "<a><? x?></a>", expected: /Expected a processing instruction target/ },
    { what: "[16] a PI target followed by no white space", input: "<a><?pi?x?></a>", expected: /white space or '\?>' after the processing instruction target/ },
    { what: "[16] an unterminated PI", input: "<a><?pi x</a>", expected: /Unterminated processing instruction/ },
    { what: "NS §7 a PI target with a colon", input: "<a><?p:i x?></a>", expected: /must not contain ':'/ },
    // [18] CDATA
    { what: "[18] an unterminated CDATA section", input: "<a><![CDATA[x</a>", expected: /Unterminated CDATA section/ },
    { what: "[19] a lower-case CDATA keyword", input: "<a><![cdata[x]]></a>", expected: /Expected a comment or a CDATA section/ },
    // [23]-[32], [80]-[81] XML declaration
    { what: "[23] a declaration after white space", input: " <?xml version='1.0'?><a/>", expected: /XML declaration is allowed only at the very start/ },
    { what: "[23] a declaration after a comment", input: "<!-- c --><?xml version='1.0'?><a/>", expected: /only at the very start/ },
    { what: "[23] a declaration without version", input: "<?xml encoding='UTF-8'?><a/>", expected: /must start with the version/ },
    { what: "[23] an empty declaration", input: "<?xml ?><a/>", expected: /must give the version/ },
    { what: "[23] '<?xml?>'", input: "<?xml?><a/>", expected: /must give the version/ },
    { what: "[23] standalone before encoding", input: "<?xml version='1.0' standalone='yes' encoding='UTF-8'?><a/>", expected: /'encoding' is repeated or out of order/ },
    { what: "[23] a repeated version", input: "<?xml version='1.0' version='1.0'?><a/>", expected: /'version' is repeated or out of order/ },
    { what: "[23] an unknown pseudo-attribute", input: "<?xml version='1.0' foo='bar'?><a/>", expected: /Expected version, encoding or standalone/ },
    { what: "[24] an upper-case VERSION", input: "<?xml VERSION='1.0'?><a/>", expected: /Expected version, encoding or standalone/ },
    { what: "[24] no white space between pseudo-attributes", input: "<?xml version='1.0'encoding='UTF-8'?><a/>", expected: /Expected white space or '\?>'/ },
    { what: "[24] mismatched quotes in the declaration", input: "<?xml version=\"1.0'?><a/>", expected: /Unterminated value/ },
    { what: "[26] version 2.0", input: "<?xml version='2.0'?><a/>", expected: /Unsupported XML version '2.0'/ },
    { what: "[26] version '1.'", input: "<?xml version='1.'?><a/>", expected: /Unsupported XML version/ },
    { what: "[32] standalone='maybe'", input: "<?xml version='1.0' standalone='maybe'?><a/>", expected: /standalone must be 'yes' or 'no'/ },
    { what: "[81] an encoding name starting with a digit", input: "<?xml version='1.0' encoding='8bit'?><a/>", expected: /Invalid encoding name '8bit'/ },
    { what: "[81] an empty encoding name", input: "<?xml version='1.0' encoding=''?><a/>", expected: /Invalid encoding name ''/ },
    { what: "[23] an unterminated declaration", input: "<?xml version='1.0'", expected: /Unexpected end of document in the XML declaration/ },
    // [66] [68] references
    { what: "[66] '&#X' with an upper-case X", input: "<a>&#X41;</a>", expected: /Expected digits in a character reference/ },
    { what: "[66] '&#x;' without digits", input: "<a>&#x;</a>", expected: /Expected hexadecimal digits/ },
    { what: "[66] '&#;' without digits", input: "<a>&#;</a>", expected: /Expected digits/ },
    { what: "[66] a character reference without ';'", input: "<a>&#65 </a>", expected: /Expected ';' to end a character reference/ },
    { what: "[66] hexadecimal digits in a decimal reference", input: "<a>&#6A;</a>", expected: /Expected ';'/ },
    { what: "[66] a negative character reference", input: "<a>&#-1;</a>", expected: /Expected digits/ },
    { what: "WFC Legal Character: &#0;", input: "<a>&#0;</a>", expected: /Character reference to a character that XML does not allow/ },
    { what: "WFC Legal Character: &#x1F;", input: "<a>&#x1F;</a>", expected: /does not allow/ },
    { what: "WFC Legal Character: a surrogate", input: "<a>&#xD800;</a>", expected: /does not allow/ },
    { what: "WFC Legal Character: &#xFFFE;", input: "<a>&#xFFFE;</a>", expected: /does not allow/ },
    { what: "WFC Legal Character: &#x110000;", input: "<a>&#x110000;</a>", expected: /does not allow/ },
    { what: "WFC Legal Character: a huge decimal reference", input: "<a>&#99999999999999999999999999999999;</a>", expected: /does not allow/ },
    { what: "WFC Legal Character: in an attribute value", input: "<a x='&#1;'/>", expected: /does not allow/ },
    { what: "WFC Entity Declared: an unknown entity", input: "<a>&nbsp;</a>", expected: /Unknown entity 'nbsp'/ },
    { what: "WFC Entity Declared: an unknown entity in an attribute", input: "<a x='&copy;'/>", expected: /Unknown entity 'copy'/ },
    { what: "[68] a bare '&'", input: "<a>fish & chips</a>", expected: /a literal '&' must be written as &amp;/ },
    { what: "[68] an entity reference without ';'", input: "<a>&amp</a>", expected: /Invalid reference/ },
    { what: "[68] a bare '&' in an attribute", input: "<a x='a&b'/>", expected: /Invalid reference/ },
    // [28] DOCTYPE
    { what: "[28] a DOCTYPE", input: "<!DOCTYPE a><a/>", expected: /DOCTYPE is not allowed/ },
    { what: "[28] a DOCTYPE inside the root", input: "<a><!DOCTYPE a></a>", expected: /DOCTYPE is not allowed/ },
    { what: "[28] a lower-case doctype", input: "<!doctype a><a/>", expected: /Expected a comment or a CDATA section/ },
    { what: "[29] markup declarations without a DOCTYPE", input: "<a><!ELEMENT a ANY></a>", expected: /Expected a comment or a CDATA section/ },
  ];
  for (const { what, input, expected } of cases) {
    test(`parseXml() refuses ${what}`, () => {
      assert.match(refused(input).message, expected);
    });
  }
});

describe("parseXml() refuses documents that are not namespace-well-formed", () => {
  const cases: { what: string; input: string; expected: RegExp }[] = [
    { what: "an undeclared element prefix", input: "<p:a/>", expected: /Undeclared namespace prefix 'p'/ },
    { what: "an undeclared attribute prefix", input: "<a p:x='1'/>", expected: /Undeclared namespace prefix 'p'/ },
    { what: "a prefix used outside the element that declared it", input: "<a><b xmlns:p='urn:p'/><p:c/></a>", expected: /Undeclared namespace prefix 'p'/ },
    { what: "xmlns:p='' (allowed only in Namespaces 1.1)", input: "<a xmlns:p=''/>", expected: /prefix 'p' must not be undeclared/ },
    { what: "the xml prefix bound to another namespace", input: "<a xmlns:xml='urn:x'/>", expected: /prefix 'xml' must not be bound to another namespace/ },
    { what: "another prefix bound to the XML namespace", input: `<a xmlns:x='${XML_NS}'/>`, expected: /XML namespace must not be bound to another prefix/ },
    { what: "the XML namespace as default namespace", input: `<a xmlns='${XML_NS}'/>`, expected: /XML namespace must not be the default namespace/ },
    { what: "a declaration of the xmlns prefix", input: `<a xmlns:xmlns='${XMLNS_NS}'/>`, expected: /prefix 'xmlns' must not be declared/ },
    { what: "a prefix bound to the xmlns namespace", input: `<a xmlns:p='${XMLNS_NS}'/>`, expected: /xmlns namespace must not be declared/ },
    { what: "the xmlns namespace as default namespace", input: `<a xmlns='${XMLNS_NS}'/>`, expected: /xmlns namespace must not be declared/ },
    { what: "an element with the prefix xmlns", input: "<xmlns:a/>", expected: /Element names must not have the prefix 'xmlns'/ },
    { what: "a name with two colons", input: "<a:b:c xmlns:a='u'/>", expected: /Invalid qualified name/ },
    { what: "a name starting with a colon", input: "<:a/>", expected: /Expected an element name, found ':'/ },
    { what: "a name ending with a colon", input: "<a: xmlns:a='u'/>", expected: /Invalid qualified name/ },
    { what: "a local part starting with a digit", input: "<a:1 xmlns:a='u'/>", expected: /Invalid qualified name/ },
    { what: "an attribute name with two colons", input: "<a x:y:z='1'/>", expected: /Invalid qualified name/ },
    { what: "'xmlns:' with an empty prefix", input: "<a xmlns:='u'/>", expected: /Invalid qualified name/ },
    { what: "two attributes with one expanded name via two prefixes", input: "<a xmlns:p='urn:x' xmlns:q='urn:x' p:k='1' q:k='2'/>", expected: /Attributes 'p:k' and 'q:k' have the same namespace and local name/ },
    { what: "a duplicate namespace declaration", input: "<a xmlns:p='urn:x' xmlns:p='urn:x'/>", expected: /Duplicate attribute 'xmlns:p'/ },
    { what: "a duplicate default namespace declaration", input: "<a xmlns='urn:x' xmlns='urn:y'/>", expected: /Duplicate attribute 'xmlns'/ },
    { what: "a duplicate among many attributes", input: `<a ${Array.from({ length: 20 }, (_, i) => `a${i}='1' `).join("")}a7='2'/>`, expected: /Duplicate attribute 'a7'/ },
    { what: "one expanded name twice among many attributes", input: `<a xmlns:p='urn:x' xmlns:q='urn:x' ${Array.from({ length: 20 }, (_, i) => `a${i}='1' `).join("")}p:k='1' q:k='2'/>`, expected: /Attributes 'p:k' and 'q:k' have the same namespace/ },
  ];
  for (const { what, input, expected } of cases) {
    test(`parseXml() refuses ${what}`, () => {
      assert.match(refused(input).message, expected);
    });
  }
});

describe("parseXml() reports where a document goes wrong", () => {
  const cases: { what: string; input: string; expected: [number, number] }[] = [
    { what: "an illegal character on line 3", input: "<a>\n  <b>\n    x\u0001</b></a>", expected: [3, 6] },
    { what: "a bad character after CRLF line ends", input: "<a>\r\n\r\n  &bad;</a>", expected: [3, 3] },
    { what: "a bad character after CR line ends", input: "<a>\r\r  <1/></a>", expected: [3, 4] },
    { what: "a mismatched end tag (at its name)", input: "<r>\n  <a>\n  </b>\n</r>", expected: [3, 5] },
    { what: "an unclosed root (at the end)", input: "<r>\n  <a/>\n", expected: [3, 1] },
    { what: "a duplicate attribute (at the second one)", input: "<a x='1'\n   x='2'/>", expected: [2, 4] },
    { what: "']]>' in text (at the first ']')", input: "<a>\n  ok ]]> no</a>", expected: [2, 6] },
    { what: "'--' in a comment (at the first '-')", input: "<a><!-- x -- y --></a>", expected: [1, 11] },
    { what: "a DOCTYPE (at its '<')", input: "<?xml version='1.0'?>\n<!DOCTYPE a>\n<a/>", expected: [2, 1] },
    { what: "an undeclared prefix (at the name)", input: "<a>\n <p:b/></a>", expected: [2, 3] },
    { what: "a bad version (at the value)", input: "<?xml version='9'?><a/>", expected: [1, 16] },
    { what: "a character after a byte order mark", input: "\uFEFF<a>\u0002</a>", expected: [1, 4] },
  ];
  for (const { what, input, expected } of cases) {
    test(`parseXml() gives line and column of ${what}`, () => {
      const e = refused(input);
      assert.deepEqual([e.line, e.column], expected, e.message);
    });
  }
});

describe("parseXml() limits", () => {
  test("parseXml() accepts the default depth of 256 and refuses 257", () => {
    const doc = (n: number) => "<a>".repeat(n) + "</a>".repeat(n);
    assert.equal(parseXml(doc(XML_PARSE_LIMITS.maxDepth)).root.local, "a");
    const e = refused(doc(XML_PARSE_LIMITS.maxDepth + 1));
    assert.match(e.message, /nest deeper than 256/);
    assert.deepEqual([e.line, e.column], [1, 3 * 256 + 1]);
  });

  test("parseXml() counts an empty-element tag in the depth", () => {
    assert.throws(() => parseXml("<a><b/></a>", { maxDepth: 1 }), /nest deeper than 1 levels/);
    assert.equal(parseXml("<a/>", { maxDepth: 1 }).root.local, "a");
  });

  test("parseXml() accepts 256 attributes and refuses 257, namespace declarations included", () => {
    const attrs = (n: number) => Array.from({ length: n }, (_, i) => ` a${i}='${i}'`).join("");
    assert.equal(parseXml(`<a${attrs(256)}/>`).root.attrs.length, 256);
    assert.throws(() => parseXml(`<a xmlns='u'${attrs(256)}/>`), /more than 256 attributes/);
  });

  test("parseXml() refuses a name over maxNameLength, in elements, attributes and PI targets", () => {
    const long = "n".repeat(1025);
    assert.equal(parseXml(`<${"n".repeat(1024)}/>`).root.local.length, 1024);
    for (const input of [`<${long}/>`, `<a ${long}='1'/>`, `<a><?${long}?></a>`, `<p:${"n".repeat(1023)} xmlns:p='u'/>`]) {
      assert.throws(() => parseXml(input), (e) => e instanceof XmlError && /Name longer than 1024 characters/.test(e.message));
    }
    assert.throws(() => parseXml("<abcd/>", { maxNameLength: 3 }), /Name longer than 3/);
  });

  test("parseXml() refuses more elements than maxElements", () => {
    assert.equal(parseXml("<r><a/><a/></r>", { maxElements: 3 }).root.children.length, 2);
    assert.throws(() => parseXml("<r><a/><a/><a/></r>", { maxElements: 3 }), /more than 3 elements/);
  });

  test("parseXml() refuses input over maxSize in bytes or characters", () => {
    assert.throws(() => parseXml("<abc/>", { maxSize: 5 }), /larger than 5 characters/);
    assert.throws(() => parseXml(new TextEncoder().encode("<ą/>"), { maxSize: 4 }), /larger than 4 bytes/);
    assert.equal(parseXml("<abc/>", { maxSize: 6 }).root.local, "abc");
  });

  test("parseXml() throws RangeError for a limit that is not a positive integer", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => parseXml("<a/>", { maxDepth: bad }), RangeError);
      assert.throws(() => parseXml("<a/>", { maxSize: bad }), RangeError);
    }
  });
});

describe("XmlError", () => {
  test("XmlError names the line and column of the offending character", () => {
    const e = refused("<a>\n  <b></c>\n</a>");
    assert.equal(e.message, "End tag 'c' does not match start tag 'b' of line 2");
    assert.equal(e.line, 2);
    assert.equal(e.column, 8);
  });

  test("XmlError messages quote at most 40 characters of document text", () => {
    const e = refused(`<${"x".repeat(500)}></y>`);
    assert.ok(e.message.length < 140, e.message);
  });
});

describe("parseXml() refuses a character that is not a Char wherever it stands", () => {
  // Every part of a document, each with the character at the marked place: the parser checks each part as it reads it.
  const places: { what: string; doc: string }[] = [
    { what: "text", doc: "<a>x#y</a>" },
    { what: "text after a reference", doc: "<a>&amp;#</a>" },
    { what: "text between elements", doc: "<a><b/>#<c/></a>" },
    { what: "a double-quoted attribute value", doc: '<a x="1#2"/>' },
    { what: "a single-quoted attribute value", doc: "<a x='#'/>" },
    { what: "an attribute value after a reference", doc: "<a x='&lt;#'/>" },
    { what: "white space between attributes", doc: "<a x='1' # y='2'/>" },
    { what: "white space before '>'", doc: "<a #></a>" },
    { what: "white space in an end tag", doc: "<a></a #>" },
    { what: "a comment", doc: "<a><!-- # --></a>" },
    { what: "a comment before the root", doc: "<!-- # --><a/>" },
    { what: "a processing instruction", doc: "<a><?pi x#?></a>" },
    { what: "a CDATA section", doc: "<a><![CDATA[x#]]></a>" },
    { what: "the XML declaration", doc: "<?xml version='1.0' encoding='UTF-8'#?><a/>" },
    { what: "white space before the root", doc: " # <a/>" },
    { what: "white space after the root", doc: "<a/> # " },
  ];
  const chars = ["\u0000", "\u0001", "\u0008", "\u000B", "\u000C", "\u001F", "\uD800", "\uDFFF", "\uFFFE", "\uFFFF"];
  for (const { what, doc } of places) {
    test(what, () => {
      for (const c of chars) {
        const code = `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
        const e = refused(doc.replace("#", c));
        assert.match(e.message, new RegExp(`${code.replace("+", "\\+")} is not allowed`), `${code} in ${what}: ${e.message}`);
        assert.equal(e.column, doc.indexOf("#") + 1, `${code} in ${what}`);
      }
    });
  }
});
