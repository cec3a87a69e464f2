import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { NODE_FLOOR, nodeBudget, parseXml, XmlError } from "../../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";

/** Generous: each case here takes well under a second on a loaded 2-core machine; a quadratic one takes minutes. */
const BOUND_MS = 5000;

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

function refusedWithin(input: string | Uint8Array, message: RegExp, options = {}): XmlError {
  const start = performance.now();
  try {
    parseXml(input, options);
  } catch (e) {
    const ms = performance.now() - start;
    assert.ok(e instanceof XmlError, `expected an XmlError, got ${String(e)}`);
    assert.match(e.message, message);
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
    return e;
  }
  assert.fail("expected the document to be refused");
}

describe("parseXml() refuses DTD-based attacks", () => {
  const cases: { what: string; input: string }[] = [
    {
      what: "billion laughs (nested internal entities)",
      input: `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<lolz>&lol9;</lolz>`,
    },
    { what: "quadratic blowup (one large entity used many times)", input: `<!DOCTYPE a [<!ENTITY x "${"x".repeat(10000)}">]><a>${"&x;".repeat(10000)}</a>` },
    { what: "an external entity (XXE)", input: `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>` },
    { what: "an external entity over HTTP", input: `<!DOCTYPE foo [<!ENTITY xxe SYSTEM "http://127.0.0.1:1/x">]><foo>&xxe;</foo>` },
    { what: "an external DTD", input: `<?xml version="1.0"?>\n<!DOCTYPE foo SYSTEM "http://127.0.0.1:1/foo.dtd">\n<foo/>` },
    { what: "a public external DTD", input: `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html/>` },
    { what: "parameter entities", input: `<!DOCTYPE foo [<!ENTITY % pe SYSTEM "http://127.0.0.1:1/evil.dtd"> %pe; %param1;]><foo>&exfil;</foo>` },
    { what: "an entity in an attribute default", input: `<!DOCTYPE a [<!ATTLIST a x CDATA "&y;"><!ENTITY y "z">]><a/>` },
    { what: "a DOCTYPE after comments and PIs", input: `<?xml version="1.0"?><!-- c --><?pi x?>\n<!DOCTYPE a><a/>` },
  ];
  for (const { what, input } of cases) {
    test(`parseXml() refuses ${what} because of its DOCTYPE`, () => {
      refusedWithin(input, /DOCTYPE is not allowed/);
    });
  }

  test("parseXml() refuses a reference to an undeclared external entity without a DOCTYPE", () => {
    refusedWithin("<foo>&xxe;</foo>", /Unknown entity 'xxe'/);
  });
});

describe("parseXml() stays linear on hostile sizes and shapes", () => {
  test("parseXml() refuses 100,000 nested elements with a clean depth error", () => {
    const n = 100_000;
    const e = refusedWithin("<a>".repeat(n) + "</a>".repeat(n), /nest deeper than 256 levels/);
    assert.deepEqual([e.line, e.column], [1, 256 * 3 + 1]);
  });

  test("parseXml() parses 100,000 nested elements without recursion when the depth limit allows", () => {
    const n = 100_000;
    const { value, ms } = timed(() => parseXml("<a>".repeat(n) + "x" + "</a>".repeat(n), { maxDepth: n, maxNodes: Number.MAX_SAFE_INTEGER }));
    let depth = 1;
    let el: XmlElement = value.root;
    while (el.children.length > 0) {
      el = el.children[0]!;
      depth++;
    }
    assert.deepEqual([depth, el.text], [n, "x"]);
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() refuses 100,000 unclosed elements at the end", () => {
    refusedWithin("<a>".repeat(100_000), /not closed/, { maxDepth: 1_000_000, maxNodes: Number.MAX_SAFE_INTEGER });
  });

  test("parseXml() parses a 10 MB attribute value in bounded time", () => {
    const big = "v".repeat(10 * 1024 * 1024);
    const { value, ms } = timed(() => parseXml(`<a x="${big}"/>`));
    assert.equal(value.root.attrs[0]!.value.length, big.length);
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() normalises a 10 MB attribute value full of tabs and references in bounded time", () => {
    const { value, ms } = timed(() => parseXml(`<a x="${"a\tb&amp;".repeat(1024 * 1024)}"/>`));
    assert.equal(value.root.attrs[0]!.value.length, 4 * 1024 * 1024);
    assert.ok(value.root.attrs[0]!.value.startsWith("a b&a b&"));
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() parses 10 MB of text, comment, CDATA and PI in bounded time", () => {
    const big = "t".repeat(10 * 1024 * 1024);
    for (const input of [`<a>${big}</a>`, `<a><!--${big}--></a>`, `<a><![CDATA[${big}]]></a>`, `<a><?pi ${big}?></a>`]) {
      const { ms } = timed(() => parseXml(input));
      assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
    }
  });

  test("parseXml() refuses a 10 MB name at the name length limit", () => {
    refusedWithin(`<${"n".repeat(10 * 1024 * 1024)}/>`, /Name longer than 1024 characters/);
  });

  test("parseXml() expands 1,000,000 character references in linear time", () => {
    const { value, ms } = timed(() => parseXml(`<a>${"&#x41;&#66;".repeat(500_000)}</a>`));
    assert.equal(value.root.text.length, 1_000_000);
    assert.ok(value.root.text.startsWith("ABAB"));
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() expands 1,000,000 character references in an attribute in linear time", () => {
    const { value, ms } = timed(() => parseXml(`<a x="${"&#x1F600;".repeat(1_000_000)}"/>`));
    assert.equal(value.root.attrs[0]!.value.length, 2_000_000);
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() reads 1,000,000 character references split by elements in linear time", () => {
    const { value, ms } = timed(() => parseXml(`<r>${"<a>&#65;</a>t".repeat(200_000)}</r>`, { maxElements: 1_000_000, maxNodes: Number.MAX_SAFE_INTEGER }));
    assert.equal(value.root.children.length, 200_000);
    assert.equal(value.root.text.length, 200_000);
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() stays linear with '&' and ']]>' outside text between many texts", () => {
    const input = `<r>${"<a x=']]>&amp;'/>t<![CDATA[x]]>u<!-- ]]> & -->v".repeat(100_000)}</r>`;
    const { value, ms } = timed(() => parseXml(input));
    assert.equal(value.root.text, "txuv".repeat(100_000));
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() stays linear with one far-away '&' after many texts", () => {
    const input = `<r>${"<a/>t".repeat(200_000)}&amp;</r>`;
    const { ms } = timed(() => parseXml(input, { maxNodes: Number.MAX_SAFE_INTEGER }));
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() stays linear on one long line of 200,000 elements (no newline to find)", () => {
    const { ms } = timed(() => parseXml(`<r>${"<a/>".repeat(200_000)}</r>`, { maxNodes: Number.MAX_SAFE_INTEGER }));
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() stays linear on 200,000 distinct names", () => {
    const parts: string[] = [];
    for (let i = 0; i < 200_000; i++) parts.push(`<n${i} a${i}='1'/>`);
    const { value, ms } = timed(() => parseXml(`<r>${parts.join("")}</r>`, { maxNodes: Number.MAX_SAFE_INTEGER }));
    assert.equal(value.root.children[199_999]!.local, "n199999");
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() stays linear with 256 attributes on each of 2,000 elements", () => {
    const attrs = Array.from({ length: 256 }, (_, i) => ` a${i}='${i}'`).join("");
    const { ms } = timed(() => parseXml(`<r>${`<e${attrs}/>`.repeat(2000)}</r>`, { maxNodes: Number.MAX_SAFE_INTEGER }));
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() stays linear with a namespace declared on each of 100,000 nested elements", () => {
    const n = 100_000;
    const input = `${"<p:a xmlns:p='urn:x'>".repeat(n)}${"</p:a>".repeat(n)}`;
    const { value, ms } = timed(() => parseXml(input, { maxDepth: n, maxNodes: Number.MAX_SAFE_INTEGER }));
    assert.equal(value.root.ns, "urn:x");
    assert.ok(ms < BOUND_MS, `took ${ms.toFixed(0)} ms`);
  });

  test("parseXml() refuses more than a million elements by default", () => {
    refusedWithin(`<r>${"<a/>".repeat(1_000_000)}</r>`, /more than 1000000 elements/, { maxNodes: Number.MAX_SAFE_INTEGER });
  });

  test("parseXml() refuses a document denser than one element or attribute per 16 characters early, by default", () => {
    // 4 MB of empty elements, and 3 attributes on each of 400,000 elements: trees 10–20 times their input.
    refusedWithin(`<r>${"<a/>".repeat(1_000_000)}</r>`, /more than 260000 elements and attributes for its size/);
    refusedWithin(`<r>${'<a b="1" c="2" d="3"/>'.repeat(400_000)}</r>`, /elements and attributes for its size/);
  });

  test("parseXml() leaves real invoices twofold room under the node budget", () => {
    assert.equal(nodeBudget(0), NODE_FLOOR);
    assert.equal(nodeBudget(8_800_000), NODE_FLOOR + 550_000);
  });
});

/** A small document with every construct, ending with the root's end tag so that no proper prefix is well-formed. */
const SMALL = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!-- comment --><?pi data?>
<p:root xmlns:p="urn:p" xmlns="urn:d" a="1 &amp; 2" p:b='&#x17C;'>
  <child x="y">żółć &lt;&#65;&#x42;&gt; <![CDATA[<raw>]]></child>
  <empty/><!-- c --><?x y?>
  <p:deep><q:d xmlns:q="urn:q">&quot;&apos;\u{1F600}</q:d></p:deep>
</p:root>`;

describe("parseXml() refuses every truncation and mutation with an XmlError", () => {
  test("the small document parses whole", () => {
    const { root } = parseXml(SMALL);
    assert.deepEqual([root.ns, root.local, root.children.length], ["urn:p", "root", 3]);
  });

  test("parseXml() refuses SMALL cut at every character offset, as text", () => {
    for (let i = 0; i < SMALL.length; i++) {
      assert.throws(() => parseXml(SMALL.slice(0, i)), XmlError, `offset ${i}`);
    }
  });

  test("parseXml() refuses SMALL cut at every byte offset, as UTF-8 and UTF-16 bytes", () => {
    const u8 = new TextEncoder().encode(SMALL);
    for (let i = 0; i < u8.length; i++) assert.throws(() => parseXml(u8.subarray(0, i)), XmlError, `UTF-8 offset ${i}`);
    const units = `\uFEFF${SMALL.replace('encoding="UTF-8"', 'encoding="UTF-16"')}`;
    const u16 = new Uint8Array(units.length * 2);
    for (let i = 0; i < units.length; i++) {
      u16[2 * i] = units.charCodeAt(i) & 0xff;
      u16[2 * i + 1] = units.charCodeAt(i) >> 8;
    }
    assert.equal(parseXml(u16).root.local, "root");
    for (let i = 0; i < u16.length; i++) assert.throws(() => parseXml(u16.subarray(0, i)), XmlError, `UTF-16 offset ${i}`);
  });

  test("parseXml() either parses or throws an XmlError for SMALL with any one character replaced", () => {
    const replacements = ["<", ">", "&", ";", "'", '"', "=", "/", "!", "?", "[", "]", "-", ":", " ", "\u0000", "\uD800", "x", "#"];
    let refusedCount = 0;
    for (let i = 0; i < SMALL.length; i++) {
      for (const r of replacements) {
        try {
          parseXml(SMALL.slice(0, i) + r + SMALL.slice(i + 1));
        } catch (e) {
          assert.ok(e instanceof XmlError, `offset ${i} with ${JSON.stringify(r)}: ${String(e)}`);
          refusedCount++;
        }
      }
    }
    assert.ok(refusedCount > SMALL.length, "most mutations break the document");
  });

  test("parseXml() either parses or throws an XmlError for 3,000 random token soups", () => {
    const tokens = ["<a>", "</a>", "<b/>", "<p:c xmlns:p='u'>", "</p:c>", "<a x='1'", " y=\"&amp;\"", ">", "/>", "&lt;", "&#65;", "&#x;", "&bad;",
      "<!--", "-->", "<![CDATA[", "]]>", "<?pi", "?>", "text", " ", "\n", "<", "&", "<?xml version='1.0'?>", "<!DOCTYPE", "\u00e9", ":"];
    let seed = 12345;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 3000; i++) {
      let doc = "";
      const n = 1 + Math.floor(random() * 20);
      for (let k = 0; k < n; k++) doc += tokens[Math.floor(random() * tokens.length)];
      try {
        parseXml(doc);
      } catch (e) {
        assert.ok(e instanceof XmlError, `${JSON.stringify(doc)}: ${String(e)}`);
      }
    }
  });
});
