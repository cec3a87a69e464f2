/**
 * The file store's engine: an append-only record log with a change feed and a
 * fixed-width slot per record, so that a lookup, a feed page and an index scan
 * cost the same at a million records as at a thousand.
 *
 *   NAME.log    records: [u32 length][u32 crc32][u32 ordinal][u32 meta length] + JSON + meta; the source of truth
 *   NAME.feed   one 16-byte entry per change: [f64 log offset][u32 ordinal][u32 length | FIRST]; seq = entry index
 *
 * A record's optional meta bytes (e.g. the idempotency key that caused it) commit
 * in the same checksummed append as the record; feed entries flag a record's
 * first version, so a change can be told a creation from an update.
 *   NAME.slots  one 48-byte slot per ordinal, the latest version's position and index columns
 *
 * A write changes the in-memory state at once and queues its bytes; commit() then appends every queued record in
 * one write and one fdatasync, then their feed entries, then their slots (group commit, off the event loop):
 * the writers of a batch are answered after the flush that covers them. Queued records are read from memory
 * until their bytes are in the file. At open,
 * a torn log tail is cut off, feed entries missing for complete log records are
 * re-derived, and slots that lag the feed are re-applied: the log decides.
 * The slots file is held in memory (48 bytes per record); the log and feed are read with pread.
 * @module
 */
import { Buffer } from "node:buffer";
import { closeSync, fstatSync, fsyncSync, ftruncate, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "../../lib/formats/zip/crc32.ts";
import { fdatasyncAsync, writeAllAsync } from "../atomic.ts";

const HEADER = 16;
const FEED_ENTRY = 16;
const SLOT = 48;
/** Where each field of a slot lies, in bytes from the slot's start (8-byte aligned for the f64 fields). */
const SLOT_AT = {
  offset: 0, // f64: log offset of the latest version
  length: 8, // u32: its JSON length
  seq: 12, // u32: its feed position
  time: 16, // f64: SlotColumns.time
  day: 24, // i32: SlotColumns.day
  hashes: 28, // 4 × u32: SlotColumns.h
  codes: 44, // 4 × u8: SlotColumns.c
} as const;
/** Slot byte 12-15 holds the latest seq; 0xffffffff marks a slot not yet written. */
const NO_SEQ = 0xffffffff;
const MAX_RECORD = 64 * 1024 * 1024; // a record is one document's JSON: far below this
const FIRST = 0x80000000; // feed entry flag: the record's first version
const LEN_MASK = 0x7fffffff;

/** One raw feed entry: a version of a record as it was written. */
export interface FeedEntry {
  seq: number;
  ordinal: number;
  offset: number;
  length: number;
  /** True for the record's first version. */
  first: boolean;
}

/** The index columns of a slot, set by the caller on every write. */
export interface SlotColumns {
  /** A time, e.g. synced_at in ms. */
  time: number;
  /** A day number, e.g. issue date as days since 1970; -2147483648 for none. */
  day: number;
  /** Four 32-bit hashes (0 = none) and four small codes. */
  h: [number, number, number, number];
  c: [number, number, number, number];
}

export const NO_DAY = -2147483648;

/** A record's slot columns from one version of it: its JSON and its meta bytes (null when it has none). */
export type ColumnsOf = (json: Uint8Array, meta: Uint8Array | null) => SlotColumns;

/** An open record log. */
export class RecordLog {
  #logFd: number;
  #feedFd: number;
  #slotsFd: number;
  #logSize = 0;
  #feedCount = 0;
  #count = 0;
  #buf = new ArrayBuffer(0);
  #f64 = new Float64Array(0);
  #u32 = new Uint32Array(0);
  #i32 = new Int32Array(0);
  #u8 = new Uint8Array(0);
  #durable: boolean;
  #lastMeta: Uint8Array | null = null;
  /** Log bytes, feed entries and slots in the files; what lies beyond is queued. */
  #fileLogSize = 0;
  #fileFeedCount = 0;
  /** Queued records by log offset (read from here until written), feed entries and ordinals whose slot changed. */
  #queued = new Map<number, Buffer>();
  #queuedRecs: Buffer[] = [];
  #queuedFeed: Buffer[] = [];
  #queuedSlots = new Set<number>();

  constructor(dir: string, name: string, options: { durable?: boolean; columnsOf: ColumnsOf }) {
    this.#durable = options.durable ?? true;
    this.#logFd = openSync(join(dir, `${name}.log`), "a+");
    this.#feedFd = openSync(join(dir, `${name}.feed`), "a+");
    // Slots are rewritten in place, which an O_APPEND descriptor cannot do: create, then open r+.
    closeSync(openSync(join(dir, `${name}.slots`), "a"));
    this.#slotsFd = openSync(join(dir, `${name}.slots`), "r+");
    this.#recover(options.columnsOf);
  }

  /** Number of distinct records (ordinals). */
  get count(): number {
    return this.#count;
  }

  /** Number of feed entries (changes) so far; the next change gets this seq. */
  get feedLength(): number {
    return this.#feedCount;
  }

  /** Appends a new version of record `ordinal` (or a new record with ordinal === count), with optional meta bytes. */
  write(ordinal: number, json: Uint8Array, cols: SlotColumns, meta: Uint8Array | null = null): number {
    if (ordinal > this.#count) throw new RangeError(`Ordinal ${ordinal} skips ahead of ${this.#count}`);
    const metaLen = meta?.length ?? 0;
    if (json.length + metaLen > MAX_RECORD) throw new RangeError("Record too large");
    const offset = this.#logSize;
    const rec = Buffer.allocUnsafe(HEADER + json.length + metaLen);
    rec.set(json, HEADER);
    if (meta) rec.set(meta, HEADER + json.length);
    rec.writeUInt32LE(json.length, 0);
    rec.writeUInt32LE(crc32(rec.subarray(HEADER)), 4);
    rec.writeUInt32LE(ordinal, 8);
    rec.writeUInt32LE(metaLen, 12);
    this.#queued.set(offset, rec);
    this.#queuedRecs.push(rec);
    this.#logSize += rec.length;
    this.#lastMeta = meta;
    return this.#apply(ordinal, offset, json.length, cols);
  }

  /** True while writes wait for commit(). */
  get dirty(): boolean {
    return this.#queuedRecs.length > 0 || this.#queuedFeed.length > 0 || this.#queuedSlots.size > 0;
  }

  /**
   * Writes what is queued: the records in one append and (durable) one fdatasync, then their feed entries and
   * slots. Callers run one commit at a time per log. When the log append fails (disk full) the log is cut back to
   * where the batch began and the error is thrown; the caller then reopens the log, since its memory is ahead.
   */
  async commit(): Promise<void> {
    if (!this.dirty) return;
    const logFrom = this.#fileLogSize, logTo = this.#logSize;
    const recs = Buffer.concat(this.#queuedRecs.splice(0));
    const feedFrom = this.#fileFeedCount;
    const feed = Buffer.concat(this.#queuedFeed.splice(0));
    const slots = _ranges([...this.#queuedSlots].sort((a, b) => a - b)).map(([lo, hi]) => ({
      at: lo * SLOT,
      bytes: Buffer.from(new Uint8Array(this.#buf, lo * SLOT, (hi - lo) * SLOT)), // a copy: later writes change the buffer
    }));
    this.#queuedSlots.clear();
    try {
      if (recs.length > 0) {
        await writeAllAsync(this.#logFd, recs, logFrom);
        if (this.#durable) await fdatasyncAsync(this.#logFd);
      }
    } catch (e) {
      await _ftruncate(this.#logFd, logFrom).catch(() => {});
      throw e;
    }
    this.#fileLogSize = logTo;
    for (let at = logFrom; at < logTo;) {
      const rec = this.#queued.get(at)!;
      this.#queued.delete(at);
      at += rec.length;
    }
    // The feed and slots are re-derived from the log after a crash: they need no flush of their own.
    await writeAllAsync(this.#feedFd, feed, feedFrom * FEED_ENTRY);
    this.#fileFeedCount = feedFrom + feed.length / FEED_ENTRY;
    for (const { at, bytes } of slots) await writeAllAsync(this.#slotsFd, bytes, at);
  }

  /** Writes what is queued, blocking, without a flush of its own (bulk loads with `durable: false`, then flush()). */
  commitSync(): void {
    _writeAll(this.#logFd, Buffer.concat(this.#queuedRecs.splice(0)), this.#fileLogSize);
    this.#fileLogSize = this.#logSize;
    this.#queued.clear();
    _writeAll(this.#feedFd, Buffer.concat(this.#queuedFeed.splice(0)), this.#fileFeedCount * FEED_ENTRY);
    this.#fileFeedCount = this.#feedCount;
    for (const o of this.#queuedSlots) _writeAll(this.#slotsFd, new Uint8Array(this.#buf, o * SLOT, SLOT), o * SLOT);
    this.#queuedSlots.clear();
  }

  /**
   * The meta bytes of the last `n` changes that carry some, newest first (for recovery of what a crash may have
   * cut short: a group's effects are flushed before their idempotency keys).
   */
  recentMetas(n: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    const head = Buffer.allocUnsafe(HEADER);
    for (const e of this.rawFeed(Math.max(0, this.#feedCount - n), n).reverse()) {
      const queued = this.#queued.get(e.offset);
      if (queued) head.set(queued.subarray(0, HEADER));
      else _readAll(this.#logFd, head, e.offset);
      const metaLen = head.readUInt32LE(12);
      if (metaLen === 0) continue;
      const at = HEADER + head.readUInt32LE(0);
      if (queued) out.push(queued.subarray(at, at + metaLen));
      else {
        const meta = Buffer.allocUnsafe(metaLen);
        _readAll(this.#logFd, meta, e.offset + at);
        out.push(meta);
      }
    }
    return out;
  }

  /** The meta bytes of the last record in the log (for recovery of what a crash may have cut short). */
  get lastMeta(): Uint8Array | null {
    return this.#lastMeta;
  }

  /** Raw feed entries [from, from + n): every version, superseded ones included. */
  rawFeed(from: number, n: number): FeedEntry[] {
    const count = Math.max(0, Math.min(n, this.#feedCount - from));
    const buf = this.#feedBytes(from, count);
    const out: FeedEntry[] = [];
    for (let i = 0; i < count; i++) {
      const lenWord = buf.readUInt32LE(i * FEED_ENTRY + 12);
      out.push({ seq: from + i, offset: buf.readDoubleLE(i * FEED_ENTRY), ordinal: buf.readUInt32LE(i * FEED_ENTRY + 8), length: lenWord & LEN_MASK, first: (lenWord & FIRST) !== 0 });
    }
    return out;
  }

  /** The JSON of one version, as a feed entry points to it. */
  readVersion(e: FeedEntry): Uint8Array {
    return this.#readAt(e.offset, e.length);
  }

  // A record's JSON at a log offset: from memory while its bytes are queued.
  #readAt(offset: number, length: number): Uint8Array {
    const queued = this.#queued.get(offset);
    if (queued) return queued.subarray(HEADER, HEADER + length);
    const buf = Buffer.allocUnsafe(length);
    _readAll(this.#logFd, buf, offset + HEADER);
    return buf;
  }

  /** Flushes everything written so far to disk, blocking (after non-durable bulk writes). */
  flush(): void {
    this.commitSync();
    fsyncSync(this.#logFd);
    fsyncSync(this.#feedFd);
    fsyncSync(this.#slotsFd);
  }

  /** The latest JSON of a record. */
  read(ordinal: number): Uint8Array {
    return this.#readAt(this.#offset(ordinal), this.#length(ordinal));
  }

  /** The latest JSON of several records, in one read when they lie close together in the log. */
  readMany(ordinals: number[]): Uint8Array[] {
    if (ordinals.length === 0) return [];
    let lo = Infinity, hi = 0, sum = 0;
    for (const o of ordinals) {
      const off = this.#offset(o), len = this.#length(o);
      lo = Math.min(lo, off);
      hi = Math.max(hi, off + HEADER + len);
      sum += HEADER + len;
    }
    // One pread of the span beats many when records are neighbours, as feed pages usually are.
    if (hi - lo > 2 * sum + 65536 || hi > this.#fileLogSize) return ordinals.map((o) => this.read(o));
    const span = Buffer.allocUnsafe(hi - lo);
    _readAll(this.#logFd, span, lo);
    return ordinals.map((o) => {
      const start = this.#offset(o) - lo + HEADER;
      return span.subarray(start, start + this.#length(o));
    });
  }

  /** Feed entries [from, from + n) as (ordinal, seq) pairs: ordinals in a Uint32Array. */
  feedOrdinals(from: number, n: number): Uint32Array {
    const count = Math.max(0, Math.min(n, this.#feedCount - from));
    const buf = this.#feedBytes(from, count);
    const out = new Uint32Array(count);
    for (let i = 0; i < count; i++) out[i] = buf.readUInt32LE(i * FEED_ENTRY + 8);
    return out;
  }

  // Feed entries [from, from + count): from the file, and from memory while queued.
  #feedBytes(from: number, count: number): Buffer {
    const buf = Buffer.allocUnsafe(count * FEED_ENTRY);
    const inFile = Math.max(0, Math.min(count, this.#fileFeedCount - from));
    if (inFile > 0) _readAll(this.#feedFd, buf.subarray(0, inFile * FEED_ENTRY), from * FEED_ENTRY);
    for (let i = inFile; i < count; i++) this.#queuedFeed[from + i - this.#fileFeedCount]!.copy(buf, i * FEED_ENTRY);
    return buf;
  }

  /** The seq of a record's latest version. */
  latestSeq(ordinal: number): number {
    return this.#u32[(ordinal * SLOT + SLOT_AT.seq) >> 2]!;
  }

  /** The slot's time column (SlotColumns.time). */
  timeOf(ordinal: number): number {
    return this.#f64[(ordinal * SLOT + SLOT_AT.time) >> 3]!;
  }

  /** The slot's day column (SlotColumns.day). */
  dayOf(ordinal: number): number {
    return this.#i32[(ordinal * SLOT + SLOT_AT.day) >> 2]!;
  }

  /** Hash column `k` (0–3) of the slot (SlotColumns.h). */
  hashOf(ordinal: number, k: number): number {
    return this.#u32[((ordinal * SLOT + SLOT_AT.hashes) >> 2) + k]!;
  }

  /** Code column `k` (0–3) of the slot (SlotColumns.c). */
  codeOf(ordinal: number, k: number): number {
    return this.#u8[ordinal * SLOT + SLOT_AT.codes + k]!;
  }

  /**
   * Sets code column `k` of a slot in memory only, never in the slots file: for a column whose owner keeps the
   * value elsewhere and sets it again at open (documents.ts: verdicts judged after a version was written).
   */
  setCode(ordinal: number, k: number, code: number): void {
    this.#u8[ordinal * SLOT + SLOT_AT.codes + k] = code;
  }

  #offset(ordinal: number): number {
    return this.#f64[(ordinal * SLOT + SLOT_AT.offset) >> 3]!;
  }

  #length(ordinal: number): number {
    return this.#u32[(ordinal * SLOT + SLOT_AT.length) >> 2]!;
  }

  close(): void {
    for (const fd of [this.#logFd, this.#feedFd, this.#slotsFd]) closeSync(fd);
  }

  #apply(ordinal: number, offset: number, len: number, cols: SlotColumns): number {
    const seq = this.#feedCount;
    const entry = Buffer.allocUnsafe(FEED_ENTRY);
    entry.writeDoubleLE(offset, 0);
    entry.writeUInt32LE(ordinal, 8);
    entry.writeUInt32LE((len | (ordinal === this.#count ? FIRST : 0)) >>> 0, 12);
    this.#queuedFeed.push(entry);
    this.#feedCount++;
    if (ordinal === this.#count) this.#grow(ordinal + 1);
    this.#setSlot(ordinal, offset, len, seq, cols);
    this.#queuedSlots.add(ordinal);
    return seq;
  }

  #setSlot(ordinal: number, offset: number, len: number, seq: number, cols: SlotColumns): void {
    const at = ordinal * SLOT;
    this.#f64[(at + SLOT_AT.offset) >> 3] = offset;
    this.#u32[(at + SLOT_AT.length) >> 2] = len;
    this.#u32[(at + SLOT_AT.seq) >> 2] = seq;
    this.#f64[(at + SLOT_AT.time) >> 3] = cols.time;
    this.#i32[(at + SLOT_AT.day) >> 2] = cols.day;
    for (let k = 0; k < 4; k++) {
      this.#u32[((at + SLOT_AT.hashes) >> 2) + k] = cols.h[k]!;
      this.#u8[at + SLOT_AT.codes + k] = cols.c[k]!;
    }
  }

  // Records after the last feed entry were appended by a writer that died before its feed entry: re-derive
  // the complete ones, cut off a torn one. Only ever run by the one writer (at open, or holding the lock).
  #repairTail(columnsOf: ColumnsOf): void {
    const logBytes = fstatSync(this.#logFd).size;
    let pos = this.#logSize;
    const head = Buffer.allocUnsafe(HEADER);
    while (pos + HEADER <= logBytes) {
      _readAll(this.#logFd, head, pos);
      const len = head.readUInt32LE(0), crc = head.readUInt32LE(4), ord = head.readUInt32LE(8), metaLen = head.readUInt32LE(12);
      if (len + metaLen > MAX_RECORD || pos + HEADER + len + metaLen > logBytes || ord > this.#count) break;
      const body = Buffer.allocUnsafe(len + metaLen);
      _readAll(this.#logFd, body, pos + HEADER);
      if (crc32(body) !== crc) break;
      this.#logSize = this.#fileLogSize = pos + HEADER + len + metaLen;
      this.#apply(ord, pos, len, columnsOf(body.subarray(0, len), metaLen > 0 ? body.subarray(len) : null));
      pos = this.#logSize;
    }
    if (this.#logSize < logBytes) ftruncateSync(this.#logFd, this.#logSize);
  }

  /**
   * Takes in the changes that other processes appended to a shared data directory since this one last looked
   * (one fstat when nothing changed). With `writer`, also repairs what a writer that died left behind; the
   * caller must then hold the cross-process lock. Returns the first ordinal that is new to this process;
   * `onChange` hears of every ordinal that got a new version.
   */
  catchUp(columnsOf: ColumnsOf, writer: boolean, onChange?: (ordinal: number) => void): number {
    const firstNew = this.#count;
    const n = Math.floor(fstatSync(this.#feedFd).size / FEED_ENTRY);
    if (n > this.#feedCount) {
      const buf = Buffer.allocUnsafe((n - this.#feedCount) * FEED_ENTRY);
      _readAll(this.#feedFd, buf, this.#feedCount * FEED_ENTRY);
      const head = Buffer.allocUnsafe(HEADER);
      for (let i = 0; this.#feedCount < n; i++, this.#feedCount++) {
        const off = buf.readDoubleLE(i * FEED_ENTRY), ord = buf.readUInt32LE(i * FEED_ENTRY + 8);
        const len = buf.readUInt32LE(i * FEED_ENTRY + 12) & LEN_MASK;
        _readAll(this.#logFd, head, off);
        const metaLen = head.readUInt32LE(12);
        const body = Buffer.allocUnsafe(len + metaLen);
        _readAll(this.#logFd, body, off + HEADER);
        if (ord >= this.#count) this.#grow(ord + 1);
        // From the record itself, not the slots file: its writer may not have written the slot yet.
        this.#setSlot(ord, off, len, this.#feedCount, columnsOf(body.subarray(0, len), metaLen > 0 ? body.subarray(len) : null));
        this.#logSize = this.#fileLogSize = off + HEADER + len + metaLen;
        onChange?.(ord);
      }
      this.#fileFeedCount = this.#feedCount;
    }
    if (writer) {
      const seq = this.#feedCount;
      this.#repairTail(columnsOf);
      if (onChange) for (const e of this.rawFeed(seq, this.#feedCount - seq)) onChange(e.ordinal);
    }
    return firstNew;
  }

  #readLastMeta(): Uint8Array | null {
    if (this.#feedCount === 0) return null;
    const e = Buffer.allocUnsafe(FEED_ENTRY);
    _readAll(this.#feedFd, e, (this.#feedCount - 1) * FEED_ENTRY);
    const off = e.readDoubleLE(0);
    const head = Buffer.allocUnsafe(HEADER);
    _readAll(this.#logFd, head, off);
    const metaLen = head.readUInt32LE(12);
    if (metaLen === 0) return null;
    const meta = Buffer.allocUnsafe(metaLen);
    _readAll(this.#logFd, meta, off + HEADER + head.readUInt32LE(0));
    return meta;
  }

  #grow(count: number): void {
    if (count * SLOT > this.#buf.byteLength) {
      // Whole slots only: the typed-array views need a length that is a multiple of 8.
      const next = new ArrayBuffer(Math.max(count, Math.ceil((this.#buf.byteLength / SLOT) * 1.5), 1024) * SLOT);
      new Uint8Array(next).set(new Uint8Array(this.#buf));
      this.#buf = next;
      this.#f64 = new Float64Array(next);
      this.#u32 = new Uint32Array(next);
      this.#i32 = new Int32Array(next);
      this.#u8 = new Uint8Array(next);
    }
    for (let o = this.#count; o < count; o++) this.#u32[(o * SLOT + SLOT_AT.seq) >> 2] = NO_SEQ;
    this.#count = count;
  }

  #recover(columnsOf: ColumnsOf): void {
    // Slots: whole slots only; loaded in one read.
    const slotBytes = fstatSync(this.#slotsFd).size;
    const slotCount = Math.floor(slotBytes / SLOT);
    this.#grow(slotCount);
    if (slotCount > 0) _readAll(this.#slotsFd, new Uint8Array(this.#buf, 0, slotCount * SLOT), 0);
    // Feed: whole entries only.
    const feedBytes = fstatSync(this.#feedFd).size;
    this.#feedCount = this.#fileFeedCount = Math.floor(feedBytes / FEED_ENTRY);
    if (feedBytes % FEED_ENTRY !== 0) ftruncateSync(this.#feedFd, this.#feedCount * FEED_ENTRY);
    // Log: everything after the last feed entry is re-derived, a torn tail is cut off.
    const logBytes = fstatSync(this.#logFd).size;
    let pos = 0;
    if (this.#feedCount > 0) {
      const e = Buffer.allocUnsafe(FEED_ENTRY);
      _readAll(this.#feedFd, e, (this.#feedCount - 1) * FEED_ENTRY);
      const off = e.readDoubleLE(0);
      const head = Buffer.allocUnsafe(HEADER);
      _readAll(this.#logFd, head, off);
      pos = off + HEADER + head.readUInt32LE(0) + head.readUInt32LE(12);
    }
    if (pos > logBytes) throw new Error(`Store is damaged: feed points past the end of the log (${pos} > ${logBytes})`);
    this.#logSize = this.#fileLogSize = pos;
    // Slots that lag the feed: walk back from the newest change until a slot agrees.
    for (let seq = this.#feedCount - 1; seq >= 0; seq--) {
      const e = Buffer.allocUnsafe(FEED_ENTRY);
      _readAll(this.#feedFd, e, seq * FEED_ENTRY);
      const ord = e.readUInt32LE(8);
      if (ord < this.#count && this.latestSeq(ord) !== NO_SEQ && this.latestSeq(ord) >= seq) break;
      if (ord >= this.#count) this.#grow(ord + 1);
      const off = e.readDoubleLE(0), len = e.readUInt32LE(12) & LEN_MASK;
      const head = Buffer.allocUnsafe(HEADER);
      _readAll(this.#logFd, head, off);
      const metaLen = head.readUInt32LE(12);
      const body = Buffer.allocUnsafe(len + metaLen);
      _readAll(this.#logFd, body, off + HEADER);
      this.#setSlot(ord, off, len, seq, columnsOf(body.subarray(0, len), metaLen > 0 ? body.subarray(len) : null));
      _writeAll(this.#slotsFd, new Uint8Array(this.#buf, ord * SLOT, SLOT), ord * SLOT);
    }
    this.#repairTail(columnsOf);
    this.commitSync(); // at open, before anything else runs: the feed entries and slots repairTail re-derived
    this.#lastMeta = this.#readLastMeta();
    // Slots past the last ordinal any feed entry names were written by nobody: drop them.
    if (slotBytes !== this.#count * SLOT) ftruncateSync(this.#slotsFd, this.#count * SLOT);
  }
}

function _writeAll(fd: number, buf: Uint8Array, position: number): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off, position + off);
}

/** Merges sorted ordinals into runs [lo, hi) of neighbours, so that neighbouring slots are written at once. */
function _ranges(sorted: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const o of sorted) {
    const last = out[out.length - 1];
    if (last && last[1] === o) last[1]++;
    else out.push([o, o + 1]);
  }
  return out;
}

function _ftruncate(fd: number, length: number): Promise<void> {
  return new Promise((resolve, reject) => ftruncate(fd, length, (err) => (err ? reject(err) : resolve())));
}

function _readAll(fd: number, buf: Uint8Array, position: number): void {
  let off = 0;
  while (off < buf.length) {
    const n = readSync(fd, buf, off, buf.length - off, position + off);
    if (n === 0) throw new Error("Store is damaged: unexpected end of file");
    off += n;
  }
}
