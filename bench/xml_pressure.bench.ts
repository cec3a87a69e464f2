/**
 * Hostile XML against other tenants: a real server.ts child;
 * tenant "hostile" keeps eight 10 MB uploads of a `<Faktura>` with ~450,000
 * three-attribute elements in flight (each is refused, 422), while tenant
 * "calm" reads a cursor page of its documents one request after another (and a client asks /healthz); the
 * uploads come from a process of their own (bench/support_pressure.ts says why). The
 * figures: the calm tenant's p50/p99 with and without the pressure (same run,
 * the baseline first), and the server's peak RSS. Goal: p99 ≤ 50 ms.
 *
 *   node --import tsx bench/xml_pressure.bench.ts [--duration=5s]
 */
import { memoryOf, parseBenchArgs, printTable } from "./support.ts";
import { calmPhase, percentile, startPressureServer, startUploads } from "./support_pressure.ts";

const opts = parseBenchArgs(process.argv.slice(2), { duration: 5, runs: 1 });
const UPLOADS = 8; // concurrent hostile uploads
const HOSTILE_BYTES = 10 * 1000 * 1000;
const GOAL_P99_MS = 50;

const head = '<?xml version="1.0" encoding="UTF-8"?><Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">';
const unit = '<a b="1" c="2" d="3"/>';
const HOSTILE = Buffer.from(head + unit.repeat(Math.floor((HOSTILE_BYTES - head.length - 11) / unit.length)) + "</Faktura>");

const { server, data, calm, uploader: hostile, close } = await startPressureServer("xmlp-", "hostile");
try {
  console.log(`Node ${process.version}; hostile upload ${(HOSTILE.length / 1e6).toFixed(1)} MB, ${UPLOADS} in flight; ${opts.duration} s per phase`);
  const baseline = (await calmPhase(server.url, calm, opts.duration)).calm;
  const uploads = await startUploads(server.url, hostile, data, [HOSTILE], UPLOADS);
  const pressed = (await calmPhase(server.url, calm, opts.duration)).calm;
  await uploads.stop();
  const mem = memoryOf(server.child.pid!);
  printTable(["phase", "requests", "p50 ms", "p99 ms", "max ms"], [
    ["calm alone (baseline)", String(baseline.length), percentile(baseline, 50).toFixed(1), percentile(baseline, 99).toFixed(1), Math.max(...baseline).toFixed(1)],
    [`with ${UPLOADS} hostile uploads`, String(pressed.length), percentile(pressed, 50).toFixed(1), percentile(pressed, 99).toFixed(1), Math.max(...pressed).toFixed(1)],
  ]);
  console.log(`hostile uploads answered: ${[...uploads.statuses].map(([s, n]) => `${n}× ${s}`).join(", ")}`);
  console.log(`server peak RSS ${mem ? mem.hwm.toFixed(0) : "?"} MiB (now ${mem ? mem.rss.toFixed(0) : "?"} MiB)`);
  const p99 = percentile(pressed, 99);
  console.log(`p99 under pressure ${p99.toFixed(1)} ms: ${p99 <= GOAL_P99_MS ? "within" : "OVER"} the ${GOAL_P99_MS} ms goal`);
} finally {
  await close();
}
