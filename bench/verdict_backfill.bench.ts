/**
 * Judging documents stored without a verdict, through the real server (README "Summary"): a data directory holds N
 * FA(3) invoices of ~30 KB written as imports wrote them before verdicts were kept (XML, no verdict; one in ten
 * invalid) and another tenant's 500 judged documents. The server starts, judges the N in the background on its
 * invoice threads, and meanwhile /healthz and the other tenant's first cursor page are asked one after another:
 * their latency while it judges, against the same requests once it is done (the same-run baseline). Also the
 * documents judged per second, and whether the summary's `documents.invalid` then counts the invalid ones.
 *
 *   npx tsx bench/verdict_backfill.bench.ts [--docs 3000] [--calm-seconds 5]
 *
 * @module
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fieldsFromXml } from "../lib/contracts/record_json.ts";
import { FileStorage } from "../storage/file/store.ts";
import type { FileTenantStore } from "../storage/file/tenant.ts";
import { runCli, startChild, waitForOutput } from "../test/support/child.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const DOCS = flag("docs", 3_000);
const CALM_SECONDS = flag("calm-seconds", 5);
const OTHER_DOCS = 500;
const LINES = 190; // FaWiersz lines: ~30 KB per invoice, as bench/ingest.bench.ts
const enc = new TextEncoder();

/** An FA(3) invoice of ~30 KB numbered `no` (bench/ingest.bench.ts's); `bad` makes P_2 longer than the schema allows. */
function fa3(no: string, bad: boolean): Uint8Array {
  const rows: string[] = [];
  for (let i = 1; i <= LINES; i++) {
    rows.push(`<FaWiersz><NrWierszaFa>${i}</NrWierszaFa><P_7>Towar ${i}</P_7><P_8A>szt.</P_8A><P_8B>2</P_8B>` +
      `<P_9A>10.00</P_9A><P_11>20.00</P_11><P_12>23</P_12></FaWiersz>`);
  }
  const number = bad ? no + "9".repeat(300) : no;
  return enc.encode(`<?xml version="1.0" encoding="UTF-8"?><Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">` +
    `<Naglowek><KodFormularza kodSystemowy="FA (3)" wersjaSchemy="1-0E">FA</KodFormularza><WariantFormularza>3</WariantFormularza>` +
    `<DataWytworzeniaFa>2026-01-01T00:00:00Z</DataWytworzeniaFa></Naglowek>` +
    `<Podmiot1><DaneIdentyfikacyjne><NIP>5260250274</NIP><Nazwa>Sprzedawca</Nazwa></DaneIdentyfikacyjne><Adres><KodKraju>PL</KodKraju><AdresL1>ul. Prosta 1</AdresL1></Adres></Podmiot1>` +
    `<Podmiot2><DaneIdentyfikacyjne><NIP>9512372385</NIP><Nazwa>Nabywca</Nazwa></DaneIdentyfikacyjne><Adres><KodKraju>PL</KodKraju><AdresL1>ul. Krzywa 2</AdresL1></Adres><JST>2</JST><GV>2</GV></Podmiot2>` +
    `<Fa><KodWaluty>PLN</KodWaluty><P_1>2026-01-01</P_1><P_2>${number}</P_2><P_13_1>${LINES * 20}.00</P_13_1>` +
    `<P_14_1>${(LINES * 46) / 10}.00</P_14_1><P_15>${(LINES * 246) / 10}.00</P_15>` +
    `<Adnotacje><P_16>2</P_16><P_17>2</P_17><P_18>2</P_18><P_18A>2</P_18A><Zwolnienie><P_19N>1</P_19N></Zwolnienie>` +
    `<NoweSrodkiTransportu><P_22N>1</P_22N></NoweSrodkiTransportu><P_23>2</P_23><PMarzy><P_PMarzyN>1</P_PMarzyN></PMarzy></Adnotacje>` +
    `<RodzajFaktury>VAT</RodzajFaktury>` +
    `${rows.join("")}</Fa></Faktura>`);
}

function token(data: string, tenant: string): string {
  const r = runCli(["token", "create", "--data", data, "--tenant", tenant, "--scopes", "documents:read"]);
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

let probeErrors = 0;
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn().catch(() => probeErrors++);
  return performance.now() - t0;
}

function quantiles(ms: number[]): string {
  if (ms.length === 0) return "none answered";
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  // Where the slowest one came, to tell a stall of the judging from the machine's noise.
  const at = ms.indexOf(s[s.length - 1]!);
  return `n=${s.length} p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${s[s.length - 1]!.toFixed(1)} ms (request ${at + 1})`;
}

async function main(): Promise<void> {
  console.log(`verdict backfill: node ${process.version}, ${availableParallelism()} cores, ${DOCS} documents without a verdict`);
  const dir = mkdtempSync(join(tmpdir(), "bench-backfill-"));
  try {
    await seed(dir);
    const acme = token(dir, "acme"), other = token(dir, "other");
    const server = await startChild(["--data", dir, "--rate-limit", "off"]);
    const { url } = server;
    const probe = async (into: { health: number[]; page: number[] }, until: () => boolean): Promise<void> => {
      while (!until()) {
        into.health.push(await timed(() => fetch(`${url}/healthz`).then((r) => r.text())));
        into.page.push(await timed(() => fetch(`${url}/api/v1/documents?limit=50`, { headers: { "x-api-token": other } }).then((r) => r.text())));
      }
    };
    try {
      // The first pair meets a server that has just started (JIT, first connections): a warm-up, not counted.
      await fetch(`${url}/healthz`).then((r) => r.text());
      await fetch(`${url}/api/v1/documents?limit=50`, { headers: { "x-api-token": other } }).then((r) => r.text());
      let judging = true;
      const during = { health: [] as number[], page: [] as number[] };
      const probing = probe(during, () => !judging);
      const done = await waitForOutput(server, /"msg":"every stored document judged","tenant":"acme"[^\n]*"ms":(\d+)/);
      judging = false;
      await probing;
      const ms = Number(done[1]);
      console.log(`judged ${DOCS} documents in ${(ms / 1000).toFixed(2)} s = ${(DOCS / (ms / 1000)).toFixed(0)} documents/s`);
      const calm = { health: [] as number[], page: [] as number[] };
      const t0 = performance.now();
      await probe(calm, () => performance.now() - t0 > CALM_SECONDS * 1000);
      console.log(`  /healthz while judging:            ${quantiles(during.health)}`);
      console.log(`  /healthz after (baseline):         ${quantiles(calm.health)}`);
      console.log(`  other tenant's page while judging: ${quantiles(during.page)}`);
      console.log(`  other tenant's page after:         ${quantiles(calm.page)}`);
      const summary = (await (await fetch(`${url}/api/v1/summary`, { headers: { "x-api-token": acme } })).json()) as { documents: { total: number; invalid: number } };
      console.log(`summary: total ${summary.documents.total}, invalid ${summary.documents.invalid} (expected ${Math.floor(DOCS / 10)})`);
      if (probeErrors > 0) console.log(`probe errors: ${probeErrors}`);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes the documents as an import before verdicts did (`valid` absent), and the other tenant's judged ones. */
async function seed(dir: string): Promise<void> {
  const storage = new FileStorage(dir, { durable: false });
  const now = "2026-11-20T10:00:00.000Z";
  for (const [tenant, n, judged] of [["acme", DOCS, false], ["other", OTHER_DOCS, true]] as const) {
    const t = storage.tenant(tenant) as FileTenantStore; // bulk seeding (upsertDocumentSync) is the file store's own
    for (let i = 0; i < n; i++) {
      const xml = fa3(`${tenant}/${i}`, !judged && i % 10 === 9);
      const info = await t.putBlob(xml);
      t.upsertDocumentSync({ source: "inbox", external_id: `${tenant}-${i}`, fields: fieldsFromXml(xml), xml: info, received_at: null, ...(judged ? { valid: true } : {}) }, now);
    }
    t.flush();
  }
  await storage.close();
}

await main();
