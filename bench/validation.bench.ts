/**
 * Validation cost (README "Validation"): parse + XML Schema check of a ~30 KB UBL invoice and a
 * ~30 KB FA(3) invoice, against a same-run baseline (the parse alone, which every upload pays
 * already); schema compilation per family in a fresh process, and the heap each compiled schema
 * holds once every type in it is compiled. bench/xsd_compare.bench.ts compares the same work with
 * libxml2 (libxmljs2, xmllint-wasm) in process; the agreement test runs xmllint for the verdicts.
 *   node --expose-gc --import tsx bench/validation.bench.ts [--quick]
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { formatOf, validateInvoice } from "../lib/formats/validation/invoice_validation.ts";
import { SchemaSet } from "../lib/formats/validation/schema_set.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import { validateXsd } from "../lib/formats/xsd/validate.ts";
import { readSchemaFiles } from "../storage/schemas/schema_files.ts";
import { ublInvoice } from "../test/fixtures/ubl_invoice.ts";
import { bestMicrosPerCall } from "./timing.ts";

const quick = process.argv.includes("--quick");
const budgetMs = quick ? 300 : 1500;
const gc = (globalThis as { gc?: () => void }).gc;


function heap(): number {
  gc?.();
  return process.memoryUsage().heapUsed;
}

console.log(`${process.release.name} ${process.version}; ${gc ? "" : "(run with --expose-gc for memory figures) "}budget ${budgetMs} ms per figure`);
const files = readSchemaFiles();

// Compilation: what start-up pays (parse and index; types compile on first use), then every type at once.
const set = new SchemaSet(files);
for (const f of ["ksef-fa3", "ubl", "cii"] as const) {
  const before = heap();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const schema = set.forFormat(f);
  const startup = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const t1 = performance.now();
  schema.compileAll();
  const whole = performance.now() - t1;
  const mb = (heap() - before) / 1e6;
  console.log(`compile ${f.padEnd(8)} start-up ${startup.toFixed(0).padStart(4)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms), every type ${whole.toFixed(0).padStart(4)} ms more, heap ${gc ? `${mb.toFixed(1)} MB` : "n/a"}`);
}

const fa3Text = readFileSync(new URL("../test/fixtures/samples/ksef-fa3/FA_3_complex.xml", import.meta.url), "utf8");
const line = /<FaWiersz>[\s\S]*?<\/FaWiersz>/.exec(fa3Text)![0];
let fa3 = fa3Text;
for (let n = 2; fa3.length < 30_000; n++) fa3 = fa3.replace("</FaWiersz>\n", `</FaWiersz>\n${line.replace(/<NrWierszaFa>\d+/, `<NrWierszaFa>${n}`)}\n`);
let lines = 10;
let ubl = ublInvoice(lines);
while (ubl.length < 30_000) ubl = ublInvoice(++lines);

for (const [name, text] of [["UBL", ubl], ["FA(3)", fa3]] as const) {
  const bytes = new TextEncoder().encode(text);
  const doc = parseXml(bytes);
  const format = formatOf(doc.root)!;
  const schema = set.forFormat(format);
  const errors = validateXsd(schema, doc.root);
  if (errors.length > 0) throw new Error(`${name} bench invoice is not valid: ${errors[0]!.message}`);
  const parse = bestMicrosPerCall(() => parseXml(bytes), { budgetMs });
  const xsd = bestMicrosPerCall(() => validateXsd(schema, doc.root), { budgetMs });
  const all = bestMicrosPerCall(() => validateInvoice(bytes, parseXml(bytes), format, set), { budgetMs });
  console.log(`${name.padEnd(6)} ${(bytes.length / 1024).toFixed(1)} KB, ${lines} lines: parse ${parse.toFixed(0)} µs (baseline); XSD ${xsd.toFixed(0)} µs (${(xsd / parse).toFixed(2)}× the parse); parse + all checks ${all.toFixed(0)} µs`);
}
