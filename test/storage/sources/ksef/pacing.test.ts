import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Pacer } from "../../../../storage/sources/ksef/pacing.ts";
import { ksefSource } from "../../../../storage/sources/ksef/source.ts";
import { startKsefSimulator } from "../../../support/ksef_simulator.ts";
import { FAST, invoiceXml, NIP, PARTNER, TOKEN } from "./ksef_setup.ts";

test("Pacer waits until the oldest request that fills a window has left it", () => {
  const cases = [
    { what: "under every limit", limit: { perSecond: 2 }, at: [0], now: 10, expected: 0 },
    { what: "per second full", limit: { perSecond: 2 }, at: [0, 400], now: 500, expected: 500 },
    { what: "per minute full", limit: { perSecond: 10, perMinute: 2 }, at: [1000, 2000], now: 3000, expected: 58_000 },
    { what: "per hour full, the longest wins", limit: { perSecond: 1, perHour: 2 }, at: [0, 5000], now: 5000, expected: 3_595_000 },
  ];
  for (const c of cases) {
    const p = new Pacer({ export: c.limit });
    for (const t of c.at) p.record("export", t);
    assert.equal(p.delay("export", c.now), c.expected, c.what);
  }
  // History survives a restart through its snapshot.
  const p = new Pacer({ export: { perHour: 1 } });
  p.record("export", 1000);
  assert.equal(new Pacer({ export: { perHour: 1 } }, p.snapshot(2000)).delay("export", 2000), 3_599_000);
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
    assert.ok(hour !== undefined && hour <= 3_600_000, `waited ${slept.join(", ")} ms`);
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
