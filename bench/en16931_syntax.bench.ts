/**
 * Time of the EN 16931 syntax rules and code lists (lib/formats/validation/en16931/syntax.ts)
 * per document, on the CEN examples and a generated 30 KB UBL invoice, against two same-run
 * baselines: parsing the same document, and a bare walk that only visits every element.
 * Also the one-off compilation of each syntax's rule set.
 * Run: npx tsx bench/en16931_syntax.bench.ts [--quick]
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { compileSyntax } from "../lib/formats/validation/en16931/syntax/engine.ts";
import { CII_CHECKS } from "../lib/formats/validation/en16931/syntax/cii_checks.ts";
import { CII_TABLE } from "../lib/formats/validation/en16931/syntax/cii_table.ts";
import { UBL_CHECKS } from "../lib/formats/validation/en16931/syntax/ubl_checks.ts";
import { UBL_TABLE } from "../lib/formats/validation/en16931/syntax/ubl_table.ts";
import { checkSyntaxRules } from "../lib/formats/validation/en16931/syntax.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import type { XmlElement } from "../lib/formats/xml/tree.ts";
import { ublInvoice } from "../test/fixtures/ubl_invoice.ts";
import { bestMicrosPerCall } from "./timing.ts";

const quick = process.argv.includes("--quick");
const budgetMs = quick ? 300 : 1500;
/** CPU time of five rounds: on a shared machine wall time mostly measures the other processes. */
const CPU = { budgetMs, rounds: 5, clock: "cpu" } as const;


let sink = 0;
/** The baseline: visit every element, look at nothing. */
function walk(el: XmlElement): void {
  sink++;
  for (const kid of el.children) walk(kid);
}

const samples = new URL("../test/fixtures/samples/", import.meta.url);
const cases = [
  { what: "UBL tc434-example1", syntax: "ubl" as const, text: readFileSync(new URL("ubl/en16931_ubl-tc434-example1.xml", samples), "utf8") },
  { what: "UBL generated, 50 lines", syntax: "ubl" as const, text: ublInvoice(50) },
  { what: "CII example1", syntax: "cii" as const, text: readFileSync(new URL("cii/en16931_CII_example1.xml", samples), "utf8") },
  { what: "CII business example 01", syntax: "cii" as const, text: readFileSync(new URL("cii/en16931_CII_business_example_01_NOK.xml", samples), "utf8") },
];

const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
console.log(`EN 16931 syntax rules, ${deno !== undefined ? `Deno ${deno.version.deno}` : `Node ${process.version}`}${quick ? ", quick" : ""}`);
for (const [name, table, checks] of [["UBL", UBL_TABLE, UBL_CHECKS], ["CII", CII_TABLE, CII_CHECKS]] as const) {
  const t0 = performance.now();
  const set = compileSyntax(table, checks);
  console.log(`compile ${name}: ${(performance.now() - t0).toFixed(2)} ms (first, cold), ${set.ruleIds.length} rules`);
}
const rows = [["document", "KB", "elements", "walk CPU µs", "parse CPU µs", "syntax rules CPU µs", "rules / parse", "violations"]];
for (const c of cases) {
  const root = parseXml(c.text).root;
  let elements = 0;
  const count = (el: XmlElement): void => {
    elements++;
    for (const k of el.children) count(k);
  };
  count(root);
  const w = bestMicrosPerCall(() => walk(root), CPU);
  const p = bestMicrosPerCall(() => parseXml(c.text), CPU);
  const r = bestMicrosPerCall(() => checkSyntaxRules(root, c.syntax), CPU);
  rows.push([
    c.what,
    (c.text.length / 1024).toFixed(1),
    String(elements),
    w.toFixed(1),
    p.toFixed(1),
    r.toFixed(1),
    (r / p).toFixed(2),
    String(checkSyntaxRules(root, c.syntax).length),
  ]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((c, i) => c.padStart(widths[i]!)).join("  "));
if (sink < 0) console.log(sink);
