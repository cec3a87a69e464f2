/**
 * The documents API (README “Parameters”, README “Documents and the inbox”) through a real server over real
 * invoices: the change feed (cursor mode), page mode, every filter in both
 * modes, one document's JSON, and the raw XML download with ETag, Range,
 * Content-Disposition and HEAD. Expected values come from the fixture table
 * below (numbers and totals as test/fixtures/samples/SOURCES.md lists them).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import { fixturePath, startServer, type TestServer } from "../support/server.ts";
import { STORES } from "../support/stores.ts";
import { errorOf } from "../support/api.ts";
import { invoiceJson } from "../../lib/api/documents/invoice_json.ts";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";

// ---------------------------------------------------------------- fixtures

const sample = (dir: string, file: string): Uint8Array => readFileSync(fixturePath("samples", dir, file));

/** FA_3_Przyklad_4_EUR with a non-ASCII invoice number, for filename*. */
function nonAsciiNumberInvoice(): Uint8Array {
  const xml = Buffer.from(sample("ksef-fa3", "FA_3_Przyklad_4_EUR.xml")).toString("utf8");
  assert.ok(xml.includes("<P_2>15/2024</P_2>"));
  return Buffer.from(xml.replace("<P_2>15/2024</P_2>", "<P_2>FV/Żółć/1</P_2>"), "utf8");
}

/** The Peppol base example padded with a 300 KB comment: large enough to be streamed, not read whole. */
function largeInvoice(): Uint8Array {
  const xml = Buffer.from(sample("ubl", "peppol-bis3_base-example.xml")).toString("utf8");
  const decl = xml.indexOf("?>") + 2;
  return Buffer.from(`${xml.slice(0, decl)}\n<!-- ${"padding ".repeat(300 * 128)}-->${xml.slice(decl)}`, "utf8");
}

const METADATA = {
  type: "invoice", format: "ksef-fa3", number: "FV/2026/11/001", issue_date: "2026-11-20", currency: "PLN",
  seller: { name: "Przykładowa Sp. z o.o.", tax_id: "5260250274" },
  buyer: { name: "Kowalski i Syn", tax_id: "1234563218" },
  totals: { net: "1000.00", tax: "230.00", gross: "1230.00" },
  received_at: "2026-11-20T10:00:00.000Z",
  unknown_field: "ignored",
};

interface Fixture {
  /** Inbox stem, which is the external id; the inbox imports in name order. */
  name: string;
  bytes: Uint8Array | null;
  format: string;
  type: string;
  number: string;
  issue_date: string;
  currency: string;
  seller: string | null;
  buyer: string | null;
  gross: string;
}

const FIXTURES: Fixture[] = [
  { name: "01-fa2-vat", bytes: sample("ksef-fa2", "FA_2_Przyklad_9.xml"), format: "ksef-fa2", type: "invoice", number: "FV2022/02/150", issue_date: "2022-02-15", currency: "PLN", seller: "9999999999", buyer: "1111111111", gross: "2760" },
  { name: "02-fa2-zal", bytes: sample("ksef-fa2", "FA_2_Przyklad_10_ZAL.xml"), format: "ksef-fa2", type: "invoice", number: "FZ2022/02/150", issue_date: "2022-02-15", currency: "PLN", seller: "9999999999", buyer: "1111111111", gross: "20000" },
  { name: "03-fa2-kor", bytes: sample("ksef-fa2", "FA_2_Przyklad_2_KOR.xml"), format: "ksef-fa2", type: "correction", number: "FK2022/03/200", issue_date: "2022-03-15", currency: "PLN", seller: "9999999999", buyer: "1111111111", gross: "-200" },
  { name: "04-fa3-complex", bytes: sample("ksef-fa3", "FA_3_complex.xml"), format: "ksef-fa3", type: "invoice", number: "FA/2025/12/001", issue_date: "2026-01-15", currency: "PLN", seller: "5451824119", buyer: "3935777054", gross: "5962.00" },
  { name: "05-fa3-eur", bytes: sample("ksef-fa3", "FA_3_Przyklad_4_EUR.xml"), format: "ksef-fa3", type: "invoice", number: "15/2024", issue_date: "2025-12-04", currency: "EUR", seller: "5451824119", buyer: "1111111111", gross: "123" },
  { name: "06-ubl-credit", bytes: sample("ubl", "en16931_ubl-tc434-creditnote1.xml"), format: "ubl", type: "credit_note", number: "018304 / 28865", issue_date: "2019-09-23", currency: "EUR", seller: "BE0000000196", buyer: "BE0000000295", gross: "100.11" },
  { name: "07-ubl-peppol", bytes: sample("ubl", "peppol-bis3_base-example.xml"), format: "ubl", type: "invoice", number: "Snippet1", issue_date: "2017-11-13", currency: "EUR", seller: "GB1232434", buyer: "SE4598375937", gross: "1656.25" },
  { name: "08-ubl-384", bytes: sample("ubl", "xrechnung_01.18a-INVOICE_ubl_384.xml"), format: "ubl", type: "correction", number: "PRG1502112", issue_date: "2015-04-24", currency: "EUR", seller: "DE123456789", buyer: null, gross: "10555.3" },
  { name: "09-cii-facturx", bytes: sample("cii", "mustang_factur-x.xml"), format: "cii", type: "invoice", number: "RE-20201121/508", issue_date: "2020-11-21", currency: "EUR", seller: "DE136695976", buyer: null, gross: "571.04" },
  { name: "10-cii-credit", bytes: sample("cii", "gobl-cii_en16931_credit-note_381.xml"), format: "cii", type: "credit_note", number: "CN-002", issue_date: "2024-02-14", currency: "EUR", seller: "DE111111125", buyer: "DE282741168", gross: "2142.00" },
  { name: "11-cii-xrechnung", bytes: sample("cii", "xrechnung_01.02a-INVOICE_uncefact.xml"), format: "cii", type: "invoice", number: "123456", issue_date: "2016-06-21", currency: "EUR", seller: "DE123456789", buyer: null, gross: "12.6" },
  { name: "12-metadata-only", bytes: null, format: "ksef-fa3", type: "invoice", number: "FV/2026/11/001", issue_date: "2026-11-20", currency: "PLN", seller: "5260250274", buyer: "1234563218", gross: "1230.00" },
  { name: "13-non-ascii-number", bytes: nonAsciiNumberInvoice(), format: "ksef-fa3", type: "invoice", number: "FV/Żółć/1", issue_date: "2025-12-04", currency: "EUR", seller: "5451824119", buyer: "1111111111", gross: "123" },
  { name: "14-large", bytes: largeInvoice(), format: "ubl", type: "invoice", number: "Snippet1", issue_date: "2017-11-13", currency: "EUR", seller: "GB1232434", buyer: "SE4598375937", gross: "1656.25" },
];

const fixture = (name: string): Fixture => FIXTURES.find((f) => f.name === name)!;

/** Puts fixtures into a tenant's inbox: XML as NAME.xml, metadata-only ones as NAME.json. */
function dropAll(s: TestServer, tenant: string, fixtures: Fixture[]): void {
  for (const f of fixtures) {
    if (f.bytes) s.drop(tenant, `${f.name}.xml`, f.bytes);
    else s.drop(tenant, `${f.name}.json`, JSON.stringify(METADATA));
  }
}

// ---------------------------------------------------------------- helpers

interface Doc {
  id: string;
  external_id: string;
  format: string;
  type: string;
  number: string;
  issue_date: string;
  seller: { tax_id: string | null } | null;
  buyer: { tax_id: string | null } | null;
  totals: { gross: string | null } | null;
  xml_available: boolean;
  synced_at: string;
  [key: string]: unknown;
}

interface FeedPage {
  data: Doc[];
  next_cursor: string;
  has_more: boolean;
}

interface BrowsePage {
  data: Doc[];
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

async function getJson<T>(s: TestServer, path: string, token: string): Promise<T> {
  const res = await s.fetch(path, token);
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return (await res.json()) as T;
}


/** Walks the change feed from `cursor` (or the start) until has_more is false; returns every page. */
async function walkFeed(s: TestServer, token: string, query = "", cursor: string | null = null): Promise<FeedPage[]> {
  const pages: FeedPage[] = [];
  for (let i = 0; i < 1000; i++) {
    const params = new URLSearchParams(query);
    if (cursor !== null) params.set("cursor", cursor);
    const page = await getJson<FeedPage>(s, `/api/v1/documents?${params}`, token);
    pages.push(page);
    cursor = page.next_cursor;
    if (!page.has_more) return pages;
  }
  throw new Error("The feed did not end");
}

/** Every document of page mode, page by page. */
async function browseAll(s: TestServer, token: string, query: string, perPage = 200): Promise<Doc[]> {
  const out: Doc[] = [];
  for (let page = 1; ; page++) {
    const body = await getJson<BrowsePage>(s, `/api/v1/documents?${query}${query ? "&" : ""}page=${page}&per_page=${perPage}`, token);
    out.push(...body.data);
    if (page >= body.total_pages) return out;
  }
}

const externalIds = (docs: Doc[]): string[] => docs.map((d) => d.external_id);
const feedDocs = (pages: FeedPage[]): Doc[] => pages.flatMap((p) => p.data);

/** A copy of `cursor` with the character at `i` replaced by another base64url character. */
function tamper(cursor: string, i: number): string {
  const swap = cursor[i] === "A" ? "B" : "A";
  return cursor.slice(0, i) + swap + cursor.slice(i + 1);
}

const ISO_MS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;

// ---------------------------------------------------------------- the shared tenant

for (const store of STORES) describe(`GET /api/v1/documents over real invoices${store.label}`, () => {
  let s: TestServer;
  let token: string;
  let globex: string;
  before(async () => {
    s = await startServer({ storage: store });
    token = (await s.token("acme", ["documents:read", "documents:write"])).token;
    globex = (await s.token("globex", ["documents:read", "documents:write"])).token;
    dropAll(s, "acme", FIXTURES);
    dropAll(s, "globex", [fixture("04-fa3-complex")]);
    const run = await s.sync(token);
    assert.equal(run.status, "succeeded");
    assert.deepEqual(run.counts, { fetched: FIXTURES.length, created: FIXTURES.length, updated: 0, unchanged: 0, failed: 0 }, JSON.stringify(run.errors));
    await s.sync(globex);
  });
  after(() => s.close());

  describe("cursor mode (the change feed)", () => {
    test("a request without page is cursor mode: exactly data, next_cursor and has_more", async () => {
      const body = await getJson<Record<string, unknown>>(s, "/api/v1/documents", token);
      assert.deepEqual(Object.keys(body).sort(), ["data", "has_more", "next_cursor"]);
    });

    test("the feed lists documents oldest change first", async () => {
      const body = await getJson<FeedPage>(s, "/api/v1/documents", token);
      assert.deepEqual(externalIds(body.data), FIXTURES.map((f) => f.name));
      assert.equal(body.has_more, false);
    });

    test("walking the feed page by page sees every document exactly once, in order", async () => {
      for (const limit of [1, 3, 5, 13, 14, 500]) {
        const pages = await walkFeed(s, token, `limit=${limit}`);
        assert.deepEqual(externalIds(feedDocs(pages)), FIXTURES.map((f) => f.name), `limit=${limit}`);
        for (const [i, page] of pages.entries()) {
          assert.ok(page.data.length <= limit);
          assert.equal(typeof page.next_cursor, "string", "next_cursor on every page");
          assert.ok(page.next_cursor.length > 0);
          assert.match(page.next_cursor, /^[A-Za-z0-9_-]+$/, "URL-safe");
          assert.equal(page.has_more, i < pages.length - 1, `limit=${limit} page ${i}`);
        }
      }
    });

    test("has_more is true while documents remain and false on the last page", async () => {
      const first = await getJson<FeedPage>(s, "/api/v1/documents?limit=13", token);
      assert.equal(first.data.length, 13);
      assert.equal(first.has_more, true);
      const last = await getJson<FeedPage>(s, `/api/v1/documents?limit=13&cursor=${first.next_cursor}`, token);
      assert.equal(last.data.length, 1);
      assert.equal(last.has_more, false);
      assert.equal(typeof last.next_cursor, "string", "next_cursor is present and non-null on the last page too");
      const after = await getJson<FeedPage>(s, `/api/v1/documents?limit=13&cursor=${last.next_cursor}`, token);
      assert.deepEqual(after.data, []);
      assert.equal(after.has_more, false);
      assert.equal(typeof after.next_cursor, "string");
    });

    test("limit accepts 1 to 500", async () => {
      assert.equal((await getJson<FeedPage>(s, "/api/v1/documents?limit=1", token)).data.length, 1);
      assert.equal((await getJson<FeedPage>(s, "/api/v1/documents?limit=500", token)).data.length, FIXTURES.length);
    });

    const badLimits = [
      { what: "zero", input: "0" },
      { what: "over 500", input: "501" },
      { what: "not a number", input: "abc" },
      { what: "negative", input: "-1" },
      { what: "a fraction", input: "1.5" },
      { what: "empty", input: "" },
      { what: "huge", input: "99999999999999999999" },
    ];
    for (const { what, input } of badLimits) {
      test(`a limit that is ${what} is 400 with field limit and an issue`, async () => {
        const error = await errorOf(await s.fetch(`/api/v1/documents?limit=${input}`, token), 400, "BAD_REQUEST");
        assert.equal(error.details.field, "limit");
        assert.equal(typeof error.details.issue, "string");
      });
    }

    test("a tampered cursor is 400 with field cursor", async () => {
      const { next_cursor: cursor } = await getJson<FeedPage>(s, "/api/v1/documents?limit=2", token);
      const cases = [
        { what: "one character changed", input: tamper(cursor, Math.floor(cursor.length / 2)) },
        { what: "first character changed", input: tamper(cursor, 0) },
        { what: "truncated", input: cursor.slice(0, -4) },
        { what: "extended", input: `${cursor}AAAA` },
        { what: "garbage", input: "abc" },
        { what: "not base64url", input: "a+b/c=" },
        { what: "empty", input: "" },
        { what: "very long", input: "A".repeat(5000) },
      ];
      for (const { what, input } of cases) {
        const error = await errorOf(await s.fetch(`/api/v1/documents?cursor=${encodeURIComponent(input)}`, token), 400, "BAD_REQUEST");
        assert.equal(error.details.field, "cursor", what);
        assert.equal(typeof error.details.issue, "string", what);
      }
    });

    test("a cursor of another tenant is 400 with field cursor", async () => {
      const { next_cursor: foreign } = await getJson<FeedPage>(s, "/api/v1/documents", globex);
      const error = await errorOf(await s.fetch(`/api/v1/documents?cursor=${foreign}`, token), 400, "BAD_REQUEST");
      assert.equal(error.details.field, "cursor");
      assert.equal((await s.fetch(`/api/v1/documents?cursor=${foreign}`, globex)).status, 200, "its own tenant reads it");
    });

    test("a cursor used with different filters is 400 with field cursor", async () => {
      const { next_cursor: plain } = await getJson<FeedPage>(s, "/api/v1/documents?limit=2", token);
      const { next_cursor: invoices } = await getJson<FeedPage>(s, "/api/v1/documents?limit=2&type=invoice", token);
      const cases = [
        { what: "a filter added", cursor: plain, query: "type=invoice" },
        { what: "a filter removed", cursor: invoices, query: "" },
        { what: "a filter value changed", cursor: invoices, query: "type=correction" },
        { what: "another filter added", cursor: invoices, query: "type=invoice&format=ubl" },
      ];
      for (const c of cases) {
        const error = await errorOf(await s.fetch(`/api/v1/documents?${c.query}&cursor=${c.cursor}`, token), 400, "BAD_REQUEST");
        assert.equal(error.details.field, "cursor", c.what);
      }
    });

    test("a cursor is bound to the filters, not to their order or to the limit", async () => {
      const first = await getJson<FeedPage>(s, "/api/v1/documents?type=invoice&format=ksef-fa3&limit=1", token);
      const rest = await getJson<FeedPage>(s, `/api/v1/documents?format=ksef-fa3&limit=50&type=invoice&cursor=${first.next_cursor}`, token);
      const all = externalIds([...first.data, ...rest.data]);
      assert.deepEqual(all, FIXTURES.filter((f) => f.type === "invoice" && f.format === "ksef-fa3").map((f) => f.name));
    });

    test("cursor and page together are 400", async () => {
      const { next_cursor: cursor } = await getJson<FeedPage>(s, "/api/v1/documents", token);
      const res = await s.fetch(`/api/v1/documents?cursor=${cursor}&page=1`, token);
      const error = await errorOf(res, 400, "BAD_REQUEST");
      assert.equal(typeof error.details.field, "string");
    });
  });

  describe("page mode (browsing)", () => {
    test("a page parameter chooses page mode: exactly data, page, per_page, total and total_pages", async () => {
      const body = await getJson<Record<string, unknown>>(s, "/api/v1/documents?page=1", token);
      assert.deepEqual(Object.keys(body).sort(), ["data", "page", "per_page", "total", "total_pages"]);
      assert.ok(!("next_cursor" in body), "no next_cursor in page mode");
      assert.equal(body.per_page, 50, "per_page defaults to 50");
      assert.equal(body.total, FIXTURES.length);
      assert.equal(body.total_pages, 1);
    });

    test("page and per_page are echoed and total_pages is the ceiling of total / per_page", async () => {
      const body = await getJson<BrowsePage>(s, "/api/v1/documents?page=2&per_page=5", token);
      assert.equal(body.page, 2);
      assert.equal(body.per_page, 5);
      assert.equal(body.total, FIXTURES.length);
      assert.equal(body.total_pages, Math.ceil(FIXTURES.length / 5));
      assert.equal(body.data.length, 5);
      const last = await getJson<BrowsePage>(s, "/api/v1/documents?page=3&per_page=5", token);
      assert.equal(last.data.length, FIXTURES.length - 10);
      const beyond = await getJson<BrowsePage>(s, "/api/v1/documents?page=4&per_page=5", token);
      assert.deepEqual(beyond.data, []);
      assert.equal(beyond.total, FIXTURES.length);
    });

    test("walking the pages sees every document once, in the order of one big page", async () => {
      const big = await getJson<BrowsePage>(s, "/api/v1/documents?page=1&per_page=200", token);
      for (const perPage of [1, 4, 5, 13]) {
        const walked = await browseAll(s, token, "", perPage);
        assert.deepEqual(walked.map((d) => d.id), big.data.map((d) => d.id), `per_page=${perPage}`);
      }
    });

    const sorts = [
      { sort: "-issue_date", key: "issue_date", desc: true },
      { sort: "issue_date", key: "issue_date", desc: false },
      { sort: "-synced_at", key: "synced_at", desc: true },
      { sort: "synced_at", key: "synced_at", desc: false },
    ] as const;
    for (const { sort, key, desc } of sorts) {
      test(`sort=${sort} orders by ${key}, ties broken by id in the same direction`, async () => {
        const body = await getJson<BrowsePage>(s, `/api/v1/documents?page=1&per_page=200&sort=${encodeURIComponent(sort)}`, token);
        assert.equal(body.data.length, FIXTURES.length);
        const expected = [...body.data].sort((a, b) => {
          const ka = a[key] as string, kb = b[key] as string;
          const c = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
          return desc ? -c : c;
        });
        assert.deepEqual(body.data.map((d) => d.id), expected.map((d) => d.id));
      });
    }

    test("the default sort is -issue_date, and same-day documents are ordered by id", async () => {
      const byDefault = await getJson<BrowsePage>(s, "/api/v1/documents?page=1&per_page=200", token);
      const explicit = await getJson<BrowsePage>(s, "/api/v1/documents?page=1&per_page=200&sort=-issue_date", token);
      assert.deepEqual(byDefault.data.map((d) => d.id), explicit.data.map((d) => d.id));
      const sameDay = byDefault.data.filter((d) => d.issue_date === "2022-02-15").map((d) => d.external_id);
      assert.deepEqual(sameDay, ["02-fa2-zal", "01-fa2-vat"], "ties by id, descending like the sort");
    });

    const badPageParams = [
      { what: "page 0", query: "page=0", field: "page" },
      { what: "a negative page", query: "page=-1", field: "page" },
      { what: "a page that is not a number", query: "page=abc", field: "page" },
      { what: "an empty page", query: "page=", field: "page" },
      { what: "per_page 0", query: "page=1&per_page=0", field: "per_page" },
      { what: "per_page 201", query: "page=1&per_page=201", field: "per_page" },
      { what: "per_page abc", query: "page=1&per_page=abc", field: "per_page" },
      { what: "an unknown sort", query: "page=1&sort=number", field: "sort" },
      { what: "a sort with a space", query: "page=1&sort=%20issue_date", field: "sort" },
    ];
    for (const { what, query, field } of badPageParams) {
      test(`${what} is 400 with field ${field} and an issue`, async () => {
        const error = await errorOf(await s.fetch(`/api/v1/documents?${query}`, token), 400, "BAD_REQUEST");
        assert.equal(error.details.field, field);
        assert.equal(typeof error.details.issue, "string");
      });
    }

    test("per_page accepts 1 to 200 and page × per_page up to 10,000", async () => {
      for (const query of ["page=1&per_page=1", "page=1&per_page=200", "page=50&per_page=200", "page=10000&per_page=1", "page=200"]) {
        const res = await s.fetch(`/api/v1/documents?${query}`, token);
        assert.equal(res.status, 200, query);
        await res.arrayBuffer();
      }
    });

    for (const query of ["page=51&per_page=200", "page=201", "page=10001&per_page=1", "page=20000&per_page=200"]) {
      test(`${query} goes beyond 10,000 and is 400 telling the client to use cursor mode`, async () => {
        const error = await errorOf(await s.fetch(`/api/v1/documents?${query}`, token), 400, "BAD_REQUEST");
        assert.match(error.message, /cursor/i);
      });
    }
  });

  describe("filters, in both modes", () => {
    const filters: { query: string; keep: (f: Fixture) => boolean }[] = [
      { query: "type=invoice", keep: (f) => f.type === "invoice" },
      { query: "type=credit_note", keep: (f) => f.type === "credit_note" },
      { query: "type=correction", keep: (f) => f.type === "correction" },
      { query: "type=other", keep: () => false },
      { query: "format=ksef-fa2", keep: (f) => f.format === "ksef-fa2" },
      { query: "format=ksef-fa3", keep: (f) => f.format === "ksef-fa3" },
      { query: "format=ubl", keep: (f) => f.format === "ubl" },
      { query: "format=cii", keep: (f) => f.format === "cii" },
      { query: "issue_date_from=2022-02-15", keep: (f) => f.issue_date >= "2022-02-15" },
      { query: "issue_date_to=2022-02-15", keep: (f) => f.issue_date <= "2022-02-15" },
      { query: "issue_date_from=2022-02-15&issue_date_to=2022-02-15", keep: (f) => f.issue_date === "2022-02-15" },
      { query: "issue_date_from=2020-01-01&issue_date_to=2024-12-31", keep: (f) => f.issue_date >= "2020-01-01" && f.issue_date <= "2024-12-31" },
      { query: "issue_date_from=2030-01-01&issue_date_to=2020-01-01", keep: () => false },
      { query: "seller_tax_id=9999999999", keep: (f) => f.seller === "9999999999" },
      { query: "seller_tax_id=DE123456789", keep: (f) => f.seller === "DE123456789" },
      { query: "seller_tax_id=0000000000", keep: () => false },
      { query: "buyer_tax_id=1111111111", keep: (f) => f.buyer === "1111111111" },
      { query: "buyer_tax_id=BE0000000295", keep: (f) => f.buyer === "BE0000000295" },
      { query: "xml_available=true", keep: (f) => f.bytes !== null },
      { query: "xml_available=false", keep: (f) => f.bytes === null },
      { query: "format=ksef-fa2&type=invoice", keep: (f) => f.format === "ksef-fa2" && f.type === "invoice" },
      { query: "format=ksef-fa3&xml_available=true&buyer_tax_id=1111111111", keep: (f) => f.format === "ksef-fa3" && f.bytes !== null && f.buyer === "1111111111" },
    ];

    for (const { query, keep } of filters) {
      test(`${query} selects the same documents in cursor mode and in page mode`, async () => {
        const expected = FIXTURES.filter(keep).map((f) => f.name);
        const walked = feedDocs(await walkFeed(s, token, `${query}&limit=2`));
        assert.deepEqual(externalIds(walked), expected, "cursor mode, in feed order");
        const page = await getJson<BrowsePage>(s, `/api/v1/documents?${query}&page=1&per_page=2`, token);
        assert.equal(page.total, expected.length, "page mode total");
        assert.equal(page.total_pages, Math.ceil(expected.length / 2));
        const browsed = await browseAll(s, token, query, 3);
        assert.deepEqual(externalIds(browsed).sort(), expected, "page mode, every page");
      });
    }

    const badFilters = [
      { query: "type=bill", field: "type" },
      { query: "type=Invoice", field: "type" },
      { query: "format=pdf", field: "format" },
      { query: "format=", field: "format" },
      { query: "issue_date_from=2024-13-01", field: "issue_date_from" },
      { query: "issue_date_from=2024-00-10", field: "issue_date_from" },
      { query: "issue_date_to=2024-01-32", field: "issue_date_to" },
      { query: "issue_date_from=2023-02-29", field: "issue_date_from" },
      { query: "issue_date_from=1900-02-29", field: "issue_date_from" },
      { query: "issue_date_from=20240101", field: "issue_date_from" },
      { query: "issue_date_to=2024-01-01T00:00:00Z", field: "issue_date_to" },
      { query: "issue_date_to=yesterday", field: "issue_date_to" },
      { query: "seller_tax_id=", field: "seller_tax_id" },
      { query: `buyer_tax_id=${"9".repeat(65)}`, field: "buyer_tax_id" },
      { query: "xml_available=yes", field: "xml_available" },
      { query: "xml_available=1", field: "xml_available" },
    ];
    test("a leap day is a date in both modes (2024-02-29, 2000-02-29)", async () => {
      for (const query of ["issue_date_from=2024-02-29", "issue_date_to=2000-02-29"]) {
        for (const mode of ["", "&page=1"]) {
          const res = await s.fetch(`/api/v1/documents?${query}${mode}`, token);
          await res.arrayBuffer();
          assert.equal(res.status, 200, query + mode);
        }
      }
    });

    for (const { query, field } of badFilters) {
      test(`${query} is 400 with field ${field} in both modes`, async () => {
        for (const mode of ["", "&page=1"]) {
          const error = await errorOf(await s.fetch(`/api/v1/documents?${query}${mode}`, token), 400, "BAD_REQUEST");
          assert.equal(error.details.field, field, mode || "cursor mode");
          assert.equal(typeof error.details.issue, "string");
        }
      });
    }
  });

  describe("GET /api/v1/documents/{id}", () => {
    test("expand=invoice puts the invoice of GET one on every item, in both modes; other values are 400", async () => {
      for (const mode of ["limit=500", "page=1&per_page=200"]) {
        const plain = await getJson<FeedPage>(s, `/api/v1/documents?${mode}`, token);
        assert.ok(plain.data.every((d) => !("invoice" in d)), `${mode}: compact without expand`);
        const expanded = await getJson<FeedPage>(s, `/api/v1/documents?${mode}&expand=invoice`, token);
        assert.deepEqual(expanded.data.map((d) => d.id), plain.data.map((d) => d.id), mode);
        for (const d of expanded.data) {
          // GET one adds the validation verdict, computed on read (README "Validation"); lists do not.
          const { validation, ...one } = await getJson<Doc & { validation?: unknown }>(s, `/api/v1/documents/${d.id}`, token);
          assert.ok(validation === null || typeof validation === "object", `${mode} ${d.id}`);
          assert.deepEqual(d, one, `${mode} ${d.id}`);
        }
        assert.ok(expanded.data.some((d) => (d as Record<string, unknown>).invoice === null), `${mode}: a document without XML has invoice null`);
      }
      const error = await errorOf(await s.fetch("/api/v1/documents?expand=lines", token), 400, "BAD_REQUEST");
      assert.equal(error.details.field, "expand");
    });

    test("a document's JSON has the fields of README “Documents and the inbox”, in order, with the values of its invoice", async () => {
      const { data } = await getJson<FeedPage>(s, "/api/v1/documents?limit=500", token);
      const keys = ["id", "source", "external_id", "format", "type", "number", "issue_date", "currency", "seller", "buyer", "totals",
        "ksef_number", "xml_available", "sha256", "size", "received_at", "synced_at", "updated_at", "links"];
      for (const f of FIXTURES) {
        const listed = data.find((d) => d.external_id === f.name)!;
        const full = await getJson<Doc & Record<string, unknown>>(s, `/api/v1/documents/${listed.id}`, token);
        const { invoice, validation, ...doc } = full;
        assert.deepEqual(doc, listed, `${f.name}: the same JSON in the list and alone, plus the verdict and the invoice`);
        assert.deepEqual(Object.keys(full), [...keys, "validation", "invoice"], f.name);
        assert.equal(validation === null, !f.bytes, `${f.name}: a verdict exactly when the XML is there`);
        // The invoice object is the model read from the same bytes (README “The invoice object”); null without XML.
        assert.deepEqual(invoice, f.bytes ? JSON.parse(invoiceJson(readInvoiceXml(f.bytes))) : null, f.name);
        assert.match(doc.id, /^doc_[0-9A-HJKMNP-TV-Z]{26}$/);
        assert.equal(doc.source, "inbox");
        assert.deepEqual(
          { format: doc.format, type: doc.type, number: doc.number, issue_date: doc.issue_date, currency: doc.currency, seller: doc.seller?.tax_id ?? null, buyer: doc.buyer?.tax_id ?? null, gross: doc.totals?.gross },
          { format: f.format, type: f.type, number: f.number, issue_date: f.issue_date, currency: f.currency, seller: f.seller, buyer: f.buyer, gross: f.gross },
          f.name,
        );
        const totals = doc.totals as Record<string, unknown>;
        for (const k of ["net", "tax", "gross"]) assert.ok(totals[k] === null || (typeof totals[k] === "string" && DECIMAL_RE.test(totals[k] as string)), `${f.name} ${k} is a decimal string`);
        for (const k of ["synced_at", "updated_at"]) assert.match(doc[k] as string, ISO_MS_RE, `${f.name} ${k}`);
        if (f.bytes) assert.deepEqual(doc.links, { self: `/api/v1/documents/${doc.id}`, xml: `/api/v1/documents/${doc.id}/xml`, pdf: `/api/v1/documents/${doc.id}/pdf` });
        else assert.deepEqual(doc.links, { self: `/api/v1/documents/${doc.id}`, xml: null, pdf: null }, "nothing to download until the XML is there");
        if (f.bytes) {
          assert.equal(doc.xml_available, true);
          assert.equal(doc.sha256, createHash("sha256").update(f.bytes).digest("hex"));
          assert.equal(doc.size, f.bytes.length);
          assert.equal(doc.received_at, null, "no metadata said when it was received");
        } else {
          assert.equal(doc.xml_available, false);
          assert.equal(doc.sha256, null);
          assert.equal(doc.size, null);
          assert.equal(doc.received_at, METADATA.received_at);
          assert.deepEqual(doc.seller, METADATA.seller);
          assert.deepEqual(doc.totals, METADATA.totals);
          assert.ok(!("unknown_field" in doc));
        }
      }
    });

    test("a malformed or unknown document id is 404 NOT_FOUND", async () => {
      const { data } = await getJson<FeedPage>(s, "/api/v1/documents?limit=500", token);
      const real = data[0]!.id;
      // The first character of the 16-character random part: ids made in one millisecond differ in their last
      // characters (they count up), so changing the last one can name another document that exists.
      const at = real.length - 16;
      const randomPart = `${real.slice(0, at)}${real[at] === "0" ? "1" : "0"}${real.slice(at + 1)}`;
      assert.ok(!data.some((d) => d.id === randomPart), "no document has the changed id");
      const cases = [
        { what: "garbage", input: "nope" },
        { what: "the prefix alone", input: "doc_" },
        { what: "lower case", input: real.toLowerCase() },
        { what: "one character longer", input: `${real}0` },
        { what: "one character shorter", input: real.slice(0, -1) },
        { what: "another prefix", input: real.replace("doc_", "sub_") },
        { what: "a different random part", input: randomPart },
        { what: "a well-formed id past the end", input: "doc_01JD000000ZZZZZZZ000000000" },
        { what: "a letter Crockford leaves out", input: real.slice(0, -1) + "U" },
        { what: "percent-encoded junk", input: "%00%2F..%2F" },
      ];
      for (const { what, input } of cases) {
        const error = await errorOf(await s.fetch(`/api/v1/documents/${input}`, token), 404, "NOT_FOUND");
        assert.deepEqual(error.details, {}, what);
      }
    });
  });
});

// ---------------------------------------------------------------- feeds that change

describe("page's maximum", () => {
  test("is the one OpenAPI documents: page=max&per_page=1 is served, max+1 or a huge number is 400 naming it", async () => {
    const s = await startServer();
    try {
      const { token } = await s.token("acme");
      const spec = (await (await s.fetch("/api/v1/openapi.json", null)).json()) as { components: { parameters: Record<string, { name: string; schema: { maximum: number } }> } };
      const max = Object.values(spec.components.parameters).find((p) => p.name === "page")!.schema.maximum;
      assert.equal((await s.fetch(`/api/v1/documents?page=${max}&per_page=1`, token)).status, 200);
      for (const page of [String(max + 1), "99999999999", "1000000000000000000000"]) {
        const res = await s.fetch(`/api/v1/documents?page=${page}&per_page=1`, token);
        const body = (await res.json()) as { error: { message: string; details: { field: string; issue: string } } };
        assert.equal(res.status, 400, page);
        assert.deepEqual(body.error.details, { field: "page", issue: "window_exceeded" }, page);
        assert.ok(body.error.message.includes(String(max)), body.error.message);
      }
    } finally {
      await s.close();
    }
  });
});

for (const store of STORES) describe(`the change feed as documents arrive and change${store.label}`, () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startServer({ storage: store });
    token = (await s.token("acme", ["documents:read", "documents:write"])).token;
  });
  after(() => s.close());

  test("an empty tenant's feed has no data, has_more false and a non-null next_cursor", async () => {
    const body = await getJson<FeedPage>(s, "/api/v1/documents", token);
    assert.deepEqual(body.data, []);
    assert.equal(body.has_more, false);
    assert.equal(typeof body.next_cursor, "string");
    assert.ok(body.next_cursor.length > 0);
  });

  test("a cursor stored on an empty feed later returns exactly the documents that arrived since", async () => {
    const tenant = "fresh";
    const t = (await s.token(tenant, ["documents:read", "documents:write"])).token;
    const stored = (await getJson<FeedPage>(s, "/api/v1/documents", t)).next_cursor;
    dropAll(s, tenant, [fixture("01-fa2-vat"), fixture("06-ubl-credit")]);
    await s.sync(t);
    const pages = await walkFeed(s, t, "", stored);
    assert.deepEqual(externalIds(feedDocs(pages)), ["01-fa2-vat", "06-ubl-credit"]);
    const again = await getJson<FeedPage>(s, `/api/v1/documents?cursor=${pages.at(-1)!.next_cursor}`, t);
    assert.deepEqual(again.data, [], "nothing new since");
  });

  test("a next_cursor stored after the last page returns only new and changed documents", async () => {
    dropAll(s, "acme", [fixture("01-fa2-vat"), fixture("04-fa3-complex"), fixture("07-ubl-peppol")]);
    await s.sync(token);
    const first = await walkFeed(s, token, "limit=2");
    const before = feedDocs(first);
    assert.deepEqual(externalIds(before), ["01-fa2-vat", "04-fa3-complex", "07-ubl-peppol"]);
    const stored = first.at(-1)!.next_cursor;

    // 04 changes (new bytes under the same name), 09 is new, 01 is dropped again unchanged.
    const changed = Buffer.concat([fixture("04-fa3-complex").bytes!, Buffer.from("\n<!-- v2 -->\n")]);
    s.drop("acme", "04-fa3-complex.xml", changed);
    s.drop("acme", "01-fa2-vat.xml", fixture("01-fa2-vat").bytes!);
    dropAll(s, "acme", [fixture("09-cii-facturx")]);
    const run = await s.sync(token);
    assert.deepEqual(run.counts, { fetched: 3, created: 1, updated: 1, unchanged: 1, failed: 0 });

    const since = feedDocs(await walkFeed(s, token, "", stored));
    assert.deepEqual(externalIds(since), ["04-fa3-complex", "09-cii-facturx"], "only the changed and the new, in order of change");
    assert.equal(since[0]!.id, before[1]!.id, "the changed document keeps its id");
    assert.equal(since[0]!.sha256, createHash("sha256").update(changed).digest("hex"));

    const all = feedDocs(await walkFeed(s, token, "limit=1"));
    assert.deepEqual(externalIds(all), ["01-fa2-vat", "07-ubl-peppol", "04-fa3-complex", "09-cii-facturx"], "the changed document moved to the end, listed once");
  });

  test("a metadata-only document whose XML arrives later moves to the end of the feed and is listed once", async () => {
    const tenant = "late";
    const t = (await s.token(tenant, ["documents:read", "documents:write"])).token;
    s.drop(tenant, "FV-LATE.json", JSON.stringify(METADATA));
    s.drop(tenant, "A-early.xml", fixture("05-fa3-eur").bytes!);
    await s.sync(t);
    const before = feedDocs(await walkFeed(s, t));
    assert.deepEqual(externalIds(before), ["A-early", "FV-LATE"]);
    const late = before[1]!;
    assert.equal(late.xml_available, false);
    assert.equal(late.number, METADATA.number);
    s.drop(tenant, "B-other.xml", fixture("09-cii-facturx").bytes!);
    await s.sync(t);
    const stored = (await getJson<FeedPage>(s, "/api/v1/documents?limit=500", t)).next_cursor;
    assert.deepEqual(externalIds(feedDocs(await walkFeed(s, t))), ["A-early", "FV-LATE", "B-other"]);

    const xml = sample("ksef-fa3", "FA_3_Przyklad_3_brutto.xml");
    s.drop(tenant, "FV-LATE.xml", xml);
    const run = await s.sync(t);
    assert.deepEqual(run.counts, { fetched: 1, created: 0, updated: 1, unchanged: 0, failed: 0 });

    const all = feedDocs(await walkFeed(s, t, "limit=1"));
    assert.deepEqual(externalIds(all), ["A-early", "B-other", "FV-LATE"], "moved to the end, listed once");
    const now = all[2]!;
    assert.equal(now.id, late.id, "the same document");
    assert.equal(now.xml_available, true);
    assert.equal(now.number, "test/123/test", "its fields now come from the XML");
    assert.deepEqual(late.links, { self: `/api/v1/documents/${late.id}`, xml: null, pdf: null });
    assert.deepEqual(now.links, { self: `/api/v1/documents/${now.id}`, xml: `/api/v1/documents/${now.id}/xml`, pdf: `/api/v1/documents/${now.id}/pdf` });
    assert.equal(now.sha256, createHash("sha256").update(xml).digest("hex"));
    assert.ok((now.updated_at as string) >= (late.updated_at as string));

    const since = feedDocs(await walkFeed(s, t, "", stored));
    assert.deepEqual(externalIds(since), ["FV-LATE"], "a stored cursor sees the change");
    const xmlRes = await s.fetch(`/api/v1/documents/${now.id}/xml`, t);
    assert.deepEqual(new Uint8Array(await xmlRes.arrayBuffer()), new Uint8Array(xml));
  });

  test("a metadata-only document that changes its metadata moves to the end too", async () => {
    const tenant = "meta";
    const t = (await s.token(tenant, ["documents:read", "documents:write"])).token;
    s.drop(tenant, "M1.json", JSON.stringify(METADATA));
    s.drop(tenant, "M2.json", JSON.stringify({ ...METADATA, number: "M2" }));
    await s.sync(t);
    s.drop(tenant, "M1.json", JSON.stringify({ ...METADATA, number: "M1-changed" }));
    await s.sync(t);
    const all = feedDocs(await walkFeed(s, t));
    assert.deepEqual(externalIds(all), ["M2", "M1"]);
    assert.equal(all[1]!.number, "M1-changed");
  });

  test("the default limit is 50", async () => {
    const tenant = "many";
    const t = (await s.token(tenant, ["documents:read", "documents:write"])).token;
    for (let i = 0; i < 51; i++) s.drop(tenant, `M${String(i).padStart(3, "0")}.json`, JSON.stringify({ number: `M${i}` }));
    await s.sync(t);
    const first = await getJson<FeedPage>(s, "/api/v1/documents", t);
    assert.equal(first.data.length, 50);
    assert.equal(first.has_more, true);
    const second = await getJson<FeedPage>(s, `/api/v1/documents?cursor=${first.next_cursor}`, t);
    assert.equal(second.data.length, 1);
    assert.equal(second.has_more, false);
    const page = await getJson<BrowsePage>(s, "/api/v1/documents?page=2", t);
    assert.equal(page.per_page, 50);
    assert.equal(page.data.length, 1);
    assert.equal(page.total_pages, 2);
  });
});

// ---------------------------------------------------------------- downloads

describe("GET /api/v1/documents/{id}/xml (README “Documents and the inbox”)", () => {
  let s: TestServer;
  let token: string;
  const ids = new Map<string, string>();
  const BOM_FILE = sample("ubl", "mustang_UBL-CreditNote-2.1-Example_BOM.ubl.xml");
  const downloadable = ["04-fa3-complex", "12-metadata-only", "13-non-ascii-number", "14-large"].map(fixture);
  before(async () => {
    s = await startServer();
    token = (await s.token("acme", ["documents:read", "documents:write"])).token;
    dropAll(s, "acme", downloadable);
    s.drop("acme", "bom.xml", BOM_FILE);
    await s.sync(token);
    for (const d of (await getJson<FeedPage>(s, "/api/v1/documents", token)).data) ids.set(d.external_id, d.id);
  });
  after(() => s.close());

  const xmlPath = (name: string): string => `/api/v1/documents/${ids.get(name)}/xml`;
  const bytesOf = async (res: Response): Promise<Uint8Array> => new Uint8Array(await res.arrayBuffer());

  test("the XML is the exact bytes received, as application/xml with Content-Length", async () => {
    const cases = [
      { name: "04-fa3-complex", bytes: fixture("04-fa3-complex").bytes! },
      { name: "bom", bytes: BOM_FILE },
      { name: "13-non-ascii-number", bytes: fixture("13-non-ascii-number").bytes! },
      { name: "14-large", bytes: fixture("14-large").bytes! },
    ];
    assert.ok(fixture("14-large").bytes!.length > 256 * 1024, "the large sample is over 256 KiB");
    for (const c of cases) {
      const res = await s.fetch(xmlPath(c.name), token);
      assert.equal(res.status, 200, c.name);
      assert.match(res.headers.get("content-type") ?? "", /^application\/xml(;|$)/, c.name);
      assert.equal(res.headers.get("content-length"), String(c.bytes.length), c.name);
      assert.deepEqual(await bytesOf(res), new Uint8Array(c.bytes), c.name);
    }
  });

  test("the ETag is strong, stable and differs between documents", async () => {
    const a = await s.fetch(xmlPath("04-fa3-complex"), token);
    const b = await s.fetch(xmlPath("04-fa3-complex"), token);
    const c = await s.fetch(xmlPath("bom"), token);
    await Promise.all([a, b, c].map((r) => r.arrayBuffer()));
    const etag = a.headers.get("etag") ?? "";
    assert.match(etag, /^"[\x21\x23-\x7e]+"$/, "strong: quoted, no W/");
    assert.equal(b.headers.get("etag"), etag);
    assert.notEqual(c.headers.get("etag"), etag);
  });

  test("If-None-Match with the ETag is 304 without a body; another ETag gets the file", async () => {
    const first = await s.fetch(xmlPath("04-fa3-complex"), token);
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    const cases = [
      { what: "the ETag", input: etag, status: 304 },
      { what: "the weak form of the ETag", input: `W/${etag}`, status: 304 },
      { what: "a list holding the ETag", input: `"other", ${etag}`, status: 304 },
      { what: "*", input: "*", status: 304 },
      { what: "another ETag", input: '"other"', status: 200 },
    ];
    for (const c of cases) {
      const res = await s.fetch(xmlPath("04-fa3-complex"), token, { headers: { "if-none-match": c.input } });
      const body = await bytesOf(res);
      assert.equal(res.status, c.status, c.what);
      if (c.status === 304) {
        assert.equal(body.length, 0, c.what);
        assert.equal(res.headers.get("etag"), etag, `${c.what}: 304 repeats the ETag`);
      }
    }
  });

  test("Content-Disposition is an attachment with a filename-safe invoice number", async () => {
    const res = await s.fetch(xmlPath("04-fa3-complex"), token);
    await res.arrayBuffer();
    assert.equal(res.headers.get("content-disposition"), 'attachment; filename="FA_2025_12_001.xml"');
  });

  test("Content-Disposition adds filename*=UTF-8'' when the number has non-ASCII characters", async () => {
    const res = await s.fetch(xmlPath("13-non-ascii-number"), token);
    await res.arrayBuffer();
    const header = res.headers.get("content-disposition") ?? "";
    const m = /^attachment; filename="([^"]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]+)$/.exec(header);
    assert.ok(m, header);
    const [, ascii, encoded] = m;
    assert.match(ascii!, /^[\x20-\x7e]+\.xml$/, "an ASCII fallback");
    assert.ok(!/[/\\]/.test(ascii!), "no path separators in the fallback");
    const full = decodeURIComponent(encoded!);
    assert.ok(full.includes("Żółć"), full);
    assert.ok(full.endsWith(".xml"));
    assert.ok(!/[/\\]/.test(full), "no path separators in filename*");
  });

  test("Cache-Control is private, no-cache", async () => {
    const res = await s.fetch(xmlPath("04-fa3-complex"), token);
    await res.arrayBuffer();
    assert.equal(res.headers.get("cache-control"), "private, no-cache");
  });

  for (const name of ["04-fa3-complex", "14-large"]) {
    test(`single byte ranges of ${name} are 206 with Content-Range, or 416 when unsatisfiable`, async () => {
      const bytes = fixture(name).bytes!;
      const size = bytes.length;
      const cases = [
        { what: "the first 100 bytes", range: "bytes=0-99", start: 0, end: 100 },
        { what: "one byte", range: "bytes=5-5", start: 5, end: 6 },
        { what: "a suffix", range: "bytes=-100", start: size - 100, end: size },
        { what: "an open range", range: "bytes=100-", start: 100, end: size },
        { what: "the last byte", range: `bytes=${size - 1}-`, start: size - 1, end: size },
        { what: "an end past the size", range: `bytes=10-${size + 1000}`, start: 10, end: size },
        { what: "the middle", range: `bytes=${size - 2000}-${size - 1001}`, start: size - 2000, end: size - 1000 },
      ];
      for (const c of cases) {
        const res = await s.fetch(xmlPath(name), token, { headers: { range: c.range } });
        const body = await bytesOf(res);
        assert.equal(res.status, 206, c.what);
        assert.equal(res.headers.get("content-range"), `bytes ${c.start}-${c.end - 1}/${size}`, c.what);
        assert.equal(res.headers.get("content-length"), String(c.end - c.start), c.what);
        assert.deepEqual(body, new Uint8Array(bytes.subarray(c.start, c.end)), c.what);
        assert.ok(res.headers.get("etag"), `${c.what}: 206 carries the ETag`);
      }
      for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, "bytes=-0"]) {
        const res = await s.fetch(xmlPath(name), token, { headers: { range } });
        await res.arrayBuffer();
        assert.equal(res.status, 416, range);
        assert.equal(res.headers.get("content-range"), `bytes */${size}`, range);
      }
    });
  }

  test("a Range that is not a single byte range is ignored: the whole file comes back", async () => {
    const bytes = fixture("04-fa3-complex").bytes!;
    for (const range of ["bytes=0-1,5-6", "items=0-5", "bytes=abc", "bytes=9-2"]) {
      const res = await s.fetch(xmlPath("04-fa3-complex"), token, { headers: { range } });
      assert.equal(res.status, 200, range);
      assert.equal((await bytesOf(res)).length, bytes.length, range);
    }
  });

  test("If-Range with another ETag sends the whole file instead of the range", async () => {
    const res = await s.fetch(xmlPath("04-fa3-complex"), token, { headers: { range: "bytes=0-9", "if-range": '"stale"' } });
    assert.equal(res.status, 200);
    assert.equal((await bytesOf(res)).length, fixture("04-fa3-complex").bytes!.length);
  });

  test("HEAD on the XML gives the GET's headers without a body, for whole files and ranges", async () => {
    for (const init of [{}, { headers: { range: "bytes=0-99" } }]) {
      for (const name of ["04-fa3-complex", "14-large"]) {
        const get = await s.fetch(xmlPath(name), token, init);
        await get.arrayBuffer();
        const head = await s.fetch(xmlPath(name), token, { ...init, method: "HEAD" });
        assert.equal(head.status, get.status);
        for (const h of ["content-type", "content-length", "etag", "content-disposition", "cache-control", "content-range"]) {
          assert.equal(head.headers.get(h), get.headers.get(h), `${name} ${h}`);
        }
        assert.equal((await bytesOf(head)).length, 0);
      }
    }
  });

  test("a document whose XML is not yet available is 404 XML_NOT_AVAILABLE on /xml", async () => {
    const path = xmlPath("12-metadata-only");
    const res = await s.fetch(path, token);
    const error = await errorOf(res, 404, "XML_NOT_AVAILABLE");
    assert.deepEqual(error.details, {});
    const head = await s.fetch(path, token, { method: "HEAD" });
    assert.equal(head.status, 404);
    const doc = await getJson<Doc>(s, `/api/v1/documents/${ids.get("12-metadata-only")}`, token);
    assert.equal(doc.xml_available, false, "the document itself is there");
  });

  test("the XML of an unknown document is 404 NOT_FOUND, not XML_NOT_AVAILABLE", async () => {
    await errorOf(await s.fetch("/api/v1/documents/doc_01JD0000000000000000000000/xml", token), 404, "NOT_FOUND");
    await errorOf(await s.fetch("/api/v1/documents/nope/xml", token), 404, "NOT_FOUND");
  });
});
