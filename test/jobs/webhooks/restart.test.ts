import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, startChild, type ChildServer } from "../../support/child.ts";
import { fixturePath } from "../../support/server.ts";
import { webhookReceiver } from "../../support/webhook_receiver.ts";

/** The whole test; every wait below is for an event, this bounds them all. */
const TEST_TIMEOUT_MS = 60_000;
/** Requests to the server's API while polling a sync run's or the webhook's persisted state. */
const STATE_POLL_MS = 50;

/** One request the receiver got: the event id and type, and what it answered. */

test("an event reaches a receiver that was down for three attempts exactly once, across a kill -9 and restart", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const data = mkdtempSync(join(tmpdir(), "whk-"));
  const token = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", "documents:read,documents:write,webhooks:read,webhooks:write"]).stdout.trim();
  let up = false;
  const rx = webhookReceiver(() => (up ? 204 : 503));
  let child: ChildServer | null = null;
  // One hook, in this order: the directory goes only once the process writing into it is gone.
  t.after(async () => {
    if (child) {
      child.child.kill("SIGKILL");
      await child.exited;
    }
    rx.server.closeAllConnections();
    rx.server.close();
    rmSync(data, { recursive: true, force: true });
  });
  await new Promise<void>((r) => rx.server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(rx.server.address() as { port: number }).port}/`;
  const args = ["--data", data, "--webhook-allow-private", "on", "--webhook-retry-schedule", "300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms,300ms", "--rate-limit", "off"];
  child = await startChild(args);
  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${child!.url}${path}`, { ...init, headers: { "x-api-token": token, "content-type": "application/json", ...init.headers } });
  const reg = await api("/api/v1/webhooks", { method: "POST", body: JSON.stringify({ url, events: ["document.created"] }) });
  assert.equal(reg.status, 201);
  const hookId = ((await reg.json()) as { id: string }).id;
  const drop = async (name: string): Promise<void> => {
    mkdirSync(join(data, "inbox", "acme"), { recursive: true });
    writeFileSync(join(data, "inbox", "acme", `${name}.xml`), invoice(name));
    const sync = await api("/api/v1/documents/sync", { method: "POST" });
    assert.equal(sync.status, 202);
    // A request joins a run still under way (requests coalesce), which may have listed the inbox already: each drop
    // waits for its run to end, so the next drop's request starts a run of its own.
    await finished(api, sync.headers.get("location")!);
  };

  await drop("A");
  // A fourth attempt is made only from a retry entry saved with three failed attempts; then the process dies without warning.
  await rx.until((all) => all.filter((r) => r.status === 503).length >= 4);
  child.child.kill("SIGKILL");
  await child.exited;
  assert.match(readState(data), /"attempts":[3-9]/, "three attempts failed before the crash");
  const eventA = rx.all[0]!.id;
  assert.ok(rx.all.every((r) => r.id === eventA && r.type === "document.created"), "every refused attempt carried the same event");

  up = true;
  child = await startChild(args);
  await rx.until((all) => all.some((r) => r.status === 204));
  // The acknowledgement is persisted and nothing is left to retry: no later pass has a reason to send A again.
  const health = await acknowledged(api, hookId);
  assert.equal(health.consecutive_failures, 0);
  assert.equal(health.last_error, null);
  assert.equal(health.next_attempt_at, null, "no retry pending");
  // Two later events as markers. B is synced after A's acknowledgement, C after B arrived; a pass reads each feed
  // once, so C goes out in a later pass than A did, and every pass sends due retries and older feed entries first:
  // a second delivery of A would have reached the receiver before C.
  await drop("B");
  await rx.until((all) => all.some((r) => r.status === 204 && r.id !== eventA));
  const eventB = rx.all.find((r) => r.status === 204 && r.id !== eventA)!.id;
  await drop("C");
  await rx.until((all) => all.some((r) => r.status === 204 && r.id !== eventA && r.id !== eventB));
  const accepted = rx.all.filter((r) => r.status === 204);
  assert.deepEqual(accepted.map((r) => r.type), ["document.created", "document.created", "document.created"]);
  assert.equal(accepted.filter((r) => r.id === eventA).length, 1, "A delivered exactly once");
  assert.equal(new Set(accepted.map((r) => r.id)).size, 3, "no event twice");
});

/** The test invoice with `id` as its number, so each file is a new document. */
function invoice(id: string): string {
  return readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8").replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>${id}</cbc:ID>`);
}

/** The webhook's delivery state once it shows a success (polls the server's answer: the child has no event to await). */
async function acknowledged(api: (path: string) => Promise<Response>, hookId: string): Promise<Record<string, unknown>> {
  for (;;) {
    const res = await api(`/api/v1/webhooks/${hookId}`);
    assert.equal(res.status, 200);
    const hook = (await res.json()) as Record<string, unknown>;
    if (hook.last_success_at !== null && hook.last_success_at !== undefined) return hook;
    await new Promise((r) => setTimeout(r, STATE_POLL_MS));
  }
}

/** Waits for a sync run to succeed (polls its status: the child has no event to await). */
async function finished(api: (path: string) => Promise<Response>, location: string): Promise<void> {
  for (;;) {
    const res = await api(location);
    assert.equal(res.status, 200);
    const run = (await res.json()) as { status: string };
    if (run.status === "succeeded") return;
    assert.ok(run.status === "queued" || run.status === "running", `the run ended ${run.status}`);
    await new Promise((r) => setTimeout(r, STATE_POLL_MS));
  }
}

function readState(data: string): string {
  try {
    const dir = join(data, "tenants", "acme", "delivery");
    return readdirSync(dir).map((n) => readFileSync(join(dir, n), "utf8")).join("\n");
  } catch {
    return "";
  }
}
