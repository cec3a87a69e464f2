/**
 * The whole invoice in the JSON (README "The invoice object"): at least 98 % of the leaf values of the sample invoices (KSeF, UBL, CII
 * families, each on its own) appear in the document JSON's `invoice` object.
 * What is counted and skipped is in test/support/invoice_coverage.ts.
 * Set COVERAGE_MISSING=1 to list the values not found.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { invoiceJson } from "../../../lib/api/documents/invoice_json.ts";
import { readInvoice } from "../../../lib/formats/invoice/read.ts";
import { parseXml } from "../../../lib/formats/xml/parse.ts";
import { coverage, type Leaf } from "../../support/invoice_coverage.ts";

const SAMPLES = join(import.meta.dirname, "..", "..", "fixtures", "samples");

/** The share of leaf values each family must reach (the README's coverage figures; a drop below them is a regression). */
const REQUIRED = 0.98;

const FAMILIES: readonly { name: string; dirs: readonly string[] }[] = [
  { name: "KSeF", dirs: ["ksef-fa2", "ksef-fa3"] },
  { name: "UBL", dirs: ["ubl"] },
  { name: "CII", dirs: ["cii"] },
];

describe("invoice JSON coverage of the sample XML", () => {
  for (const family of FAMILIES) {
    test(`the invoice JSON holds at least 98 % of the ${family.name} samples' leaf values`, (t) => {
      let total = 0;
      let found = 0;
      const missing: Leaf[] = [];
      for (const dir of family.dirs) {
        for (const file of readdirSync(join(SAMPLES, dir)).filter((f) => f.endsWith(".xml")).sort()) {
          const doc = parseXml(readFileSync(join(SAMPLES, dir, file)));
          const json: unknown = JSON.parse(invoiceJson(readInvoice(doc)));
          const c = coverage(doc.root, json);
          total += c.total;
          found += c.found;
          for (const m of c.missing) missing.push({ path: `${dir}/${file}:${m.path}`, value: m.value });
          t.diagnostic(`${dir}/${file}: ${c.found}/${c.total} = ${((100 * c.found) / c.total).toFixed(1)} %`);
        }
      }
      t.diagnostic(`${family.name}: ${found}/${total} = ${((100 * found) / total).toFixed(2)} %`);
      if (process.env.COVERAGE_MISSING) for (const m of missing) t.diagnostic(`missing ${m.path} = ${JSON.stringify(m.value)}`);
      assert.ok(total > 0);
      assert.ok(found / total >= REQUIRED, `${family.name} coverage ${((100 * found) / total).toFixed(2)} % < 98 %`);
    });
  }
});
