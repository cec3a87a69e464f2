/**
 * The project's EN 16931 rules (lib/formats/validation/en16931/rules.ts) next to the
 * official CEN/TC 434 Schematron artefacts run by SaxonJS, in the same process, on the
 * same invoices: a generated 30 KB UBL invoice (50 lines) and the CEN examples (UBL
 * 21 KB, CII 34 KB). Three figures per invoice, each as a ratio SaxonJS / ours:
 * parse + every rule (text in, findings out), every rule on an already parsed tree,
 * and the semantic rules alone (the artefacts' model pattern). The goal is ≥ 50×.
 * Then a cross-check: the rule ids both flag on broken documents (samples that break
 * rules and mutated CEN examples), semantic and syntax rules counted apart.
 *
 * The artefacts are read from --artefacts (default test/fixtures/en16931 from the
 * repository root; see bench/support_schematron.ts for how they become XSLT); without
 * them the bench says so and exits 0. SaxonJS's compiler takes tens of seconds per
 * syntax the first time (cached in the temporary folder after that; --fresh recompiles).
 * Run: npx tsx bench/en16931_rules.bench.ts [--quick] [--artefacts=PATH] [--fresh]
 */
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { checkEn16931, type En16931Syntax } from "../lib/formats/validation/en16931/rules.ts";
import { checkSemanticRules } from "../lib/formats/validation/en16931/semantic.ts";
import { checkSyntaxRules } from "../lib/formats/validation/en16931/syntax.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import { ublInvoice } from "../test/fixtures/ubl_invoice.ts";
import { compileSchematron, saxon, type CompiledSchematron } from "./support_schematron.ts";
import { bestMicrosPerCall } from "./timing.ts";

const ROOT = join(import.meta.dirname, "..");
const flags = new Map(process.argv.slice(2).map((a) => /^--([a-z-]+)(?:=(.*))?$/.exec(a)).filter((m) => m !== null).map((m) => [m[1]!, m[2] ?? "true"]));
const quick = flags.has("quick");
const budgetMs = quick ? 600 : 3000;
const artefacts = resolve(ROOT, flags.get("artefacts") ?? join("test", "fixtures", "en16931"));
const samples = join(ROOT, "test", "fixtures", "samples");
const SCH: Record<En16931Syntax, string> = {
  ubl: join(artefacts, "ubl", "EN16931-UBL-validation-preprocessed.sch"),
  cii: join(artefacts, "cii", "EN16931-CII-validation-preprocessed.sch"),
};


function table(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
}

const us = (x: number): string => (x >= 10_000 ? `${(x / 1000).toFixed(0)} ms` : `${x.toFixed(0)} µs`);

const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
console.log(`EN 16931 rules vs the CEN Schematron on SaxonJS, ${deno !== undefined ? `Deno ${deno.version.deno}` : `Node ${process.version}`}${quick ? ", quick" : ""}`);
if (!existsSync(SCH.ubl) || !existsSync(SCH.cii)) {
  console.log(`skipped: the CEN artefacts are not at ${artefacts} (give --artefacts=PATH to the folder holding ubl/ and cii/)`);
  process.exit(0);
}
console.log(`SaxonJS ${saxon().getProcessorInfo().productVersion}, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);

const compiled = {} as Record<En16931Syntax, CompiledSchematron>;
for (const syntax of ["ubl", "cii"] as const) {
  const c = compileSchematron(SCH[syntax], () => true, flags.has("fresh"));
  compiled[syntax] = c;
  console.log(`${syntax}: ${c.patterns.join(", ")}: ${c.asserts} assertions, ` +
    (c.compileMs === null ? "SEF from the cache" : `compiled by xslt3 in ${(c.compileMs / 1000).toFixed(1)} s`));
}

// --- speed ---
const read = (p: string): string => readFileSync(join(samples, p), "utf8");
const cases: { what: string; syntax: En16931Syntax; text: string }[] = [
  { what: "generated UBL, 50 lines", syntax: "ubl", text: ublInvoice(50) },
  { what: "CEN UBL example 1", syntax: "ubl", text: read("ubl/en16931_ubl-tc434-example1.xml") },
  { what: "CEN CII example 1", syntax: "cii", text: read("cii/en16931_CII_example1.xml") },
];
const rows = [["invoice", "size", "figure", "ours", "SaxonJS", "SaxonJS / ours"]];
for (const c of cases) {
  const sx = compiled[c.syntax];
  const root = parseXml(c.text).root;
  const node = await sx.parse(c.text);
  const figures: [string, () => unknown, () => unknown][] = [
    ["parse + all rules", () => checkEn16931(parseXml(c.text).root, c.syntax), () => sx.runText(c.text)],
    ["all rules", () => checkEn16931(root, c.syntax), () => sx.runNode(node)],
    ["semantic rules", () => checkSemanticRules(root, c.syntax), () => sx.runNode(node, [0])],
  ];
  for (const [figure, ours, theirs] of figures) {
    const a = bestMicrosPerCall(ours, { budgetMs, minCalls: 3 });
    const b = bestMicrosPerCall(theirs, { budgetMs, warmup: 2, minCalls: 3 }); // a SaxonJS run can outlast a round
    rows.push([c.what, `${(c.text.length / 1024).toFixed(0)} KiB`, figure, us(a), us(b), `${(b / a).toFixed(0)}×`]);
  }
}
table(rows);

// --- cross-check ---
/** A sample or a mutated one: `from` → `to` applied once to the text (a mutation that does not apply is an error). */
function mutate(path: string, edits: [string | RegExp, string][]): string {
  let text = read(path);
  for (const [from, to] of edits) {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`mutation ${String(from)} does not apply to ${path}`);
    text = next;
  }
  return text;
}
const UBL1 = "ubl/en16931_ubl-tc434-example1.xml";
const CII1 = "cii/en16931_CII_example1.xml";
const broken: { what: string; syntax: En16931Syntax; text: string }[] = [
  { what: "UBL example 1, no issue date", syntax: "ubl", text: mutate(UBL1, [[/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, ""]]) },
  { what: "UBL example 1, amount due off", syntax: "ubl", text: mutate(UBL1, [[">250.33</cbc:PayableAmount>", ">250.34</cbc:PayableAmount>"]]) },
  { what: "UBL example 1, currency XYZ, no seller name", syntax: "ubl", text: mutate(UBL1, [["<cbc:DocumentCurrencyCode>EUR<", "<cbc:DocumentCurrencyCode>XYZ<"], ["<cbc:RegistrationName>De Koksmaat</cbc:RegistrationName>", ""]]) },
  { what: "UBL example 1, line VAT 7 %", syntax: "ubl", text: mutate(UBL1, [[/(<cac:ClassifiedTaxCategory>[\s\S]*?<cbc:Percent>)6</, "$17<"]]) },
  { what: "CII example 1, no issue date", syntax: "cii", text: mutate(CII1, [[/<ram:IssueDateTime>[\s\S]*?<\/ram:IssueDateTime>/, ""]]) },
  { what: "CII example 1, amount due off", syntax: "cii", text: mutate(CII1, [[">250.33</ram:DuePayableAmount>", ">250.34</ram:DuePayableAmount>"]]) },
  { what: "CII example 1, category Q, no seller name", syntax: "cii", text: mutate(CII1, [["<ram:CategoryCode>S</ram:CategoryCode>", "<ram:CategoryCode>Q</ram:CategoryCode>"], ["<ram:Name>De Koksmaat</ram:Name>", ""]]) },
  { what: "Factur-X EXTENDED (mustang)", syntax: "cii", text: read("cii/mustang_factur-x-extended.xml") },
  { what: "Factur-X EXTENDED, GBP (mustang)", syntax: "cii", text: read("cii/mustang_Extended_fremdwaehrung_GBP.xml") },
];

const ids = (list: { rule: string; flag?: string }[]): Set<string> => new Set(list.filter((v) => v.flag !== "error").map((v) => v.rule));
const errors = (list: { rule: string; flag: string }[]): Set<string> => new Set(list.filter((v) => v.flag === "error").map((v) => v.rule));
const show = (s: Set<string>): string => (s.size === 0 ? "-" : [...s].sort().join(" "));
const minus = (a: Set<string>, b: Set<string>): Set<string> => new Set([...a].filter((x) => !b.has(x)));
const checks = [["document", "part", "both flag", "only ours", "only SaxonJS", "SaxonJS could not evaluate"]];
let agree = 0;
let total = 0;
for (const b of broken) {
  const sx = compiled[b.syntax];
  const root = parseXml(b.text).root;
  const node = await sx.parse(b.text);
  const semantic = sx.runNode(node, [0]);
  const syntax = sx.runNode(node, [1, 2]);
  const parts: [string, Set<string>, Set<string>, Set<string>][] = [
    ["semantic", ids(checkSemanticRules(root, b.syntax)), ids(semantic), errors(semantic)],
    ["syntax", ids(checkSyntaxRules(root, b.syntax)), ids(syntax), errors(syntax)],
  ];
  for (const [part, all, theirs, failed] of parts) {
    // A rule SaxonJS could not evaluate has no verdict to compare with.
    const ours = minus(all, failed);
    const onlyOurs = minus(ours, theirs);
    const onlyTheirs = minus(theirs, ours);
    total++;
    if (onlyOurs.size === 0 && onlyTheirs.size === 0) agree++;
    checks.push([b.what, part, show(new Set([...ours].filter((x) => theirs.has(x)))), show(onlyOurs), show(onlyTheirs), show(failed)]);
  }
}
console.log("");
table(checks);
console.log(`agreement: ${agree} of ${total} (document, part) pairs flag the same rule ids`);
