/**
 * The losses of the invoice writers: values a writer names as left out (lose, loseFields, percentOrLose) and the
 * set values found outside a writer's covered fields (collectLosses), each named by its `invoice.`-rooted path.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { collectLosses, coveredFields, lose, loseFields, percentOrLose } from "../../../lib/formats/invoice/write_losses.ts";
import type { WriteLoss } from "../../../lib/formats/invoice/write_result.ts";

test("collectLosses() lists each set value outside the covered patterns by its path, lists and nesting included", () => {
  const covered = coveredFields(["number", "lines[].name", "seller.address", "payment.due_dates[].date"]);
  const value = {
    number: "1", issue_place: "Kraków", empty: "", missing: null, flag: false, marked: true, count: 0,
    lines: [{ name: "a", gtu: "GTU_01" }, { name: "b", gtu: null, tags: ["x", "y"] }],
    seller: { name: "S", address: { lines: ["ul. 1"], city: "C" } },
    payment: { due_dates: [{ date: "2026-01-01", unit: "dni" }] },
  };
  const out: WriteLoss[] = [];
  collectLosses(value, covered, "no place", out, "invoice");
  assert.deepEqual(out.map((l) => [l.field, l.value]), [
    ["invoice.issue_place", "Kraków"], ["invoice.marked", "true"], ["invoice.count", "0"], ["invoice.lines[0].gtu", "GTU_01"],
    ["invoice.lines[1].tags[0]", "x"], ["invoice.lines[1].tags[1]", "y"], ["invoice.seller.name", "S"], ["invoice.payment.due_dates[0].unit", "dni"],
  ]);
  assert.ok(out.every((l) => l.reason === "no place"));
});

test("collectLosses() of a part names its values from the part's path", () => {
  const out: WriteLoss[] = [];
  collectLosses({ name: "P", role: { code: "2" } }, coveredFields(["role"]), "r", out, "invoice.third_parties[3]");
  assert.deepEqual(out.map((l) => l.field), ["invoice.third_parties[3].name"]);
});

test("lose() adds a loss only for a set value, a list item by item and an object as JSON", () => {
  const out: WriteLoss[] = [];
  for (const [field, value] of [["a", null], ["b", ""], ["c", false], ["d", undefined], ["e", []]] as const) lose(out, field, value, "r");
  assert.deepEqual(out, []);
  lose(out, "invoice.number", "v", "r");
  lose(out, "invoice.notes", [{ text: "n" }, null, "x"], "r");
  assert.deepEqual(out, [
    { field: "invoice.number", value: "v", reason: "r" },
    { field: "invoice.notes[0]", value: '{"text":"n"}', reason: "r" },
    { field: "invoice.notes[2]", value: "x", reason: "r" },
  ]);
});

test("loseFields() adds a loss for each named key that holds a value, under the record's path", () => {
  const out: WriteLoss[] = [];
  loseFields(out, { a: "1", b: null, c: [], d: ["x"], e: false, f: "ignored" }, ["a", "b", "c", "d", "e"], "invoice.totals", "r");
  assert.deepEqual(out.map((l) => [l.field, l.value]), [["invoice.totals.a", "1"], ["invoice.totals.d[0]", "x"]]);
});

test("percentOrLose() keeps a rate XML Schema reads as a decimal and reports any other as lost", () => {
  const out: WriteLoss[] = [];
  assert.deepEqual(["23", "8.5", "0", null, "zw", "np I", "1e3"].map((r) => percentOrLose(out, "invoice.lines[0].vat_rate", r)), ["23", "8.5", "0", null, null, null, null]);
  assert.deepEqual(out.map((l) => [l.field, l.value]), [["invoice.lines[0].vat_rate", "zw"], ["invoice.lines[0].vat_rate", "np I"], ["invoice.lines[0].vat_rate", "1e3"]]);
});
