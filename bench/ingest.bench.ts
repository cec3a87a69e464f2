/**
 * Writes under load, through the real server (a child process on the file store, durable as in production):
 *   1. the disk's own rate of 4 KiB append + fdatasync in the data directory, measured first (the baseline);
 *   2. inbox ingest: N FA(3) invoices of ~30 KB dropped into a tenant's inbox, one sync run, documents/s from the
 *      request to the run's end, and as a ratio of the fdatasync rate;
 *   3. while that run imports, /healthz and another tenant's cursor page asked one after another: latency p50,
 *      p99, max (a server that stops answering while it writes shows it here);
 *   4. uploads: 32 concurrent clients POSTing a ~30 KB FA(3) invoice (each a new number) for a few seconds:
 *      uploads/s and latency p99.
 * After 2 and 4, the CPU time the server (all its threads) and this load generator used, in cores: where the
 * machine's cores went; after 2 also the server's CPU per document, all threads, the main thread and the busiest
 * other one (Linux). With TMPDIR=/dev/shm the data directory is in memory, and a shared machine's disk drops out.
 *
 *   npx tsx bench/ingest.bench.ts [--docs 10000] [--upload-seconds 5] [--database-url postgres://…] [--keep]
 *
 * With --database-url the server stores in PostgreSQL (the inbox stays in the data directory).
 *
 * Only HTTP and the `token` command are used, so the same file measures an older checkout (copy it there).
 * @module
 */
import { closeSync, fdatasyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, startChild, type ChildServer } from "../test/support/child.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const DOCS = flag("docs", 10_000);
const UPLOAD_SECONDS = flag("upload-seconds", 5);
const UPLOAD_CLIENTS = 32;
const OTHER_DOCS = 500; // the other tenant's documents, whose first page is asked during the sync
const FSYNC_MS = 1_500; // how long the fdatasync baseline runs
const LINES = 190; // FaWiersz lines: ~30 KB per invoice
const CLOCK_TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux
const DATABASE_URL = args.includes("--database-url") ? args[args.indexOf("--database-url") + 1]! : "";

/** A valid FA(3) invoice of ~30 KB with number `no` (uploads are validated against the schema). */
function fa3(no: string): string {
  const rows: string[] = [];
  for (let i = 1; i <= LINES; i++) {
    rows.push(`<FaWiersz><NrWierszaFa>${i}</NrWierszaFa><P_7>Towar ${i}</P_7><P_8A>szt.</P_8A><P_8B>2</P_8B>` +
      `<P_9A>10.00</P_9A><P_11>20.00</P_11><P_12>23</P_12></FaWiersz>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?><Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">` +
    `<Naglowek><KodFormularza kodSystemowy="FA (3)" wersjaSchemy="1-0E">FA</KodFormularza><WariantFormularza>3</WariantFormularza>` +
    `<DataWytworzeniaFa>2026-01-01T00:00:00Z</DataWytworzeniaFa></Naglowek>` +
    `<Podmiot1><DaneIdentyfikacyjne><NIP>5260250274</NIP><Nazwa>Sprzedawca</Nazwa></DaneIdentyfikacyjne><Adres><KodKraju>PL</KodKraju><AdresL1>ul. Prosta 1</AdresL1></Adres></Podmiot1>` +
    `<Podmiot2><DaneIdentyfikacyjne><NIP>9512372385</NIP><Nazwa>Nabywca</Nazwa></DaneIdentyfikacyjne><Adres><KodKraju>PL</KodKraju><AdresL1>ul. Krzywa 2</AdresL1></Adres><JST>2</JST><GV>2</GV></Podmiot2>` +
    `<Fa><KodWaluty>PLN</KodWaluty><P_1>2026-01-01</P_1><P_2>${no}</P_2><P_13_1>${LINES * 20}.00</P_13_1>` +
    `<P_14_1>${(LINES * 46) / 10}.00</P_14_1><P_15>${(LINES * 246) / 10}.00</P_15>` +
    `<Adnotacje><P_16>2</P_16><P_17>2</P_17><P_18>2</P_18><P_18A>2</P_18A><Zwolnienie><P_19N>1</P_19N></Zwolnienie>` +
    `<NoweSrodkiTransportu><P_22N>1</P_22N></NoweSrodkiTransportu><P_23>2</P_23><PMarzy><P_PMarzyN>1</P_PMarzyN></PMarzy></Adnotacje>` +
    `<RodzajFaktury>VAT</RodzajFaktury>` +
    `${rows.join("")}</Fa></Faktura>`;
}

function fsyncRate(dir: string): number {
  const path = join(dir, "fsync-probe");
  const fd = openSync(path, "w");
  const block = new Uint8Array(4096);
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < FSYNC_MS) {
    writeSync(fd, block);
    fdatasyncSync(fd);
    n++;
  }
  const rate = n / ((performance.now() - t0) / 1000);
  closeSync(fd);
  rmSync(path);
  return rate;
}

function token(data: string, tenant: string, scopes: string): string {
  const r = runCli(["token", "create", "--data", data, "--tenant", tenant, "--scopes", scopes], { DATABASE_URL });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

function fill(data: string, tenant: string, n: number, prefix: string): void {
  const inbox = join(data, "inbox", tenant);
  mkdirSync(inbox, { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(join(inbox, `${prefix}-${String(i).padStart(6, "0")}.xml`), fa3(`${prefix}/${i}`));
}

async function sync(url: string, tok: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": tok } });
  if (res.status !== 202) throw new Error(`sync: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

async function run(url: string, tok: string, id: string): Promise<{ status: string; counts: Record<string, number> }> {
  const res = await fetch(`${url}/api/v1/documents/sync/${id}`, { headers: { "x-api-token": tok } });
  return (await res.json()) as { status: string; counts: Record<string, number> };
}

let probeErrors = 0;
/** How long `fn` took; a request that fails (the connection reset while the server did not answer) counts too. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn().catch(() => probeErrors++);
  return performance.now() - t0;
}

function quantiles(ms: number[]): string {
  if (ms.length === 0) return "none answered";
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `n=${s.length} p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${s[s.length - 1]!.toFixed(1)} ms`;
}

async function ingest(server: ChildServer, tok: string, otherTok: string): Promise<void> {
  const { url } = server;
  const health: number[] = [], page: number[] = [];
  let finished = false;
  const seen: number[] = []; // imported counts seen while running
  const t0 = performance.now();
  const id = await sync(url, tok);
  const probe = (async () => {
    while (!finished) {
      health.push(await timed(() => fetch(`${url}/healthz`).then((r) => r.text())));
      page.push(await timed(() => fetch(`${url}/api/v1/documents?limit=50`, { headers: { "x-api-token": otherTok } }).then((r) => r.text())));
    }
  })();
  let last: { status: string; counts: Record<string, number> };
  for (;;) {
    last = await run(url, tok, id);
    if (last.status === "succeeded" || last.status === "failed") break;
    seen.push(last.counts.created ?? 0);
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - t0) / 1000;
  finished = true;
  await probe;
  const created = last.counts.created ?? 0;
  console.log(`ingest: ${created} of ${DOCS} documents created (run ${last.status}) in ${seconds.toFixed(2)} s = ${(created / seconds).toFixed(0)} documents/s`);
  console.log(`  counts seen while running: ${new Set(seen).size} distinct values (${seen.slice(0, 1)}…${seen.slice(-1)})`);
  console.log(`  /healthz during the run:            ${quantiles(health)}`);
  console.log(`  other tenant's page during the run: ${quantiles(page)}${probeErrors ? `; ${probeErrors} requests failed` : ""}`);
  ingestRate = created / seconds;
}
let ingestRate = 0;

async function uploads(url: string, tok: string): Promise<void> {
  const latencies: number[] = [];
  let failed = 0, n = 0;
  const until = performance.now() + UPLOAD_SECONDS * 1000;
  const client = async (c: number): Promise<void> => {
    while (performance.now() < until) {
      const form = new FormData();
      form.append("xml", new Blob([fa3(`UP/${c}/${n++}`)], { type: "application/xml" }), "invoice.xml");
      const t0 = performance.now();
      const res = await fetch(`${url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": tok }, body: form });
      const body = await res.text();
      if (res.status === 201) latencies.push(performance.now() - t0);
      else if (failed++ === 0) console.log(`  first refusal: ${res.status} ${body.slice(0, 300)}`);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: UPLOAD_CLIENTS }, (_, c) => client(c)));
  const seconds = (performance.now() - t0) / 1000;
  console.log(`uploads: ${UPLOAD_CLIENTS} clients, ${latencies.length} stored (${failed} refused) in ${seconds.toFixed(2)} s = ${(latencies.length / seconds).toFixed(0)} uploads/s; ${quantiles(latencies)}`);
}

/**
 * CPU seconds so far of the server (all its threads; Linux /proc, else NaN), of each of its threads by id, and of
 * this load generator, at a wall time.
 */
interface CpuMark { server: number; threads: Map<string, number>; client: number; wall: number }

/** CPU seconds of each thread of `pid` by thread id (Linux; empty elsewhere). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
        out.set(tid, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
      } catch {
        // a thread that ended between the listing and the read
      }
    }
  } catch {
    // not Linux
  }
  return out;
}

function cpuNow(server: ChildServer): CpuMark {
  let own = Number.NaN;
  try {
    const fields = readFileSync(`/proc/${server.child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    own = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime and stime, fields 14 and 15 of proc(5)
  } catch {
    // not Linux: the server's share is not shown
  }
  const c = process.cpuUsage();
  return { server: own, threads: threadCpu(server.child.pid!), client: (c.user + c.system) / 1e6, wall: performance.now() / 1000 };
}

/**
 * Prints how busy the server and the load generator kept the cores since `from`, and with `items` the server's CPU
 * per item: all threads, the main thread (the event loop) and the busiest other (during a sync, the thread that
 * parses and judges each document, which bounds the rate on 2 cores). Returns the new mark.
 */
function cpuReport(server: ChildServer, from: CpuMark, items?: { n: number; what: string }): CpuMark {
  const now = cpuNow(server);
  const wall = now.wall - from.wall;
  const cores = (s: number): string => `${s.toFixed(1)} CPU s = ${(s / wall).toFixed(2)} cores`;
  console.log(`  CPU over ${wall.toFixed(1)} s: server ${cores(now.server - from.server)}, load generator ${cores(now.client - from.client)} (machine: ${availableParallelism()} cores)`);
  if (items && items.n > 0 && now.threads.size > 0) {
    const pid = String(server.child.pid);
    const spent = [...now.threads].map(([tid, s]) => [tid, s - (from.threads.get(tid) ?? 0)] as const);
    const ms = (s: number): string => `${((s * 1000) / items.n).toFixed(3)} ms`;
    const main = spent.find(([tid]) => tid === pid)?.[1] ?? 0;
    const busiest = Math.max(0, ...spent.filter(([tid]) => tid !== pid).map(([, s]) => s));
    console.log(`  server CPU per ${items.what}: ${ms(now.server - from.server)}; main thread ${ms(main)}, busiest other thread ${ms(busiest)}`);
  }
  return now;
}

async function main(): Promise<void> {
  const data = mkdtempSync(join(tmpdir(), "ingest-bench-"));
  let server: ChildServer | null = null;
  try {
    const rate = fsyncRate(data);
    console.log(`disk: ${rate.toFixed(0)} fdatasync/s (4 KiB appends, ${tmpdir()})`);
    const stamp = Date.now().toString(36); // tenants of their own: a PostgreSQL database may hold earlier runs
    const [acme, other] = [`acme-${stamp}`, `other-${stamp}`];
    const tok = token(data, acme, "documents:read,documents:write,submissions:write");
    const otherTok = token(data, other, "documents:read,documents:write");
    console.log(`invoice size: ${Buffer.byteLength(fa3("X/000000"))} bytes; writing ${DOCS} files…`);
    fill(data, other, OTHER_DOCS, "O");
    fill(data, acme, DOCS, "A");
    server = await startChild(["--data", data, "--rate-limit", "off"], { DATABASE_URL });
    console.log(`storage: ${DATABASE_URL ? "PostgreSQL" : "file store"}`);
    // The other tenant's documents first, so that its page has something to show.
    const otherRun = await sync(server.url, otherTok);
    while (!["succeeded", "failed"].includes((await run(server.url, otherTok, otherRun)).status)) await new Promise((r) => setTimeout(r, 50));
    let cpu = cpuNow(server);
    await ingest(server, tok, otherTok);
    console.log(`  = ${(ingestRate / rate).toFixed(2)} × the disk's fdatasync rate`);
    cpu = cpuReport(server, cpu, { n: DOCS, what: "document" });
    if (UPLOAD_SECONDS > 0) {
      await uploads(server.url, tok);
      cpuReport(server, cpu);
    }
  } finally {
    if (server) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
    if (!args.includes("--keep")) rmSync(data, { recursive: true, force: true });
  }
}

await main();
