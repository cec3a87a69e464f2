import assert from "node:assert/strict";
import { test } from "node:test";
import { DOCUMENT_CODES, FORMAT_CODES, packedCodes, TYPE_CODES } from "../../lib/contracts/document_filter.ts";
import { DOCUMENT_TYPES, INVOICE_FORMATS } from "../../lib/formats/invoice/vocabulary.ts";
import { CODE_SPACE } from "../../storage/file/document_order.ts";

/** Every (type, format, xml) code triple of a vocabulary of `types` types and `formats` formats, 0 standing for null. */
function triples(types: number, formats: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let type = 0; type <= types; type++) for (let format = 0; format <= formats; format++) for (const xml of [0, 1]) out.push([type, format, xml]);
  return out;
}

for (const { what, types, formats } of [
  { what: "today's vocabularies", types: DOCUMENT_TYPES.length, formats: INVOICE_FORMATS.length },
  { what: "a fifth format", types: DOCUMENT_TYPES.length, formats: INVOICE_FORMATS.length + 1 },
  { what: "a fifth type and two more formats", types: DOCUMENT_TYPES.length + 1, formats: INVOICE_FORMATS.length + 2 },
]) {
  test(`packedCodes() gives every type, format and xml_available its own code with ${what}, so list filters select exactly`, () => {
    const codes = packedCodes(types, formats);
    const seen = new Map<number, string>();
    for (const [type, format, xml] of triples(types, formats)) {
      const c = codes.pack(type, format, xml);
      assert.ok(c >= 0 && c < codes.size, `${c} within [0, ${codes.size})`);
      assert.equal(seen.get(c), undefined, `code ${c} of ${[type, format, xml]} is also ${seen.get(c)}`);
      seen.set(c, String([type, format, xml]));
      assert.deepEqual(codes.unpack(c), { type, format, xml });
    }
    assert.equal(seen.size, codes.size, "no code is wasted");
  });
}

test("the file store's code space and the column codes follow formats/invoice/vocabulary.ts", () => {
  assert.equal(CODE_SPACE, DOCUMENT_CODES.size);
  assert.equal(DOCUMENT_CODES.size, (DOCUMENT_TYPES.length + 1) * (INVOICE_FORMATS.length + 1) * 2);
  assert.deepEqual(Object.keys(TYPE_CODES), [...DOCUMENT_TYPES]);
  assert.deepEqual(Object.keys(FORMAT_CODES), [...INVOICE_FORMATS]);
  assert.deepEqual(Object.values(FORMAT_CODES), INVOICE_FORMATS.map((_, i) => i + 1), "0 stays null");
});
