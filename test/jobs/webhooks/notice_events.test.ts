/**
 * The events of the notices feed (README "Webhooks"): a notice is its event, and its id comes from the notice's
 * key and due time, so the same notice appended twice (a crash after the append, before it was recorded as sent)
 * is one `webhook-id` to a receiver that deduplicates.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { NoticeRecord, RawChange } from "../../../lib/contracts/storage.ts";
import { eventOf } from "../../../lib/jobs/webhooks/endpoint_pass.ts";

const enc = new TextEncoder();
const data = { source: "ksef", type: "authentication", serial: "3F2A", subject: "CN=Firma", not_after: "2026-12-04T03:00:00.000Z", days_left: 4 };

function change(seq: number, n: NoticeRecord): RawChange {
  return { seq, json: enc.encode(JSON.stringify(n)), first: true };
}

function notice(key: string, createdAt: string): NoticeRecord {
  return { key, due_at: "2026-11-27T03:00:00.000Z", type: "ksef.certificate_expiring", created_at: createdAt, data };
}

test("eventOf() makes a notice its event: its type, its time as the timestamp, its data", () => {
  const ev = eventOf("acme", "notices", change(0, notice("acme/ksef/authentication/3F2A/7", "2026-11-29T03:00:00.000Z")))!;
  assert.deepEqual({ ...ev, id: undefined }, { id: undefined, type: "ksef.certificate_expiring", timestamp: "2026-11-29T03:00:00.000Z", data });
  assert.match(ev.id, /^evt_[0-9A-Z]{26}$/);
});

test("eventOf() gives a notice appended twice one event id, and other notices or tenants other ids", () => {
  const key = "acme/ksef/authentication/3F2A/7";
  const first = eventOf("acme", "notices", change(0, notice(key, "2026-11-29T03:00:00.000Z")))!;
  const again = eventOf("acme", "notices", change(5, notice(key, "2026-11-29T04:00:00.000Z")))!;
  assert.equal(again.id, first.id);
  assert.notEqual(eventOf("acme", "notices", change(0, notice("acme/ksef/authentication/3F2A/30", "2026-11-29T03:00:00.000Z")))!.id, first.id);
  assert.notEqual(eventOf("other", "notices", change(0, notice(key, "2026-11-29T03:00:00.000Z")))!.id, first.id);
});

test("an endpoint whose saved delivery state predates the notices feed reads it from its beginning", async () => {
  const { MemoryStorage } = await import("../../../storage/memory.ts");
  const { createWebhookWorker } = await import("../../../lib/jobs/webhooks/worker.ts");
  const { generateWebhookSecret } = await import("../../../lib/jobs/webhooks/signature.ts");
  const storage = new MemoryStorage();
  const t = storage.tenant("acme");
  const hook = await t.createWebhook({ url: "https://example.com/hook", events: ["ksef.certificate_expiring"], description: null, secret: generateWebhookSecret(), created_at: "2026-11-01T00:00:00.000Z" });
  // As saved by a version without the notices feed: no position in it.
  await t.saveDeliveryState(hook.id, { positions: { documents: 0, submissions: 0, runs: 0 }, retries: [] });
  await t.appendNotice(notice("acme/ksef/authentication/3F2A/30", "2026-11-29T03:00:00.000Z"));
  const sent: string[] = [];
  const worker = createWebhookWorker({
    storage, schedule: [1000], now: () => Date.parse("2026-11-29T03:00:01.000Z"), nodeId: "n1",
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {}, enabled: () => false },
    transport: async (req) => (sent.push((JSON.parse(req.body) as { type: string }).type), { status: 204, retryAfter: null }),
  });
  assert.equal(await worker.depth(), 1, "the notice counts as not yet delivered");
  await worker.runOnce();
  assert.deepEqual(sent, ["ksef.certificate_expiring"]);
  assert.equal((await t.getDeliveryState(hook.id))!.positions.notices, 1);
  assert.equal(await worker.depth(), 0);
  await worker.stop();
});
