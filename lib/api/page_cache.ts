/**
 * A bounded cache of serialised feed pages. A page from a given position is the
 * same bytes until the feed changes, and clients poll the same cursor over and
 * over (most often at the tail, where the answer is "nothing new"), so a page is
 * kept with the feed length it was made at and served again while that length
 * holds. The total size is bounded; pages not asked for since they were last passed
 * over go first (second chance, the CLOCK approximation of least recently used: a hit
 * sets a flag instead of moving the page, which a hit per request would pay for).
 * @module
 */

const MAX_BYTES = 32 * 1024 * 1024; // a few thousand pages of 50 documents
const MAX_PAGE = 1024 * 1024; // larger pages (limit=500 of big documents) are not worth holding

/** Pages by key, valid for one feed version. */
export class PageCache {
  #pages = new Map<string, { version: number; body: Uint8Array; used: boolean }>();
  #bytes = 0;

  /** The page under `key` if it was made at `version`. */
  get(key: string, version: number): Uint8Array | null {
    const hit = this.#pages.get(key);
    if (!hit || hit.version !== version) return null;
    hit.used = true;
    return hit.body;
  }

  set(key: string, version: number, body: Uint8Array): void {
    if (body.length > MAX_PAGE) return;
    const old = this.#pages.get(key);
    if (old) {
      this.#bytes -= old.body.length;
      this.#pages.delete(key);
    }
    this.#pages.set(key, { version, body, used: false });
    this.#bytes += body.length;
    // Oldest first: a page used since it was last passed over goes to the end, once; the first one unused goes.
    for (const [k, v] of this.#pages) {
      if (this.#bytes <= MAX_BYTES) break;
      this.#pages.delete(k);
      if (v.used) {
        v.used = false;
        this.#pages.set(k, v);
      } else {
        this.#bytes -= v.body.length;
      }
    }
  }
}
