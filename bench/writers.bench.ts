/**
 * Cost of writing an invoice (lib/formats/invoice/ubl_write.ts, cii_write.ts) against reading one: the invoice
 * object of the generated 30 KB UBL fixture (50 lines) written as UBL and as CII, beside parsing the same
 * document and parsing it into the invoice object, in the same run (README "Creating invoices": writing is
 * cheaper than reading). With `--peers`, also fast-xml-parser's XMLBuilder building the same UBL document from a
 * plain tree (not a dependency: installed on demand, with npm, into a directory under the system's temp folder).
 * Times are CPU time (user + system) of the best round.
 * Run: npx tsx bench/writers.bench.ts [--quick] [--peers]
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { writeCii } from "../lib/formats/invoice/cii_write.ts";
import { readInvoice } from "../lib/formats/invoice/read.ts";
import { writeUbl } from "../lib/formats/invoice/ubl_write.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import type { XmlElement } from "../lib/formats/xml/tree.ts";
import { ublInvoice } from "../test/fixtures/ubl_invoice.ts";
import { bestMicrosPerCall } from "./timing.ts";

const quick = process.argv.includes("--quick");
const peers = process.argv.includes("--peers");
const budgetMs = quick ? 300 : 1500;
/** The fast-xml-parser major version the comparison is made with. */
const FXP_VERSION = "5";

const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
const runtime = deno !== undefined ? `Deno ${deno.version.deno}` : `Node ${process.version}`;
console.log(`Invoice writers benchmark, ${runtime}${quick ? ", quick" : ""}, CPU time of the best of 3 rounds`);

const source = ublInvoice(50);
const sourceBytes = new TextEncoder().encode(source);
const invoice = readInvoice(parseXml(sourceBytes));
const ubl = writeUbl(invoice).xml;
const cii = writeCii(invoice).xml;
const us = (run: () => unknown): number => bestMicrosPerCall(run, { budgetMs, warmup: 20, clock: "cpu" });

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const parseSource = us(() => parseXml(sourceBytes));
const readSource = us(() => readInvoice(parseXml(sourceBytes)));
const ublBytes = new TextEncoder().encode(ubl);
const parseWritten = us(() => parseXml(ublBytes));
const writeU = us(() => writeUbl(invoice));
const writeC = us(() => writeCii(invoice));
const writeTraced = us(() => writeUbl(invoice, { trace: true }));

const rows: string[][] = [["what", "size", "µs per call", "vs parsing the 30 KB source"]];
const row = (what: string, size: number, t: number) => rows.push([what, kib(size), t.toFixed(0), `${(t / parseSource).toFixed(2)}x`]);
row("parse the source UBL (baseline)", sourceBytes.length, parseSource);
row("parse + read into the invoice object", sourceBytes.length, readSource);
row("parse the written UBL", ublBytes.length, parseWritten);
row("writeUbl(invoice)", ublBytes.length, writeU);
row("writeCii(invoice)", new TextEncoder().encode(cii).length, writeC);
row("writeUbl(invoice, { trace: true })", ublBytes.length, writeTraced);

if (peers) {
  const fxp = await _fastXmlParser();
  if (typeof fxp === "string") console.log(`(fast-xml-parser skipped: ${fxp})`);
  else {
    const tree = [_fxpNode(parseXml(ublBytes).root)];
    const builder = new fxp.XMLBuilder({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: true });
    const built = builder.build(tree) as string;
    const t = us(() => builder.build(tree));
    row(`fast-xml-parser ${fxp.version} XMLBuilder, plain tree`, new TextEncoder().encode(built).length, t);
    rows.push(["XMLBuilder / writeUbl", "", "", `${(t / writeU).toFixed(2)}x`]);
  }
}

const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));

/** An element in fast-xml-parser's preserveOrder form: `{ name: [children], ":@": { "@_attr": value } }`. */
function _fxpNode(el: XmlElement): Record<string, unknown> {
  const name = el.prefix ? `${el.prefix}:${el.local}` : el.local;
  const kids: unknown[] = el.children.length === 0 ? [{ "#text": el.text }] : el.children.map(_fxpNode);
  const node: Record<string, unknown> = { [name]: kids };
  if (el.attrs.length > 0) {
    const attrs: Record<string, string> = {};
    for (const a of el.attrs) attrs[`@_${a.prefix ? `${a.prefix}:` : ""}${a.local}`] = a.value;
    node[":@"] = attrs;
  }
  return node;
}

interface _Fxp {
  version: string;
  XMLBuilder: new (options: Record<string, unknown>) => { build(tree: unknown): unknown };
}

/** fast-xml-parser, installed with npm into a directory of the temp folder the first time; a reason when it cannot be. */
async function _fastXmlParser(): Promise<_Fxp | string> {
  const dir = join(tmpdir(), "einvoice-bench-peers");
  const pkg = join(dir, "node_modules", "fast-xml-parser", "package.json");
  if (!existsSync(pkg)) {
    mkdirSync(dir, { recursive: true });
    const r = spawnSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, `fast-xml-parser@${FXP_VERSION}`], { encoding: "utf8" });
    if (r.status !== 0) return `npm install failed: ${(r.stderr || String(r.error)).split("\n")[0]}`;
  }
  const require = createRequire(join(dir, "package.json"));
  const mod = await import(pathToFileURL(require.resolve("fast-xml-parser")).href) as { XMLBuilder: _Fxp["XMLBuilder"] };
  const version = (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
  return { version, XMLBuilder: mod.XMLBuilder };
}
