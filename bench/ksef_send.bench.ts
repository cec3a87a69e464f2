/**
 * Sending to KSeF (README "Sending to KSeF"): FA(3) invoices uploaded through the API of an in-process server (file
 * store) and sent by the sender to the KSeF simulator, which runs in a child process, once per send mode: `auto`
 * (a burst goes as batch sessions) against the same-run baseline `online`. Reported per mode: the upload rate, the
 * sending time (queued → accepted, KSeF's limits off as on its test environment, so the sender's own speed shows),
 * the requests made to KSeF per endpoint and the time KSeF's production limits (open-api.json x-rate-limits, per
 * second, minute and hour) would impose on that many requests — the time scale compressed to nothing, computed
 * from the counts — the sender's CPU per invoice (this process's CPU during sending, without the simulator's) and
 * the peak memory growth while sending.
 *
 *   npx tsx bench/ksef_send.bench.ts [--count=1000] [--modes=auto,online]
 * @module
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import process from "node:process";
import { silentLogger } from "../lib/observe/log.ts";
import type { SendMode } from "../storage/ksef/connection/config.ts";
import { nodeTransport } from "../storage/ksef/connection/http.ts";
import { createKsefSender } from "../storage/ksef/send/job.ts";
import { SEND_LIMITS, type SendGroup } from "../storage/ksef/send/online_api.ts";
import { startServer } from "../test/support/server.ts";
import { fa3, NIP, TOKEN } from "../test/storage/ksef/send/send_setup.ts";

const COUNT = Number(process.argv.find((a) => a.startsWith("--count="))?.slice(8) ?? 1000);
const MODES = (process.argv.find((a) => a.startsWith("--modes="))?.slice(8) ?? "auto,online").split(",") as SendMode[];
const CONCURRENCY = 8;
const here = import.meta.dirname ?? new URL(".", import.meta.url).pathname;
const limitsOff = Object.fromEntries(Object.keys(SEND_LIMITS).map((g) => [g, {}]));

// The endpoint of a request to KSeF (its limit group); "url" for pre-signed URLs (not limited), "other" for the rest (authentication).
function groupOf(method: string, url: string): SendGroup | "other" | "url" {
  const u = new URL(url);
  if (!u.pathname.startsWith("/v2/")) return "url";
  const p = u.pathname.slice(3);
  if (method === "POST" && p === "/sessions/online") return "open";
  if (method === "POST" && /^\/sessions\/online\/[^/]+\/invoices$/.test(p)) return "send";
  if (method === "POST" && /^\/sessions\/online\/[^/]+\/close$/.test(p)) return "close";
  if (method === "POST" && p === "/sessions/batch") return "batchOpen";
  if (method === "POST" && /^\/sessions\/batch\/[^/]+\/close$/.test(p)) return "batchClose";
  if (method !== "GET" || !p.startsWith("/sessions/")) return "other";
  if (/^\/sessions\/[^/]+$/.test(p)) return "session";
  if (/^\/sessions\/[^/]+\/invoices(\/failed)?$/.test(p)) return "list";
  if (/^\/sessions\/[^/]+\/upo\/[^/]+$/.test(p)) return "sessionUpo";
  if (/\/upo$/.test(p)) return "upo";
  return "status";
}

/** Seconds that `n` requests of one endpoint need at least under its windows (a full window is waited out). */
function limitedSeconds(n: number, g: SendGroup): number {
  const l = SEND_LIMITS[g];
  const spans = [[l.perSecond, 1], [l.perMinute, 60], [l.perHour, 3600]] as const;
  return Math.max(0, ...spans.map(([max, span]) => (max ? Math.floor((n - 1) / max) * span : 0)));
}


const child = spawn(process.execPath, ["--import", "tsx", join(here, "ksef_send_sim.ts"), NIP, TOKEN], { stdio: ["pipe", "pipe", "inherit"] });
const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
const simUrl = (JSON.parse(line) as { url: string }).url;
const bodies = Array.from({ length: COUNT }, (_, i) => fa3(`BENCH/${i}`));
console.log(`node ${process.version}, ${COUNT} FA(3) invoices (${bodies[0]!.length} bytes each), file store, simulator in a child process`);
const results: Record<string, { limited: number; cpu: number; requests: number }> = {};

for (const mode of MODES) {
  const server = await startServer({ ksefSend: { sends: () => true, wake: () => {} } });
  const tenant = `t${mode}`;
  const requests = new Map<string, number>();
  const count = (method: string, url: string): void => {
    const g = groupOf(method, url);
    requests.set(g, (requests.get(g) ?? 0) + 1);
  };
  // The sender's own HTTP (node:http, as in server.ts), counted; the client's authentication goes through fetch.
  const http = nodeTransport();
  const countedHttp = { request: (x: Parameters<typeof http.request>[0]) => (count(x.method, x.url), http.request(x)), close: () => {} };
  const countedFetch: typeof fetch = async (input, init) => (count(init?.method ?? "GET", String(input)), fetch(input, init));
  const sender = createKsefSender({
    storage: server.storage, nodeId: "bench", logger: silentLogger, fetch: countedFetch, http: countedHttp,
    configs: () => [{ tenant, baseUrl: simUrl, nip: NIP, token: TOKEN, sendMode: mode }], tuning: { limits: limitsOff, pollDelays: [5, 10, 20, 40, 80, 160] },
  });
  const { token } = await server.token(tenant);
  // Phase 1: uploads (the sender is not running: the queue fills, as at a month-end).
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < COUNT) {
      const form = new FormData();
      form.append("xml", new Blob([new Uint8Array(bodies[next++]!)], { type: "application/xml" }), "i.xml");
      const res = await server.fetch("/api/v1/submissions", token, { method: "POST", body: form });
      if (res.status !== 201) throw new Error(`upload ${res.status}`);
      await res.arrayBuffer();
    }
  }));
  const t1 = performance.now();
  // Phase 2: sending until every one is accepted; memory sampled meanwhile.
  globalThis.gc?.();
  const rss0 = process.memoryUsage.rss();
  let peak = rss0;
  // rss() alone: the full memoryUsage() walks the heap spaces, CPU that would be counted as the sender's.
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  const cpu0 = process.cpuUsage();
  const store = server.storage.tenant(tenant);
  for (let pass = 0; (await store.pendingKsefSubmissions(1)).length > 0; pass++) {
    if (pass > 10_000) throw new Error("the sender did not finish");
    await sender.passNow();
  }
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  const t2 = performance.now();
  const accepted = (await store.submissionChanges(0, COUNT + 10, 10 * COUNT + 100, { ksef_status: "accepted" })).items.length;
  const limited = Math.max(0, ...[...requests].filter(([g]) => g in SEND_LIMITS).map(([g, n]) => limitedSeconds(n, g as SendGroup)));
  const total = [...requests.values()].reduce((a, b) => a + b, 0);
  const rate = (n: number, ms: number) => `${(n / (ms / 1000)).toFixed(0)}/s`;
  console.log(`\n[${mode}] accepted ${accepted}/${COUNT} in ${sender.sessionsOpened(tenant)} online and ${sender.batchesOpened(tenant)} batch session(s)`);
  console.log(`  upload (API, ${CONCURRENCY} at a time): ${(t1 - t0).toFixed(0)} ms, ${rate(COUNT, t1 - t0)}`);
  console.log(`  send (queued → accepted, limits off): ${(t2 - t1).toFixed(0)} ms, ${rate(COUNT, t2 - t1)}`);
  console.log(`  requests to KSeF: ${total} (${[...requests].map(([g, n]) => `${g} ${n}`).join(", ")})`);
  console.log(`  time KSeF's production limits impose on them: ${(limited / 3600).toFixed(2)} h (${limited} s)`);
  console.log(`  sender CPU per invoice: ${((cpu.user + cpu.system) / COUNT / 1000).toFixed(3)} ms; peak memory growth while sending: ${((peak - rss0) / 2 ** 20).toFixed(1)} MiB`);
  results[mode] = { limited, cpu: (cpu.user + cpu.system) / COUNT / 1000, requests: total };
  await sender.close();
  http.close();
  await server.close();
}
if (results.auto && results.online) {
  console.log(`\nauto vs online: ${(results.online.requests / results.auto.requests).toFixed(1)}x fewer requests; KSeF's limits impose ${results.auto.limited} s against ${(results.online.limited / 3600).toFixed(1)} h; CPU per invoice ${(results.auto.cpu / results.online.cpu).toFixed(2)}x`);
}
child.stdin!.end();
await once(child, "exit");
