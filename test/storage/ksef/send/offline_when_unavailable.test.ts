/**
 * `offline_when_unavailable` (README "Offline invoices"): once KSeF has not answered the tenant's sender for that
 * long, new uploads are issued offline by themselves; none is lost, and when KSeF is back they are sent with
 * `offlineMode: true` (those uploaded before, or asked online explicitly, stay online).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { makeOfflineCertificate } from "../../../support/offline_certificates.ts";
import { fa3, sendSetup } from "./send_setup.ts";

test("after offline_when_unavailable without an answer from KSeF, uploads are issued offline and sent so once it is back", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "offline-when-"));
  let clock = Date.now(); // near the real time: the simulator's certificates are valid around it
  const s = await sendSetup({}, {}, undefined, "online", {}, {
    offline: makeOfflineCertificate(dir, "c", { key: "rsa2048" }), offlineWhenUnavailableMs: 10 * 60_000, now: () => clock,
  });
  try {
    const mode = async (id: string) => ((await s.get("acme", id)).ksef as { mode: string }).mode;
    s.online.failNext(1_000_000, 503);
    const before = String((await s.upload("acme", fa3("WHEN/1"))).id);
    await s.sender.passNow(); // the first pass without an answer: the outage starts now
    assert.equal(s.sender.unavailableSince("acme"), clock);
    clock += 9 * 60_000;
    const early = String((await s.upload("acme", fa3("WHEN/2"))).id);
    assert.equal(await mode(early), "online", "9 minutes: not yet");
    clock += 2 * 60_000;
    await s.sender.passNow(); // still no answer
    const auto = await s.upload("acme", fa3("WHEN/3"));
    assert.deepEqual([(auto.ksef as Record<string, unknown>).mode, (auto.ksef as Record<string, unknown>).deadline], ["offline", "2025-12-05"]);
    const asked = String((await s.upload("acme", fa3("WHEN/4"), "x.xml", { ksef_mode: "online" })).id);
    assert.equal(await mode(asked), "online", "an explicit ksef_mode=online is kept");
    assert.equal(await mode(before), "online");

    s.online.failNext(0, 503);
    clock += 60_000;
    await s.settle(10);
    assert.equal(s.sender.unavailableSince("acme"), null);
    for (const id of [before, early, String(auto.id), asked]) assert.equal(((await s.get("acme", id)).ksef as { status: string }).status, "accepted", id);
    const declared = Object.fromEntries(s.online.invoices.filter((i) => i.status.code === 200).map((i) => [i.invoiceNumber, i.offlineMode]));
    assert.deepEqual(declared, { "WHEN/1": false, "WHEN/2": false, "WHEN/3": true, "WHEN/4": false });
    const after = await s.upload("acme", fa3("WHEN/5"));
    assert.equal((after.ksef as { mode: string }).mode, "online", "KSeF answers again: online");
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// Resolves once `ready()` holds: the sender's first request has been answered (an event of another component).
async function until(ready: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !ready(); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() - started > 20_000) throw new Error(`never: ${what}`);
  }
}

test("the outage starts at KSeF's first unanswered request, not when the sender's retries give up", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "offline-when-"));
  let clock = Date.now();
  // Retries an hour apart: the pass is still retrying its first 503 when the uploads below arrive.
  const s = await sendSetup({}, { retryDelays: [3_600_000] }, undefined, "online", {}, {
    offline: makeOfflineCertificate(dir, "c", { key: "rsa2048" }), offlineWhenUnavailableMs: 3_000, now: () => clock,
  });
  try {
    s.online.failNext(1_000_000, 503);
    const first = await s.upload("acme", fa3("FIRST/1"));
    assert.equal((first.ksef as { mode: string }).mode, "online");
    void s.sender.passNow(); // ends only when the sender is closed
    await until(() => s.sender.unavailableSince("acme") !== null, "the first 503 is seen");
    assert.equal(s.sender.unavailableSince("acme"), clock, "from the first 503");
    clock += 2_999;
    assert.equal(((await s.upload("acme", fa3("FIRST/2"))).ksef as { mode: string }).mode, "online", "not yet 3 s");
    clock += 1;
    assert.equal(((await s.upload("acme", fa3("FIRST/3"))).ksef as { mode: string }).mode, "offline", "3 s after the first 503");
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
