/**
 * Throughput of lib/formats/xml/parse.ts on generated UBL invoices (about 30 KB, 100 lines
 * and 2 MB), against a same-run `indexOf("<")` loop over the same string (the floor:
 * no parser can look at the text less) and the fast-xml-parser figure measured for
 * this project before it was ruled out (it is not a dependency). Also times parse
 * plus the invoice model (lib/formats/invoice/read.ts) when that module loads.
 * Run: npx tsx bench/xml.bench.ts [--quick]
 */

import process from "node:process";
import { parseXml } from "../lib/formats/xml/parse.ts";
import type { XmlDocument } from "../lib/formats/xml/tree.ts";
import { ublInvoice } from "../test/fixtures/ubl_invoice.ts";
import { bestMicrosPerCall } from "./timing.ts";

/** fast-xml-parser on this kind of invoice, as given in the project's brief (MB/s). */
const FAST_XML_PARSER_MBS = 6;
const quick = process.argv.includes("--quick");
const budgetMs = quick ? 300 : 1500;


let sink = 0;

/** The baseline: visit every '<' and nothing else. */
function scan(s: string): void {
  let p = s.indexOf("<");
  while (p >= 0) {
    sink++;
    p = s.indexOf("<", p + 1);
  }
}

/** What "parse + invoice model" runs after parsing; null when lib/formats/invoice/read.ts cannot be loaded. */
async function loadInvoiceModel(): Promise<((doc: XmlDocument) => unknown) | null> {
  try {
    const mod = await import("../lib/formats/invoice/read.ts");
    return mod.readInvoice;
  } catch (e) {
    console.log(`(parse + invoice model skipped: ${(e as Error).message.split("\n")[0]})`);
    return null;
  }
}

const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
const runtime = deno !== undefined ? `Deno ${deno.version.deno}` : `Node ${process.version}`;
console.log(`XML parser benchmark, ${runtime}${quick ? ", quick" : ""}`);
const model = await loadInvoiceModel();

const cases = [
  { what: "30 KB, 50 lines", text: ublInvoice(50) },
  { what: "100 lines", text: ublInvoice(100) },
  { what: "2 MB", text: ublInvoice(3700) },
];

/** MB/s of the best round (bytes per microsecond); 5 warm-up calls. */
const mbPerSecond = (bytes: number, run: () => unknown): number => bytes / bestMicrosPerCall(run, { budgetMs, warmup: 5 });

const rows: string[][] = [["invoice", "size", "indexOf scan", "parse (string)", "parse (bytes)", "parse + model", "scan / parse", "parse / fast-xml-parser"]];
for (const { what, text } of cases) {
  const bytes = new TextEncoder().encode(text);
  const size = bytes.length;
  const base = mbPerSecond(size, () => scan(text));
  const str = mbPerSecond(size, () => parseXml(text));
  const bin = mbPerSecond(size, () => parseXml(bytes));
  const full = model === null ? null : mbPerSecond(size, () => model(parseXml(text)));
  rows.push([
    what,
    `${(size / 1024).toFixed(0)} KiB`,
    `${base.toFixed(0)} MB/s`,
    `${str.toFixed(0)} MB/s`,
    `${bin.toFixed(0)} MB/s`,
    full === null ? "-" : `${full.toFixed(0)} MB/s`,
    `${(base / str).toFixed(1)}x`,
    `${(str / FAST_XML_PARSER_MBS).toFixed(1)}x`,
  ]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
if (sink < 0) console.log(sink);
