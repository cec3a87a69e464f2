/**
 * Reading the invoice out of a 1.1 MB Factur-X PDF (the ZUGFeRD corpus's XML-Rechnung_FX_EN16931_Elektron.pdf:
 * factur-x.xml beside an embedded PNG and PDF, three revisions) with lib/formats/pdf/read/, against poppler's
 * `pdfdetach -save` on the same file in the same run. Both as CPU time (user + system): ours in this process
 * per call, pdfdetach's per process from /proc/self/stat's children times (cutime + cstime), so startup is part
 * of its figure; `pdfdetach -list` (start, read the xref and the name tree, extract nothing) shows how much.
 * Also the same file rewritten by qpdf with object streams, with its startxref broken (both readers scan), and a same-run floor: one Buffer.indexOf pass over
 * the file. The extracted bytes are checked to be identical first. Reported as ratios.
 * Run: npx tsx bench/pdf_embedded.bench.ts [--quick]
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { extractEmbeddedInvoice } from "../lib/formats/pdf/read/embedded_invoice.ts";
import { bestMicrosPerCall } from "./timing.ts";

const quick = process.argv.includes("--quick");
const budgetMs = quick ? 300 : 1500;
const RUNS = quick ? 10 : 40; // pdfdetach processes per figure
const FILE = join(import.meta.dirname, "..", "test", "fixtures", "facturx", "XML-Rechnung_FX_EN16931_Elektron.pdf");
const dir = mkdtempSync(join(tmpdir(), "pdf-embedded-bench-"));

const runtime = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined" ? "Deno" : `Node ${process.version}`;
console.log(`${runtime}; ours: best of 3 rounds over ${budgetMs} ms, process CPU time; pdfdetach: ${RUNS} processes, children's CPU time`);

/** CPU seconds of this process's waited-for children (Linux /proc; clock ticks of 1/100 s). */
function childrenCpuMs(): number {
  const stat = readFileSync("/proc/self/stat", "latin1");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 16 and 17 of proc(5) (cutime, cstime) are at 13 and 14 after the command name.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function pdfdetachMs(args: string[]): number {
  const before = childrenCpuMs();
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync("pdfdetach", args);
    if (r.status !== 0) throw new Error(`pdfdetach ${args.join(" ")}: ${String(r.stderr)}`);
  }
  return (childrenCpuMs() - before) / RUNS;
}

function measure(label: string, path: string): void {
  const pdf = readFileSync(path);
  const ours = extractEmbeddedInvoice(pdf);
  if (ours === null) throw new Error(`${label}: no invoice found`);
  const list = spawnSync("pdfdetach", ["-list", path], { encoding: "latin1" });
  const index = list.stdout.split("\n").find((l) => l.endsWith(`: ${ours.filename}`))?.split(":")[0];
  if (index === undefined) throw new Error(`${label}: pdfdetach does not list ${ours.filename}`);
  const out = join(dir, "out.xml");
  spawnSync("pdfdetach", ["-save", index, "-o", out, path]);
  if (!Buffer.from(ours.xml).equals(readFileSync(out))) throw new Error(`${label}: our bytes differ from pdfdetach's`);

  const oursUs = bestMicrosPerCall(() => extractEmbeddedInvoice(pdf), { budgetMs, warmup: 20, clock: "cpu" });
  // A pattern that is not in the file: indexOf has to look at every byte.
  let sink = 0;
  const floorUs = bestMicrosPerCall(() => { sink += pdf.indexOf("%%NOT-IN-THE-FILE%%"); }, { budgetMs: budgetMs / 3, warmup: 20, clock: "cpu" });
  if (sink > 0) throw new Error("the floor's pattern is in the file");
  const saveMs = pdfdetachMs(["-save", index, "-o", out, path]);
  const listMs = pdfdetachMs(["-list", path]);
  console.log(`\n${label}: ${(pdf.length / 1024 / 1024).toFixed(2)} MB, ${ours.filename} ${ours.xml.length} bytes (identical to pdfdetach's)`);
  console.log(`  extractEmbeddedInvoice()       ${(oursUs / 1000).toFixed(3).padStart(8)} ms CPU per call`);
  console.log(`  pdfdetach -save (one process)  ${saveMs.toFixed(3).padStart(8)} ms CPU per process   ours / pdfdetach = ${(oursUs / 1000 / saveMs).toFixed(3)}`);
  console.log(`  pdfdetach -list (one process)  ${listMs.toFixed(3).padStart(8)} ms CPU per process   (its start-up and xref reading; -save minus -list ≈ ${Math.max(0, saveMs - listMs).toFixed(2)} ms, at 10 ms tick resolution over ${RUNS} runs)`);
  console.log(`  floor: Buffer.indexOf pass     ${(floorUs / 1000).toFixed(3).padStart(8)} ms CPU per call      ours / floor = ${(oursUs / floorUs).toFixed(1)}`);
}

if (spawnSync("pdfdetach", ["-v"]).error !== undefined) {
  console.log("pdfdetach is not installed (Debian: apt-get install poppler-utils): nothing to compare against");
  process.exit(0);
}
try {
  measure("Elektron (xref tables, 3 revisions)", FILE);
  if (spawnSync("qpdf", ["--version"]).error === undefined) {
    const rewritten = join(dir, "objstm.pdf");
    spawnSync("qpdf", ["--object-streams=generate", FILE, rewritten]);
    measure("Elektron rewritten by qpdf (object streams, xref stream)", rewritten);
  }
  // The last startxref pointing at byte 0: both readers rebuild the cross-reference data by scanning.
  const text = readFileSync(FILE).toString("latin1");
  const at = text.lastIndexOf("startxref");
  const broken = join(dir, "broken.pdf");
  writeFileSync(broken, Buffer.from(text.slice(0, at) + text.slice(at).replace(/startxref(\s+)(\d+)/, (_, ws: string, n: string) => `startxref${ws}${"0".repeat(n.length)}`), "latin1"));
  measure("Elektron with a broken startxref (read by scanning)", broken);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
