/**
 * The file store's document index: page mode (README “Parameters”) and filtered feed pages as index walks, not scans.
 * Three orders (issue date, sync time, feed position; document_order.ts) carry per-block counts of the packed
 * type/format/xml code, so counts and offsets skip whole blocks; exact-match filters (tax ids, KSeF numbers) have posting lists
 * per value in each order, and the smallest one drives an intersection. Posting lists are keyed by a 32-bit hash,
 * so each list is verified once against the records' real values (`total` is exact). Documents that change after
 * a build are killed in the orders and served from a small delta until the next build merges them in. Built from
 * the slots at open (which the record log re-derives after a crash): nothing of it is written to disk.
 * @module
 */
import { DOCUMENT_CODES, FORMAT_CODES, NULL_DAY, TYPE_CODES, dayNumber } from "../../lib/contracts/document_filter.ts";
import type { DocumentFilter, DocumentRecord, DocumentSort } from "../../lib/contracts/storage.ts";
import { DOC_CODE, DOC_HASH, parseRecord } from "./columns.ts";
import { hash32 } from "./hash32.ts";
import { CODE_SPACE, DEAD, DocumentOrder, type Segment } from "./document_order.ts";
import { GroupIds } from "./group_ids.ts";
import { mergeChanged, sortAll, sortsBefore, type OrderKey } from "./order_build.ts";
import type { RecordLog } from "./record_log.ts";

/**
 * Filters answered by posting lists and compared on the real value: the filter's field, the slot column with
 * its hash, and the record's value.
 */
const EXACT: readonly { filter: "seller_tax_id" | "buyer_tax_id" | "ksef_number"; column: number; valueOf: (d: DocumentRecord) => string | null }[] = [
  { filter: "seller_tax_id", column: DOC_HASH.sellerTaxId, valueOf: (d) => d.seller?.tax_id ?? null },
  { filter: "buyer_tax_id", column: DOC_HASH.buyerTaxId, valueOf: (d) => d.buyer?.tax_id ?? null },
  { filter: "ksef_number", column: DOC_HASH.ksefNumber, valueOf: (d) => d.ksef_number ?? null },
];
/** Changed documents served from the delta (each query checks them all) before the orders are merged again. */
const DELTA_MAX = 4096;
/** A delta over 1/64 of the orders is merged sooner: a merge costs O(n), cheap while n is small. */
const DELTA_SHARE = 64;
/** Beyond this many changes between reads (a bulk load) the delta is dropped and the next read rebuilds. */
const TRACK_MAX = 65_536;
/** Materialised posting-list intersections kept for repeated pages of the same query (until the next change). */
const CACHED_LISTS = 64;
const READ_BATCH = 512;

/** The packed code of a document's slot (DOCUMENT_CODES: type, format, xml_available). */
export function packedCode(log: RecordLog, o: number): number {
  return DOCUMENT_CODES.pack(log.codeOf(o, DOC_CODE.type), log.codeOf(o, DOC_CODE.format), log.codeOf(o, DOC_CODE.xmlAvailable));
}

type _Verified = { pure: string } | { mixed: Map<number, string> };

interface _Plan {
  mask: Uint8Array;
  codes: number[];
  dated: boolean;
  from: number;
  to: number;
  exact: { attr: number; value: string; hash: number }[];
}

/** A stream of ordinals in some order: how many, and a cursor from the i-th. */
interface _Stream {
  count: number;
  open(i: number): () => number;
}

const _EMPTY: _Stream = { count: 0, open: () => () => -1 };

/** Limits of the delta (tests set small ones to reach every path). */
export interface DocumentIndexOptions {
  /** Changed documents served from the delta before a merge (default DELTA_MAX). */
  deltaMax?: number;
  /** Changes between reads beyond which the next read rebuilds from scratch (default TRACK_MAX). */
  trackMax?: number;
}

/** The document index of one tenant's record log. */
export class DocumentIndex {
  #log: RecordLog;
  #orders: Record<OrderKey, DocumentOrder> | null = null;
  #dayOfRank = new Int32Array(0);
  #seqOfRank = new Uint32Array(0);
  #built = 0; // ordinals at the last build
  #gids = EXACT.map(() => new GroupIds()); // hash -> group id (from 1)
  #verified = EXACT.map(() => new Map<number, _Verified>()); // group id -> what its records hold
  #delta: number[] = [];
  #deltaValues = new Map<number, (string | null)[]>();
  #tracking = true;
  #epoch = 0;
  #lists = new Map<string, { epoch: number; ords: Uint32Array }>();

  #deltaMax: number;
  #trackMax: number;

  constructor(log: RecordLog, options: DocumentIndexOptions = {}) {
    this.#log = log;
    this.#deltaMax = options.deltaMax ?? DELTA_MAX;
    this.#trackMax = options.trackMax ?? TRACK_MAX;
    this.#build();
  }

  /** Notes that document `ordinal` was written (new, or a new version); `doc` is its record now (or reads it). */
  changed(ordinal: number, doc: DocumentRecord | (() => DocumentRecord)): void {
    this.#epoch++;
    if (!this.#tracking) return;
    if (typeof doc === "function") doc = doc();
    if (!this.#deltaValues.has(ordinal)) {
      this.#delta.push(ordinal);
      if (ordinal < this.#built) for (const order of Object.values(this.#orders!)) order.kill(ordinal);
    }
    const record = doc;
    this.#deltaValues.set(ordinal, EXACT.map((a) => a.valueOf(record)));
    if (this.#delta.length > this.#trackMax) {
      this.#tracking = false;
      this.#delta = [];
      this.#deltaValues.clear();
    }
  }

  /** Page mode: the ordinals of `limit` documents from `offset` in `sort` order, and how many match. */
  page(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number): { ordinals: number[]; total: number } {
    this.#ready();
    const plan = this.#plan(filter);
    const key: OrderKey = sort.endsWith("issue_date") ? "day" : "time";
    const desc = sort.startsWith("-");
    const base = this.#pageStream(plan, key, desc, `${JSON.stringify(filter)}|${sort}`);
    const before = this.#before(key, desc);
    const delta = this.#deltaMatches(plan).sort((a, b) => (before(a, b) ? -1 : 1));
    return { ordinals: _mergedSlice(base, delta, before, offset, limit), total: base.count + delta.length };
  }

  /** A feed page: ordinals of up to `limit` matching documents whose latest change is at or after `after`, and where to go on. */
  changes(after: number, limit: number, filter: DocumentFilter, maxScan: number): { ordinals: number[]; next: number } {
    this.#ready();
    const plan = this.#plan(filter);
    const seqOrder = this.#orders!.seq;
    const from = _lowerBound(this.#seqOfRank, after, 0, seqOrder.size);
    const out: number[] = [];
    let stoppedAt = -1;
    let next: () => number;
    if (plan.exact.length > 0) {
      const ords = this.#exactList(plan, "seq", false, from, limit);
      next = _stream(ords).open(0);
    } else if (plan.dated) {
      // No posting list fits a date range in feed order: walk it, looking at no more than maxScan entries.
      let r = from, scanned = 0;
      next = () => {
        for (; r < seqOrder.size; r++) {
          if (scanned++ >= maxScan) {
            stoppedAt = r;
            return -1;
          }
          const o = seqOrder.ords[r]!;
          if (plan.mask[seqOrder.codes[r]!] && this.#inDates(plan, o)) return (r++, o);
        }
        return -1;
      };
    } else {
      const cursor = seqOrder.cursor({ from, to: seqOrder.size, desc: false }, 0, plan.mask, plan.codes);
      next = () => {
        const r = cursor();
        return r < 0 ? -1 : seqOrder.ords[r]!;
      };
    }
    for (let o = next(); o >= 0 && out.length < limit; o = out.length < limit ? next() : -1) out.push(o);
    if (out.length < limit && stoppedAt < 0) {
      // Changed documents lie after every document of the build in the feed.
      const delta = this.#deltaMatches(plan).filter((o) => this.#log.latestSeq(o) >= after);
      delta.sort((a, b) => this.#log.latestSeq(a) - this.#log.latestSeq(b));
      for (const o of delta) if (out.length < limit) out.push(o);
    }
    const feedLength = this.#log.feedLength;
    if (out.length === limit && limit > 0) return { ordinals: out, next: this.#log.latestSeq(out[out.length - 1]!) + 1 };
    return { ordinals: out, next: stoppedAt >= 0 ? this.#seqOfRank[stoppedAt]! : Math.max(after, feedLength) };
  }

  #ready(): void {
    const n = this.#delta.length;
    if (!this.#tracking || n > this.#deltaMax || n * DELTA_SHARE > this.#built) this.#build();
  }

  // (Re)builds the orders: a linear merge when only the delta changed since the last build, else a sort.
  #build(): void {
    const log = this.#log, n = log.count;
    const prev = this.#orders;
    const merge = prev !== null && this.#tracking;
    if (merge) this.#carryVerified();
    else for (const v of this.#verified) v.clear();
    const codeOf = new Uint8Array(n);
    for (let o = 0; o < n; o++) codeOf[o] = packedCode(log, o);
    const groupsOf = EXACT.map((a, i) => {
      const ids = new Uint32Array(n);
      const gids = this.#gids[i]!;
      for (let o = 0; o < n; o++) {
        const h = log.hashOf(o, a.column);
        if (h === 0) continue;
        ids[o] = gids.intern(h);
      }
      return { ids, count: gids.size };
    });
    const make = (key: OrderKey): DocumentOrder => {
      const ords = merge ? mergeChanged(log, key, prev[key].ords, this.#delta, n) : sortAll(log, key, n);
      let nullFrom = n;
      if (key === "day") while (nullFrom > 0 && log.dayOf(ords[nullFrom - 1]!) === NULL_DAY) nullFrom--;
      return new DocumentOrder({ ords, codeOf, groupsOf, nullFrom });
    };
    const orders = { day: make("day"), time: make("time"), seq: make("seq") };
    this.#orders = orders;
    this.#dayOfRank = new Int32Array(n);
    for (let r = 0; r < n; r++) this.#dayOfRank[r] = log.dayOf(orders.day.ords[r]!);
    this.#seqOfRank = new Uint32Array(n);
    for (let r = 0; r < n; r++) this.#seqOfRank[r] = log.latestSeq(orders.seq.ords[r]!);
    this.#built = n;
    this.#delta = [];
    this.#deltaValues.clear();
    this.#tracking = true;
    this.#lists.clear();
    this.#epoch++;
  }

  // A verified posting list stays verified when the documents that join it carry the same value.
  #carryVerified(): void {
    for (const [o, values] of this.#deltaValues) {
      EXACT.forEach((a, i) => {
        const value = values[i];
        if (value === null || value === undefined) return;
        const g = this.#gids[i]!.get(this.#log.hashOf(o, a.column));
        const state = this.#verified[i]!.get(g);
        if (!state) return;
        if ("mixed" in state) state.mixed.set(o, value);
        else if (state.pure !== value) this.#verified[i]!.delete(g);
      });
    }
  }

  #plan(f: DocumentFilter): _Plan {
    const mask = new Uint8Array(CODE_SPACE + 1); // mask[DEAD] stays 0
    const codes: number[] = [];
    for (let c = 0; c < CODE_SPACE; c++) {
      const { type, format, xml } = DOCUMENT_CODES.unpack(c);
      if (f.type !== undefined && type !== TYPE_CODES[f.type]) continue;
      if (f.format !== undefined && format !== FORMAT_CODES[f.format]) continue;
      if (f.xml_available !== undefined && xml !== (f.xml_available ? 1 : 0)) continue;
      mask[c] = 1;
      codes.push(c);
    }
    const exact: _Plan["exact"] = [];
    EXACT.forEach((a, attr) => {
      const value = f[a.filter];
      if (value !== undefined) exact.push({ attr, value, hash: hash32(value) });
    });
    return {
      mask, codes, exact,
      dated: f.issue_date_from !== undefined || f.issue_date_to !== undefined,
      from: f.issue_date_from ? dayNumber(f.issue_date_from) : NULL_DAY + 1,
      to: f.issue_date_to ? dayNumber(f.issue_date_to) : 0x7fffffff,
    };
  }

  #inDates(plan: _Plan, o: number): boolean {
    if (!plan.dated) return true;
    const day = this.#log.dayOf(o);
    return day !== NULL_DAY && day >= plan.from && day <= plan.to;
  }

  // Changed documents that match now, by their current slot and values.
  #deltaMatches(plan: _Plan): number[] {
    const out: number[] = [];
    for (const o of this.#delta) {
      if (!plan.mask[packedCode(this.#log, o)] || !this.#inDates(plan, o)) continue;
      const values = this.#deltaValues.get(o)!;
      if (plan.exact.every((e) => values[e.attr] === e.value)) out.push(o);
    }
    return out;
  }

  // The documents of the build that match, in page order, as a stream that can start at any position.
  #pageStream(plan: _Plan, key: OrderKey, desc: boolean, cacheKey: string): _Stream {
    if (plan.exact.length > 0) {
      const cached = this.#lists.get(cacheKey);
      if (cached && cached.epoch === this.#epoch) return _stream(cached.ords);
      const ords = this.#exactList(plan, key, desc, 0);
      if (this.#lists.size >= CACHED_LISTS) this.#lists.delete(this.#lists.keys().next().value!);
      this.#lists.set(cacheKey, { epoch: this.#epoch, ords });
      return _stream(ords);
    }
    const day = this.#orders!.day;
    const [lo, hi] = plan.dated ? this.#dayRange(plan) : [0, day.nullFrom];
    if (key === "day") {
      const segs: Segment[] = [{ from: lo, to: hi, desc }];
      if (!plan.dated) segs.push({ from: day.nullFrom, to: day.size, desc });
      return this.#blockStream(day, segs, plan);
    }
    const order = this.#orders!.time;
    const whole: Segment = { from: 0, to: order.size, desc };
    if (!plan.dated) return this.#blockStream(order, [whole], plan);
    // A date range in sync-time order: counted on the issue-date order, walked in sync-time order.
    return {
      count: day.count(lo, hi, plan.mask, plan.codes),
      open: (i) => {
        const cursor = order.cursor(whole, 0, plan.mask, plan.codes);
        let skip = i;
        return () => {
          for (let r = cursor(); r >= 0; r = cursor()) {
            const o = order.ords[r]!;
            if (this.#inDates(plan, o) && skip-- === 0) return (skip = 0, o);
          }
          return -1;
        };
      },
    };
  }

  #blockStream(order: DocumentOrder, segs: Segment[], plan: _Plan): _Stream {
    const counts = segs.map((s) => (s.from === 0 && s.to === order.size ? order.countAll(plan.mask) : order.count(s.from, s.to, plan.mask, plan.codes)));
    return {
      count: counts.reduce((a, b) => a + b, 0),
      open: (i) => {
        let s = 0;
        while (s < segs.length && i >= counts[s]!) i -= counts[s++]!;
        let cursor = s < segs.length ? order.cursor(segs[s]!, i, plan.mask, plan.codes) : () => -1;
        return () => {
          for (;;) {
            const r = cursor();
            if (r >= 0) return order.ords[r]!;
            if (++s >= segs.length) return -1;
            cursor = order.cursor(segs[s]!, 0, plan.mask, plan.codes);
          }
        };
      },
    };
  }

  // Ranks [lo, hi) of the issue-date order whose dates lie in the plan's range.
  #dayRange(plan: _Plan): [number, number] {
    const end = this.#orders!.day.nullFrom;
    return [_lowerBound(this.#dayOfRank, plan.from, 0, end), _lowerBound(this.#dayOfRank, plan.to + 1, 0, end)];
  }

  /**
   * The documents of the build that match a plan with exact filters, in `key` order (from rank `fromRank` on):
   * the smallest posting list drives, every candidate is checked on the other filters and on the real value.
   * Stops after `max` matches.
   */
  #exactList(plan: _Plan, key: OrderKey, desc: boolean, fromRank: number, max = Infinity): Uint32Array {
    const orders = this.#orders!;
    const order = orders[key];
    let driver: { attr: number; value: string; hash: number; group: number; size: number } | null = null;
    for (const e of plan.exact) {
      const g = this.#gids[e.attr]!.get(e.hash);
      if (g === 0 || g >= order.groups[e.attr]!.start.length - 1) return new Uint32Array(0);
      const size = order.groups[e.attr]!.start[g + 1]! - order.groups[e.attr]!.start[g]!;
      if (!driver || size < driver.size) driver = { ...e, group: g, size };
    }
    const { start, ranks } = order.groups[driver!.attr]!;
    let lo = start[driver!.group]!, hi = start[driver!.group + 1]!;
    if (fromRank > 0) lo = _lowerBound(ranks, fromRank, lo, hi);
    // Issue-date order: documents without a date come last both ways; a date range is a rank range.
    let nullAt = hi;
    if (key === "day") {
      nullAt = _lowerBound(ranks, order.nullFrom, lo, hi);
      if (plan.dated) {
        const [dlo, dhi] = this.#dayRange(plan);
        lo = _lowerBound(ranks, dlo, lo, nullAt);
        hi = nullAt = _lowerBound(ranks, dhi, lo, nullAt);
      }
    }
    const checks = plan.exact.map((e) => ({ ...e, state: this.#verify(e.attr, this.#gids[e.attr]!.get(e.hash)) }));
    const out: number[] = [];
    const visit = (i: number): void => {
      const r = ranks[i]!;
      if (!plan.mask[order.codes[r]!]) return;
      const o = order.ords[r]!;
      if (key !== "day" && !this.#inDates(plan, o)) return;
      for (const c of checks) {
        if (this.#log.hashOf(o, EXACT[c.attr]!.column) !== c.hash) return;
        if ("pure" in c.state ? c.state.pure !== c.value : c.state.mixed.get(o) !== c.value) return;
      }
      out.push(o);
    };
    if (desc) {
      for (let i = nullAt - 1; i >= lo && out.length < max; i--) visit(i);
      for (let i = hi - 1; i >= nullAt && out.length < max; i--) visit(i);
    } else {
      for (let i = lo; i < hi && out.length < max; i++) visit(i);
    }
    return Uint32Array.from(out);
  }

  // What the records of a posting list hold: read once per list (hashes collide; values decide).
  #verify(attr: number, g: number): _Verified {
    const known = this.#verified[attr]!.get(g);
    if (known) return known;
    const order = this.#orders!.seq;
    const { start, ranks } = order.groups[attr]!;
    const members: number[] = [];
    for (let i = start[g]!; i < start[g + 1]!; i++) if (order.codes[ranks[i]!] !== DEAD) members.push(order.ords[ranks[i]!]!);
    const values = new Map<number, string>();
    const distinct = new Set<string>();
    for (let i = 0; i < members.length; i += READ_BATCH) {
      const batch = members.slice(i, i + READ_BATCH);
      this.#log.readMany(batch).forEach((json, j) => {
        const v = EXACT[attr]!.valueOf(parseRecord<DocumentRecord>(json)) ?? "";
        values.set(batch[j]!, v);
        distinct.add(v);
      });
    }
    const state: _Verified = distinct.size <= 1 ? { pure: [...distinct][0] ?? "" } : { mixed: values };
    this.#verified[attr]!.set(g, state);
    return state;
  }

  // Whether ordinal a comes before b in the page's order (issue dates: nulls last both ways; ties by ordinal).
  #before(key: OrderKey, desc: boolean): (a: number, b: number) => boolean {
    const log = this.#log;
    if (!desc) return (a, b) => sortsBefore(log, key, a, b);
    if (key !== "day") return (a, b) => sortsBefore(log, key, b, a);
    return (a, b) => {
      const na = log.dayOf(a) === NULL_DAY, nb = log.dayOf(b) === NULL_DAY;
      return na !== nb ? nb : sortsBefore(log, key, b, a);
    };
  }
}

function _stream(ords: Uint32Array | number[]): _Stream {
  return {
    count: ords.length,
    open: (i) => () => (i < ords.length ? ords[i++]! : -1),
  };
}

// First index in [lo, hi) whose value is ≥ x (values ascending).
function _lowerBound(values: ArrayLike<number>, x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Items [k, k + limit) of the merge of a stream and a small sorted delta: the split of the first k between the
// two is found by binary search, so skipped items of the stream are never visited one by one.
function _mergedSlice(base: _Stream, delta: number[], before: (a: number, b: number) => boolean, k: number, limit: number): number[] {
  let lo = Math.max(0, k - base.count), hi = Math.min(k, delta.length);
  while (lo < hi) {
    const j = (lo + hi) >> 1;
    const b = base.open(k - j - 1)();
    if (b < 0 || before(delta[j]!, b)) lo = j + 1;
    else hi = j;
  }
  const next = base.open(k - lo);
  const out: number[] = [];
  let b = next(), d = lo;
  while (out.length < limit && (b >= 0 || d < delta.length)) {
    if (b >= 0 && (d >= delta.length || before(b, delta[d]!))) {
      out.push(b);
      b = next();
    } else out.push(delta[d++]!);
  }
  return out;
}
