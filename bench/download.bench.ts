/**
 * GET /api/v1/documents/{id}/xml (README “Documents and the inbox”) for a 200 KB and a 10 MB XML file:
 * the real app in a child process pinned to one core, wrk pinned to the other.
 * Baselines (same run, same kind of child): bare node:http streaming the same file
 * with fs.createReadStream (the issue's baseline, ~2,400 req/s for 200 KB; target
 * ≥ 2× it), and, for 200 KB, bare node:http answering from a Buffer in memory (the
 * ceiling). Then 200 connections downloading the 10 MB file at once: the server's
 * resident memory, sampled during the load, next to createReadStream's.
 *
 *   npx tsx bench/download.bench.ts [--duration=10s] [--runs=2]
 * @module
 */
import { Buffer } from "node:buffer";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { generateToken } from "../lib/auth/tokens.ts";
import { FileStorage } from "../storage/file/store.ts";
import type { FileTenantStore } from "../storage/file/tenant.ts";
import {
  fmtMs, fmtRatio, fmtRps, memoryOf, parseBenchArgs, printEnvironment, printTable, requireWrk, runWrk, startChild,
  type ChildServer, type WrkResult,
} from "./support.ts";

const TENANT = "bench";
const CONNECTIONS = 50;
const MANY_CONNECTIONS = 200;
const XML_TYPE = "application/xml";
/** The issue's target: at least twice bare createReadStream for the 200 KB file. */
const TARGET_VS_STREAM = 2;

const opts = parseBenchArgs(process.argv.slice(2), { duration: 10, runs: 2 });

/** A UBL invoice of about `size` bytes: the header, then invoice lines until it is big enough. */
function ublInvoice(size: number): Uint8Array {
  const head = `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ` +
    `xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" ` +
    `xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">\n` +
    `<cbc:ID>INV-2026-000123</cbc:ID><cbc:IssueDate>2026-03-14</cbc:IssueDate><cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>` +
    `<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>\n`;
  const tail = "</Invoice>\n";
  const parts = [head];
  let len = head.length + tail.length;
  for (let i = 1; len < size; i++) {
    const line = `<cac:InvoiceLine><cbc:ID>${i}</cbc:ID><cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity>` +
      `<cbc:LineExtensionAmount currencyID="EUR">20.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Item ${i}</cbc:Name>` +
      `<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID>` +
      `</cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">10.00` +
      `</cbc:PriceAmount></cac:Price></cac:InvoiceLine>\n`;
    parts.push(line);
    len += line.length;
  }
  parts.push(tail);
  return new TextEncoder().encode(parts.join(""));
}

/** Seeds one document per file into a fresh store; returns the token and the document ids. */
async function seed(dir: string, files: Uint8Array[]): Promise<{ token: string; ids: string[] }> {
  const storage = new FileStorage(dir, { durable: false });
  const store = storage.tenant(TENANT) as FileTenantStore; // its bulk seeding (upsertDocumentSync) is the file store's own, not the contract's
  const ids: string[] = [];
  for (const [i, bytes] of files.entries()) {
    const xml = await store.putBlob(bytes);
    const { document } = store.upsertDocumentSync({
      source: "inbox", external_id: `big-${i}`, xml, received_at: "2026-03-14T09:00:00.000Z",
      fields: {
        type: "invoice", format: "ubl", number: `INV-2026-00012${i}`, issue_date: "2026-03-14", currency: "EUR",
        seller: { name: "Handel Berlin GmbH", tax_id: "DE123456789" }, buyer: { name: "Pakom Sp. z o.o.", tax_id: "5260250274" },
        totals: { net: "1000.00", tax: "190.00", gross: "1190.00" },
      },
    }, new Date().toISOString());
    ids.push(document.id);
  }
  const t = generateToken();
  await storage.tokens.create({
    key_id: t.keyId, tenant: TENANT, secret_sha256: t.secretSha256, scopes: ["documents:read"],
    created_at: new Date().toISOString(), expires_at: null, revoked_at: null,
  });
  storage.flush();
  await storage.close();
  return { token: t.token, ids };
}

interface Contender {
  name: string;
  url: string;
  runs: WrkResult[];
}

/** Interleaved wrk rounds over the contenders; every response must be 2xx. */
async function measure(contenders: Contender[], connections: number, headers: Record<string, string>): Promise<void> {
  for (const c of contenders) await runWrk(c.url, { connections, seconds: 1, headers, warmUp: true }); // warm-up
  for (let round = 0; round < opts.runs; round++) {
    for (const c of contenders) {
      const r = await runWrk(c.url, { connections, seconds: opts.duration, headers });
      if (r.errors > 0) throw new Error(`${c.name}: ${r.errors} errors or non-2xx responses`);
      c.runs.push(r);
    }
  }
}

function report(title: string, contenders: Contender[], baseline: Contender): void {
  const best = (c: Contender): number => Math.max(...c.runs.map((r) => r.rps));
  console.log(`\n## ${title}`);
  printTable(
    ["server", ...contenders[0]!.runs.map((_, i) => `req/s #${i + 1}`), "p99 ms (best)", "MiB/s (best)", `vs ${baseline.name}`],
    contenders.map((c) => [
      c.name, ...c.runs.map((r) => fmtRps(r.rps)), fmtMs(Math.min(...c.runs.map((r) => r.p99))),
      Math.max(...c.runs.map((r) => r.mibPerSec)).toFixed(0), fmtRatio(best(c) / best(baseline)),
    ]),
  );
}

/** Peak resident memory of a fresh child while `connections` clients download `url`, sampled every 200 ms. */
async function memoryUnderLoad(start: () => Promise<ChildServer>, path: string, headers: Record<string, string>): Promise<{ before: number; peak: number; hwm: number; rps: number }> {
  const child = await start();
  try {
    const before = memoryOf(child.pid)?.rss ?? NaN;
    let peak = before;
    const r = await runWrk(child.url + path, {
      connections: MANY_CONNECTIONS, seconds: opts.duration, headers,
      onTick: () => void (peak = Math.max(peak, memoryOf(child.pid)?.rss ?? NaN)),
    });
    if (r.errors > 0) throw new Error(`${r.errors} errors or non-2xx responses at ${MANY_CONNECTIONS} connections`);
    return { before, peak, hwm: memoryOf(child.pid)?.hwm ?? NaN, rps: r.rps };
  } finally {
    await child.stop();
  }
}

const wrkVersion = requireWrk();
printEnvironment(`GET /api/v1/documents/{id}/xml: ours vs bare node:http, wrk -t1 -d${opts.duration}s, ${opts.runs} interleaved runs`, wrkVersion);
const tmp = mkdtempSync(join(tmpdir(), "bench-download-"));
const children: ChildServer[] = [];
try {
  const small = ublInvoice(200 * 1024);
  const large = ublInvoice(10 * 1024 * 1024);
  const smallFile = join(tmp, "small.xml"), largeFile = join(tmp, "large.xml");
  writeFileSync(smallFile, small);
  writeFileSync(largeFile, large);
  const dataDir = join(tmp, "data");
  const { token, ids } = await seed(dataDir, [small, large]);
  const headers = { "x-api-token": token };
  const start = async (mode: "app" | "bytes" | "stream", args: string[]): Promise<ChildServer> => {
    const c = await startChild(mode, args);
    children.push(c);
    return c;
  };
  const app = await start("app", [dataDir]);
  for (const [i, bytes] of [small, large].entries()) {
    const res = await fetch(`${app.url}/api/v1/documents/${ids[i]}/xml`, { headers });
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200 || Buffer.compare(body, bytes) !== 0) throw new Error(`Download of document ${i} failed: ${res.status}, ${body.length} bytes`);
  }
  console.log(`files: ${small.length.toLocaleString("en-US")} B and ${large.length.toLocaleString("en-US")} B of UBL XML; ` +
    `wrk -c${CONNECTIONS} for throughput, -c${MANY_CONNECTIONS} for memory`);

  const smallStream = await start("stream", [smallFile, XML_TYPE]);
  const smallBytes = await start("bytes", [smallFile, XML_TYPE]);
  const small3: Contender[] = [
    { name: "ours", url: `${app.url}/api/v1/documents/${ids[0]}/xml`, runs: [] },
    { name: "createReadStream", url: `${smallStream.url}/small.xml`, runs: [] },
    { name: "bare from memory", url: `${smallBytes.url}/small.xml`, runs: [] },
  ];
  await measure(small3, CONNECTIONS, headers);
  report(`${(small.length / 1024).toFixed(0)} KiB file`, small3, small3[1]!);
  const oursSmall = Math.max(...small3[0]!.runs.map((r) => r.rps)), streamSmall = Math.max(...small3[1]!.runs.map((r) => r.rps));
  console.log(`target: ours ≥ ${TARGET_VS_STREAM}× createReadStream: ${fmtRatio(oursSmall / streamSmall)} ${oursSmall >= TARGET_VS_STREAM * streamSmall ? "ok" : "MISSED"}`);
  await smallStream.stop();
  await smallBytes.stop();

  const largeStream = await start("stream", [largeFile, XML_TYPE]);
  const large2: Contender[] = [
    { name: "ours", url: `${app.url}/api/v1/documents/${ids[1]}/xml`, runs: [] },
    { name: "createReadStream", url: `${largeStream.url}/large.xml`, runs: [] },
  ];
  await measure(large2, CONNECTIONS, headers);
  report(`${(large.length / 1024 / 1024).toFixed(0)} MiB file`, large2, large2[1]!);
  await largeStream.stop();
  await app.stop();

  console.log(`\n## Memory: ${MANY_CONNECTIONS} connections downloading the ${(large.length / 1024 / 1024).toFixed(0)} MiB file (fresh child each, VmRSS sampled every 200 ms)`);
  const rows: string[][] = [];
  for (let round = 0; round < opts.runs; round++) {
    for (const [name, startFn, path] of [
      ["ours", () => start("app", [dataDir]), `/api/v1/documents/${ids[1]}/xml`],
      ["createReadStream", () => start("stream", [largeFile, XML_TYPE]), "/large.xml"],
    ] as const) {
      const m = await memoryUnderLoad(startFn, path, headers);
      rows.push([`${name} #${round + 1}`, m.before.toFixed(0), m.peak.toFixed(0), m.hwm.toFixed(0), fmtRps(m.rps)]);
    }
  }
  printTable(["server", "RSS idle MiB", "RSS peak sampled MiB", "VmHWM MiB", "req/s"], rows);
} finally {
  for (const c of children) await c.stop();
  rmSync(tmp, { recursive: true, force: true });
}
