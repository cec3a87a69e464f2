import assert from "node:assert/strict";
import { test } from "node:test";
import { PACING_MARGIN_MS, Pacer } from "../../../../storage/ksef/connection/pacing.ts";

test("Pacer waits until the oldest request that fills a window has left it", () => {
  const cases = [
    { what: "under every limit", limit: { perSecond: 2 }, at: [0], now: 10, expected: 0 },
    { what: "per second full", limit: { perSecond: 2 }, at: [0, 400], now: 500, expected: 500 + PACING_MARGIN_MS },
    { what: "per minute full", limit: { perSecond: 10, perMinute: 2 }, at: [1000, 2000], now: 3000, expected: 58_000 + PACING_MARGIN_MS },
    { what: "per hour full, the longest wins", limit: { perSecond: 1, perHour: 2 }, at: [0, 5000], now: 5000, expected: 3_595_000 + PACING_MARGIN_MS },
  ];
  for (const c of cases) {
    const p = new Pacer({ export: c.limit });
    for (const t of c.at) p.record("export", t);
    assert.equal(p.delay("export", c.now), c.expected, c.what);
  }
  // History survives a restart through its snapshot.
  const p = new Pacer({ export: { perHour: 1 } });
  p.record("export", 1000);
  assert.equal(new Pacer({ export: { perHour: 1 } }, p.snapshot(2000)).delay("export", 2000), 3_599_000 + PACING_MARGIN_MS);
});
