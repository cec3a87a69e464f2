/** The in-memory cache of what is derived from stored XML (invoice JSON, verdicts), keyed by the XML's SHA-256. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MAX_CACHE_BYTES, MAX_ENTRY_BYTES, ShaCache } from "../../lib/api/sha_cache.ts";

describe("ShaCache", () => {
  test("ShaCache keeps at most MAX_CACHE_BYTES, dropping the least recently used first", () => {
    const cache = new ShaCache();
    const n = MAX_CACHE_BYTES / MAX_ENTRY_BYTES;
    for (let i = 0; i < n; i++) cache.set(`sha${i}`, new Uint8Array(MAX_ENTRY_BYTES));
    assert.ok(cache.get("sha0") !== undefined, "all fit at the bound");
    cache.set("one-more", new Uint8Array(MAX_ENTRY_BYTES));
    // sha0 was used last, so sha1 is the least recently used and goes.
    assert.equal(cache.get("sha1"), undefined);
    assert.ok(cache.get("sha0") !== undefined);
    assert.ok(cache.get("one-more") !== undefined);
  });

  test("ShaCache does not keep an entry over MAX_ENTRY_BYTES", () => {
    const cache = new ShaCache();
    cache.set("big", new Uint8Array(MAX_ENTRY_BYTES + 1));
    assert.equal(cache.get("big"), undefined);
  });

  test("ShaCache replaces an entry under the same key", () => {
    const cache = new ShaCache();
    cache.set("a", new Uint8Array([1]));
    cache.set("a", new Uint8Array([2]));
    assert.deepEqual(cache.get("a"), new Uint8Array([2]));
  });
});
