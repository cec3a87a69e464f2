/**
 * Parse + XML Schema validation, ours against libxml2 in the same process on the same bytes
 * (README "Tests and benchmarks"): a ~30 KB UBL invoice and a ~30 KB FA(3) invoice, checked by
 *  - ours: `parseXml` + `validateXsd` against the schema compiled once (SchemaSet);
 *  - libxmljs2 (native libxml2 binding): `parseXml` + `Document.validate`. Its API has no
 *    compiled-schema object: every `validate` compiles the schema again (xmlSchemaParse, imports
 *    read from disk), so the bench also times `validate` of a one-element document, which is that
 *    compilation and an immediate failure at the root, in alternating pairs with the real one, and
 *    gives the median difference as the per-call figure with the schema reused when it stands out of
 *    its spread (the compilation is 10–140 ms on these schemas, the validation a millisecond or two);
 *  - xmllint-wasm (libxml2's xmllint compiled to WebAssembly): one call is a worker running
 *    `xmllint --schema`, which compiles the schema once and then checks every file it is given;
 *    the per-call figure with the schema reused is the marginal cost of one more file,
 *    (T(MANY files) − T(FEW files)) / (MANY − FEW).
 * Times are CPU time of the process (all its threads), best of a few rounds.
 * Also printed: the parse alone (ours and libxmljs2's), and, for reference only as it runs out of process,
 * the native `xmllint` (libxml2-utils) per-file CPU time by the same many-files difference.
 * Both libxml2 sides load the same shipped files (storage/schemas, copied by test/support/xsd_oracle.ts
 * with KSeF's http:// imports pointed at the local copies, as the agreement test does for xmllint).
 * Each side's verdict on the valid invoice and on a broken one (a required element removed) is
 * printed, and the bench fails if they differ. Either library missing: that side is skipped.
 *   npx tsx bench/xsd_compare.bench.ts [--quick]
 */
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { SchemaSet } from "../lib/formats/validation/schema_set.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import { validateXsd } from "../lib/formats/xsd/validate.ts";
import { readSchemaFiles } from "../storage/schemas/schema_files.ts";
import { ublInvoice } from "../test/fixtures/ubl_invoice.ts";
import { oracleSchemas } from "../test/support/xsd_oracle.ts";

const quick = process.argv.includes("--quick");
/** Per figure; with three sides, two invoices and two figures for each library the whole run stays under ~60 s. */
const budgetMs = quick ? 300 : 1000;
/** Files per xmllint call (wasm and native) for the marginal figure, (T(many) − T(few)) / (many − few):
 * enough that the per-file cost dominates the fixed cost (worker, wasm instantiation, schema compile) and its noise. */
const FEW = 10;
const MANY = quick ? 60 : 200;

interface LibxmlDoc {
  validate(xsd: LibxmlDoc): boolean;
  validationErrors: { message: string }[];
}
interface Libxmljs {
  parseXml(source: string | Uint8Array, options?: { baseUrl?: string }): LibxmlDoc;
  libxml_version: string;
}
interface WasmResult { valid: boolean; errors: readonly { message: string }[] }
interface XmllintWasm {
  validateXML(o: { xml: { fileName: string; contents: Uint8Array }[]; schema: { fileName: string; contents: Uint8Array }; preload: { fileName: string; contents: Uint8Array }[]; maxMemoryPages: number }): Promise<WasmResult>;
}

const require = createRequire(import.meta.url);
function optional<T>(name: string): T | null {
  try {
    return require(name) as T;
  } catch (e) {
    console.log(`${name}: not installed or not loadable (${(e as Error).message.split("\n")[0]}); skipped`);
    return null;
  }
}

/** CPU time of this process (every thread: the xmllint-wasm worker and V8's helpers count), in milliseconds.
 * CPU rather than wall time because this machine's 2 cores are shared: waiting for a core is not work. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Best CPU microseconds per call over three rounds of `budgetMs / 3` each, after a warm-up of up to 20 calls. */
function perCall(run: () => unknown): number {
  const warm = performance.now();
  for (let i = 0; i < 20 && performance.now() - warm < budgetMs / 4; i++) run();
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    let n = 0;
    const start = performance.now();
    const c0 = cpuMs();
    while (performance.now() - start < budgetMs / 3 || n < 2) {
      run();
      n++;
    }
    best = Math.min(best, ((cpuMs() - c0) * 1000) / n);
  }
  return best;
}

/** Best CPU milliseconds of an async call over `rounds` runs (after one warm-up). */
async function bestMs(rounds: number, run: () => Promise<unknown>): Promise<number> {
  await run();
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const c0 = cpuMs();
    await run();
    best = Math.min(best, cpuMs() - c0);
  }
  return best;
}

function invoices(): { name: string; text: string; broken: string; family: "ubl" | "fa3" }[] {
  // The same documents as bench/validation.bench.ts: FA_3_complex.xml grown line by line, and a generated UBL invoice.
  const fa3Text = readFileSync(new URL("../test/fixtures/samples/ksef-fa3/FA_3_complex.xml", import.meta.url), "utf8");
  const line = /<FaWiersz>[\s\S]*?<\/FaWiersz>/.exec(fa3Text)![0];
  let fa3 = fa3Text;
  for (let n = 2; fa3.length < 30_000; n++) fa3 = fa3.replace("</FaWiersz>\n", `</FaWiersz>\n${line.replace(/<NrWierszaFa>\d+/, `<NrWierszaFa>${n}`)}\n`);
  let lines = 10;
  let ubl = ublInvoice(lines);
  while (ubl.length < 30_000) ubl = ublInvoice(++lines);
  return [
    { name: "UBL", text: ubl, broken: ubl.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, ""), family: "ubl" },
    { name: "FA(3)", text: fa3, broken: fa3.replace(/<P_1>[^<]*<\/P_1>/, ""), family: "fa3" },
  ];
}

/** CPU milliseconds of one `xmllint --noout --schema` run over `n` copies of the document (bash's `times` gives the child's). */
function nativeRun(entry: string, file: string, n: number): number {
  const files = Array.from({ length: n }, () => `'${file}'`).join(" ");
  const r = spawnSync("bash", ["-c", `xmllint --noout --schema '${entry}' ${files} 2>/dev/null; times`], { encoding: "utf8" });
  const children = r.stdout.trim().split("\n")[1] ?? "";
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return secs.length === 2 ? (secs[0]! + secs[1]!) * 1000 : NaN;
}

/** Native xmllint's per-file CPU microseconds with the schema compiled once, or null without xmllint (libxml2-utils). */
function nativeMarginal(entry: string, bytes: Uint8Array, dir: string): number | null {
  if (spawnSync("xmllint", ["--version"]).status !== 0) return null;
  const file = join(dir, "bench_doc.xml");
  writeFileSync(file, bytes);
  let few = Infinity;
  let many = Infinity;
  for (let i = 0; i < 3; i++) {
    few = Math.min(few, nativeRun(entry, file, FEW));
    many = Math.min(many, nativeRun(entry, file, MANY));
  }
  const us = ((many - few) * 1000) / (MANY - FEW);
  return Number.isFinite(us) ? us : null;
}

const ratio = (a: number, b: number): string => `${(a / b).toPrecision(2)}×`;

interface Case { bytes: Uint8Array; broken: Uint8Array; entry: string; dir: string; ours: number }

/** Median CPU microseconds of `a` minus `b`, timed in alternating pairs for `budgetMs`, and the spread (interquartile range). */
function pairedDiff(a: () => unknown, b: () => unknown): { median: number; iqr: number } {
  const diffs: number[] = [];
  const start = performance.now();
  while (performance.now() - start < budgetMs || diffs.length < 5) {
    const c0 = cpuMs();
    a();
    const c1 = cpuMs();
    b();
    diffs.push((c1 - c0 - (cpuMs() - c1)) * 1000);
  }
  diffs.sort((x, y) => x - y);
  const q = (f: number): number => diffs[Math.floor(f * (diffs.length - 1))]!;
  return { median: q(0.5), iqr: q(0.75) - q(0.25) };
}

/** libxmljs2's lines and verdict. */
function libxmljsSide(lib: Libxmljs, c: Case, out: string[], verdicts: string[]): void {
  const xsd = lib.parseXml(readFileSync(c.entry), { baseUrl: c.entry });
  const check = (b: Uint8Array): boolean => lib.parseXml(b).validate(xsd);
  verdicts.push(`libxmljs2 ${check(c.bytes)}/${check(c.broken)}`);
  const stub = new TextEncoder().encode("<x/>");
  const full = perCall(() => check(c.bytes));
  const compile = perCall(() => check(stub));
  const diff = pairedDiff(() => check(c.bytes), () => check(stub));
  const oursParse = perCall(() => parseXml(c.bytes));
  const theirParse = perCall(() => lib.parseXml(c.bytes));
  out.push(`parse alone: ours ${oursParse.toFixed(0)} µs, libxmljs2 ${theirParse.toFixed(0)} µs (${ratio(oursParse, theirParse)})`);
  const asIs = `${ratio(c.ours, full)} (its API as is)`;
  // A median difference smaller than its own spread is noise on shared cores: say so rather than divide by it.
  out.push(diff.median <= diff.iqr
    ? `libxmljs2 ${full.toFixed(0)} µs a call, schema compile alone ${compile.toFixed(0)} µs; validation (paired median) ${diff.median.toFixed(0)} ± ${diff.iqr.toFixed(0)} µs, within the noise; ours/libxmljs2 ${asIs}`
    : `libxmljs2 ${full.toFixed(0)} µs a call, schema compile alone ${compile.toFixed(0)} µs; validation (paired median) ${diff.median.toFixed(0)} µs (IQR ${diff.iqr.toFixed(0)}): ours/libxmljs2 ${ratio(c.ours, diff.median)} (schema reused), ${asIs}`);
}

/** xmllint-wasm's lines and verdict. */
async function wasmSide(wasm: XmllintWasm, c: Case, family: "ubl" | "ksef", out: string[], verdicts: string[]): Promise<void> {
  const folder = family === "ubl" ? "ubl-2.1" : "ksef-fa";
  const preload: { fileName: string; contents: Uint8Array }[] = [];
  for (const f of readSchemaFiles()[family]) {
    const rel = `${folder}/${f.path}`;
    if (join(c.dir, rel) !== c.entry) preload.push({ fileName: rel, contents: readFileSync(join(c.dir, rel)) });
  }
  const schemaFile = { fileName: c.entry.slice(c.dir.length + 1), contents: readFileSync(c.entry) };
  const run = (docs: Uint8Array[]): Promise<WasmResult> =>
    wasm.validateXML({ xml: docs.map((contents, i) => ({ fileName: `doc_${i}.xml`, contents })), schema: schemaFile, preload, maxMemoryPages: 16 * 256 });
  verdicts.push(`xmllint-wasm ${(await run([c.bytes])).valid}/${(await run([c.broken])).valid}`);
  const one = await bestMs(2, () => run([c.bytes]));
  const few = await bestMs(2, () => run(Array.from({ length: FEW }, () => c.bytes)));
  const many = await bestMs(2, () => run(Array.from({ length: MANY }, () => c.bytes)));
  const marginal = ((many - few) * 1000) / (MANY - FEW);
  out.push(`xmllint-wasm one call ${one.toFixed(0)} ms (worker + schema compile + 1 file); ${FEW} files ${few.toFixed(0)} ms, ${MANY} files ${many.toFixed(0)} ms, so ${marginal.toFixed(0)} µs a file with the schema reused: ours/xmllint-wasm ${ratio(c.ours, marginal)} (schema reused), ${ratio(c.ours, one * 1000)} (one call)`);
}

async function main(): Promise<void> {
  const lib = optional<Libxmljs>("libxmljs2");
  const wasm = optional<XmllintWasm>("xmllint-wasm");
  console.log(`${process.release.name} ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; ${cpus().length} CPUs; budget ${budgetMs} ms per figure`);
  if (lib) console.log(`libxmljs2 ${(require("libxmljs2/package.json") as { version: string }).version}, libxml2 ${lib.libxml_version}`);
  if (wasm) console.log(`xmllint-wasm ${(require("xmllint-wasm/package.json") as { version: string }).version} (its libxml2 is 2.13.8)`);

  const set = new SchemaSet(readSchemaFiles());
  const copy = oracleSchemas(new URL("../storage/schemas/", import.meta.url).pathname);
  try {
    for (const inv of invoices()) {
      const bytes = new TextEncoder().encode(inv.text);
      const broken = new TextEncoder().encode(inv.broken);
      const schema = set.forFormat(inv.family === "ubl" ? "ubl" : "ksef-fa3");
      const oursVerdict = (b: Uint8Array): boolean => validateXsd(schema, parseXml(b).root).length === 0;
      const expected = `${oursVerdict(bytes)}/${oursVerdict(broken)}`;
      const verdicts: string[] = [`ours ${expected}`];
      const ours = perCall(() => validateXsd(schema, parseXml(bytes).root));
      const c: Case = { bytes, broken, entry: inv.family === "ubl" ? copy.entry.ublInvoice : copy.entry.fa3, dir: copy.dir, ours };
      const out = [`${inv.name.padEnd(6)} ${(bytes.length / 1024).toFixed(1)} KB: ours parse + XSD ${ours.toFixed(0)} µs`];
      if (lib) libxmljsSide(lib, c, out, verdicts);
      if (wasm) await wasmSide(wasm, c, inv.family === "ubl" ? "ubl" : "ksef", out, verdicts);
      const native = nativeMarginal(c.entry, bytes, copy.dir);
      if (native) out.push(`(out of process, for reference) native xmllint: ${native.toFixed(0)} µs a file with the schema reused: ours/xmllint ${ratio(ours, native)}`);
      console.log(`${out.join("\n  ")}\n  verdicts (valid/broken): ${verdicts.join(", ")}`);
      for (const v of verdicts) if (!v.endsWith(` ${expected}`)) throw new Error(`${inv.name}: verdicts differ: ${verdicts.join(", ")}`);
    }
  } finally {
    copy.dispose();
  }
  console.log(`load average at the end ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

await main();
