/**
 * Content-addressed blobs in a directory (`ab/abcdef…`), written atomically, and
 * a bounded in-memory cache of small ones: downloads of small files cost a map
 * lookup, large ones are streamed in 64 KiB chunks so that a thousand concurrent
 * downloads of a 10 MB file do not hold a thousand copies (README “Documents and the inbox”).
 * Writes are grouped: the blobs put while a group is being written go together
 * into the next one; each put resolves once its blob is durable. A packed
 * directory writes each group as one pack file (blob_packs.ts: one write and one
 * flush a group); otherwise each blob is a file of its own, flushed concurrently,
 * with one flush per directory (writeFilesAtomic). A packed directory still reads
 * the single-file blobs of data directories written before packs.
 * @module
 */
import { createHash } from "node:crypto";
import { createReadStream, readdirSync, readFileSync, statSync } from "node:fs";
import { access, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import type { BlobInfo, StoredBlob } from "../../lib/contracts/storage.ts";
import { fsyncDirAsync, writeFilesAtomic } from "../atomic.ts";
import { BlobPacks } from "./blob_packs.ts";

const SMALL = 256 * 1024; // read in one go and cacheable below this size
const CACHE_BYTES = 64 * 1024 * 1024; // per process: bounded whatever the data size
const CHUNK = 64 * 1024; // streaming chunk: 200 concurrent 10 MiB downloads measured 170 MiB RSS (1 MiB chunks: 460 MiB), same speed

const _cache = new Map<string, Uint8Array>(); // shared by all blob dirs of the process, LRU by insertion order
let _cached = 0;

function _remember(path: string, bytes: Uint8Array): void {
  if (bytes.length > SMALL) return;
  _cache.set(path, bytes);
  _cached += bytes.length;
  for (const [k, v] of _cache) {
    if (_cached <= CACHE_BYTES) break;
    _cache.delete(k);
    _cached -= v.length;
  }
}

/** A directory of blobs keyed by SHA-256 (or by any safe key for derived blobs). */
export class BlobDir {
  #dir: string;
  /** Blobs waiting for the next group, by path (a blob put twice meanwhile is written once). */
  #queued = new Map<string, { key: string; bytes: Uint8Array; waiters: { resolve: () => void; reject: (e: unknown) => void }[] }>();
  #writing = false;
  /** Paths of the group being written, to the promise that settles when it is flushed. */
  #inGroup = new Map<string, Promise<void>>();
  #shards = new Set<string>(); // shard directories known to exist
  #packs: BlobPacks | null;
  /** Whether single-file blobs may be here (a packed directory has them only from before packs). */
  #loose = true;

  /** `packed`: groups are written as pack files; otherwise a file a blob. Opening a packed one indexes its packs. */
  constructor(dir: string, options: { packed?: boolean } = {}) {
    this.#dir = dir;
    this.#packs = options.packed ? new BlobPacks(join(dir, "packs")) : null;
    if (this.#packs) {
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        // not created yet: nothing from before packs
      }
      this.#loose = names.some((n) => n.length === 2); // the shard directories of single-file blobs
    }
  }

  #path(key: string): string {
    if (!/^[A-Za-z0-9._-]{3,200}$/.test(key) || key.startsWith(".")) throw new TypeError(`Bad blob key: ${key}`);
    return join(this.#dir, key.slice(0, 2), key);
  }

  /** Stores bytes under their SHA-256 (a no-op when already there). */
  async putContent(bytes: Uint8Array): Promise<BlobInfo> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    return this.put(sha256, bytes);
  }

  /** Stores bytes under a key; resolves once they are durable. */
  async put(key: string, bytes: Uint8Array): Promise<BlobInfo> {
    const path = this.#path(key);
    // A blob of a group being written may exist before its directory is flushed: it is durable only once the group is.
    for (let writing = this.#inGroup.get(path); writing; writing = this.#inGroup.get(path)) await writing;
    const there = (this.#packs?.knows(key) ?? false) || (this.#loose && (await _exists(path)));
    if (!there) {
      await new Promise<void>((resolve, reject) => {
        const entry = this.#queued.get(path) ?? { key, bytes, waiters: [] };
        entry.waiters.push({ resolve, reject });
        this.#queued.set(path, entry);
        if (!this.#writing) {
          this.#writing = true;
          setImmediate(() => void this.#writeGroups()); // puts of this turn of the event loop join the group
        }
      });
    }
    return { sha256: key, size: bytes.length };
  }

  // Writes groups until none is waiting: each as one pack, or its files written, flushed and renamed concurrently.
  async #writeGroups(): Promise<void> {
    while (this.#queued.size > 0) {
      const group = [...this.#queued];
      this.#queued.clear();
      let flushed!: () => void;
      const done = new Promise<void>((resolve) => (flushed = resolve));
      for (const [path] of group) this.#inGroup.set(path, done);
      let results: (Error | null)[];
      try {
        if (this.#packs) {
          await this.#packs.write(group.map(([, e]) => e));
          results = group.map(() => null);
        } else {
          results = await this.#writeFiles(group);
        }
      } catch (e) {
        results = group.map(() => e as Error);
      }
      for (const [path] of group) this.#inGroup.delete(path);
      flushed();
      group.forEach(([, e], i) => e.waiters.forEach((w) => (results[i] ? w.reject(results[i]) : w.resolve())));
    }
    this.#writing = false;
  }

  async #writeFiles(group: [string, { bytes: Uint8Array }][]): Promise<(Error | null)[]> {
    const made: string[] = [];
    for (const shard of new Set(group.map(([path]) => join(path, "..")))) {
      if (this.#shards.has(shard)) continue;
      if (!(await _exists(shard))) made.push(shard);
      await mkdir(shard, { recursive: true });
      this.#shards.add(shard);
    }
    if (made.length > 0) await fsyncDirAsync(this.#dir); // a new shard's entry, before blobs rely on it
    return writeFilesAtomic(group.map(([path, e]) => ({ path, data: e.bytes })));
  }

  /** The blob under a key, or null. */
  get(key: string): StoredBlob | null {
    let path: string;
    try {
      path = this.#path(key);
    } catch {
      return null;
    }
    const hit = _cache.get(path);
    if (hit) return _memoryBlob(key, hit);
    const packed = this.#packs?.find(key, SMALL);
    if (packed instanceof Uint8Array) {
      _remember(path, packed);
      return _memoryBlob(key, packed);
    }
    if (packed) {
      const { path: pack, offset, size } = packed;
      return {
        sha256: key,
        size,
        bytes: async () => {
          const bytes = this.#packs!.read(packed, key);
          if (bytes === null) throw new Error(`Blob ${key} is no longer where its pack's table says`);
          return bytes;
        },
        stream: (start, end) => createReadStream(pack, { start: offset + start, end: offset + end - 1, highWaterMark: CHUNK }),
      };
    }
    if (!this.#loose) return null;
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return null;
    }
    if (size <= SMALL) {
      const bytes = readFileSync(path);
      _remember(path, bytes);
      return _memoryBlob(key, bytes);
    }
    return {
      sha256: key,
      size,
      bytes: async () => readFileSync(path),
      stream: (start, end) => createReadStream(path, { start, end: end - 1, highWaterMark: CHUNK }),
    };
  }
}

async function _exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

function _memoryBlob(key: string, bytes: Uint8Array): StoredBlob {
  return {
    sha256: key,
    size: bytes.length,
    bytes: async () => bytes,
    async *stream(start, end) {
      yield bytes.subarray(start, end);
    },
  };
}
