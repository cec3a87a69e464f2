/**
 * What `POST /api/v1/validate` of a 30 KB UBL invoice of many lines costs the server (README "Validation"; goal: under
 * a millisecond of CPU), against the same run's `/healthz`: a real server.ts child, requests one after another, and
 * the CPU time of each of the server's threads read from /proc before and after (Linux), per request. CPU time, not
 * wall-clock, because other work on the machine moves latencies far more than the CPU a request costs. Threads are
 * told apart by their names where the runtime gives them (Node 20 names them all "node": "other threads" is then
 * everything but the main thread). Also the verdict
 * alone in this process (parse + XML Schema + EN 16931 rules), the floor the endpoint can approach. The invoice is
 * the CEN's UBL example 1 (test/fixtures/samples/ubl/) with its lines repeated up to 30 KB, as an integrator outside
 * measured it: the repeated lines break the totals (BR-CO-10, BR-S-08), so the answer lists two errors.
 *
 *   node --import tsx bench/validate_cost.bench.ts [--requests 3000] [--warmup 300]
 */
import { readdirSync, readFileSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verdictOf } from "../lib/formats/validation/read_and_validate.ts";
import { schemaSetOf } from "../lib/formats/validation/schema_set.ts";
import { parseXml } from "../lib/formats/xml/parse.ts";
import { readSchemaFiles } from "../storage/schemas/schema_files.ts";
import { runCli, startChild } from "../test/support/child.ts";
import { printTable } from "./support.ts";

const args = process.argv.slice(2);
const REQUESTS = args.includes("--requests") ? Number(args[args.indexOf("--requests") + 1]) : 3000;
/** Requests before the measured ones: the JIT compiles the hot paths meanwhile, on V8's own threads. */
const WARMUP = args.includes("--warmup") ? Number(args[args.indexOf("--warmup") + 1]) : 300;
const GOAL_MS = 1;

const SAMPLE = new URL("../test/fixtures/samples/ubl/en16931_ubl-tc434-example1.xml", import.meta.url);
const LINE_END = "</cac:InvoiceLine>";

/** The sample with its invoice lines repeated, in their order, until the document is at least `size` characters. */
function manyLines(size: number): { xml: string; lines: number } {
  const xml = readFileSync(SAMPLE, "utf8");
  const first = xml.indexOf("<cac:InvoiceLine>");
  const end = xml.lastIndexOf(LINE_END) + LINE_END.length;
  const own = xml.slice(first, end).split(/(?<=<\/cac:InvoiceLine>)\s*/);
  const added: string[] = [];
  let length = xml.length;
  while (length < size) {
    const line = own[added.length % own.length]!;
    added.push(line);
    length += line.length + 5;
  }
  return { xml: `${xml.slice(0, end)}${added.map((l) => `\n    ${l}`).join("")}${xml.slice(end)}`, lines: own.length + added.length };
}

const { xml: ubl, lines } = manyLines(30_000);
const body = new TextEncoder().encode(ubl);

/** CPU ms of every thread of `pid` by name (user + system), from /proc. */
function threads(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const raw = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = raw.slice(raw.indexOf("(") + 1, raw.lastIndexOf(")"));
      const f = raw.slice(raw.lastIndexOf(") ") + 2).split(" ");
      const key = tid === String(pid) ? "main thread" : name === "WorkerThread" ? "invoice threads" : name === "V8Worker" ? "V8 helper threads (GC, compile)" : "other threads";
      out.set(key, (out.get(key) ?? 0) + ((Number(f[11]) + Number(f[12])) * 1000) / 100);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return out;
}

async function perRequest(pid: number, n: number, ask: () => Promise<Response>): Promise<Map<string, number>> {
  const before = threads(pid);
  for (let i = 0; i < n; i++) {
    const res = await ask();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`answered ${res.status}`);
  }
  const after = threads(pid);
  return new Map([...after].map(([k, v]) => [k, (v - (before.get(k) ?? 0)) / n]));
}

// The floor: the verdict alone, here, after warming up.
const schemas = schemaSetOf(readSchemaFiles());
for (let i = 0; i < 300; i++) verdictOf(body, schemas);
const c0 = process.cpuUsage();
for (let i = 0; i < 2000; i++) verdictOf(body, schemas);
const c1 = process.cpuUsage(c0);
const verdictMs = (c1.user + c1.system) / 1000 / 2000;
const p0 = process.cpuUsage();
for (let i = 0; i < 2000; i++) parseXml(body);
const p1 = process.cpuUsage(p0);
const parseMs = (p1.user + p1.system) / 1000 / 2000;

const data = mkdtempSync(join(tmpdir(), "validate-cost-"));
const token = runCli(["token", "create", "--data", data, "--tenant", "v", "--scopes", "submissions:write"]).stdout.trim();
const server = await startChild(["--data", data, "--rate-limit", "off", "--demo", "off"]);
const pid = server.child.pid!;
try {
  const healthz = () => fetch(`${server.url}/healthz`);
  const validate = () => fetch(`${server.url}/api/v1/validate`, { method: "POST", headers: { "x-api-token": token, "content-type": "application/xml" }, body });
  const multipart = () => {
    const form = new FormData();
    form.append("xml", new Blob([body]), "invoice.xml");
    return fetch(`${server.url}/api/v1/validate`, { method: "POST", headers: { "x-api-token": token }, body: form });
  };
  await perRequest(pid, WARMUP, validate); // warm-up: JIT, the threads, the schema types on first use
  await perRequest(pid, 300, healthz);
  const base = await perRequest(pid, REQUESTS, healthz);
  const xml = await perRequest(pid, REQUESTS, validate);
  const form = await perRequest(pid, REQUESTS, multipart);
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  console.log(`${process.release.name} ${process.version}; ${(body.length / 1000).toFixed(1)} KB UBL invoice (${lines} lines); ${REQUESTS} requests each, one after another`);
  console.log(`in this process: parse ${parseMs.toFixed(3)} ms, verdict (parse + XSD + EN 16931) ${verdictMs.toFixed(3)} ms of CPU`);
  const keys = [...new Set([...base.keys(), ...xml.keys(), ...form.keys()])].sort();
  printTable(["request", "server CPU ms", "over /healthz", ...keys], [
    ["GET /healthz (baseline)", total(base).toFixed(3), "", ...keys.map((k) => (base.get(k) ?? 0).toFixed(3))],
    ["POST /validate, application/xml", total(xml).toFixed(3), (total(xml) - total(base)).toFixed(3), ...keys.map((k) => (xml.get(k) ?? 0).toFixed(3))],
    ["POST /validate, multipart", total(form).toFixed(3), (total(form) - total(base)).toFixed(3), ...keys.map((k) => (form.get(k) ?? 0).toFixed(3))],
  ]);
  const over = total(xml) - total(base);
  console.log(`POST /validate over /healthz: ${over.toFixed(3)} ms of CPU, ${over < GOAL_MS ? "within" : "OVER"} the ${GOAL_MS} ms goal (${(over / verdictMs).toFixed(2)}× the verdict alone)`);
} finally {
  server.child.kill("SIGTERM");
  await server.exited;
  rmSync(data, { recursive: true, force: true });
}
