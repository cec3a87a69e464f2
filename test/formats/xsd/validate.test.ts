import assert from "node:assert/strict";
import { test } from "node:test";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { compileSchema } from "../../../lib/formats/xsd/compile.ts";
import { validateXsd } from "../../../lib/formats/xsd/validate.ts";

const HEAD = '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t" elementFormDefault="qualified">';

/** Findings of `doc` (root in urn:t, default namespace) against the schema made of `body`. */
function check(body: string, doc: string, extra: { path: string; bytes: string }[] = []): string[] {
  const schema = compileSchema("test", [{ path: "main.xsd", bytes: `${HEAD}${body}</xs:schema>` }, ...extra], ["main.xsd"]);
  return validateXsd(schema, parseXml(doc).root).map((v) => `${v.path} ${v.line}:${v.column} ${v.message}`);
}

const TABLE: { what: string; schema: string; valid: string[]; invalid: string[] }[] = [
  {
    what: "sequence with minOccurs/maxOccurs",
    schema: '<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:string" minOccurs="0" maxOccurs="2"/><xs:element name="c" type="xs:string"/></xs:sequence></xs:complexType></xs:element>',
    valid: ["<a/><c/>", "<a/><b/><b/><c/>"],
    invalid: ["<c/>", "<a/><b/><b/><b/><c/>", "<a/><c/><b/>", "<a/><b/>", "<a/><c/><c/>", "<a/><x/><c/>"],
  },
  {
    what: "choice and nested sequences",
    schema: '<xs:element name="r"><xs:complexType><xs:choice maxOccurs="unbounded"><xs:sequence><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:string"/></xs:sequence><xs:element name="c" type="xs:string"/></xs:choice></xs:complexType></xs:element>',
    valid: ["<a/><b/>", "<c/><a/><b/><c/>"],
    invalid: ["", "<a/>", "<b/>", "<a/><c/>"],
  },
  {
    what: "all",
    schema: '<xs:element name="r"><xs:complexType><xs:all><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:string" minOccurs="0"/></xs:all></xs:complexType></xs:element>',
    valid: ["<a/>", "<b/><a/>", "<a/><b/>"],
    invalid: ["<b/>", "<a/><a/>"],
  },
  {
    what: "group and attributeGroup references",
    schema: '<xs:group name="g"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:group><xs:attributeGroup name="ag"><xs:attribute name="id" type="xs:NCName" use="required"/></xs:attributeGroup><xs:element name="r"><xs:complexType><xs:sequence><xs:group ref="t:g" maxOccurs="2"/></xs:sequence><xs:attributeGroup ref="t:ag"/></xs:complexType></xs:element>',
    valid: ['<a/><a/>|@id="x"'],
    invalid: ['<a/>|@id="1x"', "<a/>"],
  },
  {
    what: "complexContent extension and restriction",
    schema: '<xs:complexType name="base"><xs:sequence><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:string" minOccurs="0"/></xs:sequence><xs:attribute name="k" type="xs:string"/></xs:complexType><xs:complexType name="ext"><xs:complexContent><xs:extension base="t:base"><xs:sequence><xs:element name="c" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType><xs:element name="r" type="t:ext"/>',
    valid: ["<a/><c/>", '<a/><b/><c/>|@k="1"'],
    invalid: ["<c/>", "<a/>", "<a/><c/><b/>"],
  },
  {
    what: "simpleContent extension with attributes",
    schema: '<xs:complexType name="amount"><xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="currencyID" type="xs:token" use="required"/></xs:extension></xs:simpleContent></xs:complexType><xs:element name="r" type="t:amount"/>',
    valid: ['12.50|@currencyID="EUR"'],
    invalid: ["12.50", '12,50|@currencyID="EUR"', '1|@currencyID="EUR" other="x"', '<a/>|@currencyID="EUR"'],
  },
  {
    what: "enumeration, length and whiteSpace",
    schema: '<xs:simpleType name="code"><xs:restriction base="xs:token"><xs:enumeration value="A B"/><xs:enumeration value="C"/></xs:restriction></xs:simpleType><xs:element name="r" type="t:code"/>',
    valid: ["A B", "  A   B ", "C"],
    invalid: ["AB", "c", ""],
  },
  {
    what: "totalDigits, fractionDigits and bounds on decimals",
    schema: '<xs:element name="r"><xs:simpleType><xs:restriction base="xs:decimal"><xs:totalDigits value="5"/><xs:fractionDigits value="2"/><xs:minInclusive value="0"/><xs:maxExclusive value="100"/></xs:restriction></xs:simpleType></xs:element>',
    valid: ["0", "99.99", "001.50", "+5.10"],
    invalid: ["100", "-0.01", "1.234", "123456", "1e2", "abc", ""],
  },
  {
    what: "integer types and their ranges",
    schema: '<xs:element name="r" type="xs:byte"/>',
    valid: ["127", "-128", "+0"],
    invalid: ["128", "1.0", ""],
  },
  {
    what: "dates and times",
    schema: '<xs:element name="r"><xs:simpleType><xs:restriction base="xs:date"><xs:minInclusive value="2000-01-01"/></xs:restriction></xs:simpleType></xs:element>',
    valid: ["2024-02-29", "2024-12-31Z", "2000-01-01+01:00"],
    invalid: ["2023-02-29", "1999-12-31", "2024-13-01", "2024-1-01", "2024-01-01T00:00:00"],
  },
  {
    what: "union member types",
    schema: '<xs:element name="r"><xs:simpleType><xs:union><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="\\d{9}"/></xs:restriction></xs:simpleType><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="\\d{14}"/></xs:restriction></xs:simpleType></xs:union></xs:simpleType></xs:element>',
    valid: ["123456789", "12345678901234"],
    invalid: ["1234567890"],
  },
  {
    what: "list types with length",
    schema: '<xs:element name="r"><xs:simpleType><xs:restriction><xs:simpleType><xs:list itemType="xs:integer"/></xs:simpleType><xs:maxLength value="2"/></xs:restriction></xs:simpleType></xs:element>',
    valid: ["1 2", " 3 "],
    invalid: ["1 2 3", "1 x"],
  },
  {
    what: "any with processContents and anyAttribute",
    schema: '<xs:element name="r"><xs:complexType><xs:sequence><xs:any namespace="##other" processContents="lax" minOccurs="0"/></xs:sequence><xs:anyAttribute namespace="##other"/></xs:complexType></xs:element>',
    valid: ['<o:x xmlns:o="urn:o"><o:y/></o:x>', '|@xmlns:o="urn:o" o:z="1"'],
    invalid: ["<x/>", '|@z="1"'],
  },
  {
    what: "nillable and fixed values",
    schema: '<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int" nillable="true"/><xs:element name="f" type="xs:string" fixed="PL"/></xs:sequence></xs:complexType></xs:element>',
    valid: ['<n xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/><f>PL</f>', '<n>1</n><f/>'],
    invalid: ['<n/><f>PL</f>', '<n>1</n><f>DE</f>', '<n xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">1</n><f/>'],
  },
  {
    what: "text in element-only content",
    schema: '<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType></xs:element>',
    valid: ["\n  <a/>\n"],
    invalid: ["x<a/>"],
  },
];

for (const row of TABLE) {
  test(`validateXsd(): ${row.what}`, () => {
    for (const v of row.valid) assert.deepEqual(check(row.schema, _doc(v)), [], `valid: ${v}`);
    for (const v of row.invalid) assert.notDeepEqual(check(row.schema, _doc(v)), [], `invalid: ${v}`);
  });
}

/** `<r xmlns="urn:t">content</r>`; `content|@a="1"` also puts `a="1"` on r. */
function _doc(spec: string): string {
  const [content, attrs] = spec.split("|@");
  return `<r xmlns="urn:t"${attrs ? ` ${attrs}` : ""}>${content}</r>`;
}

test("validateXsd() reports the element's path (with positions among same-named siblings), line and column", () => {
  const found = check(
    '<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a" maxOccurs="3"><xs:simpleType><xs:restriction base="xs:string"><xs:maxLength value="2"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>',
    '<r xmlns="urn:t">\n  <a>ok</a>\n  <a>too long</a>\n</r>',
  );
  assert.equal(found.length, 1);
  assert.match(found[0]!, /^\/r\/a\[2\] 3:3 Element a: 'too long' is longer than 2 characters/);
});

test("validateXsd() follows include and import, by location or by namespace", () => {
  const other = { path: "other/o.xsd", bytes: '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:o" elementFormDefault="qualified"><xs:simpleType name="code"><xs:restriction base="xs:string"><xs:enumeration value="X"/></xs:restriction></xs:simpleType></xs:schema>' };
  const body = '<xs:import namespace="urn:o" schemaLocation="http://example.invalid/o.xsd"/><xs:element name="r" type="o:code" xmlns:o="urn:o"/>';
  assert.deepEqual(check(body, '<r xmlns="urn:t">X</r>', [other]), []);
  assert.equal(check(body, '<r xmlns="urn:t">Y</r>', [other]).length, 1);
});

test("validateXsd() applies xsi:type", () => {
  const body = '<xs:complexType name="b"><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType><xs:complexType name="d"><xs:complexContent><xs:extension base="t:b"><xs:sequence><xs:element name="c" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType><xs:element name="r" type="t:b"/>';
  const xsi = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:t="urn:t"';
  assert.deepEqual(check(body, `<r xmlns="urn:t" ${xsi} xsi:type="t:d"><a/><c>1</c></r>`), []);
  assert.equal(check(body, `<r xmlns="urn:t" ${xsi} xsi:type="t:d"><a/></r>`).length, 1);
});

test("validateXsd() says when the root element is not declared", () => {
  assert.match(check('<xs:element name="r" type="xs:string"/>', '<q xmlns="urn:t"/>')[0]!, /root element .*q.* is not declared/);
});

test("validateXsd() judges each element with children under its own content model when shapes repeat", () => {
  // p and q hold children of the same names in orders that only one of them allows; lines repeat one shape.
  const body = '<xs:complexType name="p"><xs:sequence><xs:element name="a" type="xs:int"/><xs:element name="b" type="xs:int"/></xs:sequence></xs:complexType>' +
    '<xs:complexType name="q"><xs:sequence><xs:element name="b" type="xs:int"/><xs:element name="a" type="xs:int"/></xs:sequence></xs:complexType>' +
    '<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="p" type="t:p" maxOccurs="unbounded"/><xs:element name="q" type="t:q" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>';
  const doc = '<r xmlns="urn:t">\n<p><a>1</a><b>2</b></p>\n<p><a>3</a><b>x</b></p>\n<p><b>4</b><a>5</a></p>\n<q><a>6</a><b>7</b></q>\n<q><b>8</b><a>9</a></q>\n</r>';
  const found = check(body, doc);
  assert.equal(found.length, 3, found.join("\n"));
  assert.match(found[0]!, /^\/r\/p\[2\]\/b 3:\d+ Element b: 'x' is not a valid int/);
  assert.match(found[1]!, /^\/r\/p\[3\]\/b 4:\d+ Element b is not expected here/);
  assert.match(found[2]!, /^\/r\/q\[1\]\/a 5:\d+ Element a is not expected here/);
});

test("validateXsd() judges every element alike past the shapes it keeps per document", () => {
  // Every order of seven children of an xs:all: 5,040 shapes, whose nodes are more than a document keeps; the last one
  // breaks. Values are padded so that the document is not refused as too dense for its size.
  const names = ["a", "b", "c", "d", "e", "f", "g"];
  const orders: string[][] = [];
  const permute = (rest: string[], done: string[]): void => {
    if (rest.length === 0) orders.push(done);
    for (const n of rest) permute(rest.filter((x) => x !== n), [...done, n]);
  };
  permute(names, []);
  const body = `<xs:complexType name="p"><xs:all>${names.map((n) => `<xs:element name="${n}" type="xs:int"/>`).join("")}</xs:all></xs:complexType>` +
    '<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="p" type="t:p" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>';
  const lines = orders.map((o, i) => `<p>${o.map((n) => `<${n}>${i === orders.length - 1 && n === "a" ? "x" : String(i).padStart(16, "0")}</${n}>`).join("")}</p>`);
  const found = check(body, `<r xmlns="urn:t">${lines.join("")}<p><a>1</a></p></r>`);
  assert.equal(found.length, 2, found.join("\n"));
  assert.match(found[0]!, new RegExp(`^/r/p\\[${orders.length}\\]/a .* 'x' is not a valid int`));
  assert.match(found[1]!, new RegExp(`^/r/p\\[${orders.length + 1}\\] .*missing child elements`));
});
