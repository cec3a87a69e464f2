/**
 * Time of the EN 16931 semantic rules (lib/formats/validation/en16931/semantic.ts)
 * per invoice, next to the same-run time of parsing it (lib/formats/xml/parse.ts):
 * a generated 30 KB UBL invoice (50 lines) and the official CEN examples (UBL 21 KB,
 * CII 34 KB). The goal is well under a millisecond for a 30 KB invoice.
 * Run: npx tsx bench/en16931_semantic.bench.ts [--quick]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { checkSemanticRules } from "../lib/formats/validation/en16931/semantic.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import { ublInvoice } from "../test/fixtures/ubl_invoice.ts";
import { bestMicrosPerCall } from "./timing.ts";

const quick = process.argv.includes("--quick");
const budgetMs = quick ? 300 : 1500;
const samples = join(import.meta.dirname, "..", "test", "fixtures", "samples");


const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
console.log(`EN 16931 semantic rules, ${deno !== undefined ? `Deno ${deno.version.deno}` : `Node ${process.version}`}${quick ? ", quick" : ""}`);

const cases: { what: string; syntax: "ubl" | "cii"; text: string }[] = [
  { what: "generated UBL, 50 lines", syntax: "ubl", text: ublInvoice(50) },
  { what: "CEN UBL example 1", syntax: "ubl", text: readFileSync(join(samples, "ubl", "en16931_ubl-tc434-example1.xml"), "utf8") },
  { what: "CEN CII example 1", syntax: "cii", text: readFileSync(join(samples, "cii", "en16931_CII_example1.xml"), "utf8") },
];
const rows = [["invoice", "size", "parse", "semantic rules", "rules / parse"]];
for (const c of cases) {
  const root = parseXml(c.text).root;
  const parse = bestMicrosPerCall(() => parseXml(c.text), { budgetMs });
  const rules = bestMicrosPerCall(() => checkSemanticRules(root, c.syntax), { budgetMs });
  rows.push([c.what, `${(c.text.length / 1024).toFixed(0)} KiB`, `${parse.toFixed(0)} µs`, `${rules.toFixed(0)} µs`, `${(rules / parse).toFixed(2)}x`]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
