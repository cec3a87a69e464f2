/**
 * A directory of blob packs (blob_pack.ts) and the in-memory index that finds a blob in them. Each process that
 * writes gets a folder of its own (`packs/<pid>-<start>-<random>/`) whose packs are numbered 0, 1, 2…; a pack is
 * written to a temp file, flushed, renamed to its number and the folder flushed, so after `kill -9` a pack is
 * whole or absent and the numbers have no gaps. Another process on the same data directory (WORKERS > 1) finds
 * new packs on a miss by trying the next number of each live writer's folder, and new folders by the directory's
 * modification time: a miss costs a stat or two and a short listing of folders, never a listing of every pack.
 *
 * The index keeps 32-bit key hashes (HashIndex) and each blob's pack, offset and size: about 40 bytes a blob,
 * never its key or bytes. A hit is checked against the key the pack holds before the bytes. The first process to
 * open a folder whose writer is gone reads its packs' tables one by one and writes them into the folder's table of
 * contents (blob_pack.ts), which later opens read in one go.
 * @module
 */
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { access, mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { closeAsync, fdatasyncAsync, fsyncDirAsync, isProcessAlive, openAsync, removeTempLeftovers, writeFileAtomic, writevAllAsync } from "../atomic.ts";
import { decodePackTable, decodeToc, encodePack, encodeToc, keyBytes, packTableLength, type PackEntry } from "./blob_pack.ts";
import { hash32 } from "./hash32.ts";
import { HashIndex } from "./hash_index.ts";

const RECENT_MS = 2_000; // file times move in clock ticks (milliseconds on most file systems, up to seconds on some)
const TABLE_READ = 64 * 1024; // a pack's table is read in one go up to this size (≈ 700 entries of SHA-256 keys)

/** Where a blob is: its pack file, offset and size. */
export interface PackedBlob {
  path: string;
  offset: number;
  size: number;
}

/** A folder of one writer: the next pack number not yet seen, and whether its writer is gone (nothing more comes). */
interface Folder {
  name: string;
  next: number;
  done: boolean;
}

let _tempSeq = 0;

/** The packs under one directory, and the index over them. */
export class BlobPacks {
  #dir: string;
  #index = new HashIndex();
  #packs: string[] = []; // pack paths by ordinal
  #pack: number[] = []; // per blob: pack ordinal
  #offset: number[] = [];
  #size: number[] = [];
  #folders = new Map<string, Folder>();
  #own: Folder | null = null;
  #dirMtime = -1;

  /** Opens the directory: indexes every pack there (one read of each pack's table). */
  constructor(dir: string) {
    this.#dir = dir;
    this.#refresh();
  }

  /**
   * The bytes under `key` when they are at most `small` long (read with the key before them: the check and the read
   * are one read), where they are when larger, or null (looking for packs other processes wrote since the last look
   * before saying null).
   */
  find(key: string, small: number): Uint8Array | PackedBlob | null {
    return this.#lookup(key, small) ?? (this.#refresh() ? this.#lookup(key, small) : null);
  }

  /** Whether `key` is in a pack this process knows of (no look for other processes' new packs). */
  knows(key: string): boolean {
    return this.#lookup(key) !== null;
  }

  /** The bytes of `blob`, or null when its pack no longer holds `key` there (small blobs only: the read blocks). */
  read(blob: PackedBlob, key: string): Uint8Array | null {
    const fd = openSync(blob.path, "r");
    try {
      const want = keyBytes(key);
      const out = new Uint8Array(want.length + blob.size);
      let got = 0;
      while (got < out.length) {
        const n = readSync(fd, out, got, out.length - got, blob.offset - want.length + got);
        if (n === 0) return null;
        got += n;
      }
      return want.every((c, i) => out[i] === c) ? out.subarray(want.length) : null;
    } finally {
      closeSync(fd);
    }
  }

  /** Whether the pack holds `key` just before `blob`'s bytes (a cheap check before streaming a large blob). */
  holds(blob: PackedBlob, key: string): boolean {
    const want = keyBytes(key);
    const fd = openSync(blob.path, "r");
    try {
      const got = new Uint8Array(want.length);
      return readSync(fd, got, 0, got.length, blob.offset - want.length) === got.length && want.every((c, i) => got[i] === c);
    } finally {
      closeSync(fd);
    }
  }

  /** Writes `blobs` as one pack of this process's folder; resolves once it is durable and indexed. */
  async write(blobs: readonly { key: string; bytes: Uint8Array }[]): Promise<void> {
    const own = this.#own ?? (await this.#makeOwnFolder());
    const folder = join(this.#dir, own.name);
    const path = join(folder, `${own.next}.pack`);
    const tmp = `${path}.tmp-${process.pid}-${++_tempSeq}`;
    try {
      const fd = await openAsync(tmp, "w");
      try {
        await writevAllAsync(fd, encodePack(blobs));
        await fdatasyncAsync(fd);
      } finally {
        await closeAsync(fd);
      }
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => {});
      throw e;
    }
    own.next++; // the number is taken once the rename is done, whatever the folder flush says
    await fsyncDirAsync(folder);
    this.#addPack(path, _entriesOf(blobs));
  }

  async #makeOwnFolder(): Promise<Folder> {
    const name = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const missing = async (path: string): Promise<boolean> => access(path).then(() => false, () => true);
    const blobsDir = join(this.#dir, "..");
    const [newBlobs, newPacks] = [await missing(blobsDir), await missing(this.#dir)];
    await mkdir(join(this.#dir, name), { recursive: true });
    // Each directory made here is flushed into its parent, so that an acknowledged pack cannot lose its path.
    if (newBlobs) await fsyncDirAsync(join(blobsDir, ".."));
    if (newPacks) await fsyncDirAsync(blobsDir);
    await fsyncDirAsync(this.#dir);
    this.#own = { name, next: 0, done: true }; // its packs are indexed as they are written
    this.#folders.set(name, this.#own);
    return this.#own;
  }

  #lookup(key: string, small = 0): Uint8Array | PackedBlob | null {
    // Hashes collide: a candidate is the blob only if its pack holds this key before the bytes.
    for (const i of this.#index.find(hash32(key))) {
      const blob = { path: this.#packs[this.#pack[i]!]!, offset: this.#offset[i]!, size: this.#size[i]! };
      const found = blob.size <= small ? this.read(blob, key) : this.holds(blob, key) ? blob : null;
      if (found) return found;
    }
    return null;
  }

  /** Indexes packs written since the last look; true when any was found. */
  #refresh(): boolean {
    let found = false;
    let mtime: number;
    try {
      mtime = statSync(this.#dir).mtimeMs;
    } catch {
      return false;
    }
    if (mtime !== this.#dirMtime) {
      // A folder made within the same clock tick as the listing leaves the time unchanged: a recent time is listed again.
      this.#dirMtime = Date.now() - mtime > RECENT_MS ? mtime : -1;
      for (const name of readdirSync(this.#dir)) {
        if (this.#folders.has(name) || !/^\d+-[0-9a-z]+-[0-9a-z]+$/.test(name)) continue;
        this.#folders.set(name, { name, next: 0, done: false });
      }
    }
    for (const f of this.#folders.values()) {
      if (f.done) continue;
      const folder = join(this.#dir, f.name);
      const gone = !isProcessAlive(Number(f.name.split("-")[0])); // asked first: what it wrote before dying is all there is
      // A finished writer's folder seen for the first time: its table of contents, then a table per pack after it.
      const tables: Uint8Array[] = gone && f.next === 0 ? this.#readToc(f) : [];
      const fromToc = tables.length;
      found ||= fromToc > 0;
      for (;;) {
        const path = join(folder, `${f.next}.pack`);
        const pack = _readTable(path);
        if (pack === null) break;
        this.#addPack(path, pack.entries);
        if (gone && f.next === tables.length) tables.push(pack.table);
        f.next++;
        found = true;
      }
      if (gone) {
        f.done = true;
        removeTempLeftovers(folder);
        // The next open of this directory reads one file for it instead of a table per pack.
        if (tables.length > fromToc && tables.length === f.next) writeFileAtomic(join(folder, "toc"), encodeToc(tables));
      }
    }
    return found;
  }

  /** Indexes the packs a folder's table of contents lists (advancing `f.next`); their tables, or none. */
  #readToc(f: Folder): Uint8Array[] {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(join(this.#dir, f.name, "toc"));
    } catch {
      return [];
    }
    const tables = decodeToc(bytes);
    if (tables === null) return [];
    for (const table of tables) {
      const entries = decodePackTable(table, Number.POSITIVE_INFINITY);
      if (entries === null) return tables.slice(0, f.next); // a bad entry: the packs from it on are read one by one
      this.#addPack(join(this.#dir, f.name, `${f.next}.pack`), entries);
      f.next++;
    }
    return tables;
  }

  #addPack(path: string, entries: readonly PackEntry[]): void {
    const ordinal = this.#packs.push(path) - 1;
    for (const e of entries) {
      if (this.#lookup(e.key)) continue; // the same content written twice (two processes): the first copy serves
      this.#index.add(hash32(e.key), this.#pack.length);
      this.#pack.push(ordinal);
      this.#offset.push(e.offset);
      this.#size.push(e.size);
    }
  }
}

/** Where each blob lands in the pack encodePack() makes of `blobs`. */
function _entriesOf(blobs: readonly { key: string; bytes: Uint8Array }[]): PackEntry[] {
  let offset = 16;
  for (const b of blobs) offset += 1 + b.key.length + 16;
  return blobs.map((b) => {
    offset += b.key.length;
    const e = { key: b.key, offset, size: b.bytes.length };
    offset += b.bytes.length;
    return e;
  });
}

/** A pack's entries and the bytes of its table, or null when there is no such pack (yet). */
function _readTable(path: string): { entries: PackEntry[]; table: Uint8Array } | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    let table = new Uint8Array(Math.min(TABLE_READ, size));
    readSync(fd, table, 0, table.length, 0);
    const length = packTableLength(table);
    if (length === null) return null;
    if (length > table.length) {
      table = new Uint8Array(length);
      readSync(fd, table, 0, length, 0);
    }
    const entries = decodePackTable(table, size);
    return entries === null ? null : { entries, table: table.subarray(0, length) };
  } finally {
    closeSync(fd);
  }
}
