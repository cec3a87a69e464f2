/**
 * Seeded listing data and a brute-force reference for the storage contract suite: every documented filter
 * combination and sort of page mode (README “Parameters”), and filtered feeds, compared with a plain filter and sort of
 * the same records. Data is deterministic (seeded PRNG) and built to hit the edges: equal and missing issue dates,
 * equal and backward sync times, tax ids that collide under a 32-bit hash, documents that change after creation.
 */
import assert from "node:assert/strict";
import type { DocumentFields, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, TenantStore } from "../../lib/contracts/storage.ts";
import { createRandom } from "./random.ts";

/** Pairs of tax ids with the same FNV-1a 32-bit hash (2977914488 and 1844623623), the file store's filter hash. */
export const COLLIDING_TAX_IDS = { seller: ["5260522788", "5260739193"], buyer: ["5260522389", "5260739592"] } as const;

const TYPES = ["invoice", "credit_note", "correction", "other"] as const;
const FORMATS = ["ksef-fa2", "ksef-fa3", "ubl", "cii"] as const;
const SELLERS = [...COLLIDING_TAX_IDS.seller, "1111111111", "2222222222"];
const BUYERS = [...COLLIDING_TAX_IDS.buyer, "3333333333"];
const KSEF_NUMBERS = ["5265877635-20250826-0100001AF629-AF", "5265877635-20250826-0100001AF630-0B", "1111111111-20250101-010000000001-01"];
const SORTS: DocumentSort[] = ["issue_date", "-issue_date", "synced_at", "-synced_at"];
const FILTER_FIELDS = ["type", "format", "xml_available", "seller_tax_id", "buyer_tax_id", "ksef_number", "dates"] as const;

/** The part of a tenant store that listings use. */
export type ListingStore = Pick<TenantStore, "upsertDocument" | "documentPage" | "documentChanges">;

interface _Entry {
  record: DocumentRecord;
  created: number;
  lastChange: number;
}

/** What a seeded tenant holds, as the test knows it. */
export interface ListingData {
  entries: Map<string, _Entry>;
  /** Re-syncs `n` documents (new fields, sometimes new XML), running `between` after every other one. */
  update(n: number, between: () => Promise<void>): Promise<void>;
}

/** Seeds `n` documents into `t` from `seed`. */
export async function seedListingData(t: ListingStore, seed: number, n: number): Promise<ListingData> {
  const rand = createRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const entries = new Map<string, _Entry>();
  let clock = Date.UTC(2026, 10, 1), feed = 0;
  // Sync times mostly grow, sometimes repeat, sometimes step back (clocks of several nodes).
  const now = (): string => {
    const r = rand();
    clock += r < 0.2 ? 0 : r < 0.3 ? -5000 : 1000;
    return new Date(clock).toISOString();
  };
  const fieldsOf = (i: number): DocumentFields => ({
    type: rand() < 0.05 ? null : pick(TYPES), format: rand() < 0.05 ? null : pick(FORMATS), number: `N-${i}`,
    issue_date: rand() < 0.15 ? null : `2026-01-${String(1 + Math.floor(rand() * 20)).padStart(2, "0")}`, currency: "PLN",
    seller: rand() < 0.05 ? null : { name: "S", tax_id: pick(SELLERS) }, buyer: rand() < 0.05 ? null : { name: "B", tax_id: pick(BUYERS) },
    totals: null,
  });
  const xml = (): DocumentInput["xml"] => ({ sha256: Math.floor(rand() * 2 ** 52).toString(16).padStart(64, "0"), size: 10 });
  const put = async (input: DocumentInput): Promise<void> => {
    const { document, outcome } = await t.upsertDocument(input, now());
    if (outcome === "unchanged") return;
    const old = entries.get(input.external_id);
    entries.set(input.external_id, { record: document, created: old?.created ?? entries.size, lastChange: feed++ });
  };
  for (let i = 0; i < n; i++) {
    const ksef = rand() < 0.5 ? pick(KSEF_NUMBERS) : null;
    await put({ source: "inbox", external_id: `E${i}`, fields: fieldsOf(i), xml: rand() < 0.6 ? xml() : null, received_at: null, ksef_number: ksef });
  }
  return {
    entries,
    async update(count, between) {
      for (let i = 0; i < count; i++) {
        const id = `E${Math.floor(rand() * n)}`;
        const ksef = rand() < 0.3 ? pick(KSEF_NUMBERS) : null;
        await put({ source: "inbox", external_id: id, fields: fieldsOf(i), xml: rand() < 0.5 ? xml() : null, received_at: null, ksef_number: ksef });
        if (i % 2 === 1) await between();
      }
    },
  };
}

/** A filter on the fields of `mask` (bits in FILTER_FIELDS order), with values drawn from `rand`. */
function _filter(mask: number, rand: () => number): DocumentFilter {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const f: DocumentFilter = {};
  const day = (): string => `2026-01-${String(1 + Math.floor(rand() * 20)).padStart(2, "0")}`;
  FILTER_FIELDS.forEach((field, bit) => {
    if (!(mask & (1 << bit))) return;
    if (field === "type") f.type = pick(TYPES);
    else if (field === "format") f.format = pick(FORMATS);
    else if (field === "xml_available") f.xml_available = rand() < 0.5;
    else if (field === "seller_tax_id") f.seller_tax_id = pick(SELLERS);
    else if (field === "buyer_tax_id") f.buyer_tax_id = pick(BUYERS);
    else if (field === "ksef_number") f.ksef_number = pick(KSEF_NUMBERS);
    else {
      const r = rand(), a = day(), b = day();
      if (r < 0.7) f.issue_date_from = a < b ? a : b;
      if (r >= 0.35) f.issue_date_to = a < b ? b : a;
    }
  });
  return f;
}

function _matches(d: DocumentRecord, f: DocumentFilter): boolean {
  return (f.type === undefined || d.type === f.type) && (f.format === undefined || d.format === f.format) &&
    (f.xml_available === undefined || d.xml_available === f.xml_available) &&
    (f.seller_tax_id === undefined || d.seller?.tax_id === f.seller_tax_id) &&
    (f.buyer_tax_id === undefined || d.buyer?.tax_id === f.buyer_tax_id) &&
    (f.ksef_number === undefined || d.ksef_number === f.ksef_number) &&
    (f.issue_date_from === undefined || (d.issue_date !== null && d.issue_date >= f.issue_date_from)) &&
    (f.issue_date_to === undefined || (d.issue_date !== null && d.issue_date <= f.issue_date_to));
}

// README “Parameters” orders: issue dates with nulls last both ways, ties (and nulls) by creation in the sort's direction.
function _sorted(entries: _Entry[], sort: DocumentSort): _Entry[] {
  const sign = sort.startsWith("-") ? -1 : 1;
  return entries.slice().sort((a, b) => {
    if (sort.endsWith("issue_date")) {
      const da = a.record.issue_date, db = b.record.issue_date;
      if (da === null && db !== null) return 1;
      if (db === null && da !== null) return -1;
      if (da !== db) return (da! < db! ? -1 : 1) * sign;
    } else if (a.record.synced_at !== b.record.synced_at) {
      return (a.record.synced_at < b.record.synced_at ? -1 : 1) * sign;
    }
    return (a.created - b.created) * sign;
  });
}

const dec = new TextDecoder();
const idsOf = (items: Uint8Array[]): string[] => items.map((b) => String((JSON.parse(dec.decode(b)) as DocumentRecord).external_id));

/** Compares page mode and filtered feeds with the reference: every filter combination (or `sample` random ones). */
export async function checkListings(t: ListingStore, data: ListingData, seed: number, sample?: number): Promise<void> {
  const rand = createRandom(seed);
  const all = [...data.entries.values()];
  const combos = sample === undefined ? Array.from({ length: 1 << FILTER_FIELDS.length }, (_, m) => m) : Array.from({ length: sample }, () => Math.floor(rand() * (1 << FILTER_FIELDS.length)));
  for (const mask of combos) {
    const filter = _filter(mask, rand);
    const matching = all.filter((e) => _matches(e.record, filter));
    for (const sort of sample === undefined ? SORTS : [SORTS[Math.floor(rand() * 4)]!]) {
      const expected = _sorted(matching, sort).map((e) => e.record.external_id);
      for (const [offset, limit] of [[0, 7], [5, 3], [Math.max(0, expected.length - 2), 5]] as const) {
        const page = await t.documentPage(filter, sort, offset, limit);
        const what = `${JSON.stringify(filter)} ${sort} offset ${offset}`;
        assert.equal(page.total, expected.length, what);
        assert.deepEqual(idsOf(page.items), expected.slice(offset, offset + limit), what);
      }
    }
    const feed: string[] = [];
    for (let after = 0, more = true; more;) {
      const page = await t.documentChanges(after, 4, filter, 1000);
      feed.push(...idsOf(page.items));
      assert.ok(page.next > after || !page.hasMore, "the feed moves on");
      after = page.next;
      more = page.hasMore;
    }
    assert.deepEqual(feed, matching.slice().sort((a, b) => a.lastChange - b.lastChange).map((e) => e.record.external_id), JSON.stringify(filter));
  }
}
