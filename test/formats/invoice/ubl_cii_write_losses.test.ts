import assert from "node:assert/strict";
import { test } from "node:test";
import { collectLosses, coveredFields, lose, percentOrLose } from "../../../lib/formats/invoice/ubl_cii_write_losses.ts";
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
  collectLosses(value, covered, "no place", out);
  assert.deepEqual(out.map((l) => [l.field, l.value]), [
    ["issue_place", "Kraków"], ["marked", "true"], ["count", "0"], ["lines[0].gtu", "GTU_01"],
    ["lines[1].tags[0]", "x"], ["lines[1].tags[1]", "y"], ["seller.name", "S"], ["payment.due_dates[0].unit", "dni"],
  ]);
  assert.ok(out.every((l) => l.reason === "no place"));
});

test("collectLosses() of a part names its values from the part's path", () => {
  const out: WriteLoss[] = [];
  collectLosses({ name: "P", role: { code: "2" } }, coveredFields(["role"]), "r", out, "third_parties[3]");
  assert.deepEqual(out.map((l) => l.field), ["third_parties[3].name"]);
});

test("lose() adds a loss only for a set value", () => {
  const out: WriteLoss[] = [];
  lose(out, "a", null, "r");
  lose(out, "b", "", "r");
  lose(out, "c", "v", "r");
  assert.deepEqual(out, [{ field: "c", value: "v", reason: "r" }]);
});

test("percentOrLose() keeps a rate XML Schema reads as a decimal and reports any other as lost", () => {
  const out: WriteLoss[] = [];
  assert.deepEqual(["23", "8.5", "0", null, "zw", "np I", "1e3"].map((r) => percentOrLose(out, "rate", r)), ["23", "8.5", "0", null, null, null, null]);
  assert.deepEqual(out.map((l) => l.value), ["zw", "np I", "1e3"]);
});
