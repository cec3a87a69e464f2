import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { DocumentIndexOptions } from "../../../storage/file/document_index.ts";
import { FileDocuments } from "../../../storage/file/documents.ts";
import { FileStorage } from "../../../storage/file/store.ts";
import { checkListings, seedListingData, type ListingStore } from "../../support/listing_reference.ts";

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), "doc-index-"));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// FileDocuments as the slice of a tenant store that listings use, with small index limits.
function _documents(dir: string, options: DocumentIndexOptions): { store: ListingStore; docs: FileDocuments } {
  const docs = new FileDocuments(dir, false, options);
  const store: ListingStore = {
    upsertDocument: async (input, now) => docs.upsert(input, now),
    documentPage: async (filter, sort, offset, limit) => docs.page(filter, sort, offset, limit),
    documentChanges: async (from, limit, filter, maxScan) => docs.changes(from, limit, filter, maxScan),
  };
  return { store, docs };
}

describe("file store document index", () => {
  test("is rebuilt from the record log at reopen and answers as before", async () => {
    const dir = tempDir();
    let s = new FileStorage(dir, { durable: false });
    const data = await seedListingData(s.tenant("acme"), 21, 200);
    await data.update(40, async () => {});
    await checkListings(s.tenant("acme"), data, 22, 12);
    await s.close();
    s = new FileStorage(dir);
    await checkListings(s.tenant("acme"), data, 23);
    await s.close();
  });

  for (const [what, options] of [
    ["a delta of a few changes merged often", { deltaMax: 3 }],
    ["a bulk load past the tracking limit, then a rebuild from scratch", { deltaMax: 3, trackMax: 10 }],
    ["every change merged at the next read", { deltaMax: 0 }],
  ] as const) {
    test(`pages and feeds match the reference with ${what}`, async () => {
      const { store, docs } = _documents(tempDir(), options);
      const data = await seedListingData(store, 31, 150);
      await checkListings(store, data, 32, 20);
      await data.update(50, async () => checkListings(store, data, 33, 2));
      await checkListings(store, data, 34);
      docs.log.close();
    });
  }

  test("another process's writes reach the index of a shared directory", async () => {
    const dir = tempDir();
    const writer = new FileStorage(dir, { shared: true });
    const reader = new FileStorage(dir, { shared: true });
    const data = await seedListingData(writer.tenant("acme"), 41, 120);
    await checkListings(reader.tenant("acme"), data, 42, 10);
    await data.update(30, async () => checkListings(reader.tenant("acme"), data, 43, 2));
    await checkListings(reader.tenant("acme"), data, 44, 20);
    await writer.close();
    await reader.close();
  });
});
