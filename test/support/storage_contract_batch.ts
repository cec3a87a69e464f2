/**
 * The storage contract's part for `upsertDocuments`, the batch write of a sync run: a batch creates, updates and
 * leaves unchanged as the same upserts one by one would, in order (a key repeated in a batch sees the version
 * before it), and leaves the feeds and listings as they would. Registered by storageContract() in
 * storage_contract.ts; whether a batch is committed together is each store's own test (it cannot be seen here).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import type { DocumentFields, DocumentInput, Storage, TenantStore } from "../../lib/contracts/storage.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const at = (n: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString();

/** A blob reference for XML `s` (the store is not asked to hold its bytes). */
export const xmlOf = (s: string): { sha256: string; size: number } => ({ sha256: createHash("sha256").update(enc.encode(s)).digest("hex"), size: s.length });

/** Documents stored before the batch, and a batch mixing new, changed and unchanged ones, with keys repeated. */
export function batchInputs(fields: (over?: Partial<DocumentFields>) => DocumentFields): { seed: DocumentInput[]; batch: DocumentInput[] } {
  const doc = (id: string, over: Partial<DocumentInput> = {}): DocumentInput =>
    ({ source: "inbox", external_id: id, fields: fields({ number: id }), xml: null, received_at: null, ...over });
  const seed = [
    doc("A"), doc("B", { xml: xmlOf("b1") }), doc("C"), doc("D", { xml: xmlOf("d1") }),
    doc("E", { xml: xmlOf("e1"), ksef_number: "K-E" }), doc("F", { source: "ksef", fields: fields({ number: "F", issue_date: "2026-03-01" }) }),
  ];
  const batch = [
    doc("N1"),
    doc("A", { fields: fields({ number: "A", issue_date: "2026-02-02", type: "credit_note" }) }), // moves between counts
    doc("B", { xml: xmlOf("b1") }), // unchanged: same XML
    doc("C"), // unchanged: same metadata
    doc("N2", { fields: fields({ number: "N2", issue_date: null, buyer: { name: "No tax id", tax_id: null } }) }),
    doc("N1", { fields: fields({ number: "N1", seller: { name: "Other", tax_id: "S2" } }) }), // new, then changed in the batch
    doc("A", { fields: fields({ number: "A", issue_date: "2026-02-02", type: "credit_note" }) }), // unchanged against the one before
    doc("B", { xml: xmlOf("b2") }), // new XML: updated, same counts
    doc("D", { fields: fields({ number: "other" }) }), // metadata never replaces XML: unchanged
    doc("E", { xml: xmlOf("e1"), ksef_number: "K-E2" }), // a new KSeF number is a change
    doc("C", { xml: xmlOf("c1"), received_at: "2026-10-31T00:00:00.000Z" }), // its XML arrives
    doc("F", { fields: fields({ number: "F", issue_date: "2026-03-01" }) }), // another source: a new document
    doc("N1", { xml: xmlOf("n1") }), // a third version in the batch
  ];
  return { seed, batch };
}

/** The outcomes of batchInputs' batch over its seed. */
export const BATCH_OUTCOMES = ["created", "updated", "unchanged", "unchanged", "created", "updated", "unchanged",
  "updated", "unchanged", "updated", "updated", "created", "updated"];

/** Ids are random: names them by order of first appearance. */
export function named(text: string, names = new Map<string, string>()): string {
  return text.replace(/\bdoc_[0-9A-Z]{26}\b/g, (id) => {
    if (!names.has(id)) names.set(id, `doc#${names.size}`);
    return names.get(id)!;
  });
}

/** What a tenant shows of its documents: the raw feed, a cursor walk, pages in each sort order with their totals. */
export async function observed(t: TenantStore): Promise<string> {
  const out: unknown[] = [];
  out.push((await t.rawChanges("documents", 0, 100)).map((c) => [c.seq, c.first, dec.decode(c.json)]));
  out.push((await t.documentChanges(0, 100, {}, 1000)).items.map((b) => dec.decode(b)));
  for (const sort of ["issue_date", "-issue_date", "synced_at", "-synced_at"] as const) {
    const p = await t.documentPage({}, sort, 0, 100);
    out.push(sort, p.total, p.items.map((b) => (JSON.parse(dec.decode(b)) as { id: string }).id));
  }
  const filters = [{ type: "invoice" }, { type: "credit_note" }, { xml_available: true }, { seller_tax_id: "S1" }, { seller_tax_id: "S2" },
    { buyer_tax_id: "B1" }, { issue_date_from: "2026-01-01", issue_date_to: "2026-02-28" }, { issue_date_from: "2026-03-01" }] as const;
  for (const f of filters) out.push(f, (await t.documentPage(f, "synced_at", 0, 0)).total);
  return named(JSON.stringify(out));
}

/**
 * Upsert answers compared as values: a record read back from its JSON lists its keys in another order than a new
 * one, and may carry the links its JSON has (the file store's does), which are not part of a DocumentRecord.
 */
export const answers = (r: unknown): unknown => JSON.parse(named(JSON.stringify(r, (key, value: unknown) => (key === "links" ? undefined : value))));
const keyOf = (b: Uint8Array): string => {
  const d = JSON.parse(dec.decode(b)) as { source: string; external_id: string };
  return `${d.source}/${d.external_id}`;
};

/** Registers the batch-write contract tests for a storage made by `make`; `fields` makes a document's fields. */
export function documentBatchContract(name: string, make: () => Promise<Storage>, fields: (over?: Partial<DocumentFields>) => DocumentFields): void {
  const { seed, batch } = batchInputs(fields);
  const doc = (id: string, xml: string | null = null): DocumentInput =>
    ({ source: "inbox", external_id: id, fields: fields({ number: id }), xml: xml === null ? null : xmlOf(xml), received_at: null });

  describe(`storage contract: ${name} (document batches)`, () => {
    test("upsertDocuments creates, updates and keeps unchanged as upsertDocument one by one, and feeds and lists the same", async () => {
      const one = await make(), many = await make();
      for (const s of [one, many]) for (const d of seed) await s.tenant("acme").upsertDocument(d, at(1));
      const byOne = [];
      for (const d of batch) byOne.push(await one.tenant("acme").upsertDocument(d, at(2)));
      const byMany = await many.tenant("acme").upsertDocuments(batch, at(2));
      assert.deepEqual(byMany.map((r) => r.outcome), BATCH_OUTCOMES);
      assert.deepEqual(answers(byMany), answers(byOne));
      const t = many.tenant("acme");
      // A document that changed moves to the end of the feed, at its last change; an unchanged one stays.
      assert.deepEqual((await t.documentChanges(0, 100, {}, 1000)).items.map(keyOf),
        ["inbox/D", "ksef/F", "inbox/A", "inbox/N2", "inbox/B", "inbox/E", "inbox/C", "inbox/F", "inbox/N1"]);
      assert.equal(await t.feedLength("documents"), seed.length + BATCH_OUTCOMES.filter((o) => o !== "unchanged").length);
      assert.equal(await observed(t), await observed(one.tenant("acme")));
      assert.equal((await t.getDocument(byMany[12]!.document.id))?.record.sha256, xmlOf("n1").sha256);
      assert.equal((await t.getDocument(byMany[8]!.document.id))?.record.sha256, xmlOf("d1").sha256, "metadata never replaces XML");
      for (const s of [one, many]) await s.close();
    });

    test("a key repeated in a batch is one document: created at its first place, a feed entry at each change", async () => {
      const s = await make();
      const t = s.tenant("acme");
      await t.upsertDocument(doc("Z"), at(1));
      const r = await t.upsertDocuments([doc("X"), doc("X", "x1"), doc("Y"), doc("X", "x2"), doc("X", "x2")], at(2));
      assert.deepEqual(r.map((x) => x.outcome), ["created", "updated", "created", "updated", "unchanged"]);
      assert.equal(new Set([0, 1, 3, 4].map((i) => r[i]!.document.id)).size, 1);
      assert.equal(r[4]!.document.sha256, xmlOf("x2").sha256);
      const raw = await t.rawChanges("documents", 0, 10);
      assert.deepEqual(raw.map((c) => [c.seq, (JSON.parse(dec.decode(c.json)) as { external_id: string }).external_id, c.first]),
        [[0, "Z", true], [1, "X", true], [2, "X", false], [3, "Y", true], [4, "X", false]]);
      assert.equal(await t.feedLength("documents"), 5);
      assert.equal((await t.documentPage({}, "synced_at", 0, 0)).total, 3);
      assert.equal((await s.tenant("other").documentPage({}, "synced_at", 0, 0)).total, 0, "another tenant sees none of them");
      await s.close();
    });

    test("an empty batch, or one with nothing new, answers without a change to the feed", async () => {
      const s = await make();
      const t = s.tenant("acme");
      assert.deepEqual(await t.upsertDocuments([], at(1)), []);
      assert.equal(await t.feedLength("documents"), 0);
      const first = await t.upsertDocuments([doc("A", "a1"), doc("B")], at(1));
      const again = await t.upsertDocuments([doc("A", "a1"), doc("B")], at(2));
      assert.deepEqual(again.map((x) => x.outcome), ["unchanged", "unchanged"]);
      assert.deepEqual(answers(again.map((x) => x.document)), answers(first.map((x) => x.document)), "the stored documents, as they were");
      assert.deepEqual(await t.upsertDocuments([], at(3)), []);
      assert.equal(await t.feedLength("documents"), 2);
      await s.close();
    });
  });
}
