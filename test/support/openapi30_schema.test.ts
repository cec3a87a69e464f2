import assert from "node:assert/strict";
import { test } from "node:test";
import { ksefSpec } from "./ksef_conformance.ts";
import { validate30, type Schema30 } from "./openapi30_schema.ts";

const root = {
  components: {
    schemas: {
      Id: { type: "string", minLength: 3, maxLength: 5, pattern: "^[A-Z]+$" },
      Base: { type: "object", required: ["id"], properties: { id: { $ref: "#/components/schemas/Id" }, n: { type: "integer", format: "int32", minimum: 0, maximum: 9 } } },
    },
  },
};
const messages = (schema: Schema30, value: unknown, strict = false) => validate30(root, schema, value, { strictProperties: strict }).map((v) => `${v.at} ${v.message}`);

test("validate30() checks the keywords of the subset", () => {
  const base: Schema30 = { $ref: "#/components/schemas/Base" };
  assert.deepEqual(messages(base, { id: "ABC", n: 3 }), []);
  assert.deepEqual(messages(base, {}), ["/ lacks the required property id"]);
  assert.deepEqual(messages(base, { id: "ab" }), ["/id is shorter than 3 characters", "/id does not match ^[A-Z]+$"]);
  assert.deepEqual(messages(base, { id: "ABC", n: 10 }), ["/n is above the maximum 9"]);
  assert.deepEqual(messages(base, { id: "ABC", n: 1.5 }), ["/n is not of type integer"]);
  assert.deepEqual(messages({ type: "string", enum: ["A", "B"] }, "C"), ["/ is not one of A, B"]);
  assert.deepEqual(messages({ type: "string", format: "date-time" }, "2026-11-25T12:00:00.1234567+00:00"), []);
  assert.deepEqual(messages({ type: "string", format: "date-time" }, "2026-11-25T12:00:00"), ["/ is not a valid date-time"]);
  assert.deepEqual(messages({ type: "string", format: "byte" }, "not base64!"), ["/ is not a valid byte"]);
  assert.deepEqual(messages({ type: "array", items: { type: "integer" }, maxItems: 1 }, [1, "x"]), ["/ has more than 1 items", "/1 is not of type integer"]);
  assert.deepEqual(messages({ oneOf: [{ type: "string" }, { type: "integer" }] }, true), ["/ matches 0 of the oneOf schemas"]);
});

test("validate30() lets null through only where nullable says so, also around allOf", () => {
  assert.deepEqual(messages({ type: "string" }, null), ["/ is null, and the schema is not nullable"]);
  assert.deepEqual(messages({ type: "string", nullable: true }, null), []);
  assert.deepEqual(messages({ allOf: [{ $ref: "#/components/schemas/Base" }], nullable: true }, null), []);
  assert.ok(messages({ allOf: [{ $ref: "#/components/schemas/Base" }] }, null).length > 0);
});

test("validate30() in strict mode names properties no schema names, counting every allOf part", () => {
  const wrapped: Schema30 = { type: "object", properties: { inner: { required: ["id"], allOf: [{ $ref: "#/components/schemas/Base" }] } } };
  assert.deepEqual(messages(wrapped, { inner: { id: "ABC", n: 1 } }, true), []);
  assert.deepEqual(messages(wrapped, { inner: { id: "ABC", nn: 1 } }, true), ["/inner/nn is a property the schema does not name"]);
  assert.deepEqual(messages(wrapped, { inner: { id: "ABC", nn: 1 } }, false), []);
});

test("validate30() refuses a keyword it does not know instead of ignoring it", () => {
  assert.throws(() => validate30(root, { type: "string", contains: {} }, "x"), /"contains".*outside the supported subset/);
});

test("every schema of KSeF's open-api.json is within the subset", () => {
  const spec = ksefSpec();
  let count = 0;
  // Each value that is neither null nor matching still walks the schema's keywords; a foreign one would throw.
  const walk = (schema: Schema30): void => {
    for (const probe of [null, {}, [], "x", 1]) validate30(spec, schema, probe);
    count++;
    const nested = [...Object.values((schema.properties as Record<string, Schema30> | undefined) ?? {}), ...((schema.allOf ?? []) as Schema30[]), ...((schema.oneOf ?? []) as Schema30[]), ...((schema.anyOf ?? []) as Schema30[])];
    for (const n of [...nested, schema.items, schema.additionalProperties]) if (n && typeof n === "object") walk(n as Schema30);
  };
  for (const s of Object.values(spec.components.schemas)) walk(s);
  for (const ops of Object.values(spec.paths)) {
    for (const op of Object.values(ops)) {
      for (const p of op.parameters ?? []) if (p.schema) walk(p.schema);
      for (const c of Object.values(op.requestBody?.content ?? {})) if (c.schema) walk(c.schema);
      for (const r of Object.values(op.responses)) for (const c of Object.values(r.content ?? {})) if (c.schema) walk(c.schema);
    }
  }
  assert.ok(count > 300, `${count} schemas`);
});
