/**
 * The storage contract's part for the notices feed (README "Webhooks"): webhook events that belong to no record,
 * such as a KSeF certificate nearing its end, appended once each to a tenant's `notices` feed and read back in
 * order by the delivery worker like any other feed. Registered by storageContract() in storage_contract.ts, so an
 * adapter runs it with the rest.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { NoticeRecord, Storage } from "../../lib/contracts/storage.ts";

const dec = new TextDecoder();

function notice(serial: string, daysLeft: number): NoticeRecord {
  return {
    key: `acme/ksef/authentication/${serial}/${daysLeft}`, due_at: "2026-11-28T03:00:00.000Z", type: "ksef.certificate_expiring", created_at: "2026-11-29T03:00:00.000Z",
    data: { source: "ksef", type: "authentication", serial, subject: "CN=Firma", not_after: "2026-12-04T03:00:00.000Z", days_left: daysLeft },
  };
}

/** Registers the notices feed's contract tests for a storage made by `make`; `reopen` opens the same data again, when it persists. */
export function noticesContract(name: string, make: () => Promise<Storage>, reopen?: (s: Storage) => Promise<Storage>): void {
  describe(`storage contract, notices feed: ${name}`, () => {
    test("appendNotice appends each notice at the end of the tenant's notices feed, as a first version, and no other feed", async () => {
      const s = await make();
      const t = s.tenant("acme");
      assert.equal(await t.feedLength("notices"), 0);
      assert.deepEqual(await t.rawChanges("notices", 0, 10), []);
      assert.equal(await t.appendNotice(notice("A1", 29)), 0);
      assert.equal(await t.appendNotice(notice("A1", 6)), 1);
      assert.equal(await t.feedLength("notices"), 2);
      const changes = await t.rawChanges("notices", 0, 10);
      assert.deepEqual(changes.map((c) => [c.seq, c.first, JSON.parse(dec.decode(c.json))]), [[0, true, notice("A1", 29)], [1, true, notice("A1", 6)]]);
      assert.deepEqual((await t.rawChanges("notices", 1, 10)).map((c) => c.seq), [1]);
      assert.deepEqual(await t.rawChanges("notices", 2, 10), []);
      for (const c of ["documents", "submissions", "runs"] as const) assert.equal(await t.feedLength(c), 0, c);
      assert.equal(await s.tenant("other").feedLength("notices"), 0, "a tenant's notices are its own");
      await s.close();
    });

    test("notices appended at once get consecutive positions, each once", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const seqs = await Promise.all([1, 2, 3, 4, 5].map((n) => t.appendNotice(notice(`S${n}`, n))));
      assert.deepEqual([...seqs].sort((a, b) => a - b), [0, 1, 2, 3, 4]);
      const changes = await t.rawChanges("notices", 0, 10);
      assert.deepEqual(changes.map((c) => c.seq), [0, 1, 2, 3, 4]);
      // Each position holds the notice whose append answered it.
      for (const [i, n] of [1, 2, 3, 4, 5].entries()) {
        assert.equal((JSON.parse(dec.decode(changes[seqs[i]!]!.json)) as { data: { serial: string } }).data.serial, `S${n}`);
      }
      await s.close();
    });

    if (reopen) {
      test("appended notices survive a reopen, and the feed goes on after them", async () => {
        const s = await make();
        await s.tenant("acme").appendNotice(notice("R1", 29));
        const again = await reopen(s);
        const t = again.tenant("acme");
        assert.equal(await t.feedLength("notices"), 1);
        assert.deepEqual(JSON.parse(dec.decode((await t.rawChanges("notices", 0, 1))[0]!.json)), notice("R1", 29));
        assert.equal(await t.appendNotice(notice("R1", 6)), 1);
        await again.close();
      });
    }
  });
}
