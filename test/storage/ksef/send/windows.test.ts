import assert from "node:assert/strict";
import { test } from "node:test";
import { SlidingWindows } from "../../../../storage/ksef/send/windows.ts";

test("SlidingWindows keeps every window: a full second, then a full minute, is waited out", () => {
  const w = new SlidingWindows({ send: { perSecond: 2, perMinute: 3 } });
  const t = 1_000_000;
  assert.equal(w.delay("send", t), 0);
  w.record("send", t);
  w.record("send", t + 10);
  assert.equal(w.delay("send", t + 20), 1000 + 250 - 20, "the second is full until the first request leaves it");
  w.record("send", t + 1300);
  assert.equal(w.delay("send", t + 1400), 60_000 + 250 - 1400, "then the minute is full");
  assert.equal(w.delay("send", t + 61_000), 0);
});
