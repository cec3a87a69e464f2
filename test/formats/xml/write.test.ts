import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { escapeAttribute, escapeText, XmlWriteError, XmlWriter } from "../../../lib/formats/xml/write.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";

describe("XmlWriter", () => {
  it("writes nested elements, attributes and text that our parser reads back unchanged", () => {
    const tricky = "A & B <c> \"d\" 'e'\r\nf\tg";
    const xml = new XmlWriter()
      .open("a:Root", { "xmlns:a": "urn:x", id: tricky, skipped: null })
      .leaf("a:Text", tricky)
      .leaf("a:Absent", null)
      .empty("a:Empty", { n: "1" })
      .close()
      .toString();
    assert.equal(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<a:Root xmlns:a="urn:x" id="'), true);
    assert.equal(xml.includes("Absent"), false);
    assert.equal(xml.includes("skipped"), false);
    const root = parseXml(new TextEncoder().encode(xml)).root;
    assert.equal(root.attrs.find((a) => a.local === "id")?.value, tricky);
    const text = root.children.find((c) => c.local === "Text");
    assert.equal(text?.text, tricky);
    assert.equal(root.children.some((c) => c.local === "Empty"), true);
  });

  it("refuses a control character XML cannot carry", () => {
    assert.throws(() => escapeText("a\u0001b"), XmlWriteError);
    assert.throws(() => escapeAttribute("\u000B"), XmlWriteError);
  });

  it("refuses an unclosed element and a close without an open one", () => {
    assert.throws(() => new XmlWriter().open("a").toString(), /not closed/);
    assert.throws(() => new XmlWriter().close(), RangeError);
  });

  it("leaves text without special characters as it is", () => {
    assert.equal(escapeText("Zażółć gęślą jaźń 123.45"), "Zażółć gęślą jaźń 123.45");
    assert.equal(escapeAttribute("urn:cen.eu:en16931:2017"), "urn:cen.eu:en16931:2017");
  });
});
