/**
 * The file store's verdicts judged after a document was stored (storage/file/verdict_log.ts, README "Summary"): kept
 * in `documents.verdicts` beside the documents log, they reach another process on a shared directory, come back
 * at open, apply only to the version that was judged, and a torn tail is cut at open.
 */
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { COUNT_KEY } from "../../../lib/contracts/summary_counts.ts";
import type { DocumentFields, DocumentRecord, TenantStore } from "../../../lib/contracts/storage.ts";
import { FileStorage } from "../../../storage/file/store.ts";

const fields: DocumentFields = { type: "invoice", format: "ubl", number: "1", issue_date: "2026-11-01", currency: "EUR", seller: null, buyer: null, totals: null };
const at = "2026-11-02T10:00:00.000Z";
const enc = new TextEncoder();

const invalid = async (t: TenantStore): Promise<number> => (await t.summaryCounts([COUNT_KEY.documentsInvalid], [])).get(COUNT_KEY.documentsInvalid) ?? 0;

/** Stores documents the way an import before verdicts did: with XML and no verdict. */
async function stored(t: TenantStore, ids: string[]): Promise<DocumentRecord[]> {
  const out: DocumentRecord[] = [];
  for (const id of ids) out.push((await t.upsertDocument({ source: "inbox", external_id: id, fields, xml: await t.putBlob(enc.encode(`<${id}/>`)), received_at: null }, at)).document);
  return out;
}

test("a verdict judged later reaches another process on a shared directory, and never a newer version of the document", async () => {
  const dir = mkdtempSync(join(tmpdir(), "verdicts-shared-"));
  const writer = new FileStorage(dir, { shared: true });
  const reader = new FileStorage(dir, { shared: true });
  try {
    const w = writer.tenant("acme"), r = reader.tenant("acme");
    const [a, b] = await stored(w, ["A", "B"]);
    assert.equal(await invalid(r), 0); // open before the verdicts, so that it takes them in as they come
    assert.equal((await r.unjudgedDocuments(0, 10)).items.length, 2);
    assert.equal(await w.saveVerdicts([{ id: a!.id, sha256: a!.sha256!, valid: false }, { id: b!.id, sha256: b!.sha256!, valid: false }]), 2);
    assert.equal(await invalid(r), 2, "read from the other process's verdicts");
    assert.deepEqual((await r.unjudgedDocuments(0, 10)).items, []);
    // B gets new XML from the other process: its verdict was on the old XML and no longer counts there either.
    await r.upsertDocument({ source: "inbox", external_id: "B", fields, xml: await r.putBlob(enc.encode("<B2/>")), received_at: null }, at);
    assert.equal(await invalid(w), 1);
    assert.equal(await invalid(r), 1);
  } finally {
    await writer.close();
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("verdicts come back from documents.verdicts at open (the slots never hold them), and a torn tail of it is cut", async () => {
  const dir = mkdtempSync(join(tmpdir(), "verdicts-reopen-"));
  try {
    const s = new FileStorage(dir);
    const t = s.tenant("acme");
    const [a, b, c] = await stored(t, ["A", "B", "C"]);
    await t.saveVerdicts([{ id: a!.id, sha256: a!.sha256!, valid: false }, { id: b!.id, sha256: b!.sha256!, valid: true }]);
    // C's version is replaced after it was judged: the entry names the old version, which is no longer the latest.
    await t.saveVerdicts([{ id: c!.id, sha256: c!.sha256!, valid: false }]);
    await t.upsertDocument({ source: "inbox", external_id: "C", fields, xml: await t.putBlob(enc.encode("<C2/>")), received_at: null }, at);
    await s.close();
    const tenantDir = join(dir, "tenants", "acme");
    const file = join(tenantDir, "documents.verdicts");
    assert.equal(statSync(file).size, 3 * 16);
    appendFileSync(file, Buffer.from([1, 0, 0, 0, 9, 9, 9])); // an append a crash cut short
    const again = new FileStorage(dir);
    try {
      const t2 = again.tenant("acme");
      assert.equal(await invalid(t2), 1, "A, from the verdicts file; C's entry names a version that is no longer the latest");
      assert.deepEqual((await t2.unjudgedDocuments(0, 10)).items.map((x) => x.id), [c!.id]);
      assert.equal(statSync(file).size, 3 * 16, "the torn entry was cut");
      await t2.saveVerdicts([{ id: c!.id, sha256: (await t2.getDocument(c!.id))!.record.sha256!, valid: false }]);
      assert.equal(await invalid(t2), 2);
      assert.equal(statSync(file).size, 4 * 16, "the next entry follows the whole ones");
    } finally {
      await again.close();
    }
    const third = new FileStorage(dir);
    try {
      assert.equal(await invalid(third.tenant("acme")), 2);
    } finally {
      await third.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("on a shared directory a torn tail is left at open (another process may be appending) and cut by the next writer under the lock", async () => {
  const dir = mkdtempSync(join(tmpdir(), "verdicts-shared-tail-"));
  try {
    const first = new FileStorage(dir);
    const [a, b] = await stored(first.tenant("acme"), ["A", "B"]);
    await first.tenant("acme").saveVerdicts([{ id: a!.id, sha256: a!.sha256!, valid: false }]);
    await first.close();
    const file = join(dir, "tenants", "acme", "documents.verdicts");
    appendFileSync(file, Buffer.from([1, 0, 0, 0, 9])); // as if another process were halfway through its append
    const s = new FileStorage(dir, { shared: true });
    try {
      const t = s.tenant("acme");
      assert.equal(await invalid(t), 1);
      assert.equal(statSync(file).size, 16 + 5, "left as it is at open");
      assert.equal(await t.saveVerdicts([{ id: b!.id, sha256: b!.sha256!, valid: false }]), 1);
      assert.equal(statSync(file).size, 2 * 16, "cut under the lock, then appended whole");
    } finally {
      await s.close();
    }
    const again = new FileStorage(dir);
    try {
      assert.equal(await invalid(again.tenant("acme")), 2);
    } finally {
      await again.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
