/**
 * The server judges documents stored without a verdict once it has started (README "Summary"), in the process that
 * runs syncs: with WORKERS=2 that is the primary, and the HTTP workers' summary counts its verdicts (the file
 * store's verdicts file, read by every process of the data directory).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fieldsFromXml } from "../../lib/contracts/record_json.ts";
import { FileStorage } from "../../storage/file/store.ts";
import { runCli, startChild, waitForOutput } from "../support/child.ts";
import { fixturePath } from "../support/server.ts";

const SAMPLE = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"), "utf8");

/** A data directory with 6 documents as imports wrote them before verdicts were kept, 2 of them invalid. */
async function oldDataDir(): Promise<{ data: string; token: string }> {
  const data = mkdtempSync(join(tmpdir(), "backfill-server-"));
  const storage = new FileStorage(data);
  const t = storage.tenant("acme");
  for (let i = 0; i < 6; i++) {
    const xml = new TextEncoder().encode(SAMPLE.replace(/<P_2>[^<]*<\/P_2>/, `<P_2>OLD/${i}${i % 3 === 2 ? "9".repeat(300) : ""}</P_2>`));
    await t.upsertDocument({ source: "inbox", external_id: `old-${i}`, fields: fieldsFromXml(xml), xml: await t.putBlob(xml), received_at: null }, "2026-11-20T10:00:00.000Z");
  }
  await storage.close();
  const token = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "documents:read"]).stdout.trim();
  return { data, token };
}

for (const workers of [1, 2]) {
  test(`the server judges documents stored without a verdict after it starts (WORKERS=${workers})`, { timeout: 60_000, skip: workers > 1 && "Deno" in globalThis ? "node:cluster is Node's" : false }, async (t) => {
    const { data, token } = await oldDataDir();
    const server = await startChild(["--data", data, "--workers", String(workers), "--rate-limit", "off"]);
    // A server that never judges fails the test at its timeout: stopped then, so that the wait ends and nothing is left running.
    t.signal.addEventListener("abort", () => server.child.kill("SIGTERM"));
    const summary = async () => {
      const res = await fetch(`${server.url}/api/v1/summary`, { headers: { "x-api-token": token } });
      assert.equal(res.status, 200);
      return ((await res.json()) as { documents: { total: number; invalid: number } }).documents;
    };
    try {
      // Asked while the primary starts judging, so that the HTTP processes hold the tenant open before its verdicts
      // are written and must take them in as they come (what they answer now depends on how far it got).
      await Promise.all([summary(), summary()]);
      await waitForOutput(server, /"msg":"every stored document judged","tenant":"acme","judged":6,"invalid":2/);
      // Every HTTP process answers alike: ask a few times, so that with two workers both are asked.
      for (let i = 0; i < 4; i++) {
        const docs = await summary();
        assert.deepEqual([docs.total, docs.invalid], [6, 2], server.stdout());
      }
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(data, { recursive: true, force: true });
    }
  });
}
