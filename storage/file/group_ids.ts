/**
 * Dense group ids (1, 2, …) for the 32-bit hashes of an exact-match column, in an open-addressing table of
 * typed arrays: a million lookups cost a few milliseconds, where a Map of numbers costs a hundred. Ids are
 * never reused, so a posting list keeps its id across index builds. Hashes collide; callers verify values.
 * @module
 */

/** Group ids by hash (0 is no hash, and never gets an id). */
export class GroupIds {
  #hashes = new Uint32Array(1024);
  #ids = new Uint32Array(1024); // 0 = empty slot
  #size = 0;

  /** Ids given so far (the largest id). */
  get size(): number {
    return this.#size;
  }

  /** The id of `hash`, or 0 when it has none. */
  get(hash: number): number {
    const mask = this.#ids.length - 1;
    for (let i = Math.imul(hash, 0x9e3779b1) >>> 0 & mask; this.#ids[i] !== 0; i = (i + 1) & mask) {
      if (this.#hashes[i] === hash) return this.#ids[i]!;
    }
    return 0;
  }

  /** The id of `hash`, given a new one when it has none. */
  intern(hash: number): number {
    const found = this.get(hash);
    if (found !== 0) return found;
    if ((this.#size + 1) * 2 > this.#ids.length) this.#grow();
    this.#put(hash, ++this.#size);
    return this.#size;
  }

  #put(hash: number, id: number): void {
    const mask = this.#ids.length - 1;
    let i = Math.imul(hash, 0x9e3779b1) >>> 0 & mask;
    while (this.#ids[i] !== 0) i = (i + 1) & mask;
    this.#hashes[i] = hash;
    this.#ids[i] = id;
  }

  #grow(): void {
    const hashes = this.#hashes, ids = this.#ids;
    this.#hashes = new Uint32Array(hashes.length * 2);
    this.#ids = new Uint32Array(ids.length * 2);
    for (let i = 0; i < ids.length; i++) if (ids[i] !== 0) this.#put(hashes[i]!, ids[i]!);
  }
}
