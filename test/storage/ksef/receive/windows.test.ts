import assert from "node:assert/strict";
import { test } from "node:test";
import { addMonthsUtc, defaultSince, OPEN_WINDOW_MARGIN_MS, windowEnd } from "../../../../storage/ksef/receive/windows.ts";

const iso = (ms: number): string => new Date(ms).toISOString();

test("addMonthsUtc() clamps to the month's last day, as .NET's AddMonths", () => {
  assert.equal(iso(addMonthsUtc(Date.parse("2026-01-31T10:00:00Z"), 3)), "2026-04-30T10:00:00.000Z");
  assert.equal(iso(addMonthsUtc(Date.parse("2025-11-30T00:00:00Z"), 3)), "2026-02-28T00:00:00.000Z");
  assert.equal(iso(addMonthsUtc(Date.parse("2026-05-31T12:00:00Z"), -3)), "2026-02-28T12:00:00.000Z");
});

test("windowEnd() closes a window whose 3 months lie in the past and leaves one reaching the present open", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");
  assert.equal(windowEnd("2026-03-10T00:00:00.000Z", now), "2026-06-10T00:00:00.000Z");
  assert.equal(windowEnd("2026-09-01T00:00:00.000Z", now), null);
  // Within the margin of the present, a window is still closed: KSeF's clock may run ahead of ours.
  assert.equal(windowEnd(iso(addMonthsUtc(now, -3) + OPEN_WINDOW_MARGIN_MS / 2), now) !== null, true);
});

test("defaultSince() is one open window back, whatever the day of the year", () => {
  for (let day = 0; day < 366 * 2; day++) {
    const now = Date.parse("2026-01-01T23:30:00Z") + day * 86_400_000;
    const since = defaultSince(now);
    assert.equal(windowEnd(iso(since), now), null, iso(now));
    assert.ok(now - since >= 88 * 86_400_000, iso(now));
  }
});
