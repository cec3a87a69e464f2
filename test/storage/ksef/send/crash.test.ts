/**
 * kill -9 of the real server while 20 submissions are being sent to KSeF, then a restart: every submission ends
 * accepted, and KSeF accepted each invoice exactly once (an invoice sent before the crash without its reference
 * stored is sent again and recognised by KSeF's duplicate answer as the original acceptance).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { startChild } from "../../../support/child.ts";
import { startKsefSimulator } from "../../../support/ksef_simulator.ts";
import { onlineSessions } from "../../../support/ksef_simulator_online.ts";
import { crashData, listSubmissions, uploadInvoice, waitAccepted } from "./crash_setup.ts";
import { NIP, TOKEN } from "./send_setup.ts";

const COUNT = 20;

test("kill -9 with 20 submissions in flight, then a restart: each is accepted exactly once", { timeout: 120_000 }, async () => {
  const online = onlineSessions();
  const sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead", "InvoiceWrite"] }], routes: online.routes, limitGroup: online.limitGroup });
  online.delayMs = 20;
  const { data, token, remove } = crashData(sim.url, "online");
  try {
    const first = await startChild(["--data", data, "--rate-limit", "off"]);
    let sends = 0;
    const killed = new Promise<void>((done) => {
      online.onRequest = (op) => {
        if (op === "send" && ++sends === 8) {
          first.child.kill("SIGKILL"); // while KSeF takes the 8th invoice: its reference never reaches the store
          done();
        }
      };
    });
    for (let i = 0; i < COUNT; i++) {
      const status = await uploadInvoice(first.url, token, `CRASH/${i}`);
      if (status === null) break; // the server is gone already
      assert.equal(status, 201);
    }
    await killed;
    await first.exited;
    online.onRequest = null;
    const before = online.invoices.length;
    // The 8th was in flight at the kill: whether the simulator recorded it depends on how far its request got.
    assert.ok(before >= 7 && before < COUNT, `killed after ${before} invoices reached KSeF`);

    const second = await startChild(["--data", data, "--rate-limit", "off"]);
    try {
      const uploaded = (await listSubmissions(second.url, token)).length;
      // Upload what the first process never took, then wait for the outcome of every one.
      for (let i = uploaded; i < COUNT; i++) assert.equal(await uploadInvoice(second.url, token, `CRASH/${i}`), 201);
      const accepted = await waitAccepted(second.url, token, COUNT);
      assert.equal(accepted.length, COUNT, `accepted: ${accepted.length}`);
      const numbers = accepted.map((s) => s.ksef_number);
      assert.equal(new Set(numbers).size, COUNT, "a KSeF number each");
      const kept = online.invoices.filter((i) => i.status.code === 200);
      assert.equal(kept.length, COUNT, "KSeF accepted each invoice once");
      assert.deepEqual(new Set(numbers), new Set(kept.map((i) => i.ksefNumber)));
      assert.equal((await listSubmissions(second.url, token, "&ksef_status=rejected")).length, 0);
      console.log(`# ${before} invoices reached KSeF before the kill; ${online.invoices.filter((i) => i.status.code === 440).length} sent again and answered 440`);
    } finally {
      second.child.kill("SIGKILL");
      await second.exited;
    }
  } finally {
    await sim.close();
    remove();
  }
});
