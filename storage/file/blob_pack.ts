/**
 * The layout of a blob pack: several blobs written as one file, so that a group of blobs costs one write and one
 * flush instead of one of each per blob (README “How data is kept (file store)”).
 *
 *   "IAPACK1\n" · count u32 · table bytes u32 · table · data
 *   table entry: key length u8 · key (ASCII) · data offset f64 · size f64      (little-endian)
 *   data: each blob's key, then its bytes; the entry's offset points at the bytes
 *
 * The key before the bytes lets a read check that an offset still means the blob it was looked up for.
 *
 * A folder's table of contents (`toc`) holds the tables of its packs 0…n−1, so that opening a folder of a finished
 * writer is one read, not one per pack:
 *   "IATOC1\n\0" · pack count u32 · per pack: table length u32 · the table as the pack's head holds it
 * @module
 */

const MAGIC = new TextEncoder().encode("IAPACK1\n");
const HEAD = MAGIC.length + 8;
/** Small blobs are copied into chunks of about this size, so a pack of many small blobs is a few large pieces. */
const CHUNK = 256 * 1024;
/**
 * Blobs from this size are pieces of their own, not copied here: the pack is written with vectored writes, and a
 * copy of each imported 30 KB invoice was as many bytes again for the event loop to allocate and its collector to
 * free (on Node; Deno's node:fs joins the pieces itself).
 */
const OWN_PIECE = 4 * 1024;

/** Where a blob's bytes are in its pack. */
export interface PackEntry {
  key: string;
  offset: number;
  size: number;
}

/** The pack of `blobs` as pieces to write one after another (blobs from OWN_PIECE bytes are passed through, not copied). */
export function encodePack(blobs: readonly { key: string; bytes: Uint8Array }[]): Uint8Array[] {
  let tableBytes = 0;
  for (const b of blobs) tableBytes += 1 + b.key.length + 16;
  const table = new Uint8Array(HEAD + tableBytes);
  const view = new DataView(table.buffer);
  table.set(MAGIC, 0);
  view.setUint32(MAGIC.length, blobs.length, true);
  view.setUint32(MAGIC.length + 4, tableBytes, true);
  const chunks: Uint8Array[] = [table];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = (): void => {
    if (pendingBytes === 0) return;
    const chunk = new Uint8Array(pendingBytes);
    let at = 0;
    for (const p of pending) (chunk.set(p, at), (at += p.length));
    chunks.push(chunk);
    pending = [];
    pendingBytes = 0;
  };
  const add = (piece: Uint8Array): void => {
    if (piece.length >= OWN_PIECE) return (flush(), void chunks.push(piece));
    pending.push(piece);
    pendingBytes += piece.length;
    if (pendingBytes >= CHUNK) flush();
  };
  let pos = HEAD;
  let offset = table.length;
  for (const b of blobs) {
    const key = _ascii(b.key);
    table[pos] = key.length;
    table.set(key, pos + 1);
    pos += 1 + key.length;
    offset += key.length;
    view.setFloat64(pos, offset, true);
    view.setFloat64(pos + 8, b.bytes.length, true);
    pos += 16;
    add(key);
    add(b.bytes);
    offset += b.bytes.length;
  }
  flush();
  return chunks;
}

/** How many bytes from a pack's start hold its table, given its first 16 bytes (null: not a pack). */
export function packTableLength(head: Uint8Array): number | null {
  if (head.length < HEAD || MAGIC.some((c, i) => head[i] !== c)) return null;
  return HEAD + new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(MAGIC.length + 4, true);
}

/** The entries of a pack from its table (`table`: at least packTableLength() bytes); null when it is not a pack. */
export function decodePackTable(table: Uint8Array, fileSize: number): PackEntry[] | null {
  const length = packTableLength(table);
  if (length === null || table.length < length) return null;
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const count = view.getUint32(MAGIC.length, true);
  const out: PackEntry[] = [];
  let pos = HEAD;
  for (let i = 0; i < count; i++) {
    const n = table[pos]!;
    if (pos + 1 + n + 16 > length) return null;
    const key = String.fromCharCode(...table.subarray(pos + 1, pos + 1 + n));
    pos += 1 + n;
    const offset = view.getFloat64(pos, true), size = view.getFloat64(pos + 8, true);
    pos += 16;
    if (!(offset >= length + n && size >= 0 && offset + size <= fileSize)) return null;
    out.push({ key, offset, size });
  }
  return out;
}

/** The bytes a pack holds just before an entry's data: its key, to check a read against. */
export function keyBytes(key: string): Uint8Array {
  return _ascii(key);
}

function _ascii(key: string): Uint8Array {
  if (key.length > 255) throw new TypeError(`Blob key too long: ${key.length} characters`);
  const out = new Uint8Array(key.length);
  for (let i = 0; i < key.length; i++) out[i] = key.charCodeAt(i);
  return out;
}

const TOC_MAGIC = new TextEncoder().encode("IATOC1\n\0");

/** The table of contents of packs whose tables (each as packTableLength() bytes of its head) are `tables`. */
export function encodeToc(tables: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(TOC_MAGIC.length + 4 + tables.reduce((n, t) => n + 4 + t.length, 0));
  const view = new DataView(out.buffer);
  out.set(TOC_MAGIC, 0);
  view.setUint32(TOC_MAGIC.length, tables.length, true);
  let at = TOC_MAGIC.length + 4;
  for (const t of tables) {
    view.setUint32(at, t.length, true);
    out.set(t, at + 4);
    at += 4 + t.length;
  }
  return out;
}

/** The pack tables of a table of contents, in pack order; null when it is not one or is cut short. */
export function decodeToc(bytes: Uint8Array): Uint8Array[] | null {
  if (bytes.length < TOC_MAGIC.length + 4 || TOC_MAGIC.some((c, i) => bytes[i] !== c)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(TOC_MAGIC.length, true);
  const out: Uint8Array[] = [];
  let at = TOC_MAGIC.length + 4;
  for (let i = 0; i < count; i++) {
    if (at + 4 > bytes.length) return null;
    const length = view.getUint32(at, true);
    if (at + 4 + length > bytes.length) return null;
    out.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return out;
}
