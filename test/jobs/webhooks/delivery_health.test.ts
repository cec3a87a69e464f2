import assert from "node:assert/strict";
import { test } from "node:test";
import type { DeliveryAttempt, DeliveryState } from "../../../lib/contracts/storage.ts";
import { applyResume, recordAttempt, shortMessage, statusMessage, type AttemptOf } from "../../../lib/jobs/webhooks/delivery_health.ts";
import { createJsonLogger } from "../../../lib/observe/log.ts";
import { MemoryStorage } from "../../../storage/memory.ts";

const state = (): DeliveryState => ({
  positions: { documents: 3, submissions: 0, runs: 0 },
  retries: [
    { event_id: "evt_A", type: "document.created", collection: "documents", seq: 1, attempts: 4, next_at: 9_000 },
    { event_id: "evt_B", type: "document.created", collection: "documents", seq: 2, attempts: 1, next_at: 5_000 },
  ],
});

test("applyResume() makes every waiting retry due now on a fresh schedule, once per re-enabling", () => {
  const s = state();
  assert.equal(applyResume(s, null, 100), false);
  assert.equal(applyResume(s, "2026-11-21T12:00:00.000Z", 100), true);
  assert.deepEqual(s.retries.map((r) => [r.event_id, r.next_at, r.attempts]), [["evt_A", 100, 0], ["evt_B", 100, 0]]);
  s.retries[0]!.next_at = 7_000;
  assert.equal(applyResume(s, "2026-11-21T12:00:00.000Z", 200), false, "the same re-enabling is applied once");
  assert.equal(s.retries[0]!.next_at, 7_000);
});

test("recordAttempt() counts failures until a success, logs them at warn, and appends each attempt", async () => {
  const t = new MemoryStorage().tenant("acme");
  const lines: Record<string, unknown>[] = [];
  const logger = createJsonLogger("debug", (l) => void lines.push(JSON.parse(l) as Record<string, unknown>));
  const s = state();
  const of: AttemptOf = { eventId: "evt_A", type: "document.created", collection: "documents", changeSeq: 1, attempt: 1, manual: false };
  await recordAttempt(t, "whk_1", s, of, { ok: false, status: 503, error: statusMessage(503), durationMs: 12.4 }, Date.UTC(2026, 0, 1), logger);
  await recordAttempt(t, "whk_1", s, { ...of, attempt: 2 }, { ok: false, status: null, error: "x".repeat(500), durationMs: 3 }, Date.UTC(2026, 0, 2), logger);
  assert.equal(s.health!.consecutive_failures, 2);
  assert.deepEqual(s.health!.last_error, { status: null, message: shortMessage("x".repeat(500)) });
  assert.equal(s.health!.last_error!.message.length, 200);
  assert.deepEqual(lines.map((l) => [l.level, l.msg, l.webhook, l.event]), [["warn", "webhook delivery failed", "whk_1", "evt_A"], ["warn", "webhook delivery failed", "whk_1", "evt_A"]]);
  await recordAttempt(t, "whk_1", s, { ...of, attempt: 3 }, { ok: true, status: 204, error: null, durationMs: 1 }, Date.UTC(2026, 0, 3), logger);
  assert.deepEqual(s.health, { last_attempt_at: "2026-01-03T00:00:00.000Z", last_success_at: "2026-01-03T00:00:00.000Z", last_error: null, consecutive_failures: 0 });
  assert.equal(lines.length, 2, "a success is not logged at warn");
  const log: DeliveryAttempt[] = (await t.deliveryAttempts("whk_1", 0, 10, "2025-01-01T00:00:00.000Z")).items;
  assert.deepEqual(log.map((a) => [a.attempt, a.status_code, a.duration_ms, a.error?.slice(0, 8) ?? null]), [[1, 503, 12, "HTTP 503"], [2, null, 3, "xxxxxxxx"], [3, 204, 1, null]]);
  assert.equal(statusMessage(302), "HTTP 302: redirects are not followed");
});
