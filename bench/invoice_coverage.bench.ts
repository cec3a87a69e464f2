/**
 * Per-file coverage of the sample invoices by the invoice JSON: how many
 * leaf values of each XML appear in its `invoice` object, per file and per family.
 * What is counted and skipped: test/support/invoice_coverage.ts. The test
 * test/formats/invoice/coverage.test.ts fails below 98 %. Run: npx tsx bench/invoice_coverage.bench.ts [--missing]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { invoiceJson } from "../lib/api/documents/invoice_json.ts";
import { readInvoice } from "../lib/formats/invoice/read.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import { coverage } from "../test/support/invoice_coverage.ts";

const SAMPLES = join(import.meta.dirname, "..", "test", "fixtures", "samples");
const FAMILIES = [["KSeF", ["ksef-fa2", "ksef-fa3"]], ["UBL", ["ubl"]], ["CII", ["cii"]]] as const;
const showMissing = process.argv.includes("--missing");

console.log(`invoice JSON coverage: node ${process.version}\n`);
for (const [family, dirs] of FAMILIES) {
  let total = 0;
  let found = 0;
  for (const dir of dirs) {
    for (const file of readdirSync(join(SAMPLES, dir)).filter((f) => f.endsWith(".xml")).sort()) {
      const doc = parseXml(readFileSync(join(SAMPLES, dir, file)));
      const c = coverage(doc.root, JSON.parse(invoiceJson(readInvoice(doc))));
      total += c.total;
      found += c.found;
      console.log(`${`${dir}/${file}`.padEnd(60)} ${String(c.found).padStart(5)} / ${String(c.total).padStart(5)}  ${((100 * c.found) / c.total).toFixed(1).padStart(5)} %`);
      if (showMissing) for (const m of c.missing) console.log(`    missing ${m.path} = ${JSON.stringify(m.value)}`);
    }
  }
  console.log(`${family.padEnd(60)} ${String(found).padStart(5)} / ${String(total).padStart(5)}  ${((100 * found) / total).toFixed(2).padStart(6)} %\n`);
}
