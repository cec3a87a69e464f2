/**
 * The field description tables (lib/formats/invoice/descriptions.ts): the type check
 * ties their keys to the model's interfaces; here the invoices the readers really
 * produce are held against them, and every text is usable as an OpenAPI description.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import * as D from "../../../lib/formats/invoice/descriptions.ts";
import { readInvoice } from "../../../lib/formats/invoice/read.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples");
const FILES = ["ksef-fa3/FA_3_Przyklad_1_KOR.xml", "ubl/peppol-bis3_base-example.xml"];

const sorted = (o: object): string[] => Object.keys(o).sort();

describe("the invoice field descriptions", () => {
  for (const file of FILES) {
    test(`name exactly the fields readInvoice() gives for ${file}`, () => {
      const inv = readInvoice(parseXml(readFileSync(join(SAMPLES, file))));
      assert.deepEqual(sorted(inv), sorted(D.INVOICE_FIELDS));
      assert.deepEqual(sorted(inv.seller), sorted(D.PARTY_FIELDS));
      assert.deepEqual(sorted(inv.totals), sorted(D.TOTALS_FIELDS));
      assert.deepEqual(sorted(inv.references), sorted(D.REFERENCES_FIELDS));
      assert.ok(inv.lines.length > 0, "the sample has lines");
      assert.deepEqual(sorted(inv.lines[0]!), sorted(D.LINE_FIELDS));
    });
  }

  test("are non-empty, trimmed and end without a full stop (the schema appends type notes)", () => {
    for (const [name, table] of Object.entries(D)) {
      for (const [field, text] of Object.entries(table as Record<string, string | null>)) {
        if (text === null) continue;
        assert.ok(text.length > 0 && text.trim() === text && !text.endsWith("."), `${name}.${field}: ${JSON.stringify(text)}`);
      }
    }
  });
});
