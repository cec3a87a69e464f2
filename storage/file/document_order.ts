/**
 * One sort order of a tenant's documents, as of the index's last build: ranks to ordinals and back, each rank's
 * packed filter code, masked counts per block of ranks (so a count or an offset skips whole blocks without
 * touching their items), and per exact-match value the ranks of its documents (posting lists, CSR layout).
 * A document that changes after the build is killed in place (its code becomes DEAD, its counts drop) and is
 * served from the index's delta until the next build. Pure data structures: no I/O, no records read.
 * @module
 */
import { DOCUMENT_CODES } from "../../lib/contracts/document_filter.ts";

/** Ranks per block of counts: a count or skip walks at most two partial blocks (2^11: ~500 blocks at 1M). */
export const BLOCK_BITS = 11;
/** Packed filter codes (type, format, xml_available: DOCUMENT_CODES, from the vocabularies); DEAD marks a killed rank. */
export const CODE_SPACE = DOCUMENT_CODES.size;
export const DEAD = CODE_SPACE;
// Ranks keep their codes in a Uint8Array (DEAD included): a vocabulary that outgrows it must widen that array.
if (DEAD > 255) throw new RangeError(`${CODE_SPACE} packed document codes do not fit the index's byte per rank`);

/** A rank interval [from, to) walked upwards or downwards. */
export interface Segment {
  from: number;
  to: number;
  desc: boolean;
}

/** A posting list layout: per group, its ranks ascending (`ranks[start[g]] … ranks[start[g + 1] - 1]`). */
export interface RankGroups {
  start: Uint32Array;
  ranks: Uint32Array;
}

/** What a build hands to each order: the ordinals in order, and per ordinal its code and group per exact attribute. */
export interface OrderInput {
  ords: Uint32Array;
  codeOf: Uint8Array;
  /** Per exact attribute: group id + 1 per ordinal (0 = no value), and the number of groups. */
  groupsOf: { ids: Uint32Array; count: number }[];
  /** Ranks from here on hold documents without an issue date (the day order), else ords.length. */
  nullFrom: number;
}

/** A sort order over the documents of the last build. */
export class DocumentOrder {
  readonly ords: Uint32Array;
  readonly rankOf: Uint32Array;
  readonly codes: Uint8Array;
  readonly nullFrom: number;
  /** Live documents per (block, code), and per code over all blocks. */
  #blocks: Uint32Array;
  #totals: Float64Array;
  /** Per exact attribute, the posting lists in this order. */
  readonly groups: RankGroups[];

  constructor(input: OrderInput) {
    const { ords, codeOf } = input;
    const n = ords.length;
    this.ords = ords;
    this.nullFrom = input.nullFrom;
    const rankOf = new Uint32Array(codeOf.length), codes = new Uint8Array(n);
    const blocks = new Uint32Array(((n >> BLOCK_BITS) + 1) * CODE_SPACE), totals = new Float64Array(CODE_SPACE);
    for (let r = 0; r < n; r++) {
      const o = ords[r]!;
      const c = codeOf[o]!;
      rankOf[o] = r;
      codes[r] = c;
      blocks[(r >> BLOCK_BITS) * CODE_SPACE + c]!++;
      totals[c]!++;
    }
    this.rankOf = rankOf;
    this.codes = codes;
    this.#blocks = blocks;
    this.#totals = totals;
    this.groups = input.groupsOf.map((g) => _rankGroups(ords, g.ids, g.count));
  }

  /** Ranks in the order (documents of the build). */
  get size(): number {
    return this.ords.length;
  }

  /** Takes a changed document out of the counts; its rank stays, marked DEAD. */
  kill(ordinal: number): void {
    const r = this.rankOf[ordinal]!;
    const c = this.codes[r]!;
    if (c === DEAD) return;
    this.#blocks[(r >> BLOCK_BITS) * CODE_SPACE + c]!--;
    this.#totals[c]!--;
    this.codes[r] = DEAD;
  }

  /** Live documents with a code in `mask` among all ranks. */
  countAll(mask: Uint8Array): number {
    let n = 0;
    for (let c = 0; c < CODE_SPACE; c++) if (mask[c]) n += this.#totals[c]!;
    return n;
  }

  /** Live documents with a code in `mask` among ranks [from, to). */
  count(from: number, to: number, mask: Uint8Array, codes: number[]): number {
    if (from >= to) return 0;
    const fb = from >> BLOCK_BITS, tb = to >> BLOCK_BITS;
    if (fb === tb) return this.#walkCount(from, to, mask);
    let n = this.#walkCount(from, (fb + 1) << BLOCK_BITS, mask) + this.#walkCount(tb << BLOCK_BITS, to, mask);
    for (let b = fb + 1; b < tb; b++) n += this.#blockCount(b, codes);
    return n;
  }

  /**
   * A cursor along `seg` that yields the ranks of live documents with a code in `mask`, skipping the first `k`
   * of them, then -1. Blocks whose counts say they hold nothing to yield (or only skipped items) are jumped over
   * without touching their ranks. `codes` lists the mask's codes.
   */
  cursor(seg: Segment, k: number, mask: Uint8Array, codes: number[]): () => number {
    const step = seg.desc ? -1 : 1;
    let r = seg.desc ? seg.to - 1 : seg.from;
    const end = seg.desc ? seg.from - 1 : seg.to;
    if (seg.from >= seg.to) r = end;
    return () => {
      while (r !== end) {
        const b = r >> BLOCK_BITS;
        const blockStart = b << BLOCK_BITS, blockEnd = blockStart + (1 << BLOCK_BITS);
        const whole = seg.desc ? r === blockEnd - 1 && blockStart >= seg.from : r === blockStart && blockEnd <= seg.to;
        if (whole) {
          const inBlock = this.#blockCount(b, codes);
          if (k >= inBlock) {
            k -= inBlock;
            r = seg.desc ? blockStart - 1 : blockEnd;
            continue;
          }
        }
        const here = r;
        r += step;
        if (mask[this.codes[here]!]) {
          if (k === 0) return here;
          k--;
        }
      }
      return -1;
    };
  }

  #blockCount(b: number, codes: number[]): number {
    let n = 0;
    const at = b * CODE_SPACE;
    for (const c of codes) n += this.#blocks[at + c]!;
    return n;
  }

  #walkCount(from: number, to: number, mask: Uint8Array): number {
    let n = 0;
    for (let r = from; r < to; r++) n += mask[this.codes[r]!]!;
    return n;
  }
}

// Counting sort of the ranks by group: one pass to count, one to place; ranks come out ascending within a group.
function _rankGroups(ords: Uint32Array, ids: Uint32Array, count: number): RankGroups {
  const start = new Uint32Array(count + 2);
  for (let r = 0; r < ords.length; r++) start[ids[ords[r]!]! + 1]!++;
  for (let g = 1; g < start.length; g++) start[g]! += start[g - 1]!;
  const fill = start.slice();
  const ranks = new Uint32Array(start[count + 1]! - start[1]!);
  const base = start[1]!; // group 0 (no value) is not kept
  for (let r = 0; r < ords.length; r++) {
    const g = ids[ords[r]!]!;
    if (g !== 0) ranks[fill[g]!++ - base] = r;
  }
  // Shift so that group id g (1-based) spans start[g] … start[g + 1] in `ranks`.
  const shifted = new Uint32Array(count + 2);
  for (let g = 1; g < start.length; g++) shifted[g] = start[g]! - base;
  return { start: shifted, ranks };
}
