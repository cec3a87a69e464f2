import assert from "node:assert/strict";
import { test } from "node:test";
import { PageCache } from "../../lib/api/page_cache.ts";

const MIB = 1024 * 1024;
const page = (n: number): Uint8Array => new Uint8Array(MIB).fill(n);

test("PageCache gives a page back only for the feed version it was made at", () => {
  const cache = new PageCache();
  cache.set("a", 7, page(1));
  assert.equal(cache.get("a", 7)?.[0], 1);
  assert.equal(cache.get("a", 8), null);
  assert.equal(cache.get("b", 7), null);
});

test("PageCache holds 32 MiB at most, and a page asked for since it was stored outlives older ones that were not", () => {
  const cache = new PageCache();
  for (let i = 0; i < 32; i++) cache.set(`p${i}`, 1, page(i)); // exactly the bound
  assert.ok(cache.get("p0", 1), "the oldest, asked for again");
  cache.set("p32", 1, page(32)); // one over: one page goes
  assert.ok(cache.get("p0", 1), "kept: it was asked for");
  assert.equal(cache.get("p1", 1), null, "the oldest that was not asked for went");
  for (let i = 2; i <= 32; i++) assert.ok(cache.get(`p${i}`, 1), `p${i} is still there`);
  for (let i = 33; i < 70; i++) cache.set(`p${i}`, 1, page(i));
  const kept = Array.from({ length: 70 }, (_, i) => cache.get(`p${i}`, 1)).filter((p) => p !== null);
  assert.equal(kept.length, 32, "the bound holds however many pages come");
});

test("PageCache does not keep a page over 1 MiB", () => {
  const cache = new PageCache();
  cache.set("big", 1, new Uint8Array(MIB + 1));
  assert.equal(cache.get("big", 1), null);
});
