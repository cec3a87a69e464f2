/**
 * The storage contract suite: every storage implementation must pass it. Run it
 * against your own adapter with `storageContract("mine", async () => new Mine())`.
 * Documents, submissions, runs, blobs and tokens here; document batches in
 * storage_contract_batch.ts, sending to KSeF in storage_contract_ksef.ts, the other
 * records in storage_contract_records.ts, verdicts judged later in storage_contract_verdicts.ts. test/storage/contract_coverage.test.ts
 * checks that the suite calls every method of the contract.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import type { DocumentFields, DocumentInput, Storage } from "../../lib/contracts/storage.ts";
import { checkListings, COLLIDING_TAX_IDS, seedListingData } from "./listing_reference.ts";
import { documentBatchContract } from "./storage_contract_batch.ts";
import { ksefSendContract } from "./storage_contract_ksef.ts";
import { noticesContract } from "./storage_contract_notices.ts";
import { storageRecordsContract } from "./storage_contract_records.ts";
import { summaryContract } from "./storage_contract_summary.ts";
import { verdictContract } from "./storage_contract_verdicts.ts";

const dec = new TextDecoder();
const parse = (b: Uint8Array): Record<string, unknown> => JSON.parse(dec.decode(b)) as Record<string, unknown>;

/** Fields for a test document. */
export function fields(over: Partial<DocumentFields> = {}): DocumentFields {
  return {
    type: "invoice", format: "ubl", number: "INV-1", issue_date: "2026-01-15", currency: "EUR",
    seller: { name: "Seller", tax_id: "S1" }, buyer: { name: "Buyer", tax_id: "B1" },
    totals: { net: "100.00", tax: "23.00", gross: "123.00" }, ...over,
  };
}

function input(externalId: string, over: Partial<DocumentInput> = {}): DocumentInput {
  return { source: "inbox", external_id: externalId, fields: fields({ number: externalId }), xml: null, received_at: null, ...over };
}

const sha = (s: string): string => createHash("sha256").update(s).digest("hex");
const at = (n: number): string => new Date(Date.UTC(2026, 10, 1, 0, 0, n)).toISOString();

/**
 * Registers the contract tests for a storage made by `make`: every method of `Storage` and `TenantStore`.
 * `reopen` closes a storage and opens the same data again, for a storage that persists.
 */
export function storageContract(name: string, make: () => Promise<Storage>, reopen?: (s: Storage) => Promise<Storage>): void {
  storageRecordsContract(name, make, fields);
  documentBatchContract(name, make, fields);
  ksefSendContract(name, make, reopen);
  summaryContract(name, make, fields, reopen);
  verdictContract(name, make, fields, reopen);
  noticesContract(name, make, reopen);
  describe(`storage contract: ${name}`, () => {
    test("upsertDocument creates, keeps unchanged input unchanged, and updates on new XML", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const a = await t.upsertDocument(input("A"), at(1));
      assert.equal(a.outcome, "created");
      assert.match(a.document.id, /^doc_[0-9A-Z]{26}$/);
      assert.equal((await t.upsertDocument(input("A"), at(2))).outcome, "unchanged");
      const xml = await t.putBlob(new TextEncoder().encode("<x/>"));
      const b = await t.upsertDocument(input("A", { xml }), at(3));
      assert.equal(b.outcome, "updated");
      assert.equal(b.document.id, a.document.id);
      assert.equal(b.document.xml_available, true);
      assert.equal(b.document.sha256, sha("<x/>"));
      // Metadata arriving after the XML never replaces it.
      assert.equal((await t.upsertDocument(input("A", { fields: fields({ number: "other" }) }), at(4))).outcome, "unchanged");
      await s.close();
    });

    test("a changed document moves to the end of the feed and is listed once", async () => {
      const s = await make();
      const t = s.tenant("acme");
      for (const id of ["A", "B", "C"]) await t.upsertDocument(input(id), at(1));
      await t.upsertDocument(input("A", { fields: fields({ number: "A2" }) }), at(2));
      const page = await t.documentChanges(0, 10, {}, 1000);
      assert.deepEqual(page.items.map((b) => parse(b).external_id), ["B", "C", "A"]);
      assert.equal(page.next, 4);
      assert.equal(page.hasMore, false);
      const later = await t.documentChanges(page.next, 10, {}, 1000);
      assert.equal(later.items.length, 0);
      assert.equal(later.next, 4);
      await s.close();
    });

    test("documentChanges pages by limit and stops after maxScan entries", async () => {
      const s = await make();
      const t = s.tenant("acme");
      for (let i = 0; i < 25; i++) await t.upsertDocument(input(`D${i}`, { fields: fields({ type: i % 5 === 0 ? "credit_note" : "invoice" }) }), at(i));
      const p1 = await t.documentChanges(0, 10, {}, 1000);
      assert.equal(p1.items.length, 10);
      assert.equal(p1.hasMore, true);
      const p2 = await t.documentChanges(p1.next, 10, {}, 1000);
      const p3 = await t.documentChanges(p2.next, 10, {}, 1000);
      assert.equal(p3.items.length, 5);
      assert.equal(p3.hasMore, false);
      // A store either stops after maxScan entries (a scan) or skips what does not match through an index; either
      // way it never returns fewer matches than the first maxScan entries hold, and `next` continues after them.
      const all = ["D0", "D5", "D10", "D15", "D20"];
      const credit = await t.documentChanges(0, 10, { type: "credit_note" }, 7);
      const got = credit.items.map((b) => String(parse(b).external_id));
      assert.ok(got.length >= 2);
      assert.deepEqual(got, all.slice(0, got.length));
      assert.ok(credit.next >= 7);
      assert.equal(credit.hasMore, credit.next < 25);
      const rest = await t.documentChanges(credit.next, 10, { type: "credit_note" }, 1000);
      assert.deepEqual([...got, ...rest.items.map((b) => String(parse(b).external_id))], all);
      await s.close();
    });

    test("filters select the same documents in feed and page mode", async () => {
      const s = await make();
      const t = s.tenant("acme");
      await t.upsertDocument(input("A", { fields: fields({ issue_date: "2026-01-01", seller: { name: "X", tax_id: "111" } }) }), at(1));
      await t.upsertDocument(input("B", { fields: fields({ issue_date: "2026-02-01", format: "cii", buyer: { name: "Y", tax_id: "222" } }), ksef_number: "5265877635-20260201-0100001AF629-AF" }), at(2));
      await t.upsertDocument(input("C", { fields: fields({ issue_date: null, type: "correction" }) }), at(3));
      const cases: [Record<string, unknown>, string[]][] = [
        [{ seller_tax_id: "111" }, ["A"]],
        [{ buyer_tax_id: "222" }, ["B"]],
        [{ format: "cii" }, ["B"]],
        [{ type: "correction" }, ["C"]],
        [{ issue_date_from: "2026-01-01", issue_date_to: "2026-01-31" }, ["A"]],
        [{ issue_date_from: "2026-01-02" }, ["B"]],
        [{ xml_available: true }, []],
        [{ xml_available: false }, ["A", "B", "C"]],
        [{ ksef_number: "5265877635-20260201-0100001AF629-AF" }, ["B"]],
        [{ ksef_number: "5265877635-20260201-0100001AF629-AA" }, []],
      ];
      for (const [filter, expected] of cases) {
        const feed = await t.documentChanges(0, 10, filter, 1000);
        assert.deepEqual(feed.items.map((b) => parse(b).external_id), expected, JSON.stringify(filter));
        const page = await t.documentPage(filter, "issue_date", 0, 10);
        assert.deepEqual(page.items.map((b) => parse(b).external_id).sort(), expected, JSON.stringify(filter));
        assert.equal(page.total, expected.length);
      }
      await s.close();
    });

    test("documentPage sorts by issue date or sync time, nulls last, ties by id", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const dates = ["2026-03-01", null, "2026-01-01", "2026-03-01", "2026-02-01"];
      for (let i = 0; i < dates.length; i++) await t.upsertDocument(input(`D${i}`, { fields: fields({ issue_date: dates[i] ?? null }) }), at(10 - i));
      const ids = async (sort: "-issue_date" | "issue_date" | "-synced_at" | "synced_at", offset = 0, limit = 10) =>
        (await t.documentPage({}, sort, offset, limit)).items.map((b) => parse(b).external_id);
      assert.deepEqual(await ids("issue_date"), ["D2", "D4", "D0", "D3", "D1"]);
      assert.deepEqual(await ids("-issue_date"), ["D3", "D0", "D4", "D2", "D1"]);
      assert.deepEqual(await ids("synced_at"), ["D4", "D3", "D2", "D1", "D0"]);
      assert.deepEqual(await ids("-synced_at"), ["D0", "D1", "D2", "D3", "D4"]);
      assert.deepEqual(await ids("issue_date", 1, 2), ["D4", "D0"]);
      const page = await t.documentPage({}, "issue_date", 4, 10);
      assert.equal(page.total, 5);
      assert.equal(page.items.length, 1);
      await s.close();
    });

    test("total is exact for tax ids that collide under a 32-bit hash", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const [a, b] = COLLIDING_TAX_IDS.seller;
      for (let i = 0; i < 5; i++) {
        const seller = { name: "S", tax_id: i < 3 ? a : b };
        await t.upsertDocument(input(`C${i}`, { fields: fields({ seller, buyer: { name: "B", tax_id: COLLIDING_TAX_IDS.buyer[i % 2]! } }) }), at(i));
      }
      for (const sort of ["issue_date", "-synced_at"] as const) {
        const pa = await t.documentPage({ seller_tax_id: a }, sort, 0, 10);
        assert.equal(pa.total, 3);
        assert.deepEqual(pa.items.map((x) => (parse(x).seller as { tax_id: string }).tax_id), [a, a, a]);
        assert.equal((await t.documentPage({ seller_tax_id: b }, sort, 0, 10)).total, 2);
        assert.equal((await t.documentPage({ seller_tax_id: b, buyer_tax_id: COLLIDING_TAX_IDS.buyer[0] }, sort, 0, 10)).total, 1);
        assert.equal((await t.documentPage({ buyer_tax_id: COLLIDING_TAX_IDS.buyer[1] }, sort, 0, 10)).total, 2);
      }
      const feed = await t.documentChanges(0, 10, { seller_tax_id: b }, 1000);
      assert.deepEqual(feed.items.map((x) => parse(x).external_id), ["C3", "C4"]);
      await s.close();
    });

    test("every filter and sort combination matches a brute-force reference, before and after updates", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const data = await seedListingData(t, 7, 160);
      await checkListings(t, data, 11);
      // Index maintenance: documents change type, dates and parties, XML arrives; half of the reads come in between.
      await data.update(60, async () => checkListings(t, data, 13, 4));
      await checkListings(t, data, 17);
      await s.close();
    });

    test("tenants never see each other's documents", async () => {
      const s = await make();
      const a = await s.tenant("acme").upsertDocument(input("A"), at(1));
      const other = s.tenant("other");
      assert.equal(await other.getDocument(a.document.id), null);
      assert.equal((await other.documentChanges(0, 10, {}, 100)).items.length, 0);
      assert.ok(await s.tenant("acme").getDocument(a.document.id));
      assert.equal(await s.tenant("acme").getDocument("doc_00000000000000000000000000"), null);
      assert.equal(await s.tenant("acme").getDocument("nonsense"), null);
      await s.close();
    });

    test("blobs round-trip and stream byte ranges", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const bytes = new TextEncoder().encode("<Invoice>0123456789</Invoice>");
      const info = await t.putBlob(bytes);
      assert.equal(info.sha256, createHash("sha256").update(bytes).digest("hex"));
      const blob = await t.getBlob(info.sha256);
      assert.ok(blob);
      assert.deepEqual(Buffer.from(await blob.bytes()), Buffer.from(bytes));
      const chunks: Uint8Array[] = [];
      for await (const c of blob.stream(9, 14)) chunks.push(c);
      assert.equal(Buffer.concat(chunks).toString(), "01234");
      assert.equal(await t.getBlob("0".repeat(64)), null);
      assert.equal(await s.tenant("other").getBlob(info.sha256), null);
      await t.putDerived("pdf-key-1", bytes);
      assert.equal((await t.getDerived("pdf-key-1"))?.size, bytes.length);
      await s.close();
    });

    test("createSubmission refuses the same bytes or the same business key", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const x1 = { sha256: sha("1"), size: 1 };
      const first = await t.createSubmission({ fields: fields({ number: "N1" }), xml: x1 }, at(1));
      assert.ok("created" in first);
      const id = first.created.id;
      assert.match(id, /^sub_/);
      assert.deepEqual(await t.createSubmission({ fields: fields({ number: "N2" }), xml: x1 }, at(2)), { duplicateOf: id });
      assert.deepEqual(await t.createSubmission({ fields: fields({ number: "N1" }), xml: { sha256: sha("2"), size: 1 } }, at(3)), { duplicateOf: id });
      const other = await t.createSubmission({ fields: fields({ number: "N1", type: "correction" }), xml: { sha256: sha("3"), size: 1 } }, at(4));
      assert.ok("created" in other);
      assert.ok("created" in (await s.tenant("other").createSubmission({ fields: fields({ number: "N1" }), xml: x1 }, at(5))));
      assert.equal((await t.getSubmission(id))?.record.number, "N1");
      const feed = await t.submissionChanges(0, 10, 100);
      assert.equal(feed.items.length, 2);
      await s.close();
    });

    test("requestRun coalesces with a queued or running run of the same source", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const a = await t.requestRun("inbox", at(1));
      assert.equal(a.created, true);
      const b = await t.requestRun("inbox", at(2));
      assert.equal(b.created, false);
      assert.equal(b.run.id, a.run.id);
      assert.equal((await t.requestRun("http", at(2))).created, true);
      await t.saveRun({ ...a.run, status: "succeeded", finished_at: at(3) });
      assert.equal((await t.getRun(a.run.id))?.status, "succeeded");
      assert.deepEqual((await t.activeRuns()).map((r) => r.source), ["http"]);
      assert.equal((await t.requestRun("inbox", at(4))).created, true);
      assert.equal(await s.tenant("other").getRun(a.run.id), null);
      await s.close();
    });

    test("a webhook changes by compare-and-set: a write over a version already replaced is refused", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const hook = await t.createWebhook({ url: "https://example.com/", events: ["*"], description: null, secret: "whsec_AA==", created_at: at(0) });
      const read = (await t.getWebhook(hook.id))!;
      const deleted = await t.saveWebhook({ ...read, status: "deleted" });
      assert.equal(deleted?.status, "deleted");
      assert.equal(deleted?.version, (read.version ?? 0) + 1);
      assert.equal(await t.saveWebhook({ ...read, description: "late" }), null); // read before the delete
      assert.equal(await t.getWebhook(hook.id), null);
      assert.deepEqual(await t.listWebhooks(), []);
      const other = await t.createWebhook({ url: "https://example.com/2", events: ["*"], description: null, secret: "whsec_AA==", created_at: at(1) });
      const v1 = (await t.saveWebhook({ ...other, description: "one" }))!;
      assert.equal((await t.saveWebhook({ ...v1, description: "two" }))?.description, "two");
      assert.equal(await t.saveWebhook({ ...v1, description: "three" }), null);
      assert.equal((await t.getWebhook(other.id))?.description, "two");
      await s.close();
    });

    test("a webhook's attempt log keeps the newest 1,000 attempts and none older than 30 days", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const hook = await t.createWebhook({ url: "https://example.com/", events: ["*"], description: null, secret: "whsec_AA==", created_at: at(0) });
      const day = 86_400_000;
      const start = Date.UTC(2026, 0, 1);
      const attempt = (i: number, ms: number) => ({
        event_id: `evt_${String(i).padStart(26, "0")}`, type: "document.created", attempt: 1, manual: false,
        attempted_at: new Date(ms).toISOString(), status_code: 500, duration_ms: 3, error: "HTTP 500", collection: "documents" as const, change_seq: i,
      });
      const epoch = new Date(0).toISOString();
      // Three attempts a day apart: all kept, paged oldest first, with increasing seq.
      for (let i = 0; i < 3; i++) await t.appendDeliveryAttempt(hook.id, attempt(i, start + i * day));
      const first = await t.deliveryAttempts(hook.id, 0, 2, epoch);
      assert.deepEqual(first.items.map((a) => a.change_seq), [0, 1]);
      assert.equal(first.hasMore, true);
      assert.equal(first.items[0]!.error, "HTTP 500");
      const rest = await t.deliveryAttempts(hook.id, first.items[1]!.seq, 10, epoch);
      assert.deepEqual(rest.items.map((a) => a.change_seq), [2]);
      assert.equal(rest.hasMore, false);
      assert.ok(rest.items[0]!.seq > first.items[1]!.seq);
      // notBefore hides what is older; another endpoint and another tenant see nothing.
      assert.deepEqual((await t.deliveryAttempts(hook.id, 0, 10, new Date(start + day).toISOString())).items.map((a) => a.change_seq), [1, 2]);
      assert.equal((await s.tenant("other").deliveryAttempts(hook.id, 0, 10, epoch)).items.length, 0);
      // An attempt 31 days after the second drops the first two.
      await t.appendDeliveryAttempt(hook.id, attempt(3, start + 32 * day));
      assert.deepEqual((await t.deliveryAttempts(hook.id, 0, 10, epoch)).items.map((a) => a.change_seq), [2, 3]);
      // 1,100 more: the newest 1,000 are kept.
      for (let i = 4; i < 1_104; i++) await t.appendDeliveryAttempt(hook.id, attempt(i, start + 32 * day + i));
      const all = await t.deliveryAttempts(hook.id, 0, 2_000, epoch);
      assert.equal(all.items.length, 1_000);
      assert.equal(all.items[0]!.change_seq, 104);
      assert.equal(all.items.at(-1)!.change_seq, 1_103);
      await s.close();
    });

    test("retry-now requests are queued once per event and stay queued until completed", async () => {
      const s = await make();
      const t = s.tenant("acme");
      const hook = await t.createWebhook({ url: "https://example.com/", events: ["*"], description: null, secret: "whsec_AA==", created_at: at(0) });
      const r = (n: number, sec: number) => ({ event_id: `evt_${String(n).padStart(26, "0")}`, attempt: 2, collection: "runs" as const, change_seq: n, requested_at: at(sec) });
      await t.requestRedelivery(hook.id, r(2, 2));
      await t.requestRedelivery(hook.id, r(1, 1));
      await t.requestRedelivery(hook.id, r(2, 3)); // already queued
      assert.deepEqual(await s.tenant("other").pendingRedeliveries(hook.id), []);
      assert.deepEqual(await t.pendingRedeliveries(hook.id), [r(1, 1), r(2, 2)]);
      // A worker that crashed after reading them finds them again.
      assert.deepEqual(await t.pendingRedeliveries(hook.id), [r(1, 1), r(2, 2)]);
      await t.completeRedelivery(hook.id, r(1, 1).event_id);
      assert.deepEqual(await t.pendingRedeliveries(hook.id), [r(2, 2)]);
      await t.completeRedelivery(hook.id, r(2, 2).event_id);
      assert.deepEqual(await t.pendingRedeliveries(hook.id), []);
      await s.close();
    });

    test("tokens are found by key id, listed by tenant and revoked", async () => {
      const s = await make();
      const rec = { key_id: "abc123abc123", tenant: "acme", secret_sha256: sha("x"), scopes: ["documents:read" as const], created_at: at(1), expires_at: null, revoked_at: null };
      await s.tokens.create(rec);
      assert.deepEqual(await s.tokens.find("abc123abc123"), rec);
      assert.equal((await s.tokens.list("acme")).length, 1);
      assert.equal((await s.tokens.list("other")).length, 0);
      assert.equal(await s.tokens.revoke("abc123abc123", at(2)), true);
      assert.equal((await s.tokens.find("abc123abc123"))?.revoked_at, at(2));
      assert.equal(await s.tokens.revoke("nope", at(2)), false);
      assert.deepEqual(await s.secret("cursor"), await s.secret("cursor"));
      await s.close();
    });
  });
}
