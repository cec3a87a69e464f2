/**
 * Big uploads against other tenants: a real server.ts child. Tenant "calm" reads a cursor page of its documents and
 * another client asks `/healthz`, one request after another, while tenant "big" uploads (a) a 9 MB FA(3), refused
 * (422: over KSeF's 1,000,000-byte file limit), one after another, or (b) six hostile 8 MB XML documents at once
 * (deep nesting, many attributes, a huge text), each refused. The uploads come from a process of their own
 * (bench/support_uploader.ts), as another tenant's would: sent from this one, their megabytes would delay this
 * process's own timers and sockets, and the calm figures would measure the client. The figures: the calm GET's p50/p99/max and
 * `/healthz`'s max in each phase against the same run's baseline without uploads, and the CPU the server's main
 * thread (the event loop) spent per upload, which, unlike the latencies, other work on the machine does not move.
 * Goals: calm p99 ≤ 50 ms and /healthz max ≤ 100 ms in both.
 *
 *   node --import tsx bench/upload_pressure.bench.ts [--duration=5s]
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fmtRatio, parseBenchArgs, printTable } from "./support.ts";
import { runCli, startChild } from "../test/support/child.ts";
import { fixturePath } from "../test/support/server.ts";
import { minimalLinesKsef } from "../test/support/large_invoice.ts";
import { withAttributes, withLongText, withNesting } from "../test/support/large_inputs.ts";

const opts = parseBenchArgs(process.argv.slice(2), { duration: 5, runs: 1 });
const GOAL_P99_MS = 50;
const GOAL_HEALTHZ_MAX_MS = 100;
const BIG = minimalLinesKsef(9_000_000, "BIG/1");
const HOSTILE = [withNesting("ksef-fa3", 1_100_000), withAttributes("ksef-fa3", 350_000, 1000), withLongText("ksef-fa3", "x".repeat(8_000_000))];

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/** CPU ms of one thread of a process (the main thread's id is the process id), from /proc (null off Linux). */
function threadCpuMs(pid: number, tid = pid): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - t;
}

/** The calm tenant's GETs and /healthz, each one after another, for `seconds`. */
async function calmPhase(url: string, token: string, seconds: number): Promise<{ calm: number[]; healthz: number[] }> {
  const until = performance.now() + seconds * 1000;
  const calm: number[] = [];
  const healthz: number[] = [];
  await Promise.all([
    (async () => {
      while (performance.now() < until) calm.push(await timed(`${url}/api/v1/documents?limit=50`, { "x-api-token": token }));
    })(),
    (async () => {
      while (performance.now() < until) healthz.push(await timed(`${url}/healthz`, {}));
    })(),
  ]);
  return { calm, healthz };
}

const data = mkdtempSync(join(tmpdir(), "uploadp-"));
const token = (tenant: string, scopes: string) => runCli(["token", "create", "--data", data, "--tenant", tenant, "--scopes", scopes]).stdout.trim();
const calm = token("calm", "documents:read,documents:write");
const big = token("big", "submissions:write");
mkdirSync(join(data, "inbox", "calm"), { recursive: true });
const sample = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
for (let i = 0; i < 200; i++) writeFileSync(join(data, "inbox", "calm", `C-${i}.xml`), sample.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>C-${i}</cbc:ID>`));
const server = await startChild(["--data", data, "--rate-limit", "off", "--demo", "off"]);
const pid = server.child.pid!;
try {
  await fetch(`${server.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": calm } });
  for (let i = 0; i < 100; i++) {
    const page = (await (await fetch(`${server.url}/api/v1/documents?limit=500`, { headers: { "x-api-token": calm } })).json()) as { data: unknown[] };
    if (page.data.length >= 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`Node ${process.version}; ${opts.duration} s per phase; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")} ` +
    "(latencies are wall-clock and move with other work on the machine; main-thread CPU per upload does not)");
  const baseline = await calmPhase(server.url, calm, opts.duration);
  const rows: string[][] = [];
  const row = (what: string, r: { calm: number[]; healthz: number[] }, uploads: string, cpu: string) => rows.push([
    what, String(r.calm.length), percentile(r.calm, 50).toFixed(1), percentile(r.calm, 99).toFixed(1), Math.max(...r.calm).toFixed(1),
    fmtRatio(percentile(r.calm, 99) / percentile(baseline.calm, 99)), Math.max(...r.healthz).toFixed(1), uploads, cpu,
  ]);
  row("no uploads (baseline)", baseline, "", "");
  const verdicts: string[] = [];
  for (const [what, docs, inFlight] of [["one 9 MB FA(3) at a time", [BIG], 1], ["six hostile 8 MB at once", HOSTILE, 6]] as const) {
    const files = docs.map((d, i) => {
      const f = join(data, `upload-${i}.xml`);
      writeFileSync(f, d);
      return f;
    });
    const statuses = new Map<string, number>();
    const uploader = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "support_uploader.ts"), server.url, big, String(inFlight), ...files], { stdio: ["ignore", "pipe", "inherit"] });
    const ended = new Promise((done) => uploader.on("exit", done));
    let lines = "";
    uploader.stdout!.on("data", (chunk: Buffer) => {
      lines += chunk.toString();
      const cut = lines.lastIndexOf("\n") + 1;
      for (const status of lines.slice(0, cut).split("\n").filter(Boolean)) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      lines = lines.slice(cut);
    });
    // The phase starts with the first answer to an upload, when the uploading client is up and sending.
    await new Promise<void>((ready) => uploader.stdout!.once("data", () => ready()));
    const mainBefore = threadCpuMs(pid);
    const before = [...statuses.values()].reduce((a, b) => a + b, 0);
    const r = await calmPhase(server.url, calm, opts.duration);
    uploader.kill("SIGTERM");
    await ended;
    const mainAfter = threadCpuMs(pid);
    const n = [...statuses.values()].reduce((a, b) => a + b, 0) - before;
    const perUpload = mainBefore !== null && mainAfter !== null && n > 0 ? ((mainAfter - mainBefore) / n).toFixed(1) : "?";
    row(what, r, [...statuses].map(([s, k]) => `${k}× ${s}`).join(", "), perUpload);
    const p99 = percentile(r.calm, 99);
    const hz = Math.max(...r.healthz);
    verdicts.push(`${what}: calm p99 ${p99.toFixed(1)} ms ${p99 <= GOAL_P99_MS ? "within" : "OVER"} ${GOAL_P99_MS} ms, /healthz max ${hz.toFixed(1)} ms ${hz <= GOAL_HEALTHZ_MAX_MS ? "within" : "OVER"} ${GOAL_HEALTHZ_MAX_MS} ms`);
  }
  printTable(["phase", "calm GETs", "p50 ms", "p99 ms", "max ms", "p99 vs baseline", "/healthz max ms", "uploads answered", "main-thread CPU ms/upload (incl. the calm requests)"], rows);
  for (const v of verdicts) console.log(v);
} finally {
  server.child.kill("SIGTERM");
  await server.exited;
  rmSync(data, { recursive: true, force: true });
}
