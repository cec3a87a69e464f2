/**
 * parseXml's `content` option: children in document order with text, comments and processing instructions,
 * and the comments and PIs around the root; without the option the tree is what it always was.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import type { XmlElement } from "../../../lib/formats/xml/tree.ts";

const INPUT = '<?xml version="1.0"?>\n<!--a--><?p1?>\n<r x="1">t1<b/>&amp;<![CDATA[<c>]]>\r\nt2<!-- c --><?p2  d  e ?></r>\n<?p3 z?><!--z-->\n';

describe("parseXml() with the content option", () => {
  test("keeps children in document order: elements, text runs, comments, PIs", () => {
    const doc = parseXml(INPUT, { content: true });
    const b = doc.root.children[0]!;
    assert.deepEqual(doc.root.content, [
      "t1",
      b,
      // Text, a reference and a CDATA section run together; CR LF is LF (XML 1.0 §2.11).
      "&<c>\nt2",
      { kind: "comment", text: " c " },
      { kind: "pi", target: "p2", data: "d  e " },
    ]);
    assert.deepEqual(b.content, []);
    assert.equal(doc.root.text, "t1&<c>\nt2");
  });

  test("keeps the comments and PIs before and after the root, not the XML declaration", () => {
    const doc = parseXml(INPUT, { content: true });
    assert.deepEqual(doc.before, [{ kind: "comment", text: "a" }, { kind: "pi", target: "p1", data: "" }]);
    assert.deepEqual(doc.after, [{ kind: "pi", target: "p3", data: "z" }, { kind: "comment", text: "z" }]);
  });

  test("without the option, the tree has no content, before or after", () => {
    const doc = parseXml(INPUT);
    assert.deepEqual(Object.keys(doc).sort(), ["encoding", "root"]);
    const all = (el: XmlElement): XmlElement[] => [el, ...el.children.flatMap(all)];
    for (const el of all(doc.root)) assert.equal("content" in el, false);
  });

  test("counts kept comments and PIs against the node limit", () => {
    const input = `<r>${"<!--c--><?p?>".repeat(50)}</r>`;
    assert.doesNotThrow(() => parseXml(input, { maxNodes: 10 }));
    assert.throws(() => parseXml(input, { content: true, maxNodes: 10 }), /more than 10 nodes/);
    assert.equal(parseXml(input, { content: true, maxNodes: 101 }).root.content!.length, 100);
  });

  test("gives the same elements, attributes and text with and without it", () => {
    const strip = (el: XmlElement): unknown => ({ ...el, content: undefined, children: el.children.map(strip) });
    assert.deepEqual(strip(parseXml(INPUT, { content: true }).root), strip(parseXml(INPUT).root));
  });
});
