import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { spawnSync } from "node:child_process";
import { finishedRun } from "../../../support/api.ts";
import { childEnv, runCli, serverCommand, startChild } from "../../../support/child.ts";
import { startKsefSimulator } from "../../../support/ksef_simulator.ts";
import { invoiceXml, NIP, PARTNER, TOKEN } from "./ksef_setup.ts";

const INVOICES = 60;

async function documents(url: string, token: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${url}/api/v1/documents?limit=500`, { headers: { "x-api-token": token } });
  return ((await res.json()) as { data: Record<string, unknown>[] }).data;
}

/** How long the first invoice of the sync may take to arrive: generous, as the whole suite may load the machine. */
const FIRST_DOCUMENT_MS = 60_000;

test("kill -9 during a ksef sync, then a restart: every invoice exactly once", async () => {
  const sim = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead"] }], packageLimit: 30, partDelayMs: 300 });
  const data = mkdtempSync(join(tmpdir(), "ksef-crash-"));
  try {
    for (let i = 0; i < INVOICES; i++) sim.add({ seller: PARTNER, buyer: NIP, xml: invoiceXml(`K-${i}`), invoiceNumber: `K-${i}` });
    writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: sim.url, nip: NIP, token: TOKEN, subjects: ["Subject2"] }] }));
    const made = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "documents:read,documents:write"]);
    assert.equal(made.status, 0, made.stderr);
    const token = made.stdout.trim();

    const first = await startChild(["--data", data, "--rate-limit", "off"]);
    let before = 0;
    try {
      const res = await fetch(`${first.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": token, "content-type": "application/json" }, body: '{"source":"ksef"}' });
      assert.equal(res.status, 202, await res.text());
      // Bounded by time, not by a count of tries, so that a loaded machine does not end the wait early.
      const until = Date.now() + FIRST_DOCUMENT_MS;
      for (;;) {
        before = (await documents(first.url, token)).length;
        if (before > 0) break;
        assert.ok(Date.now() < until, `the first invoice is imported within ${FIRST_DOCUMENT_MS} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      first.child.kill("SIGKILL");
      await first.exited;
    }
    assert.ok(before > 0 && before < INVOICES, `killed mid-sync after ${before} documents`);
    console.log(`# killed after ${before} documents`);

    const second = await startChild(["--data", data, "--rate-limit", "off"]);
    try {
      // The resumed run finishes the job; a sync request joins it (or queues behind it), and its end is the event.
      const again = await fetch(`${second.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": token, "content-type": "application/json" }, body: '{"source":"ksef"}' });
      assert.equal(again.status, 202, await again.clone().text());
      assert.equal((await finishedRun(second.url, token, ((await again.json()) as { id: string }).id)).status, "succeeded");
      const docs = await documents(second.url, token);
      const numbers = docs.map((d) => d.ksef_number);
      assert.equal(new Set(numbers).size, numbers.length, "no duplicates");
      assert.deepEqual(new Set(numbers), new Set(sim.invoices.map((i) => i.ksefNumber)));
      assert.equal(sim.stats.throttled, 0, "no request past a documented limit");
    } finally {
      second.child.kill("SIGKILL");
      await second.exited;
    }
  } finally {
    await sim.close();
    rmSync(data, { recursive: true, force: true });
  }
});

const BAD_ENTRIES = [
  { what: "a bad NIP", input: { nip: "5265877636" }, expected: /sources\.json acme\[0\]: "nip" must be/ },
  { what: "a `min_interval` that is not a duration", input: { min_interval: "15 minutes" }, expected: /sources\.json acme\[0\]: "min_interval" must be a duration/ },
];
for (const c of BAD_ENTRIES) {
  test(`a ksef entry with ${c.what} stops the server at startup with a message naming the field`, () => {
    const data = mkdtempSync(join(tmpdir(), "ksef-config-"));
    try {
      writeFileSync(join(data, "sources.json"), JSON.stringify({ acme: [{ name: "ksef", type: "ksef", environment: "test", nip: NIP, token: TOKEN, ...c.input }] }));
      const [cmd, ...pre] = serverCommand();
      const r = spawnSync(cmd!, [...pre, "serve", "--port", "0", "--data", data], { env: childEnv(), encoding: "utf8", timeout: 20_000 });
      assert.notEqual(r.status, 0);
      assert.match(r.stderr + r.stdout, c.expected);
      assert.ok(!(r.stderr + r.stdout).includes(TOKEN.split("|")[2]!), "the token is not echoed");
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
}
