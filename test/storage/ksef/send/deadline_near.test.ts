/**
 * `submission.ksef_deadline_near` (README "Offline invoices"): fired once for an offline submission still waiting
 * for KSeF when less than 12 hours remain before its deadline ends (midnight, Warsaw time), with the injected clock,
 * during an outage, and not again after a restart of the sender.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { silentLogger } from "../../../../lib/observe/log.ts";
import { createKsefSender } from "../../../../storage/ksef/send/job.ts";
import { makeOfflineCertificate } from "../../../support/offline_certificates.ts";
import { addPolishWorkingDays, endOfWarsawDay, warsawDate } from "../../../../lib/ksef/working_days.ts";
import { FAST_SEND, fa3, NIP, receiver, sendSetup, TOKEN } from "./send_setup.ts";

test("the deadline-near event fires once, 12 hours before the deadline ends, also while KSeF is down and after a restart", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "deadline-near-"));
  // Issued today (the simulator's certificates are valid around the real time): offline24's deadline is the next
  // working day, which ends at midnight Warsaw time.
  const today = warsawDate(Date.now());
  const ends = endOfWarsawDay(addPolishWorkingDays(today, 1));
  const xml = (n: string) => fa3(n).toString().replace(/<P_1>[^<]*<\/P_1>/, `<P_1>${today}</P_1>`);
  let clock = ends - 13 * 3_600_000;
  const s = await sendSetup({}, {}, undefined, "online", {}, { offline: makeOfflineCertificate(dir, "c", { key: "p256" }), now: () => clock });
  const rx = await receiver();
  try {
    const hook = await s.server.fetch("/api/v1/webhooks", s.tokens.acme, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: rx.url, events: ["submission.ksef_deadline_near"] }),
    });
    assert.equal(hook.status, 201);
    s.online.failNext(1_000_000, 503); // KSeF is down: the invoice waits
    const off = String((await s.upload("acme", Buffer.from(xml("NEAR/1")), "near.xml", { ksef_mode: "offline" })).id);
    const on = String((await s.upload("acme", Buffer.from(xml("NEAR/2")))).id);
    await s.sender.passNow();
    await s.server.app.webhooks!.runOnce();
    assert.deepEqual(rx.types(), [], "13 hours left: not near");
    clock = ends - 11.5 * 3_600_000;
    await s.sender.passNow();
    await s.server.app.webhooks!.runOnce();
    assert.deepEqual(rx.types(), ["submission.ksef_deadline_near"]);
    const data = rx.bodies[0]!.data as { id: string; ksef: Record<string, unknown> };
    assert.equal(data.id, off);
    assert.equal(data.ksef.deadline_warned_at, new Date(clock).toISOString());
    assert.equal(((await s.get("acme", on)).ksef as Record<string, unknown>).deadline_warned_at, null, "an online invoice has no deadline");
    clock += 5 * 60_000;
    await s.sender.passNow();
    // Another sender, as after a restart: the mark is stored, so the event does not fire again.
    const again = createKsefSender({
      storage: s.server.storage, nodeId: "test-node", logger: silentLogger, now: () => clock, tuning: FAST_SEND,
      configs: () => [{ tenant: "acme", baseUrl: s.sim.url, nip: NIP, token: TOKEN }],
    });
    await again.passNow();
    await again.close();
    s.online.failNext(0, 503);
    clock += 5 * 60_000;
    await s.settle(10);
    await s.server.app.webhooks!.runOnce();
    assert.deepEqual(rx.types(), ["submission.ksef_deadline_near"], "once");
  } finally {
    await rx.close();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
