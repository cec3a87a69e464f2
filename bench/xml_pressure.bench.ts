/**
 * Hostile XML against other tenants: a real server.ts child;
 * tenant "hostile" keeps eight 10 MB uploads of a `<Faktura>` with ~450,000
 * three-attribute elements in flight (each is refused, 422), while tenant
 * "calm" reads a cursor page of its documents one request after another. The
 * figures: the calm tenant's p50/p99 with and without the pressure (same run,
 * the baseline first), and the server's peak RSS. Goal: p99 ≤ 50 ms.
 *
 *   node --import tsx bench/xml_pressure.bench.ts [--duration=5s]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryOf, parseBenchArgs, printTable } from "./support.ts";
import { runCli, startChild } from "../test/support/child.ts";
import { fixturePath } from "../test/support/server.ts";

const opts = parseBenchArgs(process.argv.slice(2), { duration: 5, runs: 1 });
const UPLOADS = 8; // concurrent hostile uploads
const HOSTILE_BYTES = 10 * 1000 * 1000;
const GOAL_P99_MS = 50;

const head = '<?xml version="1.0" encoding="UTF-8"?><Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">';
const unit = '<a b="1" c="2" d="3"/>';
const HOSTILE = Buffer.from(head + unit.repeat(Math.floor((HOSTILE_BYTES - head.length - 11) / unit.length)) + "</Faktura>");

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function calmLatencies(url: string, token: string, seconds: number): Promise<number[]> {
  const out: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    const res = await fetch(`${url}/api/v1/documents?limit=50`, { headers: { "x-api-token": token } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`calm page answered ${res.status}`);
    out.push(performance.now() - t);
  }
  return out;
}

const data = mkdtempSync(join(tmpdir(), "xmlp-"));
const token = (tenant: string, scopes: string) => runCli(["token", "create", "--data", data, "--tenant", tenant, "--scopes", scopes]).stdout.trim();
const calm = token("calm", "documents:read,documents:write");
const hostile = token("hostile", "submissions:write");
mkdirSync(join(data, "inbox", "calm"), { recursive: true });
const sample = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
for (let i = 0; i < 200; i++) writeFileSync(join(data, "inbox", "calm", `C-${i}.xml`), sample.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>C-${i}</cbc:ID>`));
const server = await startChild(["--data", data, "--rate-limit", "off", "--demo", "off"]);
try {
  await fetch(`${server.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": calm } });
  for (let i = 0; i < 100; i++) {
    const page = (await (await fetch(`${server.url}/api/v1/documents?limit=500`, { headers: { "x-api-token": calm } })).json()) as { data: unknown[] };
    if (page.data.length >= 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`Node ${process.version}; hostile upload ${(HOSTILE.length / 1e6).toFixed(1)} MB, ${UPLOADS} in flight; ${opts.duration} s per phase`);
  const baseline = await calmLatencies(server.url, calm, opts.duration);
  let stop = false;
  const statuses = new Map<number, number>();
  const uploader = async (): Promise<void> => {
    while (!stop) {
      const form = new FormData();
      form.append("xml", new Blob([HOSTILE], { type: "application/xml" }), "hostile.xml");
      const res = await fetch(`${server.url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": hostile }, body: form });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  const uploads = Array.from({ length: UPLOADS }, uploader);
  await new Promise((r) => setTimeout(r, 500)); // the uploads are under way
  const pressed = await calmLatencies(server.url, calm, opts.duration);
  stop = true;
  await Promise.all(uploads);
  const mem = memoryOf(server.child.pid!);
  printTable(["phase", "requests", "p50 ms", "p99 ms", "max ms"], [
    ["calm alone (baseline)", String(baseline.length), percentile(baseline, 50).toFixed(1), percentile(baseline, 99).toFixed(1), Math.max(...baseline).toFixed(1)],
    [`with ${UPLOADS} hostile uploads`, String(pressed.length), percentile(pressed, 50).toFixed(1), percentile(pressed, 99).toFixed(1), Math.max(...pressed).toFixed(1)],
  ]);
  console.log(`hostile uploads answered: ${[...statuses].map(([s, n]) => `${n}× ${s}`).join(", ")}`);
  console.log(`server peak RSS ${mem ? mem.hwm.toFixed(0) : "?"} MiB (now ${mem ? mem.rss.toFixed(0) : "?"} MiB)`);
  const p99 = percentile(pressed, 99);
  console.log(`p99 under pressure ${p99.toFixed(1)} ms: ${p99 <= GOAL_P99_MS ? "within" : "OVER"} the ${GOAL_P99_MS} ms goal`);
} finally {
  server.child.kill("SIGTERM");
  await server.exited;
  rmSync(data, { recursive: true, force: true });
}
