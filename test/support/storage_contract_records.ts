/**
 * The storage contract suite, second half: idempotency records and keys in flight, leases, the raw change feeds
 * and their lengths, webhook records and delivery state, runs saved by id, tenants, secrets and check(). Registered
 * by storageContract() in storage_contract.ts, so an adapter runs both halves with one call.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import type { DocumentFields, IdempotencyTag, Storage, StoredResponse } from "../../lib/contracts/storage.ts";

const dec = new TextDecoder();
const sha = (s: string): string => createHash("sha256").update(s).digest("hex");
const at = (n: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString();
const DAY = 86_400_000;

const tag = (key: string): IdempotencyTag =>
  ({ key, fingerprint: `fp-${key}`, respond: (json: string): StoredResponse => ({ status: 201, location: `/x/${key}`, body: json }) });

/** Registers the second half of the contract tests for a storage made by `make`; `fields` makes a document's fields. */
export function storageRecordsContract(name: string, make: () => Promise<Storage>, fields: (over?: Partial<DocumentFields>) => DocumentFields): void {
  const doc = (externalId: string, number = externalId) =>
    ({ source: "inbox", external_id: externalId, fields: fields({ number }), xml: null, received_at: null });

  describe(`storage contract: ${name} (records)`, () => {
    test("idempotency records are kept, replaced, and forgotten after their maximum age; tenants keep their own", async () => {
      const s = await make();
      const t = s.tenant("acme");
      assert.equal(await t.getIdempotency("k", Date.parse(at(1)), DAY), null);
      const first = { key: "k", fingerprint: "f1", response: { status: 422, location: null, body: "{\"a\":1}" }, created_at: at(1) };
      await t.putIdempotency(first);
      assert.deepEqual(await t.getIdempotency("k", Date.parse(at(2)), DAY), first);
      const second = { key: "k", fingerprint: "f2", response: { status: 400, location: "/y", body: "[]" }, created_at: at(3) };
      await t.putIdempotency(second);
      assert.deepEqual(await t.getIdempotency("k", Date.parse(at(4)), DAY), second);
      assert.equal(await t.getIdempotency("k", Date.parse(at(3)) + DAY, DAY), null, "as old as the maximum age: gone");
      assert.equal(await s.tenant("other").getIdempotency("k", Date.parse(at(4)), DAY), null);
      await s.close();
    });

    test("an idempotency tag is kept with the effect it came with: a submission, a new run, a webhook", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const sub = await t.createSubmission({ fields: fields(), xml: { sha256: sha("s"), size: 1 } }, at(1), tag("k-sub"));
      assert.ok("created" in sub);
      const run = await t.requestRun("inbox", at(2), tag("k-run"));
      const hook = await t.createWebhook({ url: "https://example.com/h", events: ["*"], description: null, secret: "whsec_AA==", created_at: at(3) }, tag("k-hook"));
      for (const [key, id] of [["k-sub", sub.created.id], ["k-run", run.run.id], ["k-hook", hook.id]] as const) {
        const kept = await t.getIdempotency(key, Date.parse(at(4)), DAY);
        assert.ok(kept, key);
        assert.equal(kept.fingerprint, `fp-${key}`);
        assert.equal(kept.response.status, 201);
        assert.equal(kept.response.location, `/x/${key}`);
        assert.equal((JSON.parse(kept.response.body) as { id: string }).id, id, "the response holds the created record");
      }
      await s.close();
    });

    test("a key in flight is held until it ends; ending a key nobody began is harmless; tenants hold their own", async () => {
      const s = await make();
      const t = s.tenant("acme");
      assert.equal(await t.beginIdempotent("k"), true);
      assert.equal(await t.beginIdempotent("k"), false, "held");
      assert.equal(await t.beginIdempotent("k2"), true, "another key is free");
      assert.equal(await s.tenant("other").beginIdempotent("k"), true, "another tenant's key of the same name is free");
      await t.endIdempotent("k");
      assert.equal(await t.beginIdempotent("k"), true, "free again once ended");
      await t.endIdempotent("never-begun");
      await t.endIdempotent("k");
      await t.endIdempotent("k2");
      await s.close();
    });

    test("a lease has one owner: renewed by it, refused to others until released or run out", async () => {
      const s = await make();
      const t = s.tenant("acme");
      assert.equal(await t.claimLease("run-1", "node-a", 60_000), true);
      assert.equal(await t.claimLease("run-1", "node-a", 60_000), true, "the owner renews");
      assert.equal(await t.claimLease("run-1", "node-b", 60_000), false);
      assert.equal(await t.claimLease("run-2", "node-b", 60_000), true, "another lease is free");
      assert.equal(await s.tenant("other").claimLease("run-1", "node-b", 60_000), true, "another tenant's lease is free");
      await t.releaseLease("run-1", "node-b"); // not B's: A keeps it
      assert.equal(await t.claimLease("run-1", "node-b", 60_000), false);
      await t.releaseLease("run-1", "node-a");
      assert.equal(await t.claimLease("run-1", "node-b", 1), true, "released: B takes it, for 1 ms");
      // B dies holding it: once it has run out, A takes it (the store's clock decides; asked until it has).
      let taken = false;
      for (const deadline = Date.now() + 5_000; !taken && Date.now() < deadline;) taken = await t.claimLease("run-1", "node-a", 60_000);
      assert.ok(taken, "a lease that ran out is taken over");
      assert.equal(await t.claimLease("run-1", "node-b", 60_000), false);
      await s.close();
    });

    test("the raw feeds hold every version in order, creations marked, and their lengths", async () => {
      const s = await make();
      const t = s.tenant("acme");
      for (const c of ["documents", "submissions", "runs"] as const) {
        assert.equal(await t.feedLength(c), 0, c);
        assert.deepEqual(await t.rawChanges(c, 0, 10), [], c);
      }
      await t.upsertDocument(doc("A"), at(1));
      await t.upsertDocument(doc("B"), at(2));
      await t.upsertDocument(doc("A", "A2"), at(3));
      await t.upsertDocument(doc("A", "A2"), at(4)); // unchanged: no change
      const raw = await t.rawChanges("documents", 0, 10);
      assert.deepEqual(raw.map((c) => [c.seq, c.first, (JSON.parse(dec.decode(c.json)) as { number: string }).number]), [[0, true, "A"], [1, true, "B"], [2, false, "A2"]]);
      assert.equal(await t.feedLength("documents"), 3);
      assert.deepEqual((await t.rawChanges("documents", 1, 1)).map((c) => c.seq), [1], "from and limit");
      assert.deepEqual(await t.rawChanges("documents", 3, 10), []);
      await t.createSubmission({ fields: fields(), xml: { sha256: sha("s"), size: 1 } }, at(5));
      const run = (await t.requestRun("inbox", at(6))).run;
      await t.saveRun({ ...run, status: "running", started_at: at(7) });
      assert.equal(await t.feedLength("submissions"), 1);
      assert.deepEqual((await t.rawChanges("runs", 0, 10)).map((c) => [c.seq, c.first, (JSON.parse(dec.decode(c.json)) as { status: string }).status]), [[0, true, "queued"], [1, false, "running"]]);
      assert.equal(await t.feedLength("runs"), 2);
      assert.equal(await s.tenant("other").feedLength("documents"), 0);
      await s.close();
    });

    test("runs are saved by id: read back whole, active ones listed, an unknown id refused", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const { run } = await t.requestRun("inbox", at(1));
      assert.deepEqual(run.skipped, [], "a new run skipped nothing");
      const done = { ...run, status: "succeeded" as const, started_at: at(2), finished_at: at(3), waiting_until: null,
        counts: { fetched: 3, created: 1, updated: 1, unchanged: 0, failed: 1 }, errors: [{ external_id: "x", code: "INVALID_XML", message: "m" }],
        skipped: [{ source: "inbox", part: "Subject1", reason: "min_interval", next_at: at(4) }, { source: "inbox", part: "Subject2", reason: "other", next_at: null }] };
      await t.saveRun(done);
      assert.deepEqual(await t.getRun(run.id), done);
      assert.deepEqual(await t.activeRuns(), []);
      await assert.rejects(t.saveRun({ ...run, id: "sync_00000000000000000000000000" }), RangeError);
      assert.equal(await t.getRun("sync_00000000000000000000000000"), null);
      await s.close();
    });

    test("webhooks are created enabled, read, listed oldest first without deleted ones, saved by id", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const input = { url: "https://example.com/h", events: ["document.created"], description: null, secret: "whsec_AA==", created_at: at(1) };
      const w1 = await t.createWebhook(input);
      assert.match(w1.id, /^whk_[0-9A-Z]{26}$/);
      assert.equal(w1.status, "enabled");
      const w2 = await t.createWebhook({ ...input, description: "second", created_at: at(2) });
      assert.deepEqual(await t.getWebhook(w1.id), w1);
      assert.deepEqual((await t.listWebhooks()).map((w) => w.id), [w1.id, w2.id]);
      const disabled = { ...w1, status: "disabled" as const, disabled_reason: "too many failures" };
      const saved = await t.saveWebhook(disabled);
      assert.deepEqual(saved, { ...disabled, version: (w1.version ?? 0) + 1 }, "the next version");
      assert.deepEqual(await t.getWebhook(w1.id), saved);
      assert.equal(await t.saveWebhook(disabled), null, "a save over a version that is no longer stored is refused");
      await t.saveWebhook({ ...w2, status: "deleted" });
      assert.deepEqual((await t.listWebhooks()).map((w) => w.id), [w1.id]);
      await assert.rejects(t.saveWebhook({ ...saved!, id: "whk_00000000000000000000000000" }), RangeError);
      assert.equal(await t.getWebhook("whk_00000000000000000000000000"), null);
      assert.equal(await s.tenant("other").getWebhook(w1.id), null);
      assert.deepEqual(await s.tenant("other").listWebhooks(), []);
      await s.close();
    });

    test("a webhook's delivery state is absent until saved, then read back as saved", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const hook = await t.createWebhook({ url: "https://example.com/h", events: ["*"], description: null, secret: "whsec_AA==", created_at: at(1) });
      assert.equal(await t.getDeliveryState(hook.id), null);
      await t.saveDeliveryState(hook.id, { positions: { documents: 1, submissions: 0, runs: 2 }, retries: [] });
      const state = {
        positions: { documents: 2, submissions: 1, runs: 3 },
        retries: [{ event_id: "evt_1", type: "sync.completed", collection: "runs" as const, seq: 2, attempts: 1, next_at: 5 }],
        health: { last_attempt_at: at(2), last_success_at: null, last_error: { status: 500, message: "HTTP 500" }, consecutive_failures: 1 },
        resumed_at: null,
      };
      await t.saveDeliveryState(hook.id, state);
      assert.deepEqual(await t.getDeliveryState(hook.id), state);
      assert.equal(await s.tenant("other").getDeliveryState(hook.id), null);
      await s.close();
    });

    test("tenants() lists the tenants with tokens or data; secrets are stable and one per name; check() passes", async () => {
      const s = await make();
      assert.deepEqual(await s.tenants(), []);
      s.tenant("acme"); // as the token command does before storing a token
      await s.tokens.create({ key_id: "abc123abc123", tenant: "acme", secret_sha256: sha("x"), scopes: [], created_at: at(1), expires_at: null, revoked_at: null });
      await s.tenant("beta").upsertDocument(doc("A"), at(2));
      assert.deepEqual(await s.tenants(), ["acme", "beta"]);
      const cursor = await s.secret("cursor");
      assert.equal(cursor.length, 32);
      assert.deepEqual(await s.secret("cursor"), cursor);
      assert.notDeepEqual(await s.secret("other"), cursor);
      await s.check();
      await s.close();
    });
  });
}
