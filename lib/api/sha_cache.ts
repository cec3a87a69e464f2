/**
 * What is derived from stored XML and kept in memory by its SHA-256 (the same bytes give the same result): the
 * `invoice` object's JSON (README “The invoice object”) and a document's `validation` verdict (README "Validation").
 * @module
 */

/** Bytes kept at most per cache: a few thousand typical invoices' JSON (1–10 KB each), more verdicts. */
export const MAX_CACHE_BYTES = 16 * 1024 * 1024;
/** Larger entries (the invoice JSON of a 10 MB XML with thousands of lines) are made again each time rather than evict everything. */
export const MAX_ENTRY_BYTES = 1024 * 1024;

/** Bytes by an XML's SHA-256, least recently used first out, bounded in bytes. */
export class ShaCache {
  #entries = new Map<string, Uint8Array>();
  #bytes = 0;

  /** What is kept for this XML, if anything. */
  get(sha256: string): Uint8Array | undefined {
    const hit = this.#entries.get(sha256);
    if (hit === undefined) return undefined;
    this.#entries.delete(sha256); // most recently used goes last
    this.#entries.set(sha256, hit);
    return hit;
  }

  /** Keeps `bytes` for this XML, evicting the least recently used beyond the bound. */
  set(sha256: string, bytes: Uint8Array): void {
    if (bytes.length > MAX_ENTRY_BYTES) return;
    const old = this.#entries.get(sha256);
    if (old !== undefined) {
      this.#bytes -= old.length;
      this.#entries.delete(sha256);
    }
    this.#entries.set(sha256, bytes);
    this.#bytes += bytes.length;
    for (const [k, v] of this.#entries) {
      if (this.#bytes <= MAX_CACHE_BYTES) break;
      this.#entries.delete(k);
      this.#bytes -= v.length;
    }
  }
}
