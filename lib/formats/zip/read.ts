/**
 * A small reader of ZIP archives (PKWARE APPNOTE 6.3.x §4.3): the end of
 * central directory record, the central directory, the local headers, and
 * entries stored (method 0) or deflated (method 8, via node:zlib inflateRaw),
 * each checked against its CRC-32. Enough for KSeF export packages; it does
 * not read ZIP64, encrypted entries, or multi-disk archives, and refuses them.
 * @module
 */
import { inflateRawSync } from "node:zlib";
import { crc32 } from "./crc32.ts";

const EOCD_SIG = 0x06054b50; // APPNOTE §4.3.16
const CDH_SIG = 0x02014b50; // §4.3.12
const LFH_SIG = 0x04034b50; // §4.3.7
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
const FLAG_ENCRYPTED = 1;
/** open-api.json: an export holds at most 10 000 invoices, plus `_metadata.json`. */
export const MAX_ZIP_ENTRIES = 10_001;
/** Per entry; KSeF caps an invoice with attachments at 10 MB (open-api.json, batch session limits), so 32 MB is room. */
export const MAX_ZIP_ENTRY_BYTES = 32 * 1024 * 1024;

/** One file of an archive. */
export interface ZipEntry {
  name: string;
  /** The uncompressed bytes, read on demand. */
  bytes(): Uint8Array;
}

/** A ZIP archive that cannot be read. */
export class ZipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipError";
  }
}

/** The entries of a ZIP archive in central-directory order (directories left out). */
export function readZip(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = _findEocd(view);
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (view.getUint16(eocd + 4, true) !== 0 || count === 0xffff || cdOffset === 0xffffffff) throw new ZipError("ZIP64 or multi-disk archives are not supported");
  if (count > MAX_ZIP_ENTRIES) throw new ZipError(`More than ${MAX_ZIP_ENTRIES} entries`);
  if (cdOffset + cdSize > eocd) throw new ZipError("Central directory lies outside the archive");
  const names = new TextDecoder("utf-8", { fatal: false });
  const entries: ZipEntry[] = [];
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > eocd || view.getUint32(p, true) !== CDH_SIG) throw new ZipError(`Central directory entry ${i} is damaged`);
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    const compressed = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const local = view.getUint32(p + 42, true);
    const name = names.decode(zip.subarray(p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
    if (name.endsWith("/")) continue;
    if (flags & FLAG_ENCRYPTED) throw new ZipError(`${name} is encrypted`);
    if (method !== METHOD_STORED && method !== METHOD_DEFLATE) throw new ZipError(`${name} uses compression method ${method}`);
    if (size > MAX_ZIP_ENTRY_BYTES) throw new ZipError(`${name} is larger than ${MAX_ZIP_ENTRY_BYTES} bytes`);
    entries.push({ name, bytes: () => _entryBytes(zip, view, { name, method, crc, compressed, size, local }) });
  }
  return entries;
}

function _findEocd(view: DataView): number {
  const last = view.byteLength - EOCD_SIZE;
  for (let p = last; p >= 0 && p >= last - MAX_COMMENT; p--) {
    if (view.getUint32(p, true) === EOCD_SIG) return p;
  }
  throw new ZipError("Not a ZIP archive (no end of central directory record)");
}

function _entryBytes(zip: Uint8Array, view: DataView, e: { name: string; method: number; crc: number; compressed: number; size: number; local: number }): Uint8Array {
  if (e.local + 30 > zip.length || view.getUint32(e.local, true) !== LFH_SIG) throw new ZipError(`${e.name}: local header is damaged`);
  const start = e.local + 30 + view.getUint16(e.local + 26, true) + view.getUint16(e.local + 28, true);
  if (start + e.compressed > zip.length) throw new ZipError(`${e.name}: data lies outside the archive`);
  const raw = zip.subarray(start, start + e.compressed);
  let out: Uint8Array;
  try {
    out = e.method === METHOD_STORED ? raw : inflateRawSync(raw, { maxOutputLength: Math.max(e.size, 1) });
  } catch {
    throw new ZipError(`${e.name}: deflate data is damaged or larger than declared`);
  }
  if (out.length !== e.size || crc32(out) !== e.crc) throw new ZipError(`${e.name}: size or CRC-32 does not match`);
  return out;
}
