/**
 * What one tenant's 10 MB invoice costs everyone: two 9.5 MB FA(3)s of minimal lines are imported by a sync,
 * then one is read as JSON (`GET /documents/{id}`, twice) and as PDF (twice), and both are listed with
 * `expand=invoice`, while `/healthz` is asked every 50 ms; the slowest `/healthz` is how long every other
 * tenant waited. Bounded: two invoices, one pass each.
 *   npx tsx bench/large_invoice.bench.ts
 * @module
 */
import process from "node:process";
import { createInvoiceWorkers } from "../storage/process/invoice_workers.ts";
import { readPdfFontFiles } from "../storage/fonts/font_files.ts";
import { minimalLinesKsef } from "../test/support/large_invoice.ts";
import { startServer } from "../test/support/server.ts";

const MAX_XML = 9.5 * 1024 * 1024;

/** Runs `work` while asking /healthz every 50 ms; the work's time and bytes, and the slowest /healthz. */
async function underProbe(url: string, work: () => Promise<number>): Promise<{ ms: number; bytes: number; healthzMaxMs: number; healthzErrors: number; rssMb: number }> {
  let stop = false;
  let worst = 0;
  let rss = 0;
  let errors = 0;
  const probe = (async () => {
    while (!stop) {
      const t = performance.now();
      try {
        await (await fetch(`${url}/healthz`)).text();
      } catch {
        errors++; // a connection reset while the loop was held: that tenant's request failed
      }
      worst = Math.max(worst, performance.now() - t);
      rss = Math.max(rss, process.memoryUsage().rss);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const t = performance.now();
  const bytes = await work();
  const ms = performance.now() - t;
  stop = true;
  await probe;
  return { ms: Math.round(ms), bytes, healthzMaxMs: Math.round(worst), healthzErrors: errors, rssMb: Math.round(rss / 1048576) };
}

// As server.ts runs it: large XML read, and its JSON and PDF made, in a worker thread.
const workers = createInvoiceWorkers(1, readPdfFontFiles());
const s = await startServer({
  storage: "memory", readInvoiceOffThread: (xml) => workers.read(xml), readInvoiceJsonOffThread: (xml) => workers.json(xml),
  renderPdfOffThread: (xml, job) => workers.pdf(xml, job),
});
try {
  const { token } = await s.token("big");
  // KSeF refuses an FA(3) over 1 MB on upload (KSEF-FILE), so the large invoices arrive as a sync imports them.
  const sizes: number[] = [];
  for (const number of ["BIG/1", "BIG/2"]) {
    const xml = minimalLinesKsef(MAX_XML - 200, number);
    s.drop("big", `${number.replace("/", "_")}.xml`, xml);
    sizes.push(xml.length);
  }
  const imported = await underProbe(s.url, async () => (await s.sync(token), sizes.reduce((a, b) => a + b)));
  console.log(JSON.stringify({ step: "sync import", ...imported }));
  const ids = ((await (await s.fetch("/api/v1/documents", token)).json()) as { data: { id: string }[] }).data.map((d) => d.id);
  if (ids.length !== 2) throw new Error(`imported ${ids.length} of 2`);
  for (const [step, path] of [["GET /documents/{id}", `/api/v1/documents/${ids[0]}`], ["GET /documents/{id}/pdf", `/api/v1/documents/${ids[0]}/pdf`]]) {
    for (const again of ["", " again"]) {
      const r = await underProbe(s.url, async () => (await (await s.fetch(path!, token)).arrayBuffer()).byteLength);
      console.log(JSON.stringify({ step: step + again, ...r }));
    }
  }
  let pages = 0;
  const list = await underProbe(s.url, async () => {
    let total = 0;
    let cursor = "";
    for (;;) {
      const res = await s.fetch(`/api/v1/documents?limit=500&expand=invoice${cursor}`, token);
      const page = JSON.parse(await res.text()) as { has_more: boolean; next_cursor: string; data: unknown[] };
      pages++;
      total += JSON.stringify(page.data).length;
      if (!page.has_more) return total;
      cursor = `&cursor=${page.next_cursor}`;
    }
  });
  console.log(JSON.stringify({ step: "GET /documents?limit=500&expand=invoice (all pages)", pages, ...list }));
} finally {
  await s.close();
  await workers.close();
}
