/**
 * Builds the ordinal sequences of the document index's orders from the slots (see document_index.ts): issue date
 * by counting sort on day numbers, sync time by a stable sort that finds the feed order almost sorted already,
 * feed position by placing each ordinal at its latest seq; and, after a build, the next one as a linear merge of
 * the surviving ranks with the few documents that changed. No records are read.
 * @module
 */
import { NULL_DAY } from "../../lib/contracts/document_filter.ts";
import type { RecordLog } from "./record_log.ts";

/** The three orders: issue date (nulls last both ways), sync time, feed position; ties by ordinal. */
export type OrderKey = "day" | "time" | "seq";

/** True when ordinal `a` sorts before `b` ascending by `key` (current slot values). */
export function sortsBefore(log: RecordLog, key: OrderKey, a: number, b: number): boolean {
  if (key === "seq") return log.latestSeq(a) < log.latestSeq(b);
  if (key === "time") {
    const ta = log.timeOf(a), tb = log.timeOf(b);
    return ta !== tb ? ta < tb : a < b;
  }
  const da = log.dayOf(a), db = log.dayOf(b);
  if (da === db) return a < b;
  if (da === NULL_DAY) return false;
  if (db === NULL_DAY) return true;
  return da < db;
}

/** Ordinals [0, n) sorted by `key`. */
export function sortAll(log: RecordLog, key: OrderKey, n: number): Uint32Array {
  const bySeq = _bySeq(log, n);
  if (key === "seq") return bySeq;
  if (key === "day") return _byDay(log, n);
  // Sync times grow with the feed except where clocks disagree: mostly the feed order is the answer already.
  let sorted = true;
  for (let r = 1; r < n && sorted; r++) sorted = sortsBefore(log, "time", bySeq[r - 1]!, bySeq[r]!);
  if (sorted) return bySeq;
  const arr = Array.from(bySeq);
  arr.sort((a, b) => (sortsBefore(log, "time", a, b) ? -1 : sortsBefore(log, "time", b, a) ? 1 : 0));
  return Uint32Array.from(arr);
}

/** The previous order without `changed` ordinals, merged with them (and ordinals ≥ its length up to n) in order. */
export function mergeChanged(log: RecordLog, key: OrderKey, prev: Uint32Array, changed: number[], n: number): Uint32Array {
  const moved = new Uint8Array(n);
  for (const o of changed) moved[o] = 1;
  const delta = changed.slice().sort((a, b) => (sortsBefore(log, key, a, b) ? -1 : 1));
  const out = new Uint32Array(n);
  let w = 0, j = 0;
  for (let r = 0; r < prev.length; r++) {
    const o = prev[r]!;
    if (moved[o]) continue;
    while (j < delta.length && sortsBefore(log, key, delta[j]!, o)) out[w++] = delta[j++]!;
    out[w++] = o;
  }
  while (j < delta.length) out[w++] = delta[j++]!;
  if (w !== n) throw new Error(`Index merge produced ${w} of ${n} documents`);
  return out;
}

// Each ordinal at its latest feed position: positions are unique, so placing is sorting.
function _bySeq(log: RecordLog, n: number): Uint32Array {
  const at = new Int32Array(log.feedLength).fill(-1);
  for (let o = 0; o < n; o++) at[log.latestSeq(o)] = o;
  const out = new Uint32Array(n);
  let w = 0;
  for (let s = 0; s < at.length; s++) if (at[s]! >= 0) out[w++] = at[s]!;
  return out;
}

// Counting sort on day numbers (issue dates of 4-digit years span < 2^22 days), ordinals ascending within a day.
function _byDay(log: RecordLog, n: number): Uint32Array {
  let min = Infinity, max = -Infinity;
  for (let o = 0; o < n; o++) {
    const d = log.dayOf(o);
    if (d === NULL_DAY) continue;
    if (d < min) min = d;
    if (d > max) max = d;
  }
  const span = max >= min ? max - min + 1 : 0;
  if (span > 1 << 22) {
    const arr = Array.from({ length: n }, (_, o) => o);
    arr.sort((a, b) => (sortsBefore(log, "day", a, b) ? -1 : 1));
    return Uint32Array.from(arr);
  }
  const start = new Uint32Array(span + 2); // the last bucket holds documents without a date
  const bucket = (o: number): number => {
    const d = log.dayOf(o);
    return d === NULL_DAY ? span : d - min;
  };
  for (let o = 0; o < n; o++) start[bucket(o) + 1]!++;
  for (let b = 1; b < start.length; b++) start[b]! += start[b - 1]!;
  const out = new Uint32Array(n);
  for (let o = 0; o < n; o++) out[start[bucket(o)]!++] = o;
  return out;
}
