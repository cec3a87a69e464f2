/**
 * TracedWriter and fieldAt(), the tracing shared by the FA(3), UBL and CII writers: which invoice-object field each
 * written element came from, with paths in the validators' own form, and an InvoiceError naming the field of a
 * value XML cannot carry.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { writeCii } from "../../../lib/formats/invoice/cii_write.ts";
import { InvoiceError } from "../../../lib/formats/invoice/errors.ts";
import { writeKsefFa3 } from "../../../lib/formats/invoice/ksef_write.ts";
import type { Invoice } from "../../../lib/formats/invoice/model.ts";
import { writeUbl } from "../../../lib/formats/invoice/ubl_write.ts";
import { fieldAt, TracedWriter } from "../../../lib/formats/invoice/write_trace.ts";
import { minimalInvoice } from "../../support/written_invoices.ts";

function _sample(trace = true): TracedWriter {
  const w = new TracedWriter(trace);
  w.open("Invoice").leaf("cbc:ID", "1", "invoice.number");
  w.open("cac:InvoiceLine", "invoice.lines[0]").leaf("cbc:ID", "1", ".number").leaf("cbc:Note", "a", ".notes[0]").leaf("cbc:Note", "b", ".notes[1]");
  w.open("cac:Item").leaf("cbc:Name", "x", ".name").close();
  w.open("cac:InvoicePeriod", ".period").leaf("cbc:StartDate", "2026-01-01", ".start").close().close();
  w.open("cac:InvoiceLine", "invoice.lines[1]").leaf("cbc:ID", "2", ".number").leaf("cbc:Note", "c", "[0]").close();
  w.leaf("cbc:Note", "d", null).leaf("cbc:Note", "e");
  w.close();
  return w;
}

test("TracedWriter records each field given, relative ones resolved against the innermost open element's, with positions only among same-named siblings", () => {
  assert.deepEqual(_sample().fields(), [
    { path: "/Invoice/cbc:ID", field: "invoice.number" },
    { path: "/Invoice/cac:InvoiceLine[1]", field: "invoice.lines[0]" },
    { path: "/Invoice/cac:InvoiceLine[1]/cbc:ID", field: "invoice.lines[0].number" },
    { path: "/Invoice/cac:InvoiceLine[1]/cbc:Note[1]", field: "invoice.lines[0].notes[0]" },
    { path: "/Invoice/cac:InvoiceLine[1]/cbc:Note[2]", field: "invoice.lines[0].notes[1]" },
    { path: "/Invoice/cac:InvoiceLine[1]/cac:Item/cbc:Name", field: "invoice.lines[0].name" },
    { path: "/Invoice/cac:InvoiceLine[1]/cac:InvoicePeriod", field: "invoice.lines[0].period" },
    { path: "/Invoice/cac:InvoiceLine[1]/cac:InvoicePeriod/cbc:StartDate", field: "invoice.lines[0].period.start" },
    { path: "/Invoice/cac:InvoiceLine[2]", field: "invoice.lines[1]" },
    { path: "/Invoice/cac:InvoiceLine[2]/cbc:ID", field: "invoice.lines[1].number" },
    { path: "/Invoice/cac:InvoiceLine[2]/cbc:Note", field: "invoice.lines[1][0]" },
  ]);
});

test("TracedWriter writes the same document untraced and records nothing", () => {
  assert.equal(String(_sample(false)), String(_sample()));
  assert.match(String(_sample()), /^<\?xml version="1.0" encoding="UTF-8"\?>\n<Invoice><cbc:ID>1<\/cbc:ID><cac:InvoiceLine><cbc:ID>1<\/cbc:ID>/);
  assert.deepEqual(_sample(false).fields(), []);
});

test("fieldAt() matches paths with or without prefixes and positions, else the nearest written ancestor, else null", () => {
  const fields = _sample().fields();
  const cases: { what: string; path: string; expected: string | null }[] = [
    { what: "the written form, which is EN 16931's", path: "/Invoice/cac:InvoiceLine[1]/cbc:Note[2]", expected: "invoice.lines[0].notes[1]" },
    { what: "every position written", path: "/Invoice/cac:InvoiceLine[1]/cac:Item[1]/cbc:Name[1]", expected: "invoice.lines[0].name" },
    { what: "XML Schema form, no prefixes", path: "/Invoice/InvoiceLine[1]/Item/Name", expected: "invoice.lines[0].name" },
    { what: "a single element given a position", path: "/Invoice/cac:InvoiceLine[2]/cbc:Note[1]", expected: "invoice.lines[1][0]" },
    { what: "an element without a field of its own", path: "/Invoice/cac:InvoiceLine[1]/cac:Item", expected: "invoice.lines[0]" },
    { what: "an element below a leaf", path: "/Invoice/cac:InvoiceLine[2]/cbc:ID/x", expected: "invoice.lines[1].number" },
    { what: "a third line that was not written", path: "/Invoice/cac:InvoiceLine[3]/cbc:ID", expected: null },
    { what: "the root", path: "/Invoice", expected: null },
  ];
  for (const c of cases) assert.equal(fieldAt(fields, c.path), c.expected, c.what);
});

test("every writer refuses a value XML cannot carry with an InvoiceError naming its field, traced or not", () => {
  const writers = { "ksef-fa3": writeKsefFa3, ubl: writeUbl, cii: writeCii };
  const cases = [
    { what: "a line's name", edit: (i: Invoice) => { i.lines[1]!.name = "bell \u0007"; }, field: "invoice.lines[1].name" },
    { what: "a party's address line", edit: (i: Invoice) => { i.buyer.address!.lines = ["a\u0001"]; }, field: "invoice.buyer.address.lines[0]" },
  ];
  for (const [format, write] of Object.entries(writers)) {
    for (const c of cases) {
      for (const trace of [false, true]) {
        const inv = minimalInvoice();
        c.edit(inv);
        assert.throws(() => write(inv, { trace }), (e: unknown) => {
          assert.ok(e instanceof InvoiceError, `${format}, ${c.what}`);
          assert.equal(e.field, c.field, `${format}, ${c.what}`);
          assert.equal(e.issue, "invalid character");
          assert.ok(e.message.includes(c.field));
          return true;
        });
      }
    }
  }
});

test("a value refused under a relative field is named from the open elements' fields", () => {
  const w = new TracedWriter(false);
  w.open("Invoice").open("cac:InvoiceLine", "invoice.lines[4]").open("cac:Item");
  assert.throws(() => w.leaf("cbc:Name", "\u0002", ".name"), { name: "InvoiceError", field: "invoice.lines[4].name" });
  assert.throws(() => w.open("cac:Price", null, { unitCode: "\u0003" }), { name: "InvoiceError", field: "invoice.lines[4]" });
  assert.throws(() => new TracedWriter(true).open("Invoice").leaf("cbc:Note", "\u0004", "[0]"), { name: "InvoiceError", field: "invoice[0]" });
});
