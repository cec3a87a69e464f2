import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { FileStorage } from "../../storage/file/store.ts";
import { openStorage, SOURCE_TYPES, STORAGE_SCHEMES } from "../../storage/registry.ts";

test("openStorage() opens the file store without a DATABASE_URL", async () => {
  const dir = mkdtempSync(join(tmpdir(), "registry-"));
  try {
    const s = await openStorage({ dataDir: dir, databaseUrl: null, shared: false });
    assert.ok(s instanceof FileStorage);
    await s.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("openStorage() refuses a DATABASE_URL whose scheme no backend serves, listing the known ones and not echoing the URL", async () => {
  for (const url of ["mysql://root:secret@db/x", "postgress://u:secret@db/x", "not a url"]) {
    await assert.rejects(openStorage({ dataDir: ".", databaseUrl: url, shared: false }), (e: Error) =>
      e instanceof RangeError && /no storage backend serves \(known: postgres:, postgresql:\)/.test(e.message) && !e.message.includes("secret"));
  }
});

test("the registries name every backend scheme and source type that README documents", () => {
  assert.deepEqual(Object.keys(STORAGE_SCHEMES), ["postgres:", "postgresql:"]);
  assert.deepEqual(Object.keys(SOURCE_TYPES), ["http", "ksef"]);
});
