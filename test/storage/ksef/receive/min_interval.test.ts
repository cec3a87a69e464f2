/**
 * The minimum interval between two exports of one subject type (README "KSeF", `min_interval`): none on the
 * test and demo environments, 15 minutes on production (limity/limity-api.md recommends it for production
 * schedules), and a run that skips a subject type for it says so in `skipped` instead of reading as "nothing new".
 * The source's clock is the test's: it stands still unless the test (or a wait of the source) moves it.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseKsefSourceConfig } from "../../../../storage/ksef/connection/config.ts";
import { validate, type Schema } from "../../../support/json_schema.ts";
import { invoiceXml, NIP, PARTNER, setup, TOKEN } from "./ksef_setup.ts";

const MINUTE = 60_000;
const ZERO = { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 };
const SUBJECTS = ["Subject1", "Subject2", "Subject3"];

/** A server whose ksef source is configured as `entry` says (its requests go to the simulator), on a clock the test moves. */
async function start(entry: Record<string, unknown>) {
  const config = parseKsefSourceConfig({ name: "ksef", type: "ksef", nip: NIP, token: TOKEN, ...entry }, "acme[0]");
  const t0 = Date.now();
  let clock = t0;
  const t = await setup({}, { minIntervalMs: config.minIntervalMs, now: () => clock, sleep: async (ms) => void (clock += ms) });
  /** Adds invoices bought from a partner (the buyer's role, Subject2). */
  const arrive = (n: number, prefix: string) => {
    for (let i = 0; i < n; i++) t.sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml(`${prefix}-${i}`), invoiceNumber: `${prefix}-${i}` });
  };
  return { ...t, t0, arrive, at: (ms: number) => void (clock = t0 + ms), requests: () => t.sim.log.length };
}

describe("ksef source: the minimum interval per subject type", () => {
  for (const environment of ["test", "demo"]) {
    test(`on the ${environment} environment two syncs a minute apart both ask KSeF, and the second imports what arrived`, async () => {
      const t = await start({ environment });
      try {
        t.arrive(1, "A");
        const first = await t.sync();
        assert.deepEqual([first.status, first.counts, first.skipped], ["succeeded", { ...ZERO, fetched: 1, created: 1 }, []], JSON.stringify(first));
        const exports = t.sim.stats.exports;
        t.at(MINUTE);
        t.arrive(7, "B");
        const second = await t.sync();
        assert.equal(second.status, "succeeded", JSON.stringify(second));
        assert.deepEqual(second.counts, { ...ZERO, fetched: 7, created: 7 });
        assert.deepEqual(second.skipped, []);
        assert.equal(t.sim.stats.exports, exports + SUBJECTS.length, "every subject type was exported again");
        assert.equal((await t.docs()).length, 8);
      } finally {
        await t.close();
      }
    });
  }

  const cases = [
    { what: "on production (15 minutes by default)", entry: { environment: "prod" }, interval: 15 * MINUTE },
    { what: "with `min_interval` set on the test environment", entry: { environment: "test", min_interval: "5m" }, interval: 5 * MINUTE },
  ];
  for (const c of cases) {
    test(`${c.what} a sync inside the interval asks KSeF nothing and lists every subject type as skipped, until when`, async () => {
      const t = await start(c.entry);
      try {
        t.arrive(1, "A");
        assert.deepEqual((await t.sync()).counts, { ...ZERO, fetched: 1, created: 1 });
        const requests = t.requests();
        t.at(MINUTE);
        t.arrive(7, "B");
        const second = await t.sync();
        assert.equal(second.status, "succeeded", JSON.stringify(second));
        assert.deepEqual(second.counts, ZERO);
        assert.equal(t.requests(), requests, "no request went to KSeF");
        // Each subject type may be exported again `interval` after its last export (at t0), not after this run.
        const nextAt = new Date(t.t0 + c.interval).toISOString();
        assert.deepEqual(second.skipped, SUBJECTS.map((part) => ({ source: "ksef", part, reason: "min_interval", next_at: nextAt })));
        // The skipped run is also what its id reads later, in the shape the OpenAPI document gives.
        const again = (await (await t.server.fetch(`/api/v1/documents/sync/${String(second.id)}`, t.apiToken)).json()) as Record<string, unknown>;
        assert.deepEqual(again.skipped, second.skipped);
        const doc = (await (await t.server.fetch("/api/v1/openapi.json", null)).json()) as { components: { schemas: Record<string, Schema> } };
        assert.deepEqual(validate(doc.components.schemas.SyncRun!, again, doc), []);
        t.at(c.interval - 1);
        assert.deepEqual((await t.sync()).skipped, second.skipped, "a millisecond before next_at it is still too soon");
        t.at(c.interval);
        const third = await t.sync();
        assert.deepEqual([third.status, third.counts, third.skipped], ["succeeded", { ...ZERO, fetched: 7, created: 7 }, []], JSON.stringify(third));
        assert.equal((await t.docs()).length, 8);
      } finally {
        await t.close();
      }
    });
  }
});
