/**
 * kill -9 of the real server at each step of a batch session (after opening, during part uploads, after close,
 * while reading statuses), then a restart: every submission ends accepted, and KSeF accepted each invoice exactly
 * once (README "Sending to KSeF": each step is stored before the next; a session that cannot be completed is
 * never closed, and its invoices go in a new one).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { startChild } from "../../../support/child.ts";
import { startKsefSimulator } from "../../../support/ksef_simulator.ts";
import { batchSessions } from "../../../support/ksef_simulator_batch.ts";
import { onlineSessions } from "../../../support/ksef_simulator_online.ts";
import { crashData, listSubmissions, uploadInvoice, waitAccepted } from "./crash_setup.ts";
import { NIP, TOKEN } from "./send_setup.ts";

const COUNT = 30;

const STEPS = [
  { step: "after opening", op: "open" },
  { step: "during the part uploads", op: "upload" },
  { step: "after close", op: "close" },
  { step: "while reading the invoice statuses", op: "list" },
] as const;

for (const { step, op } of STEPS) {
  test(`kill -9 ${step}, then a restart: each invoice is accepted exactly once`, { timeout: 120_000 }, async () => {
    const online = onlineSessions();
    const batch = batchSessions(online);
    const sim = await startKsefSimulator({
      tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead", "InvoiceWrite"] }],
      routes: [...batch.routes, ...online.routes], rawRoutes: batch.rawRoutes, limitGroup: (m, p) => batch.limitGroup(m, p) ?? online.limitGroup(m, p),
    });
    const { data, token, remove } = crashData(sim.url, "auto");
    try {
      const first = await startChild(["--data", data, "--rate-limit", "off"]);
      const killed = new Promise<void>((done) => {
        batch.onRequest = (o) => {
          if (o !== op) return;
          first.child.kill("SIGKILL");
          batch.onRequest = null;
          done();
        };
      });
      // All at once: in auto mode a burst is held for a moment and goes as one batch.
      const statuses = await Promise.all(Array.from({ length: COUNT }, (_, i) => uploadInvoice(first.url, token, `BCRASH/${i}`)));
      assert.ok(statuses.every((s) => s === 201 || s === null), String(statuses));
      await killed;
      await first.exited;

      const second = await startChild(["--data", data, "--rate-limit", "off"]);
      try {
        const have = new Set((await listSubmissions(second.url, token)).map((s) => s.number));
        for (let i = 0; i < COUNT; i++) if (!have.has(`BCRASH/${i}`)) assert.equal(await uploadInvoice(second.url, token, `BCRASH/${i}`), 201);
        const accepted = await waitAccepted(second.url, token, COUNT);
        assert.equal(accepted.length, COUNT, `accepted: ${accepted.length}`);
        const kept = online.invoices.filter((i) => i.status.code === 200);
        assert.equal(kept.length, COUNT, "KSeF accepted each invoice once");
        assert.deepEqual(new Set(accepted.map((s) => s.ksef_number)), new Set(kept.map((i) => i.ksefNumber)));
        assert.equal((await listSubmissions(second.url, token, "&ksef_status=rejected")).length, 0);
        console.log(`# ${step}: ${batch.sessions.size} batch sessions, ${online.sessions.size} online`);
      } finally {
        second.child.kill("SIGKILL");
        await second.exited;
      }
    } finally {
      await sim.close();
      remove();
    }
  });
}
