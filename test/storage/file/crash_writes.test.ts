/**
 * kill -9 while the file store group-commits (README "How data is kept (file store)"): during a 10,000-document
 * inbox sync and during 32 concurrent uploads. After a restart every acknowledged item is there, exactly once:
 * an inbox file in processed/ is a document, an upload answered 201 is a submission (its XML too).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fixturePath } from "../../support/server.ts";
import { runCli, startChild, type ChildServer } from "../../support/child.ts";

const FILES = 10_000;
/** Files acknowledged before the kill: several batches in, most of the run still ahead. */
const KILL_AFTER_FILES = 600;
const CLIENTS = 32;
/** Uploads answered 201 before the kill: every client has had several. */
const KILL_AFTER_UPLOADS = 150;
/** Each test; the waits below are for events, this bounds them. */
const TEST_TIMEOUT_MS = 180_000;

const XML = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml"), "utf8");
const invoice = (id: string): string => XML.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>${id}</cbc:ID>`);

async function listAll(url: string, path: string, token: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor = "";
  for (;;) {
    const res = await fetch(`${url}${path}?limit=500${cursor ? `&cursor=${cursor}` : ""}`, { headers: { "x-api-token": token } });
    const body = (await res.json()) as { data: Record<string, unknown>[]; next_cursor: string; has_more: boolean };
    assert.ok(Array.isArray(body.data), JSON.stringify(body));
    out.push(...body.data);
    cursor = body.next_cursor;
    if (!body.has_more) return out;
  }
}

/** A data directory with a token, removed (and its server killed) after the test. */
function setUp(t: { after(fn: () => Promise<void>): void }, scopes: string): { data: string; token: string; servers: ChildServer[] } {
  const data = mkdtempSync(join(tmpdir(), "crash-writes-"));
  const servers: ChildServer[] = [];
  t.after(async () => {
    for (const s of servers) {
      s.child.kill("SIGKILL");
      await s.exited;
    }
    rmSync(data, { recursive: true, force: true });
  });
  const made = runCli(["token", "create", "--data", data, "--tenant", "acme", "--scopes", scopes]);
  assert.equal(made.status, 0, made.stderr);
  return { data, token: made.stdout.trim(), servers };
}

async function kill(server: ChildServer): Promise<void> {
  server.child.kill("SIGKILL");
  await server.exited;
}

test("kill -9 during a 10,000-document sync: every acknowledged file is a document, once", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const { data, token, servers } = setUp(t, "documents:read,documents:write");
  const inbox = join(data, "inbox", "acme");
  mkdirSync(inbox, { recursive: true });
  for (let i = 0; i < FILES; i++) writeFileSync(join(inbox, `INV-${String(i).padStart(5, "0")}.xml`), invoice(`INV-${i}`));
  const first = await startChild(["--data", data, "--rate-limit", "off"]);
  servers.push(first);
  const processed = join(inbox, "processed");
  // Acknowledged files leave the inbox for processed/: the inbox's change events say when to kill.
  const acknowledgedEnough = new Promise<void>((resolve) => {
    const watcher = watch(inbox, () => check());
    const check = (): void => {
      if (!existsSync(processed) || readdirSync(processed).length < KILL_AFTER_FILES) return;
      watcher.close();
      resolve();
    };
    check();
  });
  const res = await fetch(`${first.url}/api/v1/documents/sync`, { method: "POST", headers: { "x-api-token": token } });
  assert.equal(res.status, 202);
  await acknowledgedEnough;
  await kill(first);
  const acknowledged = readdirSync(processed).map((n) => n.replace(/\.xml$/, ""));
  assert.ok(acknowledged.length >= KILL_AFTER_FILES && acknowledged.length < FILES, `killed mid-sync after ${acknowledged.length} files`);

  const second = await startChild(["--data", data, "--rate-limit", "off"]);
  servers.push(second);
  const ids = (await listAll(second.url, "/api/v1/documents", token)).map((d) => String(d.external_id));
  assert.equal(new Set(ids).size, ids.length, "no document twice");
  const present = new Set(ids);
  const missing = acknowledged.filter((id) => !present.has(id));
  assert.deepEqual(missing, [], "every acknowledged file is a document");
});

test("kill -9 during 32 concurrent uploads: every upload answered 201 is stored, once", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const { data, token, servers } = setUp(t, "submissions:read,submissions:write");
  const first = await startChild(["--data", data, "--rate-limit", "off"]);
  servers.push(first);
  const acknowledged: { id: string; number: string }[] = [];
  let killed = false;
  let enough!: () => void;
  const reached = new Promise<void>((resolve) => (enough = resolve));
  const client = async (c: number): Promise<void> => {
    for (let n = 0; !killed; n++) {
      const number = `UP-${c}-${n}`;
      const form = new FormData();
      form.append("xml", new Blob([invoice(number)], { type: "application/xml" }), "invoice.xml");
      try {
        const res = await fetch(`${first.url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": token }, body: form });
        const body = (await res.json()) as { id?: string };
        assert.equal(res.status, 201, JSON.stringify(body));
        acknowledged.push({ id: body.id!, number });
        if (acknowledged.length >= KILL_AFTER_UPLOADS) enough();
      } catch (e) {
        if (!killed) throw e; // the kill cuts requests in flight: those were never acknowledged
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
  await Promise.race([reached, Promise.all(clients)]);
  killed = true;
  const answered = acknowledged.slice(); // what was acknowledged before the kill
  await kill(first);
  await Promise.all(clients);

  const second = await startChild(["--data", data, "--rate-limit", "off"]);
  servers.push(second);
  const stored = await listAll(second.url, "/api/v1/submissions", token);
  const ids = stored.map((s) => String(s.id));
  assert.equal(new Set(ids).size, ids.length, "no submission twice");
  const present = new Set(ids);
  assert.deepEqual(answered.filter((a) => !present.has(a.id)).map((a) => a.number), [], "every upload answered 201 is stored");
  for (const a of answered.slice(0, 8)) {
    const xml = await fetch(`${second.url}/api/v1/submissions/${a.id}/xml`, { headers: { "x-api-token": token } });
    assert.equal(xml.status, 200);
    assert.ok((await xml.text()).includes(`<cbc:ID>${a.number}</cbc:ID>`), `${a.number}: its XML is whole`);
  }
});
