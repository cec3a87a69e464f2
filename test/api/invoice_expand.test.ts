import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InvoiceJsonCache, MAX_CACHE_BYTES, MAX_ENTRY_BYTES, wantsInvoice } from "../../lib/api/invoice_expand.ts";
import { ApiError } from "../../lib/http/errors.ts";

describe("InvoiceJsonCache", () => {
  test("InvoiceJsonCache keeps at most MAX_CACHE_BYTES, dropping the least recently used first", () => {
    const cache = new InvoiceJsonCache();
    const n = MAX_CACHE_BYTES / MAX_ENTRY_BYTES;
    for (let i = 0; i < n; i++) cache.set(`sha${i}`, new Uint8Array(MAX_ENTRY_BYTES));
    assert.ok(cache.get("sha0") !== undefined, "all fit at the bound");
    cache.set("one-more", new Uint8Array(MAX_ENTRY_BYTES));
    // sha0 was used last, so sha1 is the least recently used and goes.
    assert.equal(cache.get("sha1"), undefined);
    assert.ok(cache.get("sha0") !== undefined);
    assert.ok(cache.get("one-more") !== undefined);
  });

  test("InvoiceJsonCache does not keep an entry over MAX_ENTRY_BYTES", () => {
    const cache = new InvoiceJsonCache();
    cache.set("big", new Uint8Array(MAX_ENTRY_BYTES + 1));
    assert.equal(cache.get("big"), undefined);
  });

  test("InvoiceJsonCache replaces an entry under the same key", () => {
    const cache = new InvoiceJsonCache();
    cache.set("a", new Uint8Array([1]));
    cache.set("a", new Uint8Array([2]));
    assert.deepEqual(cache.get("a"), new Uint8Array([2]));
  });
});

describe("wantsInvoice()", () => {
  const cases: { what: string; input: string; expected: boolean | "400" }[] = [
    { what: "no expand", input: "", expected: false },
    { what: "expand=invoice", input: "expand=invoice", expected: true },
    { what: "expand=lines", input: "expand=lines", expected: "400" },
    { what: "an empty expand", input: "expand=", expected: "400" },
  ];
  for (const { what, input, expected } of cases) {
    test(`wantsInvoice() with ${what} is ${expected}`, () => {
      const q = new URLSearchParams(input);
      if (expected === "400") {
        assert.throws(() => wantsInvoice(q), (e: unknown) => e instanceof ApiError && e.status === 400 && (e.details as { field: string }).field === "expand");
      } else assert.equal(wantsInvoice(q), expected);
    });
  }
});
