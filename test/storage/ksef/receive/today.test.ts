/**
 * The ksef source against KSeF as open-api.json 2.6.0 and the guides describe it today: 3-month windows, key
 * rotation (21470), auth statuses 470/480, amounts in PLN, documents from metadata fetched again, the documented
 * limits. Every exchange is also held to open-api.json by the simulator (test/support/ksef_conformance.ts).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { isKsefNumber } from "../../../../lib/formats/invoice/ksef_number.ts";
import { KSEF_LIMITS, type EndpointGroup } from "../../../../storage/ksef/connection/pacing.ts";
import { addMonthsUtc, ksefSpec } from "../../../support/ksef_conformance.ts";
import { invoiceXml, NIP, PARTNER, setup, TOKEN } from "./ksef_setup.ts";

const DAY = 86_400_000;
const ZERO = { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 };

/** The date ranges of the exports a simulator received. */
function exportRanges(log: { method: string; path: string; request: unknown }[]): { from: string; to?: string }[] {
  return log.filter((e) => e.method === "POST" && e.path === "/invoices/exports").map((e) => (e.request as { filters: { dateRange: { from: string; to?: string } } }).filters.dateRange);
}

describe("ksef source: history in windows of at most 3 months", () => {
  test("a first sync from `since` eight months back walks window by window and gets everything", async () => {
    const t = await setup({}, { subjects: ["Subject2"], since: Date.now() - 240 * DAY });
    try {
      const made = [230, 150, 100, 60, 1].map((d) => t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml(`W-${d}`), invoiceNumber: `W-${d}`, at: Date.now() - d * DAY }));
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.deepEqual(run.counts, { ...ZERO, fetched: 5, created: 5 });
      assert.deepEqual(new Set((await t.docs()).map((d) => d.ksef_number)), new Set(made.map((i) => i.ksefNumber)));
      assert.ok(made.every((i) => isKsefNumber(i.ksefNumber)), "the simulator's KSeF numbers carry numer-ksef.md's CRC-8");
      const ranges = exportRanges(t.sim.log);
      assert.ok(ranges.length >= 3, `${ranges.length} exports`);
      for (const r of ranges) {
        const end = r.to ? Date.parse(r.to) : Date.now();
        assert.ok(end <= addMonthsUtc(Date.parse(r.from), 3), `${r.from} to ${r.to ?? "now"} is at most 3 months`);
      }
      assert.equal(ranges.at(-1)!.to, undefined, "the last window reaches the present");
      // Adjoining windows: each starts where the one before ended.
      for (let i = 1; i < ranges.length; i++) assert.equal(Date.parse(ranges[i]!.from), Date.parse(ranges[i - 1]!.to!));
    } finally {
      await t.close();
    }
  });

  test("without `since` a first sync reaches 3 months back, in one export per subject type", async () => {
    const t = await setup({}, { subjects: ["Subject2"] });
    try {
      t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("OLD"), invoiceNumber: "OLD", at: Date.now() - 100 * DAY });
      const recent = t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("NEW"), invoiceNumber: "NEW", at: Date.now() - 80 * DAY });
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.deepEqual((await t.docs()).map((d) => d.ksef_number), [recent.ksefNumber]);
      assert.equal(exportRanges(t.sim.log).length, 1);
    } finally {
      await t.close();
    }
  });

  test("a stored position older than 3 months resumes window by window", async () => {
    const t = await setup({}, { subjects: ["Subject2"] });
    try {
      const from = new Date(Date.now() - 200 * DAY).toISOString();
      writeFileSync(join(t.server.dataDir, "acme-ksef.json"), JSON.stringify({ positions: { Subject2: { from, seen: [] } }, completed: {}, pacing: {} }));
      const old = t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("R-190"), invoiceNumber: "R-190", at: Date.now() - 190 * DAY });
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.deepEqual((await t.docs()).map((d) => d.ksef_number), [old.ksefNumber]);
      assert.equal(exportRanges(t.sim.log)[0]!.from, from);
    } finally {
      await t.close();
    }
  });
});

describe("ksef source: KSeF's key rotation (21470)", () => {
  for (const legacyErrors of [false, true]) {
    test(`an export refused with 21470 fetches the certificates again and repeats (${legacyErrors ? "ExceptionResponse" : "Problem Details"})`, async () => {
      const t = await setup({ legacyErrors }, { subjects: ["Subject1", "Subject2"] });
      try {
        t.sim.add({ seller: NIP, buyer: PARTNER, xml: invoiceXml("K-1"), invoiceNumber: "K-1" });
        t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("K-2"), invoiceNumber: "K-2" });
        t.sim.afterExport = (n) => n === 1 && t.sim.rotateKeys(); // the second export uses the withdrawn key
        const run = await t.sync();
        assert.equal(run.status, "succeeded", JSON.stringify(run));
        assert.deepEqual(run.counts, { ...ZERO, fetched: 2, created: 2 });
        assert.equal(t.sim.stats.certificateFetches, 2);
        const refused = t.sim.log.filter((e) => e.status === 400);
        assert.equal(refused.length, 1);
        assert.equal(refused[0]!.headers["x-error-format"], "problem-details", "the client asks for Problem Details");
      } finally {
        await t.close();
      }
    });
  }

  test("an authentication refused with 21470 fetches the certificates again and authenticates", async () => {
    const t = await setup({}, { subjects: ["Subject1"] });
    try {
      t.sim.add({ seller: NIP, buyer: PARTNER, xml: invoiceXml("A-1"), invoiceNumber: "A-1" });
      let rotated = false;
      t.sim.beforeRequest = (_m, path) => {
        if (path === "/auth/ksef-token" && !rotated) (rotated = true), t.sim.rotateKeys();
      };
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.equal(t.sim.stats.authentications, 1);
      // The export's key was wrapped before the authentication met the rotation: it is refused and repeated too.
      const refused = t.sim.log.filter((e) => e.status === 400).map((e) => `${e.path} ${JSON.stringify(e.body)}`);
      assert.deepEqual(refused.map((r) => r.split(" ")[0]), ["/auth/ksef-token", "/invoices/exports"]);
      assert.ok(refused.every((r) => r.includes('"code":21470')), refused.join("\n"));
      assert.equal(t.sim.stats.certificateFetches, 3);
    } finally {
      await t.close();
    }
  });
});

describe("ksef source: authentication statuses 470 and 480", () => {
  const cases = [
    { status: 470, message: /deceased person.*generate a new KSeF token/ },
    { status: 480, message: /security incident.*contact the Ministry of Finance/ },
  ];
  for (const c of cases) {
    test(`status ${c.status} fails the run with a message the user can act on`, async () => {
      const t = await setup({}, { subjects: ["Subject1"] });
      try {
        t.sim.failNextAuthentication(c.status);
        const run = await t.sync();
        assert.equal(run.status, "failed");
        const error = run.error as { code: string; message: string };
        assert.equal(error.code, "KSEF_TOKEN_REJECTED");
        assert.match(error.message, c.message);
        assert.ok(error.message.includes(`${c.status} `));
        assert.ok(!JSON.stringify(run).includes(TOKEN.split("|")[2]!), "the token's secret is not in the run");
      } finally {
        await t.close();
      }
    });
  }
});

describe("ksef source: documents from metadata", () => {
  test("amounts: VAT in PLN labels only a PLN invoice; a foreign-currency invoice keeps its own net and gross", async () => {
    const t = await setup({}, { subjects: ["Subject2"] });
    try {
      const eur = t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("EUR-1"), invoiceNumber: "EUR-1", currency: "EUR", net: 100, vat: 99.36, gross: 123, xmlPending: true });
      const pln = t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("PLN-1"), invoiceNumber: "PLN-1", currency: "PLN", net: 200, vat: 46, gross: 246, xmlPending: true });
      assert.equal((await t.sync()).status, "succeeded");
      const docs = await t.docs();
      const of = (n: string) => docs.find((d) => d.ksef_number === n)!;
      assert.equal(of(eur.ksefNumber).xml_available, false);
      assert.equal(of(eur.ksefNumber).currency, "EUR");
      assert.deepEqual(of(eur.ksefNumber).totals, { net: "100.00", tax: null, gross: "123.00" });
      assert.deepEqual(of(pln.ksefNumber).totals, { net: "200.00", tax: "46.00", gross: "246.00" });
    } finally {
      await t.close();
    }
  });

  test("a document whose XML KSeF could not deliver is fetched again by later syncs until it arrives, then updates and moves in the feed", async () => {
    const t = await setup({}, { subjects: ["Subject2"] });
    try {
      const late = t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("LATE-1"), invoiceNumber: "LATE-1", xmlPending: true });
      const later = t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("LATE-2"), invoiceNumber: "LATE-2", xmlPending: true });
      assert.deepEqual((await t.sync()).counts, { ...ZERO, fetched: 2, created: 2 });
      const first = await t.docs();
      assert.ok(first.every((d) => d.xml_available === false));
      // Nothing new, XML still missing: asked again, nothing changes.
      assert.deepEqual((await t.sync()).counts, ZERO);
      const fresh = t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("N-1"), invoiceNumber: "N-1" });
      t.sim.release(late.ksefNumber);
      const run = await t.sync();
      assert.deepEqual(run.counts, { ...ZERO, fetched: 2, created: 1, updated: 1 });
      const feed = await t.docs();
      // Pending documents are asked for before the exports: the updated one moved past `later`, then `fresh` came.
      assert.deepEqual(feed.map((d) => d.ksef_number), [later.ksefNumber, late.ksefNumber, fresh.ksefNumber], "the updated document moved in the feed");
      const doc = feed[1]!;
      assert.equal(doc.xml_available, true);
      const xml = await t.server.fetch(`/api/v1/documents/${String(doc.id)}/xml`, t.apiToken);
      assert.deepEqual(Buffer.from(await xml.arrayBuffer()), Buffer.from(late.xml));
      const asked = t.sim.log.filter((e) => e.path === `/invoices/ksef/${later.ksefNumber}`);
      assert.equal(asked.length, 3, "the still missing one is asked for once per sync");
      assert.ok(asked.every((e) => e.headers.accept === "application/xml"), "GET /invoices/ksef/{n} asks for application/xml");
    } finally {
      await t.close();
    }
  });
});

test("the pacing limits are those of open-api.json's 429 descriptions", () => {
  const spec = ksefSpec() as unknown as { paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>> };
  const ops: [EndpointGroup, string, string][] = [
    ["metadata", "/invoices/query/metadata", "post"], ["export", "/invoices/exports", "post"],
    ["exportStatus", "/invoices/exports/{referenceNumber}", "get"], ["download", "/invoices/ksef/{ksefNumber}", "get"],
    ["auth", "/auth/challenge", "post"],
  ];
  for (const [group, path, method] of ops) {
    const table = spec.paths[path]![method]!.responses["429"]!.description!;
    const row = /\*\*Limity liczby żądań\*\*\s*\|\s*([\d-]+)\s*\|\s*([\d-]+)\s*\|\s*([\d-]+)/.exec(table);
    assert.ok(row, `${path}: ${table}`);
    const n = (v: string) => (v === "-" ? undefined : Number(v));
    const expected = Object.fromEntries(Object.entries({ perSecond: n(row[1]!), perMinute: n(row[2]!), perHour: n(row[3]!) }).filter(([, v]) => v !== undefined));
    assert.deepEqual(KSEF_LIMITS[group], expected, `${group} (${method.toUpperCase()} ${path})`);
  }
});
