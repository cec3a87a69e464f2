/**
 * dueExpiryNotices(): one `ksef.certificate_expiring` notice per certificate for the nearest threshold crossed
 * (README "Webhooks"), the larger ones crossed with it settled at the same time, and nothing twice. The caller's
 * record of what was sent is played here by a set of keys, as the expiry watch keeps it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { dueExpiryNotices, type ExpiryNotice, type WatchedCertificate } from "../../lib/ksef/certificate_expiry.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2026-12-01T09:00:00.000Z");
const cert = (daysBeforeEnd: number): WatchedCertificate => ({
  tenant: "acme", source: "ksef", type: "offline", serial: "3F2A", subject: "CN=Acme", notAfter: NOW + daysBeforeEnd * DAY,
});

/** Records a check's notices as the expiry watch does: each notice's key and the keys it supersedes. */
function record(sent: Set<string>, notices: readonly ExpiryNotice[]): void {
  for (const n of notices) for (const k of [...n.supersedes, n.key]) sent.add(k);
}

test("dueExpiryNotices() gives a certificate first seen 5 days before its end one notice, for the 7-day threshold", () => {
  const c = cert(5);
  const due = dueExpiryNotices([c], NOW, new Set());
  assert.equal(due.length, 1);
  assert.deepEqual(due[0], {
    tenant: "acme", threshold: 7, key: "acme/ksef/offline/3F2A/7", supersedes: ["acme/ksef/offline/3F2A/30"], dueAt: c.notAfter - 7 * DAY,
    payload: { source: "ksef", type: "offline", serial: "3F2A", subject: "CN=Acme", not_after: "2026-12-06T09:00:00.000Z", days_left: 5, threshold_days: 7 },
  });
});

test("dueExpiryNotices() then gives the same certificate one 1-day notice at half a day left, and never the 30-day one", () => {
  const c = cert(5);
  const sent = new Set<string>();
  record(sent, dueExpiryNotices([c], NOW, sent));
  assert.deepEqual(dueExpiryNotices([c], NOW + 2 * DAY, sent), [], "3 days left: nothing new");
  const last = dueExpiryNotices([c], NOW + 4.5 * DAY, sent);
  assert.deepEqual(last.map((n) => [n.threshold, n.payload.threshold_days, n.payload.days_left, n.supersedes]), [[1, 1, 0, []]]);
  record(sent, last);
  assert.deepEqual(dueExpiryNotices([c], NOW + 4.9 * DAY, sent), []);
  assert.deepEqual(dueExpiryNotices([c], NOW + 6 * DAY, sent), [], "after its end: nothing more");
});

test("dueExpiryNotices() gives a certificate first seen 20 days before its end the 30-day notice, superseding nothing", () => {
  const due = dueExpiryNotices([cert(20)], NOW, new Set());
  assert.deepEqual(due.map((n) => [n.threshold, n.payload.threshold_days, n.payload.days_left, n.supersedes]), [[30, 30, 20, []]]);
});

test("dueExpiryNotices() sends each threshold once as a certificate walks through all three", () => {
  const c = cert(40);
  const sent = new Set<string>();
  const fired: number[] = [];
  // Checked every hour from 40 days before the end to 1 day after it.
  for (let t = NOW; t <= c.notAfter + DAY; t += DAY / 24) {
    const due = dueExpiryNotices([c], t, sent);
    fired.push(...due.map((n) => n.threshold));
    record(sent, due);
  }
  assert.deepEqual(fired, [30, 7, 1]);
});

test("dueExpiryNotices() gives a certificate that has already ended one 1-day notice, superseding the 30- and 7-day ones", () => {
  const due = dueExpiryNotices([cert(-2)], NOW, new Set());
  assert.deepEqual(due.map((n) => [n.threshold, n.payload.days_left, n.supersedes]), [[1, 0, ["acme/ksef/offline/3F2A/30", "acme/ksef/offline/3F2A/7"]]]);
});

test("dueExpiryNotices() does not supersede a threshold already sent, and says nothing for a certificate far from its end", () => {
  const due = dueExpiryNotices([cert(5)], NOW, new Set(["acme/ksef/offline/3F2A/30"]));
  assert.deepEqual(due.map((n) => [n.threshold, n.supersedes]), [[7, []]]);
  assert.deepEqual(dueExpiryNotices([cert(31)], NOW, new Set()), []);
});
