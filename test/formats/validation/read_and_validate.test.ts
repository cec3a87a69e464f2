import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { InvoiceError } from "../../../lib/formats/invoice/errors.ts";
import { readInvoiceXml } from "../../../lib/formats/invoice/read_xml.ts";
import { formatOf, validateInvoice } from "../../../lib/formats/validation/invoice_validation.ts";
import { readAndValidate } from "../../../lib/formats/validation/read_and_validate.ts";
import { SchemaSet } from "../../../lib/formats/validation/schema_set.ts";
import { XmlError } from "../../../lib/formats/xml/errors.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { readSchemaFiles } from "../../../storage/schemas/schema_files.ts";
import { fixturePath } from "../../support/server.ts";

const schemas = new SchemaSet(readSchemaFiles());

describe("readAndValidate() gives, from one parse, what reading (without lines) and validating separately give", () => {
  for (const dir of ["ksef-fa2", "ksef-fa3", "ubl", "cii"]) {
    for (const file of readdirSync(fixturePath("samples", dir)).filter((f) => f.endsWith(".xml")).sort()) {
      test(`${dir}/${file}`, () => {
        const xml = readFileSync(fixturePath("samples", dir, file));
        const doc = parseXml(xml);
        const { invoice, report } = readAndValidate(xml, schemas);
        assert.deepEqual(invoice, readInvoiceXml(xml, { lines: false }));
        assert.deepEqual(report, validateInvoice(xml, doc, formatOf(doc.root)!, schemas));
      });
    }
  }
});

test("readAndValidate() throws the reader's errors for what is not a readable invoice", () => {
  assert.throws(() => readAndValidate(new TextEncoder().encode("<a>\n<b>"), schemas), (e: unknown) => e instanceof XmlError && e.line === 2);
  assert.throws(() => readAndValidate(new TextEncoder().encode('<recipe xmlns="urn:x"/>'), schemas), InvoiceError);
});

test("without schemas the verdict leaves the schema check out", () => {
  const xml = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_1_KOR.xml")); // fails its schema
  assert.equal(readAndValidate(xml, schemas).report.valid, false);
  assert.ok(!readAndValidate(xml, null).report.checks.some((c) => c.startsWith("XSD")));
});
