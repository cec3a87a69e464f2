/**
 * Sending to KSeF (README "Sending to KSeF"): 1,000 FA(3) invoices uploaded through the API of an in-process
 * server (file store) and sent by the sender to the KSeF simulator, which runs in a child process. Reported: the
 * upload rate, the sending rate (queued → accepted, one session, KSeF's limits off as on its test environment),
 * the end-to-end rate from the first upload to the last acceptance, and the sender's CPU per invoice (this
 * process's CPU during the sending phase, which holds the sender and its store writes but not the simulator).
 *
 *   npx tsx bench/ksef_send.bench.ts [--count=1000]
 * @module
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import process from "node:process";
import { silentLogger } from "../lib/observe/log.ts";
import { createKsefSender } from "../storage/sources/ksef/send/job.ts";
import { startServer } from "../test/support/server.ts";
import { fa3, NIP, TOKEN } from "../test/storage/sources/ksef/send/send_setup.ts";

const COUNT = Number(process.argv.find((a) => a.startsWith("--count="))?.slice(8) ?? 1000);
const CONCURRENCY = 8;
const here = import.meta.dirname ?? new URL(".", import.meta.url).pathname;

const child = spawn(process.execPath, ["--import", "tsx", join(here, "ksef_send_sim.ts"), NIP, TOKEN], { stdio: ["pipe", "pipe", "inherit"] });
const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
const simUrl = (JSON.parse(line) as { url: string }).url;

const server = await startServer({ ksefSend: { sends: () => true, wake: () => {} } });
const limitsOff = { open: {}, send: {}, status: {}, upo: {}, close: {} };
// Where the sending time goes: KSeF round trips (fetch, the simulator's work included) and the store's calls.
const spent = { fetch: 0, store: 0, requests: 0, storeCalls: 0 };
const timedFetch: typeof fetch = async (input, init) => {
  const at = performance.now();
  try {
    const res = await fetch(input, init);
    await res.clone().arrayBuffer();
    return res;
  } finally {
    spent.fetch += performance.now() - at;
    spent.requests++;
  }
};
const timedStorage = new Proxy(server.storage, {
  get(target, prop, receiver) {
    if (prop !== "tenant") return Reflect.get(target, prop, receiver);
    return (id: string) => new Proxy(target.tenant(id), {
      get(t, name, r) {
        const v = Reflect.get(t, name, r) as unknown;
        if (typeof v !== "function") return v;
        return async (...args: unknown[]) => {
          const at = performance.now();
          try {
            return await (v as (...a: unknown[]) => Promise<unknown>).apply(t, args);
          } finally {
            spent.store += performance.now() - at;
            spent.storeCalls++;
          }
        };
      },
    });
  },
});
const sender = createKsefSender({
  storage: timedStorage, nodeId: "bench", logger: silentLogger, fetch: timedFetch,
  configs: () => [{ tenant: "acme", baseUrl: simUrl, nip: NIP, token: TOKEN }], tuning: { limits: limitsOff },
});
const { token } = await server.token("acme");
const bodies = Array.from({ length: COUNT }, (_, i) => fa3(`BENCH/${i}`));

// Phase 1: uploads (the sender is not running: the queue fills).
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

// Phase 2: sending until every one is accepted.
const cpu0 = process.cpuUsage();
const store = server.storage.tenant("acme");
for (let pass = 0; (await store.pendingKsefSubmissions(1)).length > 0; pass++) {
  if (pass > 10_000) throw new Error("the sender did not finish");
  await sender.passNow();
}
const cpu = process.cpuUsage(cpu0);
const t2 = performance.now();

const accepted = (await store.submissionChanges(0, COUNT + 10, 10 * COUNT + 100, { ksef_status: "accepted" })).items.length;
const rate = (n: number, ms: number) => `${(n / (ms / 1000)).toFixed(0)}/s`;
console.log(`node ${process.version}, ${COUNT} FA(3) invoices (${bodies[0]!.length} bytes each), file store, simulator in a child process`);
console.log(`accepted: ${accepted}/${COUNT} in ${sender.sessionsOpened("acme")} session(s)`);
console.log(`upload (API, ${CONCURRENCY} at a time):   ${(t1 - t0).toFixed(0)} ms, ${rate(COUNT, t1 - t0)}`);
console.log(`send (queued → accepted): ${(t2 - t1).toFixed(0)} ms, ${rate(COUNT, t2 - t1)}`);
console.log(`upload → accepted:        ${(t2 - t0).toFixed(0)} ms, ${rate(COUNT, t2 - t0)}`);
// Sums over calls: status and UPO lookups run 8 at a time, so these add up to more than the wall time.
console.log(`time summed over calls:   KSeF round trips ${(spent.fetch / COUNT).toFixed(1)} ms/invoice (${(spent.requests / COUNT).toFixed(1)} requests), store ${(spent.store / COUNT).toFixed(1)} ms/invoice (${(spent.storeCalls / COUNT).toFixed(1)} calls)`);
console.log(`sender CPU per invoice:   ${((cpu.user + cpu.system) / COUNT).toFixed(0)} µs (user ${(cpu.user / COUNT).toFixed(0)}, system ${(cpu.system / COUNT).toFixed(0)})`);
await sender.close();
await server.close();
child.stdin!.end();
await once(child, "exit");
