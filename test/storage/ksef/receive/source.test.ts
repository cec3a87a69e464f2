import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { PACING_MARGIN_MS } from "../../../../storage/ksef/connection/pacing.ts";
import { ksefSource } from "../../../../storage/ksef/receive/source.ts";
import { startKsefSimulator } from "../../../support/ksef_simulator.ts";
import { FAST, invoiceXml, NIP, OTHER, PARTNER, setup, TOKEN } from "./ksef_setup.ts";

const ZERO = { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 };

describe("ksef source against the KSeF simulator", () => {
  test("a first sync stores every invoice of the NIP in every role once, with its KSeF number", async () => {
    const t = await setup();
    try {
      const sold = t.sim.add({ seller: NIP, buyer: PARTNER, xml: invoiceXml("S-1"), invoiceNumber: "S-1" });
      const bought = t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("B-1"), invoiceNumber: "B-1" });
      const third = t.sim.add({ seller: PARTNER, buyer: OTHER, third: NIP, xml: invoiceXml("T-1"), invoiceNumber: "T-1" });
      t.sim.add({ seller: PARTNER, buyer: OTHER, xml: invoiceXml("X-1"), invoiceNumber: "X-1" }); // not ours
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.deepEqual(run.counts, { ...ZERO, fetched: 3, created: 3 });
      assert.equal(run.waiting_until, null);
      const docs = await t.docs();
      assert.deepEqual(docs.map((d) => d.ksef_number).sort(), [sold, bought, third].map((i) => i.ksefNumber).sort());
      for (const d of docs) {
        assert.equal(d.external_id, d.ksef_number);
        assert.equal(d.source, "ksef");
        assert.equal(d.xml_available, true);
      }
      const xml = await t.server.fetch(`/api/v1/documents/${String(docs.find((d) => d.ksef_number === bought.ksefNumber)!.id)}/xml`, t.apiToken);
      assert.deepEqual(Buffer.from(await xml.arrayBuffer()), Buffer.from(bought.xml));
      // The filter finds one by its KSeF number, in both list modes; a malformed number is 400.
      for (const mode of ["", "&page=1"]) {
        const found = await t.docs(`&ksef_number=${third.ksefNumber}${mode}`);
        assert.deepEqual(found.map((d) => d.ksef_number), [third.ksefNumber]);
      }
      assert.equal((await t.server.fetch("/api/v1/documents?ksef_number=nope", t.apiToken)).status, 400);
      // The PDF heads with the KSeF number and prints it under the QR code.
      const pdf = await t.server.fetch(`/api/v1/documents/${String(docs.find((d) => d.ksef_number === sold.ksefNumber)!.id)}/pdf`, t.apiToken);
      assert.equal(pdf.status, 200);
      const text = spawnSync("pdftotext", ["-", "-"], { input: Buffer.from(await pdf.arrayBuffer()) }).stdout.toString();
      assert.ok(text.split(sold.ksefNumber).length - 1 >= 2, text);
      assert.equal(t.sim.stats.throttled, 0, "no request went past a documented limit");
      assert.equal(t.sim.stats.authentications, 1);
    } finally {
      await t.close();
    }
  });

  test("later syncs fetch only what is new", async () => {
    const t = await setup({}, { subjects: ["Subject1", "Subject2"] });
    try {
      t.sim.add({ seller: NIP, buyer: PARTNER, xml: invoiceXml("A-1"), invoiceNumber: "A-1" });
      assert.deepEqual((await t.sync()).counts, { ...ZERO, fetched: 1, created: 1 });
      assert.deepEqual((await t.sync()).counts, ZERO);
      t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("A-2"), invoiceNumber: "A-2" });
      t.sim.add({ seller: NIP, buyer: OTHER, xml: invoiceXml("A-3"), invoiceNumber: "A-3" });
      const third = await t.sync();
      assert.equal(third.status, "succeeded", JSON.stringify(third));
      assert.deepEqual(third.counts, { ...ZERO, fetched: 2, created: 2 });
      assert.equal((await t.docs()).length, 3);
      assert.equal(t.sim.stats.throttled, 0);
    } finally {
      await t.close();
    }
  });

  test("truncated packages continue from LastPermanentStorageDate without fetching anything twice", async () => {
    const t = await setup({ packageLimit: 3, partSize: 700 }, { subjects: ["Subject2"] });
    try {
      for (let i = 0; i < 8; i++) t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml(`TR-${i}`), invoiceNumber: `TR-${i}` });
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.deepEqual(run.counts, { ...ZERO, fetched: 8, created: 8 });
      assert.ok(t.sim.stats.exports >= 3, `${t.sim.stats.exports} exports`);
      assert.equal(new Set((await t.docs()).map((d) => d.ksef_number)).size, 8);
      assert.equal(t.sim.stats.throttled, 0);
    } finally {
      await t.close();
    }
  });

  test("a 429 storm is waited out per Retry-After, and the run shows it is waiting", async () => {
    const t = await setup({ retryAfter: 3 }, { subjects: ["Subject2"] });
    try {
      t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml("R-1"), invoiceNumber: "R-1" });
      t.sim.failNext(4, 429);
      const res = await t.server.fetch("/api/v1/documents/sync", t.apiToken, { method: "POST" });
      const id = ((await res.json()) as { id: string }).id;
      let waiting: unknown = null;
      // Asked until the run shows its wait or ends (it waits 3 s a time): bounded by time, not by a count of tries.
      const until = Date.now() + 60_000;
      while (waiting === null && Date.now() < until) {
        const run = (await (await t.server.fetch(`/api/v1/documents/sync/${id}`, t.apiToken)).json()) as Record<string, unknown>;
        if (run.status !== "queued" && run.status !== "running") break;
        waiting = run.waiting_until;
        if (waiting === null) await new Promise((r) => setTimeout(r, 5));
      }
      assert.ok(typeof waiting === "string" && !Number.isNaN(Date.parse(waiting)), "the run showed waiting_until while it waited");
      await t.server.app.sync.idle();
      const done = (await (await t.server.fetch(`/api/v1/documents/sync/${id}`, t.apiToken)).json()) as Record<string, unknown>;
      assert.equal(done.status, "succeeded", JSON.stringify(done));
      assert.equal(done.waiting_until, null);
      assert.deepEqual(done.counts, { ...ZERO, fetched: 1, created: 1 });
    } finally {
      await t.close();
    }
  });

  test("an access token that expires mid-run is refreshed, without a new authentication", async () => {
    const t = await setup({ packageLimit: 2 }, { subjects: ["Subject1"] });
    try {
      for (const n of ["E-1", "E-2", "E-3"]) t.sim.add({ seller: NIP, buyer: PARTNER, xml: invoiceXml(n), invoiceNumber: n });
      t.sim.afterExport = () => t.sim.expireAccessTokens(); // every export's status poll meets a dead access token
      const run = await t.sync();
      assert.equal(run.status, "succeeded", JSON.stringify(run));
      assert.deepEqual(run.counts, { ...ZERO, fetched: 3, created: 3 });
      assert.equal(t.sim.stats.authentications, 1, "one authentication");
      assert.ok(t.sim.stats.refreshes >= 2, `${t.sim.stats.refreshes} refreshes`);
    } finally {
      await t.close();
    }
  });

  test("KSeF 5xx is retried with backoff; past the retries the run fails with KSEF_UNAVAILABLE and keeps what it stored", async () => {
    const t = await setup({}, { subjects: ["Subject1"] });
    try {
      t.sim.add({ seller: NIP, buyer: PARTNER, xml: invoiceXml("F-1"), invoiceNumber: "F-1" });
      t.sim.failNext(2, 503);
      assert.deepEqual((await t.sync()).counts, { ...ZERO, fetched: 1, created: 1 });
      t.sim.failNext(100, 502);
      const failed = await t.sync();
      assert.equal(failed.status, "failed");
      assert.equal((failed.error as { code: string }).code, "KSEF_UNAVAILABLE");
      assert.equal((await t.docs()).length, 1);
    } finally {
      await t.close();
    }
  });
});

describe("ksef source: errors a user can act on", () => {
  const cases = [
    { what: "a wrong token", sim: {}, source: { token: `${TOKEN.slice(0, -4)}beef` }, code: "KSEF_TOKEN_REJECTED" },
    { what: "a token without InvoiceRead", sim: { tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceWrite"] }] }, source: {}, code: "KSEF_PERMISSION_DENIED" },
    { what: "a NIP the token has no rights for", sim: {}, source: { nip: PARTNER }, code: "KSEF_WRONG_NIP" },
    { what: "expired KSeF certificates", sim: { certificateValidTo: "2020-01-01T00:00:00Z" }, source: {}, code: "KSEF_CERTIFICATE_EXPIRED" },
  ];
  for (const c of cases) {
    test(`${c.what} fails the run with ${c.code}, without the token in the answer`, async () => {
      const t = await setup(c.sim, c.source);
      try {
        const run = await t.sync();
        assert.equal(run.status, "failed");
        const error = run.error as { code: string; message: string };
        assert.equal(error.code, c.code, error.message);
        assert.ok(error.message.length > 20);
        assert.ok(!JSON.stringify(run).includes(TOKEN.split("|")[2]!), "the token's secret is not in the run");
      } finally {
        await t.close();
      }
    });
  }

  test("a package that does not decrypt fails with KSEF_PACKAGE_UNDECRYPTABLE; the next sync gets it", async () => {
    const t = await setup({}, { subjects: ["Subject1"] });
    try {
      t.sim.add({ seller: NIP, buyer: PARTNER, xml: invoiceXml("C-1"), invoiceNumber: "C-1" });
      t.sim.corruptNextPackage();
      const run = await t.sync();
      assert.equal(run.status, "failed");
      assert.equal((run.error as { code: string }).code, "KSEF_PACKAGE_UNDECRYPTABLE");
      assert.deepEqual((await t.sync()).counts, { ...ZERO, fetched: 1, created: 1 });
    } finally {
      await t.close();
    }
  });
});

test("the source keeps to KSeF's hourly export limit by waiting, and says until when", async () => {
  const sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead"] }] });
  const dir = mkdtempSync(join(tmpdir(), "ksef-pacing-"));
  let clock = Date.now();
  const slept: number[] = [];
  const waits: (number | null)[] = [];
  try {
    for (const [s, b] of [[NIP, PARTNER], [PARTNER, NIP]] as const) sim.add({ seller: s, buyer: b, xml: invoiceXml(`P-${s}`), invoiceNumber: `P-${s}` });
    const source = ksefSource({
      name: "ksef", baseUrl: sim.url, nip: NIP, token: TOKEN, subjects: ["Subject1", "Subject2", "Subject3"], stateFile: join(dir, "state.json"),
      now: () => clock,
      sleep: async (ms) => void (slept.push(ms), (clock += ms)),
      tuning: { ...FAST, limits: { export: { perSecond: 4, perMinute: 8, perHour: 2 } } },
    });
    const got: string[] = [];
    for await (const item of source.pull(new AbortController().signal, { waiting: async (until) => void waits.push(until) })) {
      got.push(item.external_id);
      await item.ack();
    }
    assert.equal(got.length, 2);
    assert.equal(sim.stats.exports, 3);
    const hour = slept.find((ms) => ms > 3_000_000);
    assert.ok(hour !== undefined && hour <= 3_600_000 + PACING_MARGIN_MS, `waited ${slept.join(", ")} ms`);
    assert.ok(waits.some((u) => u !== null && u >= clock - 1000), "the wait was reported with its end");
    assert.equal(waits.at(-1), null, "and its end was reported");
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a pull abandoned mid-package (a crash) re-reads that package on the next pull: nothing lost", async () => {
  const sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead"] }], packageLimit: 4 });
  const dir = mkdtempSync(join(tmpdir(), "ksef-resume-"));
  try {
    for (let i = 0; i < 10; i++) sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml(`M-${i}`), invoiceNumber: `M-${i}` });
    const make = () => ksefSource({ name: "ksef", baseUrl: sim.url, nip: NIP, token: TOKEN, subjects: ["Subject2"], stateFile: join(dir, "state.json"), tuning: FAST });
    const stored = new Set<string>();
    let n = 0;
    for await (const item of make().pull(new AbortController().signal)) {
      if (++n === 6) break; // dies holding the 6th item (2nd package), before storing it
      stored.add(item.external_id);
      await item.ack();
    }
    const again: string[] = [];
    for await (const item of make().pull(new AbortController().signal)) {
      again.push(item.external_id);
      await item.ack();
    }
    assert.ok(again.length < 10, "the first package is not read again");
    assert.deepEqual(new Set([...stored, ...again]), new Set(sim.invoices.map((i) => i.ksefNumber)));
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
