import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { StorageUnavailableError, storageUnavailableCode } from "../../../lib/contracts/storage_errors.ts";
import { FileStorage } from "../../../storage/file/store.ts";
import { fileUnavailableCode } from "../../../storage/file/unavailable.ts";

test("fileUnavailableCode() names a full disk, a read-only or failing one and exhausted descriptors, and nothing else", () => {
  for (const code of ["ENOSPC", "EROFS", "EIO", "EDQUOT", "EMFILE", "ENFILE"]) assert.equal(fileUnavailableCode(Object.assign(new Error(code), { code })), code);
  for (const code of ["ENOENT", "EACCES", undefined]) assert.equal(fileUnavailableCode(Object.assign(new Error("x"), { code })), null);
  assert.equal(fileUnavailableCode(null), null);
});

test("the file store's tenant stores throw StorageUnavailableError when the disk is full, and other errors as they are", async () => {
  const dir = mkdtempSync(join(tmpdir(), "unavail-"));
  const storage = new FileStorage(dir);
  try {
    const t = storage.tenant("acme");
    const full = Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
    // The disk fills up under the tenant's store: stand-in by a method of the store object itself.
    const inner = Object.getPrototypeOf(t) as { putBlob: (b: Uint8Array) => Promise<unknown> };
    const original = inner.putBlob;
    inner.putBlob = async () => {
      throw full;
    };
    try {
      await assert.rejects(t.putBlob(new Uint8Array(1)), (e) => e instanceof StorageUnavailableError && storageUnavailableCode(e) === "ENOSPC" && e.cause === full);
    } finally {
      inner.putBlob = original;
    }
    assert.equal((await t.putBlob(new Uint8Array(1))).size, 1);
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
