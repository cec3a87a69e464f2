/**
 * Page mode's top-k selection over a column: one pass over the records that
 * keeps at most 2k candidates (sort and cut when full), so a page within the
 * 10,000-item window costs O(n log k) time and O(k) memory, never a full sort.
 * Order: by key (nulls last), ties by ordinal in the same direction.
 * @module
 */
import { NULL_DAY } from "./document_filter.ts";

/** The first `k` ordinals in order, and how many records passed. */
export function selectPage(
  count: number, k: number, desc: boolean, pass: (o: number) => boolean, key: (o: number) => number,
): { ordinals: number[]; total: number } {
  let keys: number[] = [], ords: number[] = [];
  let total = 0;
  const sign = desc ? -1 : 1;
  const compare = (a: number, b: number): number => {
    const ka = keys[a]!, kb = keys[b]!;
    if (ka !== kb) {
      if (ka === NULL_DAY || Number.isNaN(ka)) return 1;
      if (kb === NULL_DAY || Number.isNaN(kb)) return -1;
      return (ka - kb) * sign;
    }
    return (ords[a]! - ords[b]!) * sign;
  };
  // After a cut, the k-th key is a bar that later candidates must reach (nulls never do).
  let bar: number | null = null;
  const cut = (): void => {
    const idx = keys.map((_, i) => i).sort(compare).slice(0, k);
    keys = idx.map((i) => keys[i]!);
    ords = idx.map((i) => ords[i]!);
    const last = keys[k - 1];
    if (keys.length === k && last !== undefined && last !== NULL_DAY && !Number.isNaN(last)) bar = last;
  };
  const limit = Math.max(4 * k, 4096);
  // Scanning in the sort's direction: keys that grow with the ordinal (sync times) then mostly fail the bar.
  for (let i = 0; i < count; i++) {
    const o = desc ? count - 1 - i : i;
    if (!pass(o)) continue;
    total++;
    const kv = key(o);
    if (bar !== null && (kv === NULL_DAY || Number.isNaN(kv) || (kv - bar) * sign > 0)) continue;
    keys.push(kv);
    ords.push(o);
    if (keys.length >= limit) cut();
  }
  cut();
  return { ordinals: ords, total };
}
