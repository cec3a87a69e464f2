/**
 * The storage contract for verdicts judged after a document was stored (README "Summary": older documents are judged
 * in the background): `unjudgedDocuments` lists the documents with XML and no verdict in the order they were first
 * stored, `saveVerdicts` keeps a verdict beside a document that has none and still holds the judged XML, without a
 * new version, and the summary's `doc:invalid` follows. Registered by storageContract() in storage_contract.ts.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { COUNT_KEY } from "../../lib/contracts/summary_counts.ts";
import type { DocumentFields, Storage, TenantStore, UnjudgedDocument } from "../../lib/contracts/storage.ts";

const at = (n: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString();
const enc = new TextEncoder();

/** Every unjudged document, walking the listing `limit` at a time from its beginning. */
export async function allUnjudged(t: TenantStore, limit: number): Promise<UnjudgedDocument[]> {
  const out: UnjudgedDocument[] = [];
  for (let from: number | null = 0; from !== null;) {
    const page = await t.unjudgedDocuments(from, limit);
    assert.ok(page.items.length <= limit, "no more than the limit");
    assert.ok(page.next === null || page.next > from, "the listing moves on");
    out.push(...page.items);
    from = page.next;
  }
  return out;
}

async function invalid(t: TenantStore): Promise<number> {
  return (await t.summaryCounts([COUNT_KEY.documentsInvalid], [])).get(COUNT_KEY.documentsInvalid) ?? 0;
}

/** Registers the verdict contract tests; `reopen` opens the same data again, when the storage persists. */
export function verdictContract(name: string, make: () => Promise<Storage>, fields: (over?: Partial<DocumentFields>) => DocumentFields, reopen?: (s: Storage) => Promise<Storage>): void {
  describe(`storage contract, verdicts judged later: ${name}`, () => {
    test("unjudgedDocuments lists documents with XML and no verdict, oldest first, a page at a time", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const put = (id: string, xml: boolean, valid?: boolean) => (async () => t.upsertDocument({
        source: "inbox", external_id: id, fields: fields({ number: id }), received_at: null,
        xml: xml ? await t.putBlob(enc.encode(`<${id}/>`)) : null, ...(valid === undefined ? {} : { valid }),
      }, at(1)))();
      const a = await put("A", true);
      await put("B", false); // metadata only: nothing to judge
      await put("C", true, false); // judged at import
      const d = await put("D", true);
      const e = await put("E", true);
      await put("F", true, true);
      const expected = [a, d, e].map((x) => ({ id: x.document.id, sha256: x.document.sha256! }));
      assert.deepEqual(await allUnjudged(t, 10), expected);
      assert.deepEqual(await allUnjudged(t, 1), expected, "walked one at a time");
      assert.deepEqual(await allUnjudged(s.tenant("other"), 10), [], "another tenant's are its own");
      // A document updated since keeps its place: the order is that of first storing.
      await t.upsertDocument({ source: "inbox", external_id: "A", fields: fields({ number: "A" }), received_at: null, xml: await t.putBlob(enc.encode("<A2/>")) }, at(2));
      assert.deepEqual((await allUnjudged(t, 10)).map((x) => x.id), expected.map((x) => x.id));
      await s.close();
    });

    test("saveVerdicts keeps verdicts of the XML a document still holds, moves the invalid count, and writes no new version", async () => {
      let s = await make();
      let t = s.tenant("acme");
      const docs = [];
      for (const id of ["A", "B", "C", "D"]) {
        docs.push((await t.upsertDocument({ source: "inbox", external_id: id, fields: fields({ number: id }), received_at: null, xml: await t.putBlob(enc.encode(`<${id}/>`)) }, at(1))).document);
      }
      const [a, b, c, d] = docs as [typeof docs[0], typeof docs[0], typeof docs[0], typeof docs[0]];
      await t.upsertDocument({ source: "inbox", external_id: "E", fields: fields({ number: "E" }), received_at: null, xml: await t.putBlob(enc.encode("<E/>")), valid: true }, at(1));
      const feed = await t.feedLength("documents");
      const before = await t.getDocument(a.id);
      assert.equal(await invalid(t), 0);
      // C changed after it was listed: the verdict on its old XML is not kept (the new version is judged on its own).
      await t.upsertDocument({ source: "inbox", external_id: "C", fields: fields({ number: "C" }), received_at: null, xml: await t.putBlob(enc.encode("<C2/>")) }, at(2));
      const kept = await t.saveVerdicts([
        { id: a.id, sha256: a.sha256!, valid: false },
        { id: b.id, sha256: b.sha256!, valid: true },
        { id: c.id, sha256: c.sha256!, valid: false },
        { id: "doc_00000000000000000000000000", sha256: a.sha256!, valid: false },
      ]);
      assert.equal(kept, 2);
      assert.equal(await invalid(t), 1);
      assert.equal(await t.feedLength("documents"), feed + 1, "only C's update was a change");
      assert.deepEqual((await t.getDocument(a.id))!.json, before!.json, "the document JSON is as it was");
      assert.deepEqual((await t.documentChanges(0, 10, {}, 100)).items.map((j) => JSON.parse(new TextDecoder().decode(j)).external_id), ["A", "B", "D", "E", "C"], "A keeps its place in the feed");
      assert.deepEqual((await allUnjudged(t, 10)).map((x) => x.id), [c.id, d.id]);
      // A verdict is kept once: a second judging of A (a batch repeated after a stop) changes nothing.
      assert.equal(await t.saveVerdicts([{ id: a.id, sha256: a.sha256!, valid: true }]), 0);
      assert.equal(await invalid(t), 1);
      assert.equal(await t.saveVerdicts([{ id: d.id, sha256: d.sha256!, valid: false }]), 1);
      assert.equal(await invalid(t), 2);
      // New XML replaces a kept verdict with the import's own (here none).
      await t.upsertDocument({ source: "inbox", external_id: "A", fields: fields({ number: "A" }), received_at: null, xml: await t.putBlob(enc.encode("<A2/>")) }, at(3));
      assert.equal(await invalid(t), 1, "A's new XML has no verdict yet");
      assert.deepEqual((await allUnjudged(t, 10)).map((x) => x.id), [a.id, c.id]);
      if (reopen) {
        s = await reopen(s);
        t = s.tenant("acme");
        assert.equal(await invalid(t), 1, "after a reopen");
        assert.deepEqual((await allUnjudged(t, 10)).map((x) => x.id), [a.id, c.id], "after a reopen");
        assert.equal(await t.saveVerdicts([{ id: d.id, sha256: d.sha256!, valid: true }]), 0, "D's verdict was kept");
      }
      await s.close();
    });
  });
}
