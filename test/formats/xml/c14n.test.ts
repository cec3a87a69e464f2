/**
 * Canonical XML against independent implementations: whole documents against `xmllint --exc-c14n` and
 * `xmllint --c14n` (libxml2), elements in context and documents less an element against the pre-digest data
 * that `xmlsec1` prints for XML-DSig references (same-document URIs, PrefixList, enveloped-signature).
 * Inputs: the W3C Canonical XML 1.0 §3 examples that need no DTD (the parser refuses DTDs), hand-made cases
 * for each rule, and seeded random documents. xmllint prints comments; the without-comments forms are
 * compared with xmllint's output for the same document with its comments taken out.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { type CanonicalizeOptions, canonicalBytes, canonicalizeDocument, canonicalizeElement } from "../../../lib/formats/xml/c14n.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";
import { createRandom } from "../../support/random.ts";

const DIR = mkdtempSync(join(tmpdir(), "c14n-test-"));
after(() => rmSync(DIR, { recursive: true, force: true }));
let _files = 0;

function _write(input: string | Uint8Array): string {
  const file = join(DIR, `doc${_files++}.xml`);
  writeFileSync(file, input);
  return file;
}

/** xmllint's canonical form of `input` (with comments, as xmllint always prints them), as bytes. */
function _xmllint(input: string | Uint8Array, method: "exclusive" | "inclusive"): Uint8Array {
  return new Uint8Array(execFileSync("xmllint", [method === "exclusive" ? "--exc-c14n" : "--c14n", _write(input)]));
}

const _COMMENTS = /<!--[\s\S]*?-->/g;

/** Both methods, with and without comments, of `text` against xmllint. */
function _agreesWithXmllint(text: string | Uint8Array): void {
  const withoutComments = typeof text === "string" ? text.replace(_COMMENTS, "") : text;
  for (const method of ["exclusive", "inclusive"] as const) {
    const doc = parseXml(text, { content: true });
    assert.equal(_text(canonicalBytes(canonicalizeDocument(doc, { method, withComments: true }))), _text(_xmllint(text, method)), `${method}, with comments`);
    assert.equal(_text(canonicalBytes(canonicalizeDocument(doc, { method }))), _text(_xmllint(withoutComments, method)), `${method}, without comments`);
  }
}

function _text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** W3C Canonical XML 1.0 §3.1–§3.4 and §3.6, their DTDs left out (§3.3's default attributes, §3.4's ID type). */
const W3C_EXAMPLES: { what: string; input: string | Uint8Array }[] = [
  {
    what: "§3.1 PIs, comments, and outside of document element",
    input: '<?xml version="1.0"?>\n\n<?xml-stylesheet   href="doc.xsl"\n   type="text/xsl"   ?>\n\n' +
      "<doc>Hello, world!<!-- Comment 1 --></doc>\n\n<?pi-without-data     ?>\n\n<!-- Comment 2 -->\n\n<!-- Comment 3 -->",
  },
  {
    what: "§3.2 whitespace in document content (CR LF line ends)",
    input: "<doc>\r\n   <clean>   </clean>\r\n   <dirty>   A   B   </dirty>\r\n   <mixed>\r\n      A\r\n      <clean>   </clean>\r\n" +
      "      B\r\n      <dirty>   A   B   </dirty>\r\n      C\r\n   </mixed>\r\n</doc>",
  },
  {
    what: "§3.3 start and end tags",
    input: '<doc>\n   <e1   />\n   <e2   ></e2>\n   <e3   name = "elem3"   id="elem3"   />\n   <e4   name="elem4"   id="elem4"   ></e4>\n' +
      '   <e5 a:attr="out" b:attr="sorted" attr2="all" attr="I\'m"\n      xmlns:b="http://www.ietf.org"\n      xmlns:a="http://www.w3.org"\n' +
      '      xmlns="http://example.org"/>\n   <e6 xmlns="" xmlns:a="http://www.w3.org">\n      <e7 xmlns="http://www.ietf.org">\n' +
      '         <e8 xmlns="" xmlns:a="http://www.w3.org">\n            <e9 xmlns="" xmlns:a="http://www.ietf.org"/>\n         </e8>\n      </e7>\n   </e6>\n</doc>',
  },
  {
    what: "§3.4 character modifications and character references",
    input: "<doc>\n   <text>First line&#x0d;&#10;Second line</text>\n   <value>&#x32;</value>\n" +
      '   <compute><![CDATA[value>"0" && value<"10" ?"valid":"error"]]></compute>\n' +
      "   <compute expr='value>\"0\" &amp;&amp; value&lt;\"10\" ?\"valid\":\"error\"'>valid</compute>\n" +
      "   <norm attr=' &apos;   &#x20;&#13;&#xa;&#9;   &apos; '/>\n   <normNames attr='   A   &#x20;&#13;&#xa;&#9;   B   '/>\n</doc>",
  },
  {
    what: "§3.6 UTF-8 encoding (an ISO-8859-1 document comes out in UTF-8)",
    input: new Uint8Array([...new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-1"?>\n<doc>&#169; '), 0xa9, ...new TextEncoder().encode("</doc>")]),
  },
];

/** One case per rule of canonical XML. */
const CASES: { what: string; input: string }[] = [
  { what: "a namespace declared above and used below", input: '<a xmlns:p="urn:p"><b><p:c p:x="1"/></b></a>' },
  { what: "a namespace declared below and redeclared with another URI", input: '<p:a xmlns:p="urn:1"><b xmlns:p="urn:2"><p:c/></b><p:d/></p:a>' },
  { what: "the default namespace undeclared with xmlns=\"\"", input: '<a xmlns="urn:d"><b xmlns=""><c/><d xmlns="urn:d"/></b></a>' },
  { what: "xmlns=\"\" where no default namespace is in scope (superfluous)", input: '<a><b xmlns=""><c xmlns=""/></b></a>' },
  { what: "superfluous declarations repeated on descendants", input: '<a xmlns="urn:d" xmlns:p="urn:p"><b xmlns="urn:d" xmlns:p="urn:p"><p:c xmlns:p="urn:p"/></b></a>' },
  { what: "declarations nobody uses", input: '<a xmlns:u="urn:unused" xmlns:v="urn:v"><b xmlns:w="urn:w">t</b></a>' },
  {
    what: "attribute order: namespace declarations first by prefix, then by namespace URI and local name",
    input: '<a z="1" xmlns:y="urn:b" y:b="2" xmlns:x="urn:a" x:c="3" a="4" xmlns="urn:d" x:a="5" y:a="6" xmlns:b="urn:0"/>',
  },
  // libxml2 refuses non-ASCII namespace URIs in canonical XML, so code point order is shown on local names.
  { what: "attributes whose names differ above U+D7FF (code point order, not UTF-16)", input: '<a a\u{10000}="1" a\u{F900}="2" a\u{FFFD}="3" a\u{E9}="4" a\u{EFFFD}="5"/>' },
  { what: "white space inside and outside the root", input: '<?xml version="1.0"?>\n \n<a>\n\t<b> x </b>\n</a>\n\n \t' },
  { what: "CR LF and lone CR in text and attributes", input: '<a x="1\r\n2\r3">l1\r\nl2\rl3\n<b>\r\n</b></a>' },
  {
    what: "character references and escaping in text",
    input: "<a>&#xD;&#x9;&#xA;&lt;&gt;&amp;&quot;&apos;\"'&#x3E;&#60;]]&gt;<![CDATA[<&>\r\n]]]]><![CDATA[>]]></a>",
  },
  { what: "character references and escaping in attributes", input: "<a x=\"&#xD;&#x9;&#xA;&lt;&gt;&amp;&quot;'\" y='\"&apos;>' z=\"\t\n \"/>" },
  { what: "non-ASCII text and names", input: '<zażółć gęślą="jaźń" xmlns:ł="urn:l"><ł:ę>Łódź €1 \u{1F600}</ł:ę></zażółć>' },
  { what: "comments everywhere", input: "<!--a--><!-- b -->\n<a><!--c-->t<!---->u<b><!-- d --></b></a><!--e-->\n<!--f-->" },
  { what: "PIs everywhere, with and without data", input: '<?p1?>\n<?p2   data  x ?><a><?p3 ?>t<?p4 \t  "q" <>&?></a>\n<?p5 end?>' },
  { what: "empty elements expanded", input: '<a><b/><c></c><d x="1" /><e xmlns="urn:e"/></a>' },
  { what: "the xml: prefix and a redundant xmlns:xml", input: '<a xml:lang="pl" xmlns:xml="http://www.w3.org/XML/1998/namespace"><b xml:space="preserve"> </b></a>' },
  { what: "a prefixed root with the default namespace below", input: '<p:a xmlns:p="urn:p"><b xmlns="urn:d"><p:c><d/></p:c></b></p:a>' },
];

describe("canonicalizeDocument() agrees with xmllint", () => {
  for (const { what, input } of W3C_EXAMPLES) {
    test(`W3C Canonical XML ${what}`, () => _agreesWithXmllint(input));
  }
  for (const { what, input } of CASES) {
    test(what, () => _agreesWithXmllint(input));
  }

  test("on 80 seeded random documents", () => {
    const random = createRandom(0xc14e);
    for (let i = 0; i < 80; i++) {
      const input = _randomDocument(random);
      try {
        _agreesWithXmllint(input);
      } catch (e) {
        assert.fail(`document ${i}: ${JSON.stringify(input)}\n${(e as Error).message}`);
      }
    }
  });
});

describe("canonicalizeDocument()", () => {
  test("leaves out the excluded element and everything in it", () => {
    const doc = parseXml('<a xmlns:p="urn:p"><b>t</b><p:s><c/></p:s>u</a>', { content: true });
    assert.equal(canonicalizeDocument(doc, { exclude: doc.root.children[1]! }), "<a><b>t</b>u</a>");
    assert.equal(canonicalizeDocument(doc, { method: "inclusive", exclude: doc.root.children[1]! }), '<a xmlns:p="urn:p"><b>t</b>u</a>');
  });

  test("escapes namespace declaration values as attribute values (where libxml2 writes them raw)", () => {
    // Canonical XML 1.0 §2.3: a namespace node is processed "in the same way as an attribute node".
    const doc = parseXml('<a xmlns="urn:x&amp;y" xmlns:p="urn:&quot;&lt;&#9;"><p:b/></a>', { content: true });
    assert.equal(canonicalizeDocument(doc), '<a xmlns="urn:x&amp;y"><p:b xmlns:p="urn:&quot;&lt;&#x9;"></p:b></a>');
    assert.equal(canonicalizeDocument(doc, { method: "inclusive" }), '<a xmlns="urn:x&amp;y" xmlns:p="urn:&quot;&lt;&#x9;"><p:b></p:b></a>');
  });

  test("walks a document 100,000 elements deep without recursion", () => {
    const n = 100_000;
    const doc = parseXml(`${"<a>".repeat(n)}x${"</a>".repeat(n)}`, { content: true, maxDepth: n, maxNodes: Number.MAX_SAFE_INTEGER });
    assert.equal(canonicalizeDocument(doc), `${"<a>".repeat(n)}x${"</a>".repeat(n)}`);
  });

  test("refuses a tree parsed without the content option", () => {
    assert.throws(() => canonicalizeDocument(parseXml("<a/>")), TypeError);
    assert.throws(() => canonicalizeElement(parseXml("<a><b/></a>"), parseXml("<a><b/></a>").root), TypeError);
  });

  test("refuses inclusivePrefixes with inclusive canonicalization, and an unknown method", () => {
    const doc = parseXml("<a/>", { content: true });
    assert.throws(() => canonicalizeDocument(doc, { method: "inclusive", inclusivePrefixes: ["p"] }), TypeError);
    assert.throws(() => canonicalizeDocument(doc, { method: "c14n11" } as unknown as CanonicalizeOptions), TypeError);
  });

  test("refuses an element of another document", () => {
    const doc = parseXml("<a><b/></a>", { content: true });
    assert.throws(() => canonicalizeElement(doc, parseXml("<a><b/></a>", { content: true }).root.children[0]!), /not in the document/);
  });
});

/**
 * xmlsec1's pre-digest data for references to the elements with the given Ids: each reference is
 * `[uri, transforms]`; a template Signature is appended to `doc`'s root and signed with a throwaway key.
 */
function _xmlsecPreDigest(doc: string, refs: [string, string[]][], idElements: string[]): string[] {
  const ds = "http://www.w3.org/2000/09/xmldsig#";
  const references = refs.map(([uri, transforms]) =>
    `<ds:Reference URI="${uri}"><ds:Transforms>${transforms.join("")}</ds:Transforms>` +
    `<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference>`
  ).join("");
  const signature = `<ds:Signature xmlns:ds="${ds}"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>` +
    `<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"/>${references}</ds:SignedInfo><ds:SignatureValue/></ds:Signature>`;
  const end = doc.lastIndexOf("</");
  const file = _write(doc.slice(0, end) + signature + doc.slice(end));
  const out = execFileSync("xmlsec1", ["--sign", "--store-references", ...idElements.flatMap((e) => ["--id-attr:Id", e]), "--privkey-pem", _key(), file]).toString();
  return [...out.matchAll(/== PreDigest data - start buffer:\n([\s\S]*?)\n== PreDigest data - end buffer/g)].map((m) => m[1]!);
}

let _keyFile = "";
function _key(): string {
  if (_keyFile === "") {
    _keyFile = join(DIR, "key.pem");
    execFileSync("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", _keyFile], { stdio: "pipe" });
  }
  return _keyFile;
}

const EXC = '<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>';
const EXC_COMMENTS = '<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#WithComments"/>';
const INC = '<ds:Transform Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>';
const INC_COMMENTS = '<ds:Transform Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments"/>';
const ENVELOPED = '<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>';
const _prefixList = (list: string) =>
  `<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="${list}"/></ds:Transform>`;

function _byId(el: XmlElement, id: string): XmlElement {
  const stack = [el];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e.attrs.some((a) => a.local === "Id" && a.value === id)) return e;
    stack.push(...e.children);
  }
  throw new Error(`no element with Id ${id}`);
}

/** Documents with elements (Id="t1", "t2") under ancestors that declare namespaces and xml: attributes. */
const SUBTREE_DOCS: { what: string; input: string }[] = [
  {
    what: "Exclusive Canonicalization §2.2's example (n1:elem2 under n0:local)",
    input: '<n0:local xmlns:n0="foo:bar" xmlns:n3="ftp://example.org"><n1:elem2 Id="t1" xmlns:n1="http://example.net" xml:lang="en">' +
      '<n3:stuff xmlns:n3="ftp://example.org"/></n1:elem2><n1:elem2 Id="t2" xmlns:n1="http://example.net" xml:lang="en"><n4:stuff xmlns:n4="ftp://example.org"/></n1:elem2></n0:local>',
  },
  {
    what: "a default namespace and unused prefixes above, xml: attributes to inherit",
    input: '<r xmlns="urn:d" xmlns:a="urn:a" xmlns:u="urn:u" xml:lang="pl" xml:space="preserve"><mid xml:lang="en" xmlns:b="urn:b">' +
      '<a:t Id="t1" b:x="1"><!--c--><in xmlns=""><a:leaf>x &amp; y&#xD;</a:leaf></in></a:t></mid><t Id="t2"><?pi d?><!-- c2 --> </t></r>',
  },
  {
    what: "an element in no namespace under a default namespace",
    input: '<r xmlns="urn:d" xmlns:p="urn:p"><x xmlns=""><t Id="t1" p:a="&quot;"><p:c/></t></x><p:t Id="t2"><d/></p:t></r>',
  },
];

describe("canonicalizeElement() agrees with xmlsec1's pre-digest data", () => {
  for (const { what, input } of SUBTREE_DOCS) {
    test(what, () => {
      const cases: [string, string[], CanonicalizeOptions][] = [
        ["#t1", [EXC], {}],
        ["#t1", [INC], { method: "inclusive" }],
        ["#t1", [_prefixList("#default u a b n3")], { inclusivePrefixes: ["#default", "u", "a", "b", "n3"] }],
        ["#t2", [EXC], {}],
        ["#t2", [INC], { method: "inclusive" }],
        ["#xpointer(id('t1'))", [EXC_COMMENTS], { withComments: true }],
        ["#xpointer(id('t2'))", [INC_COMMENTS], { method: "inclusive", withComments: true }],
        ["#t2", [_prefixList("#default")], { inclusivePrefixes: ["#default"] }],
      ];
      const local = (id: string) => _byId(parseXml(input).root, id).local;
      const want = _xmlsecPreDigest(input, cases.map(([uri, transforms]) => [uri, transforms]), [local("t1"), local("t2")]);
      assert.equal(want.length, cases.length);
      const doc = parseXml(input, { content: true });
      cases.forEach(([uri, , options], i) => {
        const id = /t[12]/.exec(uri)![0];
        assert.equal(canonicalizeElement(doc, _byId(doc.root, id), options), want[i], `${uri} ${JSON.stringify(options)}`);
      });
    });
  }

  test("the enveloped-signature transform: the document less its Signature, both methods", () => {
    for (const { input } of SUBTREE_DOCS) {
      const refs: [string, string[]][] = [["", [ENVELOPED, EXC]], ["", [ENVELOPED, INC]], ["#xpointer(/)", [ENVELOPED, EXC_COMMENTS]]];
      const want = _xmlsecPreDigest(input, refs, ["none"]);
      const end = input.lastIndexOf("</");
      // The same document as xmlsec1 read it: the Signature (its content does not matter) as the root's last child.
      const signed = `${input.slice(0, end)}<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X/></ds:Signature>${input.slice(end)}`;
      const doc = parseXml(signed, { content: true });
      const signature = doc.root.children.at(-1)!;
      assert.deepEqual(
        [
          canonicalizeDocument(doc, { exclude: signature }),
          canonicalizeDocument(doc, { method: "inclusive", exclude: signature }),
          canonicalizeDocument(doc, { exclude: signature, withComments: true }),
        ],
        want,
      );
    }
  });
});

/** A random document: nested elements, namespace declarations at random depths, attributes, mixed content. */
function _randomDocument(random: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  // ASCII only, without '&' and '"': see the tests of namespace declaration values below.
  const uris = ["urn:a", "urn:b", "http://example.org/x", "urn:a%20b", "urn:1"];
  const prefixes = ["a", "b", "p", "ns1"];
  const texts = ["x", " ", "\n", "\r\n", "&amp;", "&lt;", "&gt;", "&#xD;", "&#x9;", '"', "'", "ż", "<![CDATA[<&>]]>", "&#x10000;", "]]&gt;"];
  const values = ["v", "", "&quot;", "&#xA;", "&#9;", "\t", "\n", "&lt;&gt;", "'", "ł", "&amp;"];
  let out = random() < 0.5 ? '<?xml version="1.0" encoding="UTF-8"?>\n' : "";
  if (random() < 0.4) out += random() < 0.5 ? "<!-- before -->\n" : "<?before x?>\n";
  const element = (depth: number, scope: string[]): string => {
    const declared = [...scope];
    let attrs = "";
    const used = new Set<string>();
    if (random() < 0.35) attrs += ` xmlns="${random() < 0.25 ? "" : pick(uris)}"`;
    for (const p of prefixes) {
      if (random() < 0.25) {
        attrs += ` xmlns:${p}="${pick(uris)}"`;
        if (!declared.includes(p)) declared.push(p);
      }
    }
    const prefix = declared.length > 0 && random() < 0.5 ? pick(declared) : "";
    const name = (prefix === "" ? "" : `${prefix}:`) + pick(["e", "f", "g"]);
    const n = Math.floor(random() * 4);
    for (let i = 0; i < n; i++) {
      const ap = declared.length > 0 && random() < 0.5 ? pick(declared) : "";
      const local = pick(["x", "y", "z", "Id"]);
      const key = `${ap}:${local}`;
      // Two prefixes may name one URI: then a repeated local name could clash; keep names distinct by prefix and local.
      if (used.has(key) || (ap !== "" && used.has(`*:${local}`))) continue;
      used.add(key);
      if (ap !== "") used.add(`*:${local}`);
      attrs += ` ${ap === "" ? "" : `${ap}:`}${local}=${random() < 0.5 ? `"${pick(values).replace(/"/g, "&quot;")}"` : `'${pick(values).replace(/'/g, "&apos;")}'`}`;
    }
    let content = "";
    const kids = depth > 3 ? 0 : Math.floor(random() * 4);
    for (let i = 0; i < kids; i++) {
      const r = random();
      if (r < 0.45) content += element(depth + 1, declared);
      else if (r < 0.8) content += pick(texts);
      else if (r < 0.9) content += "<!-- c -->";
      else content += "<?pi data?>";
    }
    return content === "" && random() < 0.5 ? `<${name}${attrs}/>` : `<${name}${attrs}>${content}</${name}>`;
  };
  out += element(1, []);
  if (random() < 0.4) out += random() < 0.5 ? "\n<!-- after -->" : "\n<?after?>";
  return out;
}
