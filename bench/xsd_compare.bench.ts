/**
 * Parse + XML Schema validation, ours against libxml2 in the same process on the same bytes
 * (README "Tests and benchmarks"): a ~30 KB UBL invoice and a ~30 KB FA(3) invoice, checked by
 *  - ours: `parseXml` + `validateXsd` against the schema compiled once (SchemaSet);
 *  - libxmljs2 (native libxml2 binding): `parseXml` + `Document.validate`. Its API has no
 *    compiled-schema object: every `validate` compiles the schema again (xmlSchemaParse, imports
 *    read from disk), so the bench also times `validate` of a one-element document, which is that
 *    compilation and an immediate failure at the root, and gives the difference as the per-call
 *    figure with the schema reused when it stands out of the compilation's noise (on these
 *    schemas it mostly does not: the compilation is 10–140 ms, the validation a millisecond or two);
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
import { loadavg } from "node:os";
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

async function main(): Promise<void> {
  const lib = optional<Libxmljs>("libxmljs2");
  const wasm = optional<XmllintWasm>("xmllint-wasm");
  const wasmPkg = wasm ? (require("xmllint-wasm/package.json") as { version: string }).version : "";
  console.log(`${process.release.name} ${process.version}; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; ${require("node:os").cpus().length} CPUs; budget ${budgetMs} ms per figure`);
  if (lib) console.log(`libxmljs2 ${(require("libxmljs2/package.json") as { version: string }).version}, libxml2 ${lib.libxml_version}`);
  if (wasm) console.log(`xmllint-wasm ${wasmPkg} (its libxml2 is 2.13.8)`);

  const set = new SchemaSet(readSchemaFiles());
  const copy = oracleSchemas(new URL("../storage/schemas/", import.meta.url).pathname);
  try {
    for (const inv of invoices()) {
      const bytes = new TextEncoder().encode(inv.text);
      const brokenBytes = new TextEncoder().encode(inv.broken);
      const entry = inv.family === "ubl" ? copy.entry.ublInvoice : copy.entry.fa3;
      const schema = set.forFormat(inv.family === "ubl" ? "ubl" : "ksef-fa3");
      const oursVerdict = (b: Uint8Array): boolean => validateXsd(schema, parseXml(b).root).length === 0;
      const verdicts: string[] = [`ours ${oursVerdict(bytes)}/${oursVerdict(brokenBytes)}`];
      const expected = `${oursVerdict(bytes)}/${oursVerdict(brokenBytes)}`;
      const ours = perCall(() => validateXsd(schema, parseXml(bytes).root));
      const out = [`${inv.name.padEnd(6)} ${(bytes.length / 1024).toFixed(1)} KB: ours parse + XSD ${ours.toFixed(0)} µs`];

      if (lib) {
        const xsd = lib.parseXml(readFileSync(entry), { baseUrl: entry });
        const check = (b: Uint8Array): boolean => lib.parseXml(b).validate(xsd);
        verdicts.push(`libxmljs2 ${check(bytes)}/${check(brokenBytes)}`);
        const stub = new TextEncoder().encode("<x/>");
        const full = perCall(() => lib.parseXml(bytes).validate(xsd));
        const compile = perCall(() => lib.parseXml(stub).validate(xsd));
        const oursParse = perCall(() => parseXml(bytes));
        const theirParse = perCall(() => lib.parseXml(bytes));
        out.push(`parse alone: ours ${oursParse.toFixed(0)} µs, libxmljs2 ${theirParse.toFixed(0)} µs (${ratio(oursParse, theirParse)})`);
        // A difference within a tenth of the compilation is noise on shared cores: say so rather than divide by it.
        const reused = full - compile > compile / 10 ? full - compile : null;
        const asIs = `${ratio(ours, full)} (its API as is)`;
        out.push(reused === null
          ? `libxmljs2 ${full.toFixed(0)} µs a call, schema compile alone ${compile.toFixed(0)} µs: the validation is below the noise of the compilation; ours/libxmljs2 ${asIs}`
          : `libxmljs2 ${full.toFixed(0)} µs a call of which schema compile ${compile.toFixed(0)} µs, so ${reused.toFixed(0)} µs with it reused: ours/libxmljs2 ${ratio(ours, reused)} (schema reused), ${asIs}`);
      }
      if (wasm) {
        const root = copy.dir;
        const preload: { fileName: string; contents: Uint8Array }[] = [];
        const family = inv.family === "ubl" ? "ubl-2.1" : "ksef-fa";
        for (const f of readSchemaFiles()[inv.family === "ubl" ? "ubl" : "ksef"]) {
          const rel = `${family}/${f.path}`;
          if (join(root, rel) !== entry) preload.push({ fileName: rel, contents: readFileSync(join(root, rel)) });
        }
        const schemaFile = { fileName: entry.slice(root.length + 1), contents: readFileSync(entry) };
        const run = (docs: Uint8Array[]): Promise<WasmResult> =>
          wasm.validateXML({ xml: docs.map((contents, i) => ({ fileName: `doc_${i}.xml`, contents })), schema: schemaFile, preload, maxMemoryPages: 16 * 256 });
        verdicts.push(`xmllint-wasm ${(await run([bytes])).valid}/${(await run([brokenBytes])).valid}`);
        const one = await bestMs(2, () => run([bytes]));
        const few = await bestMs(2, () => run(Array.from({ length: FEW }, () => bytes)));
        const many = await bestMs(2, () => run(Array.from({ length: MANY }, () => bytes)));
        const marginal = ((many - few) * 1000) / (MANY - FEW);
        out.push(`xmllint-wasm one call ${one.toFixed(0)} ms (worker + schema compile + 1 file); ${FEW} files ${few.toFixed(0)} ms, ${MANY} files ${many.toFixed(0)} ms, so ${marginal.toFixed(0)} µs a file with the schema reused: ours/xmllint-wasm ${ratio(ours, marginal)} (schema reused), ${ratio(ours, one * 1000)} (one call)`);
      }
      const native = nativeMarginal(entry, bytes, copy.dir);
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
