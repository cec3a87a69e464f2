/**
 * A bounded cache of serialised feed pages. A page from a given position is the
 * same bytes until the feed changes, and clients poll the same cursor over and
 * over (most often at the tail, where the answer is "nothing new"), so a page is
 * kept with the feed length it was made at and served again while that length
 * holds. Least recently used pages go first; the total size is bounded.
 * @module
 */

const MAX_BYTES = 32 * 1024 * 1024; // a few thousand pages of 50 documents
const MAX_PAGE = 1024 * 1024; // larger pages (limit=500 of big documents) are not worth holding

/** Pages by key, valid for one feed version. */
export class PageCache {
  #pages = new Map<string, { version: number; body: Uint8Array }>();
  #bytes = 0;

  /** The page under `key` if it was made at `version`. */
  get(key: string, version: number): Uint8Array | null {
    const hit = this.#pages.get(key);
    if (!hit || hit.version !== version) return null;
    this.#pages.delete(key); // most recently used goes last
    this.#pages.set(key, hit);
    return hit.body;
  }

  set(key: string, version: number, body: Uint8Array): void {
    if (body.length > MAX_PAGE) return;
    const old = this.#pages.get(key);
    if (old) {
      this.#bytes -= old.body.length;
      this.#pages.delete(key);
    }
    this.#pages.set(key, { version, body });
    this.#bytes += body.length;
    for (const [k, v] of this.#pages) {
      if (this.#bytes <= MAX_BYTES) break;
      this.#pages.delete(k);
      this.#bytes -= v.body.length;
    }
  }
}
