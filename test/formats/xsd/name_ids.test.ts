import assert from "node:assert/strict";
import { test } from "node:test";
import { DocumentNames, elementId, nameId } from "../../../lib/formats/xsd/name_ids.ts";

test("a name keeps one id; the namespace tells names apart; unknown names have none", () => {
  const a = nameId("urn:name-ids-test", "a");
  assert.equal(nameId("urn:name-ids-test", "a"), a);
  assert.notEqual(nameId("", "a"), a);
  assert.equal(elementId("urn:name-ids-test", "a"), a);
  assert.equal(elementId("urn:name-ids-test", "never-compiled"), -1);
});

test("a document's names are remembered only once known (types compile during validation)", () => {
  const names = new DocumentNames();
  assert.equal(names.id("urn:name-ids-test", "late"), -1);
  const late = nameId("urn:name-ids-test", "late");
  assert.equal(names.id("urn:name-ids-test", "late"), late);
  assert.equal(names.id("urn:other", "late"), -1);
  assert.equal(names.id("urn:name-ids-test", "late"), late);
});
