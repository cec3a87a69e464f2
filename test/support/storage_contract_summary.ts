/**
 * The storage contract for the summary (README "Summary"): the counters a store keeps as it writes
 * (lib/contracts/summary_counts.ts) equal the keys of the records' latest versions, move when a record changes,
 * hold per tenant, and survive a reopen; `lastRun` is a source's newest run. Registered by storageContract() in
 * storage_contract.ts, so an adapter runs it with the rest.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { COUNT_KEY } from "../../lib/contracts/summary_counts.ts";
import type { DocumentFields, Storage, TenantStore } from "../../lib/contracts/storage.ts";

const at = (h: number): string => new Date(Date.UTC(2026, 10, 1, h, 30)).toISOString();
const KEYS = [
  COUNT_KEY.documentsTotal, COUNT_KEY.documentsXmlMissing, `${COUNT_KEY.documentsSynced}2026-11-01`, `${COUNT_KEY.documentsSynced}2026-11-02`,
  ...["queued", "sending", "accepted", "rejected", "not_sent"].map((s) => COUNT_KEY.submissionStatus + s),
  `${COUNT_KEY.submissionMode}online`, `${COUNT_KEY.submissionMode}offline`,
  `${COUNT_KEY.submissionReceived}2026-11-01T01`, `${COUNT_KEY.submissionAccepted}2026-11-01T03`, `${COUNT_KEY.submissionRejected}2026-11-01T03`,
];

async function counts(t: TenantStore): Promise<Record<string, number>> {
  return Object.fromEntries([...await t.summaryCounts(KEYS, [COUNT_KEY.offlineOpen])].sort());
}

/** Registers the summary contract tests; `reopen` opens the same data again, when the storage persists. */
export function summaryContract(name: string, make: () => Promise<Storage>, fields: (over?: Partial<DocumentFields>) => DocumentFields, reopen?: (s: Storage) => Promise<Storage>): void {
  describe(`storage contract, summary counters: ${name}`, () => {
    test("summaryCounts follows documents and submissions as they are written and changed, per tenant", async () => {
      let s = await make();
      const t = s.tenant("acme");
      assert.deepEqual(await counts(t), {});
      const xml = await t.putBlob(new TextEncoder().encode("<x/>"));
      await t.upsertDocument({ source: "inbox", external_id: "A", fields: fields(), xml: null, received_at: null }, at(1));
      await t.upsertDocument({ source: "inbox", external_id: "B", fields: fields({ number: "B" }), xml, received_at: null }, at(1));
      await t.upsertDocument({ source: "inbox", external_id: "A", fields: fields(), xml, received_at: null }, at(25)); // the next day, with its XML
      const sub = async (n: string, send: boolean, issue?: { mode: "online" | "offline"; deadline: string | null }) => {
        const r = await t.createSubmission({ fields: fields({ number: n, format: "ksef-fa3" }), xml: await t.putBlob(new TextEncoder().encode(`<${n}/>`)), send, ...(issue ? { issue } : {}) }, at(1));
        assert.ok("created" in r);
        return r.created;
      };
      const a = await sub("S1", true);
      await sub("S2", false);
      const off = await sub("S3", true, { mode: "offline", deadline: "2026-11-03" });
      await t.saveSubmissionKsef(a.id, { ...a.ksef!, status: "accepted", updated_at: at(3) });
      await t.saveSubmissionKsef(off.id, { ...off.ksef!, status: "rejected", updated_at: at(3) });
      const expected = {
        [COUNT_KEY.documentsTotal]: 2, [`${COUNT_KEY.documentsSynced}2026-11-01`]: 1, [`${COUNT_KEY.documentsSynced}2026-11-02`]: 1,
        [`${COUNT_KEY.submissionStatus}accepted`]: 1, [`${COUNT_KEY.submissionStatus}rejected`]: 1, [`${COUNT_KEY.submissionStatus}not_sent`]: 1,
        [`${COUNT_KEY.submissionMode}online`]: 1, [`${COUNT_KEY.submissionMode}offline`]: 1,
        [`${COUNT_KEY.submissionReceived}2026-11-01T01`]: 3, [`${COUNT_KEY.submissionAccepted}2026-11-01T03`]: 1, [`${COUNT_KEY.submissionRejected}2026-11-01T03`]: 1,
        [`${COUNT_KEY.offlineOpen}2026-11-03`]: 1,
      };
      assert.deepEqual(await counts(t), Object.fromEntries(Object.entries(expected).sort()));
      assert.deepEqual(await counts(s.tenant("other")), {}, "another tenant's counters are its own");
      if (reopen) {
        s = await reopen(s);
        assert.deepEqual(await counts(s.tenant("acme")), Object.fromEntries(Object.entries(expected).sort()), "after a reopen");
      }
      await s.close();
    });

    test("a document whose XML was judged invalid at import counts as invalid until a version judged otherwise replaces it", async () => {
      let s = await make();
      const t = s.tenant("acme");
      const invalid = async (): Promise<number> => (await t.summaryCounts([COUNT_KEY.documentsInvalid], [])).get(COUNT_KEY.documentsInvalid) ?? 0;
      const xml = async (text: string) => t.putBlob(new TextEncoder().encode(text));
      await t.upsertDocument({ source: "inbox", external_id: "A", fields: fields(), xml: await xml("<a/>"), received_at: null, valid: false }, at(1));
      await t.upsertDocument({ source: "inbox", external_id: "B", fields: fields({ number: "B" }), xml: await xml("<b/>"), received_at: null, valid: true }, at(1));
      await t.upsertDocument({ source: "inbox", external_id: "C", fields: fields({ number: "C" }), xml: await xml("<c/>"), received_at: null }, at(1)); // not judged
      // Metadata only: there is no XML to have judged, whatever the input says.
      await t.upsertDocument({ source: "inbox", external_id: "D", fields: fields({ number: "D" }), xml: null, received_at: null, valid: false }, at(1));
      assert.equal(await invalid(), 1);
      await t.upsertDocument({ source: "inbox", external_id: "B", fields: fields({ number: "B" }), xml: await xml("<b2/>"), received_at: null, valid: false }, at(2));
      assert.equal(await invalid(), 2, "B's new XML was judged invalid");
      await t.upsertDocument({ source: "inbox", external_id: "A", fields: fields(), xml: await xml("<a2/>"), received_at: null, valid: true }, at(2));
      assert.equal(await invalid(), 1, "A's new XML was judged valid");
      const doc = await t.getDocument((await t.upsertDocument({ source: "inbox", external_id: "B", fields: fields({ number: "B" }), xml: await xml("<b2/>"), received_at: null, valid: false }, at(3))).document.id);
      assert.equal("valid" in JSON.parse(new TextDecoder().decode(doc!.json)), false, "the verdict is not part of the document JSON");
      if (reopen) {
        s = await reopen(s);
        assert.equal((await s.tenant("acme").summaryCounts([COUNT_KEY.documentsInvalid], [])).get(COUNT_KEY.documentsInvalid), 1, "after a reopen");
      }
      await s.close();
    });

    test("lastRun is the newest run of a source, null for a source without runs", async () => {
      const s = await make();
      const t = s.tenant("acme");
      assert.equal(await t.lastRun("inbox"), null);
      const first = (await t.requestRun("inbox", at(1))).run;
      await t.saveRun({ ...first, status: "succeeded", finished_at: at(2) });
      const other = (await t.requestRun("ksef", at(3))).run;
      const second = (await t.requestRun("inbox", at(4))).run;
      assert.equal((await t.lastRun("inbox"))?.id, second.id);
      assert.equal((await t.lastRun("ksef"))?.id, other.id);
      assert.equal(await t.lastRun("nowhere"), null);
      await s.close();
    });
  });
}
