import assert from "node:assert/strict";
import { test } from "node:test";
import { anyType, builtinType } from "../../../lib/formats/xsd/builtin_types.ts";
import { LazyElementDecl } from "../../../lib/formats/xsd/element_decl.ts";

test("an element declaration compiles its type on first use, once", () => {
  const decl = new LazyElementDecl("urn:t", "a");
  let calls = 0;
  decl.compute = () => {
    calls++;
    return builtinType("token");
  };
  assert.equal(calls, 0);
  assert.equal(decl.type, builtinType("token"));
  assert.equal(decl.type, builtinType("token"));
  assert.equal(calls, 1);
  assert.equal(new LazyElementDecl("", "b").type, anyType, "xs:anyType until compile.ts has read the declaration");
});
