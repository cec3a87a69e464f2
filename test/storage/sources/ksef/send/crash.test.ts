/**
 * kill -9 of the real server while 20 submissions are being sent to KSeF, then a restart: every submission ends
 * accepted, and KSeF accepted each invoice exactly once (an invoice sent before the crash without its reference
 * stored is sent again and recognised by KSeF's duplicate answer as the original acceptance).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, startChild } from "../../../../support/child.ts";
import { startKsefSimulator } from "../../../../support/ksef_simulator.ts";
import { onlineSessions } from "../../../../support/ksef_simulator_online.ts";
import { fa3, NIP, TOKEN } from "./send_setup.ts";

const COUNT = 20;

async function submissions(url: string, token: string, query = ""): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${url}/api/v1/submissions?limit=500${query}`, { headers: { "x-api-token": token } });
  return ((await res.json()) as { data: Record<string, unknown>[] }).data;
}

test("kill -9 with 20 submissions in flight, then a restart: each is accepted exactly once", { timeout: 120_000 }, async () => {
  const online = onlineSessions();
  const sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead", "InvoiceWrite"] }], routes: online.routes, limitGroup: online.limitGroup });
  online.delayMs = 20;
  const data = mkdtempSync(join(tmpdir(), "ksef-send-crash-"));
  try {
    writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: sim.url, nip: NIP, token: TOKEN, send: true, send_mode: "online" }] }));
    const made = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "submissions:read,submissions:write"]);
    assert.equal(made.status, 0, made.stderr);
    const token = made.stdout.trim();

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
      const form = new FormData();
      form.append("xml", new Blob([new Uint8Array(fa3(`CRASH/${i}`))], { type: "application/xml" }), "i.xml");
      const res = await fetch(`${first.url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": token }, body: form }).catch(() => null);
      if (!res) break; // the server is gone already
      assert.equal(res.status, 201);
    }
    await killed;
    await first.exited;
    online.onRequest = null;
    const before = online.invoices.length;
    // The 8th was in flight at the kill: whether the simulator recorded it depends on how far its request got.
    assert.ok(before >= 7 && before < COUNT, `killed after ${before} invoices reached KSeF`);

    const second = await startChild(["--data", data, "--rate-limit", "off"]);
    try {
      const uploaded = (await submissions(second.url, token)).length;
      // Upload what the first process never took, then wait for the outcome of every one.
      for (let i = uploaded; i < COUNT; i++) {
        const form = new FormData();
        form.append("xml", new Blob([new Uint8Array(fa3(`CRASH/${i}`))], { type: "application/xml" }), "i.xml");
        assert.equal((await fetch(`${second.url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": token }, body: form })).status, 201);
      }
      let accepted: Record<string, unknown>[] = [];
      for (let i = 0; i < 3000 && accepted.length < COUNT; i++) {
        accepted = await submissions(second.url, token, "&ksef_status=accepted");
        if (accepted.length < COUNT) await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(accepted.length, COUNT, `accepted: ${accepted.length}`);
      const numbers = accepted.map((s) => s.ksef_number);
      assert.equal(new Set(numbers).size, COUNT, "a KSeF number each");
      const kept = online.invoices.filter((i) => i.status.code === 200);
      assert.equal(kept.length, COUNT, "KSeF accepted each invoice once");
      assert.deepEqual(new Set(numbers), new Set(kept.map((i) => i.ksefNumber)));
      assert.equal((await submissions(second.url, token, "&ksef_status=rejected")).length, 0);
      console.log(`# ${before} invoices reached KSeF before the kill; ${online.invoices.filter((i) => i.status.code === 440).length} sent again and answered 440`);
    } finally {
      second.child.kill("SIGKILL");
      await second.exited;
    }
  } finally {
    await sim.close();
    rmSync(data, { recursive: true, force: true });
  }
});
