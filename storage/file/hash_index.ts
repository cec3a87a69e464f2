/**
 * An in-memory open-addressing index from a 32-bit hash column of a RecordLog to
 * ordinals: 4 bytes a slot at load factor ≤ 0.5, rebuilt from the slots at open.
 * Hashes collide, so a lookup yields candidates that the caller verifies.
 * @module
 */

/** Ordinals by 32-bit hash. */
export class HashIndex {
  #table = new Uint32Array(1024); // ordinal + 1; 0 = empty
  #hashes = new Uint32Array(1024);
  #size = 0;

  /** Adds `ordinal` under `hash` (0 = no value: not indexed). */
  add(hash: number, ordinal: number): void {
    if (hash === 0) return;
    if ((this.#size + 1) * 2 > this.#table.length) this.#rehash(this.#table.length * 2);
    this.#put(hash, ordinal);
    this.#size++;
  }

  /** The ordinals stored under `hash`. */
  find(hash: number): number[] {
    const out: number[] = [];
    const mask = this.#table.length - 1;
    for (let i = hash & mask; this.#table[i] !== 0; i = (i + 1) & mask) {
      if (this.#hashes[i] === hash) out.push(this.#table[i]! - 1);
    }
    return out;
  }

  #put(hash: number, ordinal: number): void {
    const mask = this.#table.length - 1;
    let i = hash & mask;
    while (this.#table[i] !== 0) i = (i + 1) & mask;
    this.#table[i] = ordinal + 1;
    this.#hashes[i] = hash;
  }

  #rehash(capacity: number): void {
    const table = this.#table, hashes = this.#hashes;
    this.#table = new Uint32Array(capacity);
    this.#hashes = new Uint32Array(capacity);
    for (let i = 0; i < table.length; i++) if (table[i] !== 0) this.#put(hashes[i]!, table[i]! - 1);
  }
}
