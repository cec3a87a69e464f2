import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { wantsInvoice } from "../../lib/api/invoice_expand.ts";
import { ApiError } from "../../lib/http/errors.ts";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";

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

describe("a list with expand=invoice over its byte budget", () => {
  const xml = readFileSync(fixturePath("samples", "ubl", "peppol-bis3_base-example.xml")).toString();
  let s: TestServer;
  let token: string;
  let itemBytes: number;
  before(async () => {
    s = await startServer({ storage: "memory", expandedListLimit: 1 });
    token = (await s.token("acme")).token;
    for (let i = 0; i < 5; i++) {
      const form = new FormData();
      form.append("xml", new Blob([xml.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>B-${i}</cbc:ID>`)]), `${i}.xml`);
      assert.equal((await s.fetch("/api/v1/submissions", token, { method: "POST", body: form })).status, 201);
    }
    const one = await (await s.fetch("/api/v1/submissions?limit=1&expand=invoice", token)).text();
    itemBytes = one.length;
    await s.close();
  });

  test("stops early with has_more and a next_cursor, always with at least one item, and pages through all", async () => {
    // A budget of two and a half items: pages of two; a budget below one item: pages of one.
    for (const [factor, perPage] of [[2.5, 2], [0.5, 1]] as const) {
      const t = await startServer({ storage: "memory", expandedListLimit: Math.floor(itemBytes * factor) });
      try {
        const tok = (await t.token("acme")).token;
        for (let i = 0; i < 5; i++) {
          const form = new FormData();
          form.append("xml", new Blob([xml.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>B-${i}</cbc:ID>`)]), `${i}.xml`);
          assert.equal((await t.fetch("/api/v1/submissions", tok, { method: "POST", body: form })).status, 201);
        }
        const seen: string[] = [];
        let cursor = "";
        for (let n = 0; n < 10; n++) {
          const page = (await (await t.fetch(`/api/v1/submissions?limit=100&expand=invoice${cursor ? `&cursor=${cursor}` : ""}`, tok)).json()) as { data: { id: string; invoice: unknown }[]; has_more: boolean; next_cursor: string };
          assert.ok(page.data.length <= perPage && page.data.length >= (page.has_more ? perPage : 1), `factor ${factor}: ${page.data.length}`);
          for (const d of page.data) (assert.ok(d.invoice), seen.push(d.id));
          cursor = page.next_cursor;
          if (!page.has_more) break;
        }
        assert.equal(seen.length, 5);
        assert.equal(new Set(seen).size, 5);
      } finally {
        await t.close();
      }
    }
  });

  test("in page mode (numbered pages cannot stop early) is 400 naming the budget", async () => {
    const t = await startServer({ expandedListLimit: Math.floor(itemBytes * 1.5) });
    try {
      const tok = (await t.token("acme")).token;
      for (let i = 0; i < 2; i++) t.drop("acme", `${i}.xml`, xml.replace("<cbc:ID>Snippet1</cbc:ID>", `<cbc:ID>D-${i}</cbc:ID>`));
      await t.sync(tok);
      const res = await t.fetch("/api/v1/documents?page=1&per_page=10&expand=invoice", tok);
      assert.equal(res.status, 400);
      const body = (await res.json()) as { error: { details: Record<string, unknown> } };
      assert.deepEqual(body.error.details, { field: "expand", issue: "response too large", limit_bytes: Math.floor(itemBytes * 1.5) });
      assert.equal((await t.fetch("/api/v1/documents?page=1&per_page=1&expand=invoice", tok)).status, 200);
    } finally {
      await t.close();
    }
  });
});
