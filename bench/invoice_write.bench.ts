/**
 * Cost of writing an invoice object as FA(3) (lib/formats/invoice/ksef_write.ts) against the same-run cost of
 * reading the same document: our parser alone (parseXml) and parse + invoice model (readInvoiceXml). Input: the
 * FA_3_complex sample's invoice with its lines repeated to about 30 KB, and one of about 2 MB to show writing stays
 * linear. Also with `trace` (the field of every element recorded). CPU time, best of three rounds.
 * With `--peer`, fast-xml-parser's XMLBuilder building the same document from a plain tree (its own parse of our
 * output) is timed too: fast-xml-parser is not a dependency, so the bench installs it into a temporary directory
 * with npm for the run and removes it after.
 * Run: npx tsx bench/invoice_write.bench.ts [--quick] [--peer]
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { writeKsefFa3 } from "../lib/formats/invoice/ksef_write.ts";
import type { Invoice } from "../lib/formats/invoice/model.ts";
import { readInvoiceXml } from "../lib/formats/invoice/read_xml.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import { bestMicrosPerCall } from "./timing.ts";

const quick = process.argv.includes("--quick");
const peer = process.argv.includes("--peer");
const budgetMs = quick ? 300 : 1500;
const NOW = new Date("2026-02-02T10:00:00Z");

/** The FA_3_complex invoice with its lines repeated until the written XML is about `bytes` long. */
function invoiceOf(bytes: number): Invoice {
  const file = join(import.meta.dirname, "..", "test", "fixtures", "samples", "ksef-fa3", "FA_3_complex.xml");
  const inv = readInvoiceXml(readFileSync(file));
  const lines = inv.lines;
  const perLine = (writeKsefFa3(inv, { now: NOW }).xml.length - writeKsefFa3({ ...inv, lines: [] }, { now: NOW }).xml.length) / lines.length;
  const base = writeKsefFa3({ ...inv, lines: [] }, { now: NOW }).xml.length;
  const n = Math.max(lines.length, Math.round((bytes - base) / perLine));
  inv.lines = Array.from({ length: n }, (_, i) => ({ ...lines[i % lines.length]!, number: String(i + 1) }));
  return inv;
}

interface Builder { build(tree: unknown): string }

/** fast-xml-parser's parser and builder, installed for this run only; null when npm cannot install it. */
function loadPeer(): { dir: string; load: Promise<{ tree(xml: string): unknown; builder: Builder; version: string }> } | null {
  const dir = mkdtempSync(join(tmpdir(), "fxp-"));
  const r = spawnSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--silent", "fast-xml-parser@5"], { encoding: "utf8" });
  if (r.status !== 0) {
    console.log(`(XMLBuilder skipped: npm install fast-xml-parser failed: ${r.stderr.split("\n")[0]})`);
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const root = join(dir, "node_modules", "fast-xml-parser");
  const load = import(pathToFileURL(join(root, "src", "fxp.js")).href).catch(() => import(pathToFileURL(root).href)).then((m) => {
    const options = { ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false, trimValues: false };
    const parser = new m.XMLParser(options);
    const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version as string;
    return { tree: (xml: string) => parser.parse(xml), builder: new m.XMLBuilder(options) as Builder, version };
  });
  return { dir, load };
}

const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
const runtime = deno !== undefined ? `Deno ${deno.version.deno}` : `Node ${process.version}`;
const fxpInstall = peer ? loadPeer() : null;
const fxp = fxpInstall === null ? null : await fxpInstall.load;
console.log(`FA(3) writer benchmark, ${runtime}${quick ? ", quick" : ""}${fxp ? `, fast-xml-parser ${fxp.version}` : ""}`);

const time = (run: () => unknown): number => bestMicrosPerCall(run, { budgetMs, warmup: 20, clock: "cpu" });
const rows: string[][] = [[
  "invoice", "size", "parse", "parse + model", "write", "write to bytes", "write + trace", "write / parse", "write to bytes / (parse + model)",
  ...(fxp ? ["XMLBuilder", "XMLBuilder / write"] : []),
]];
for (const { what, bytes } of [{ what: "FA(3) 30 KB", bytes: 30_000 }, { what: "FA(3) 2 MB", bytes: 2_000_000 }]) {
  const inv = invoiceOf(bytes);
  const xml = writeKsefFa3(inv, { now: NOW }).xml;
  const data = new TextEncoder().encode(xml);
  const parse = time(() => parseXml(data));
  const read = time(() => readInvoiceXml(data));
  // The string is flattened (one character read), as its first use would: the writer's cost includes joining it.
  const write = time(() => writeKsefFa3(inv, { now: NOW }).xml.charCodeAt(100));
  const encoder = new TextEncoder();
  const toBytes = time(() => encoder.encode(writeKsefFa3(inv, { now: NOW }).xml));
  const traced = time(() => writeKsefFa3(inv, { now: NOW, trace: true }));
  const row = [
    `${what} (${inv.lines.length} lines)`, `${(data.length / 1024).toFixed(0)} KiB`, `${parse.toFixed(0)} µs`, `${read.toFixed(0)} µs`,
    `${write.toFixed(0)} µs`, `${toBytes.toFixed(0)} µs`, `${traced.toFixed(0)} µs`, `${(write / parse).toFixed(2)}`, `${(toBytes / read).toFixed(2)}`,
  ];
  if (fxp) {
    const tree = fxp.tree(xml);
    const built = time(() => fxp.builder.build(tree).charCodeAt(100));
    row.push(`${built.toFixed(0)} µs`, `${(built / write).toFixed(1)}x`);
  }
  rows.push(row);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
if (fxpInstall !== null) rmSync(fxpInstall.dir, { recursive: true, force: true });
