import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fixturePath } from "../support/server.ts";
import { finishedRun } from "../support/api.ts";
import { runCli, startChild, type ChildServer } from "../support/child.ts";

const FILES = 400;
/** Files acknowledged (moved to processed/) before the kill: enough to be mid-run, few enough to leave most behind. */
const KILL_AFTER = 20;
/** The whole test; the waits below are for events, this bounds them. */
const TEST_TIMEOUT_MS = 120_000;

async function listAll(url: string, token: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor = "";
  for (;;) {
    const res = await fetch(`${url}/api/v1/documents?limit=500${cursor ? `&cursor=${cursor}` : ""}`, { headers: { "x-api-token": token } });
    const body = (await res.json()) as { data: Record<string, unknown>[]; next_cursor: string; has_more: boolean };
    out.push(...body.data);
    cursor = body.next_cursor;
    if (!body.has_more) return out;
  }
}

test("kill -9 during a sync loses no acknowledged document and duplicates none", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const data = mkdtempSync(join(tmpdir(), "crash-"));
  let running: ChildServer | null = null;
  t.after(async () => {
    if (running) {
      running.child.kill("SIGKILL");
      await running.exited;
    }
    rmSync(data, { recursive: true, force: true });
  });
  const made = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "documents:read,documents:write"]);
  assert.equal(made.status, 0, made.stderr);
  const token = made.stdout.trim();
  const inbox = join(data, "inbox", "acme");
  mkdirSync(inbox, { recursive: true });
  const xml = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
  for (let i = 0; i < FILES; i++) writeFileSync(join(inbox, `INV-${String(i).padStart(4, "0")}.xml`), xml.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>INV-${i}</cbc:ID>`));

  const first = (running = await startChild(["--data", data, "--rate-limit", "off"]));
  const processed = join(inbox, "processed");
  // Each acknowledged file leaves the inbox for processed/: the inbox's change events, not a timer, say when to kill.
  const acknowledgedEnough = new Promise<void>((resolve) => {
    const watcher = watch(inbox, () => check());
    const check = (): void => {
      if (!existsSync(processed) || readdirSync(processed).length < KILL_AFTER) return;
      watcher.close();
      resolve();
    };
    check();
  });
  const res = await fetch(`${first.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": token } });
  assert.equal(res.status, 202);
  await acknowledgedEnough;
  first.child.kill("SIGKILL");
  await first.exited;
  running = null;
  const acknowledged = readdirSync(processed).map((n) => n.replace(/\.xml$/, ""));
  assert.ok(acknowledged.length > 0 && acknowledged.length < FILES, `killed mid-sync after ${acknowledged.length} files`);

  const second = (running = await startChild(["--data", data, "--rate-limit", "off"]));
  // Every acknowledged file is a document after the restart (the interrupted run resumes meanwhile).
  const afterCrash = new Set((await listAll(second.url, token)).map((d) => d.external_id));
  for (const id of acknowledged) assert.ok(afterCrash.has(id), `${id} was acknowledged but is missing`);
  // The resumed run finishes the job (a sync request joins it, or queues behind it): every file exactly once.
  const again = await fetch(`${second.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": token } });
  assert.equal(again.status, 202);
  const run = await finishedRun(second.url, token, ((await again.json()) as { id: string }).id);
  assert.equal(run.status, "succeeded");
  assert.deepEqual(readdirSync(inbox).filter((n) => n.endsWith(".xml")), [], "the inbox is empty");
  const ids = (await listAll(second.url, token)).map((d) => d.external_id);
  assert.equal(new Set(ids).size, ids.length, "no duplicates");
  assert.equal(ids.length, FILES);
});
