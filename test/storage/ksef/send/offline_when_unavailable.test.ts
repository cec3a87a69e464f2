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
