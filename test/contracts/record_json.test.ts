/** A document record's fields from invoice XML (lib/contracts/record_json.ts). */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fieldsFromInvoice, fieldsFromXml } from "../../lib/contracts/record_json.ts";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import { fixturePath } from "../support/server.ts";

test("fieldsFromXml() reads without the lines exactly the fields a whole read gives, for every sample invoice", () => {
  let n = 0;
  for (const dir of ["ksef-fa2", "ksef-fa3", "ubl", "cii"]) {
    for (const name of readdirSync(fixturePath("samples", dir)).filter((f) => f.endsWith(".xml"))) {
      const xml = readFileSync(fixturePath("samples", dir, name));
      assert.deepEqual(fieldsFromXml(xml), fieldsFromInvoice(readInvoiceXml(xml)), `${dir}/${name}`);
      n++;
    }
  }
  assert.ok(n >= 40, `${n} samples`);
});

test("a read without lines leaves the lines out and nothing else a record keeps", () => {
  const xml = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_complex.xml"));
  const whole = readInvoiceXml(xml);
  const short = readInvoiceXml(xml, { lines: false });
  assert.ok(whole.lines.length > 0);
  assert.deepEqual(short.lines, []);
  assert.deepEqual([short.number, short.totals, short.seller, short.buyer], [whole.number, whole.totals, whole.seller, whole.buyer]);
});
