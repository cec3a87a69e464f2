/**
 * Big uploads against other tenants: a real server.ts child. Tenant "calm" reads a cursor page of its documents and
 * another client asks `/healthz`, one request after another, while tenant "big" uploads (a) a 9 MB FA(3), refused
 * (422: over KSeF's 1,000,000-byte file limit), one after another, or (b) six hostile 8 MB XML documents at once
 * (deep nesting, many attributes, a huge text), each refused; the uploads come from a process of their own
 * (bench/support_pressure.ts says why). The figures: the calm GET's p50/p99/max and
 * `/healthz`'s max in each phase against the same run's baseline without uploads, and the CPU the server's main
 * thread (the event loop) spent per upload, which, unlike the latencies, other work on the machine does not move.
 * Also the server's resident memory as each phase starts and its peak during it (VmHWM, reset as it starts; Linux).
 * Goals: calm p99 ≤ 50 ms and /healthz max ≤ 100 ms in both; peak RSS ≤ 600 MB with six hostile uploads at once.
 *
 *   node --import tsx bench/upload_pressure.bench.ts [--duration=5s]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fmtRatio, parseBenchArgs, printTable } from "./support.ts";
import { calmPhase, percentile, startPressureServer, startUploads } from "./support_pressure.ts";
import { minimalLinesKsef } from "../test/support/large_invoice.ts";
import { withAttributes, withLongText, withNesting } from "../test/support/large_inputs.ts";

const opts = parseBenchArgs(process.argv.slice(2), { duration: 5, runs: 1 });
const GOAL_P99_MS = 50;
const GOAL_HEALTHZ_MAX_MS = 100;
/** The server's peak resident memory while six hostile uploads arrive at once. */
const GOAL_PEAK_RSS_MB = 600;
const BIG = minimalLinesKsef(9_000_000, "BIG/1");
const HOSTILE = [withNesting("ksef-fa3", 1_100_000), withAttributes("ksef-fa3", 350_000, 1000), withLongText("ksef-fa3", "x".repeat(8_000_000))];

/** The server's peak resident memory (VmHWM) in MB since the last reset, from /proc (null off Linux). */
function peakRssMb(pid: number, field = "VmHWM"): number | null {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/** Starts the peak resident memory over from the current one (Linux: `5` to /proc/PID/clear_refs); false when it cannot. */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
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

const { server, data, calm, uploader: big, close } = await startPressureServer("uploadp-", "big");
const pid = server.child.pid!;
try {
  console.log(`Node ${process.version}; ${opts.duration} s per phase; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")} ` +
    "(latencies are wall-clock and move with other work on the machine; main-thread CPU per upload does not)");
  const baseline = await calmPhase(server.url, calm, opts.duration);
  const rows: string[][] = [];
  const baselinePeak = peakRssMb(pid);
  const row = (what: string, r: { calm: number[]; healthz: number[] }, uploads: string, cpu: string, peak: number | null, start: number | null) => rows.push([
    what, String(r.calm.length), percentile(r.calm, 50).toFixed(1), percentile(r.calm, 99).toFixed(1), Math.max(...r.calm).toFixed(1),
    fmtRatio(percentile(r.calm, 99) / percentile(baseline.calm, 99)), Math.max(...r.healthz).toFixed(1), uploads, cpu, start === null ? "" : start.toFixed(0), peak === null ? "?" : peak.toFixed(0),
  ]);
  row("no uploads (baseline)", baseline, "", "", baselinePeak, null);
  const verdicts: string[] = [];
  for (const [what, docs, inFlight] of [["one 9 MB FA(3) at a time", [BIG], 1], ["six hostile 8 MB at once", HOSTILE, 6]] as const) {
    const startRss = peakRssMb(pid, "VmRSS");
    const resets = resetPeakRss(pid);
    const uploads = await startUploads(server.url, big, data, docs, inFlight);
    const mainBefore = threadCpuMs(pid);
    const before = uploads.answered();
    const r = await calmPhase(server.url, calm, opts.duration);
    await uploads.stop();
    const mainAfter = threadCpuMs(pid);
    const n = uploads.answered() - before;
    const perUpload = mainBefore !== null && mainAfter !== null && n > 0 ? ((mainAfter - mainBefore) / n).toFixed(1) : "?";
    const peak = peakRssMb(pid);
    row(what, r, [...uploads.statuses].map(([s, k]) => `${k}× ${s}`).join(", "), perUpload, resets ? peak : null, startRss);
    if (peak !== null && what.startsWith("six")) verdicts.push(`${what}: peak RSS ${peak.toFixed(0)} MB ${peak <= GOAL_PEAK_RSS_MB ? "within" : "OVER"} ${GOAL_PEAK_RSS_MB} MB`);
    const p99 = percentile(r.calm, 99);
    const hz = Math.max(...r.healthz);
    verdicts.push(`${what}: calm p99 ${p99.toFixed(1)} ms ${p99 <= GOAL_P99_MS ? "within" : "OVER"} ${GOAL_P99_MS} ms, /healthz max ${hz.toFixed(1)} ms ${hz <= GOAL_HEALTHZ_MAX_MS ? "within" : "OVER"} ${GOAL_HEALTHZ_MAX_MS} ms`);
  }
  printTable(["phase", "calm GETs", "p50 ms", "p99 ms", "max ms", "p99 vs baseline", "/healthz max ms", "uploads answered", "main-thread CPU ms/upload (incl. the calm requests)", "RSS MB at start", "peak RSS MB"], rows);
  for (const v of verdicts) console.log(v);
} finally {
  await close();
}
