import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { FileStorage } from "../../storage/file/store.ts";
import { MemoryStorage } from "../../storage/memory.ts";
import { fields, storageContract } from "../support/storage_contract.ts";

const dirs: string[] = [];
/** A new temp directory for a file store; all are removed after this file's tests. */
function storeDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "store-"));
  dirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

storageContract("memory", async () => new MemoryStorage());
storageContract("file", async () => new FileStorage(storeDir()), async (s) => {
  const dir = (s as FileStorage).dir;
  await s.close();
  return new FileStorage(dir);
});

const doc = (id: string) => ({ source: "inbox", external_id: id, fields: fields({ number: id }), xml: null, received_at: null });
const now = "2026-11-01T00:00:00.000Z";

describe("file store", () => {
  test("token changes are made under the tokens file's lock, so that processes changing tokens at once lose none", { timeout: 20_000 }, async () => {
    const dir = storeDir();
    const store = new FileStorage(dir);
    const token = { key_id: "k1", tenant: "acme", secret_sha256: "0".repeat(64), scopes: [], created_at: "2026-11-01T00:00:00.000Z", expires_at: null, revoked_at: null };
    await store.tokens.create(token);
    // Another live process (this one stands in for it) holds the lock: a change waits for it and then gives up.
    writeFileSync(join(dir, "tokens.json.lock"), String(process.pid));
    await assert.rejects(store.tokens.revoke("k1", "2026-11-02T00:00:00.000Z"), /Cannot take the lock/);
    rmSync(join(dir, "tokens.json.lock"));
    assert.equal(await store.tokens.revoke("k1", "2026-11-02T00:00:00.000Z"), true);
    assert.equal((await store.tokens.find("k1"))?.revoked_at, "2026-11-02T00:00:00.000Z");
    await store.close();
  });

  test("an idempotency key in flight when the process died is free after a restart, even under the same pid", async () => {
    const dir = storeDir();
    const key = "5e0c8f4e-8f3a-4c3b-9d2e-1f0a2b3c4d5e";
    const crashed = new FileStorage(dir);
    assert.equal(await crashed.tenant("acme").beginIdempotent(key), true);
    assert.equal(await crashed.tenant("acme").beginIdempotent(key), false, "held while the first request runs");
    // The "restarted" store lives in this same process: its pid is the marker's, as with pid 1 in a container.
    const restarted = new FileStorage(dir);
    assert.equal(await restarted.tenant("acme").beginIdempotent(key), true);
    await restarted.close();
  });

  test("with several processes on the directory, a key in flight under a reused pid is free, and one of this very process is held", async () => {
    const dir = storeDir();
    const key = "6f1d9a5e-8f3a-4c3b-9d2e-1f0a2b3c4d5e";
    const store = new FileStorage(dir, { shared: true }); // WORKERS > 1: markers are not cleared at startup
    const t = store.tenant("acme");
    const marker = join(dir, "tenants", "acme", "idempotency-inflight", createHash("sha256").update(key).digest("hex"));
    // Left by a process that died while its request ran, whose pid this process now has (pid 1 in a container).
    writeFileSync(marker, `${process.pid} 1`);
    assert.equal(await t.beginIdempotent(key), true, "a reused pid does not hold the key");
    assert.match(readFileSync(marker, "utf8"), new RegExp(`^${process.pid}( \\d+)?$`), "the marker names this process");
    assert.equal(await t.beginIdempotent(key), false, "held while this process's request runs");
    await t.endIdempotent(key);
    await store.close();
  });

  test("keeps everything across a reopen", async () => {
    const dir = storeDir();
    let s = new FileStorage(dir);
    const a = await s.tenant("acme").upsertDocument(doc("A"), now);
    await s.tenant("acme").upsertDocument(doc("B"), now);
    await s.close();
    s = new FileStorage(dir);
    const t = s.tenant("acme");
    assert.equal((await t.getDocument(a.document.id))?.record.external_id, "A");
    assert.equal((await t.documentChanges(0, 10, {}, 100)).items.length, 2);
    assert.equal((await t.upsertDocument(doc("A"), now)).outcome, "unchanged");
    assert.deepEqual(await s.tenants(), ["acme"]);
    await s.close();
  });

  test("cuts off a torn log tail and re-derives feed entries and slots that a crash left behind", async () => {
    const dir = storeDir();
    let s = new FileStorage(dir);
    for (const id of ["A", "B", "C"]) await s.tenant("acme").upsertDocument(doc(id), now);
    await s.close();
    const t = join(dir, "tenants", "acme");
    // A crash after the log append of C but before its feed entry and slot: drop both.
    truncateSync(join(t, "documents.feed"), 2 * 16);
    truncateSync(join(t, "documents.slots"), 2 * 48);
    // And a half-written record after it.
    appendFileSync(join(t, "documents.log"), Buffer.from([200, 0, 0, 0, 1, 2, 3]));
    writeFileSync(join(t, "documents.log.tmp-999999999-1"), "leftover");
    s = new FileStorage(dir);
    const store = s.tenant("acme");
    const page = await store.documentChanges(0, 10, {}, 100);
    assert.deepEqual(page.items.map((b) => JSON.parse(new TextDecoder().decode(b)).external_id), ["A", "B", "C"]);
    assert.equal((await store.upsertDocument(doc("C"), now)).outcome, "unchanged");
    assert.equal((await store.upsertDocument(doc("D"), now)).outcome, "created");
    assert.equal(statSync(join(t, "documents.feed")).size, 4 * 16);
    assert.ok(!readdirSync(t).some((n) => n.includes(".tmp-")), "temp leftovers removed");
    await s.close();
  });

  test("re-applies a slot that lags its feed entry", async () => {
    const dir = storeDir();
    let s = new FileStorage(dir);
    await s.tenant("acme").upsertDocument(doc("A"), now);
    await s.tenant("acme").upsertDocument(doc("B"), now);
    await s.close();
    truncateSync(join(dir, "tenants", "acme", "documents.slots"), 48); // B's slot never written
    s = new FileStorage(dir);
    const page = await s.tenant("acme").documentChanges(0, 10, {}, 100);
    assert.equal(page.items.length, 2);
    await s.close();
  });
});
