/**
 * The file store's summary counters (README "Summary") on a shared data directory (WORKERS > 1): what another
 * process writes reaches this one's counters, and this one's own writes after that are counted once.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { COUNT_KEY } from "../../../lib/contracts/summary_counts.ts";
import type { DocumentFields, TenantStore } from "../../../lib/contracts/storage.ts";
import { FileStorage } from "../../../storage/file/store.ts";

const fields: DocumentFields = { type: "invoice", format: "ubl", number: "1", issue_date: "2026-11-01", currency: "EUR", seller: null, buyer: null, totals: null };
const at = "2026-11-02T10:00:00.000Z";
const keys = [COUNT_KEY.documentsTotal, COUNT_KEY.documentsXmlMissing, `${COUNT_KEY.submissionStatus}not_sent`];

async function counts(t: TenantStore): Promise<Record<string, number>> {
  return Object.fromEntries(await t.summaryCounts(keys, []));
}

test("another process's writes reach the counters of a shared directory", async () => {
  const dir = mkdtempSync(join(tmpdir(), "summary-shared-"));
  const writer = new FileStorage(dir, { shared: true });
  const reader = new FileStorage(dir, { shared: true });
  try {
    const w = writer.tenant("acme"), r = reader.tenant("acme");
    assert.deepEqual(await counts(r), {});
    for (const id of ["a", "b", "c"]) await w.upsertDocument({ source: "inbox", external_id: id, fields, xml: null, received_at: null }, at);
    const xml = await w.putBlob(new TextEncoder().encode("<x/>"));
    await w.createSubmission({ fields, xml }, at);
    assert.deepEqual(await counts(r), { [COUNT_KEY.documentsTotal]: 3, [COUNT_KEY.documentsXmlMissing]: 3, [`${COUNT_KEY.submissionStatus}not_sent`]: 1 });
    // The reader writes too: its own change after the other's is counted once.
    await r.upsertDocument({ source: "inbox", external_id: "a", fields, xml, received_at: null }, at);
    await r.upsertDocument({ source: "inbox", external_id: "d", fields, xml, received_at: null }, at);
    const both = { [COUNT_KEY.documentsTotal]: 4, [COUNT_KEY.documentsXmlMissing]: 2, [`${COUNT_KEY.submissionStatus}not_sent`]: 1 };
    assert.deepEqual(await counts(r), both);
    assert.deepEqual(await counts(w), both);
  } finally {
    await writer.close();
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a document's verdict reaches another process's counters, and is derived again from the log when its slots are lost", async () => {
  const dir = mkdtempSync(join(tmpdir(), "summary-verdict-"));
  const invalid = async (t: TenantStore): Promise<number> => (await t.summaryCounts([COUNT_KEY.documentsInvalid], [])).get(COUNT_KEY.documentsInvalid) ?? 0;
  try {
    const writer = new FileStorage(dir, { shared: true });
    const reader = new FileStorage(dir, { shared: true });
    try {
      const w = writer.tenant("acme"), r = reader.tenant("acme");
      assert.equal(await invalid(r), 0); // open before the writes, so that it takes them in from the log
      const xml = await w.putBlob(new TextEncoder().encode("<x/>"));
      await w.upsertDocument({ source: "inbox", external_id: "a", fields, xml, received_at: null, valid: false }, at);
      await w.upsertDocument({ source: "inbox", external_id: "b", fields, xml, received_at: null, valid: true }, at);
      assert.equal(await invalid(r), 1, "read from the other process's record");
    } finally {
      await writer.close();
      await reader.close();
    }
    // The slots are a cache of the log: without them, the verdict comes back from each version's meta bytes.
    const tenantDir = join(dir, "tenants", "acme");
    const slots = readdirSync(tenantDir).filter((f) => f === "documents.slots");
    assert.deepEqual(slots, ["documents.slots"]);
    rmSync(join(tenantDir, "documents.slots"));
    const again = new FileStorage(dir);
    try {
      assert.equal(await invalid(again.tenant("acme")), 1);
    } finally {
      await again.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
