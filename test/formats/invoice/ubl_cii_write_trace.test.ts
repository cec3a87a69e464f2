import assert from "node:assert/strict";
import { test } from "node:test";
import { writeCii } from "../../../lib/formats/invoice/cii_write.ts";
import { writeUbl } from "../../../lib/formats/invoice/ubl_write.ts";
import { fieldAt, FieldWriteError, TracingWriter } from "../../../lib/formats/invoice/ubl_cii_write_trace.ts";
import { XmlWriteError } from "../../../lib/formats/xml/write.ts";
import { minimalInvoice } from "../../support/written_invoices.ts";

function _sample(): TracingWriter {
  const w = new TracingWriter(true);
  w.open("Invoice").leaf("cbc:ID", "1", "number");
  const outer = w.scope("lines[0].");
  w.open("cac:InvoiceLine", undefined, "").leaf("cbc:ID", "1", "number").leaf("cbc:Note", "a", "notes[0]").leaf("cbc:Note", "b", "notes[1]");
  w.open("cac:Item").leaf("cbc:Name", "x", "name").close().close();
  w.scope(outer);
  w.close();
  return w;
}

test("TracingWriter records every written element's path, with its position among same-named siblings, and its field", () => {
  assert.deepEqual(_sample().fields, [
    { path: "/Invoice/cbc:ID[1]", field: "number" },
    { path: "/Invoice/cac:InvoiceLine[1]", field: "lines[0]" },
    { path: "/Invoice/cac:InvoiceLine[1]/cbc:ID[1]", field: "lines[0].number" },
    { path: "/Invoice/cac:InvoiceLine[1]/cbc:Note[1]", field: "lines[0].notes[0]" },
    { path: "/Invoice/cac:InvoiceLine[1]/cbc:Note[2]", field: "lines[0].notes[1]" },
    { path: "/Invoice/cac:InvoiceLine[1]/cac:Item[1]/cbc:Name[1]", field: "lines[0].name" },
  ]);
  assert.equal(String(_sample()), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Invoice><cbc:ID>1</cbc:ID><cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:Note>a</cbc:Note><cbc:Note>b</cbc:Note><cac:Item><cbc:Name>x</cbc:Name></cac:Item></cac:InvoiceLine></Invoice>");
  assert.deepEqual(new TracingWriter(false).open("a").leaf("b", "1", "number").close().fields, []);
});

test("fieldAt() matches paths with or without prefixes and first positions, else the nearest written ancestor, else null", () => {
  const fields = _sample().fields;
  const cases: { what: string; path: string; expected: string | null }[] = [
    { what: "the written form", path: "/Invoice/cac:InvoiceLine[1]/cbc:Note[2]", expected: "lines[0].notes[1]" },
    { what: "EN 16931 form, first position left out", path: "/Invoice/cac:InvoiceLine/cbc:Note[2]", expected: "lines[0].notes[1]" },
    { what: "XML Schema form, no prefixes", path: "/Invoice/InvoiceLine[1]/Item/Name", expected: "lines[0].name" },
    { what: "an element without a field of its own", path: "/Invoice/cac:InvoiceLine/cac:Item", expected: "lines[0]" },
    { what: "an element below a leaf", path: "/Invoice/cac:InvoiceLine/cbc:ID/x", expected: "lines[0].number" },
    { what: "a second line that was not written", path: "/Invoice/cac:InvoiceLine[2]/cbc:ID", expected: null },
    { what: "the root", path: "/Invoice", expected: null },
  ];
  for (const c of cases) assert.equal(fieldAt(fields, c.path), c.expected, c.what);
});

test("the writers refuse a value XML cannot carry with an error naming its invoice-object field", () => {
  for (const write of [writeUbl, writeCii]) {
    const inv = minimalInvoice();
    inv.lines[1]!.name = "bell \u0007";
    assert.throws(() => write(inv), (e: unknown) => e instanceof FieldWriteError && e instanceof XmlWriteError && e.field === "lines[1].name" && /lines\[1\]\.name/.test(e.message));
  }
});
