/**
 * A ZIP writer (PKWARE APPNOTE 6.3.x §4.3: local file headers, central directory, end of central directory
 * record; entries deflated, method 8, via node:zlib deflateRaw, names in UTF-8, flag bit 11). It writes as it
 * goes: `add` returns the bytes of one entry and keeps only its central-directory record, so a caller can cut the
 * archive into parts without holding it whole (KSeF batch packages, sesja-wsadowa.md). It does not write ZIP64:
 * an archive over 4 GiB or 65,535 entries is refused with a RangeError.
 * @module
 */
import { deflateRawSync } from "node:zlib";
import { crc32 } from "./crc32.ts";

const LFH_SIG = 0x04034b50; // APPNOTE §4.3.7
const CDH_SIG = 0x02014b50; // §4.3.12
const EOCD_SIG = 0x06054b50; // §4.3.16
const VERSION = 20; // 2.0: deflate
const FLAG_UTF8 = 0x0800; // bit 11: names are UTF-8
const METHOD_DEFLATE = 8;
/** Without ZIP64 (§4.4.1.4) sizes and offsets are 32-bit and the entry count 16-bit. */
const MAX_OFFSET = 0xffff_ffff;
const MAX_ENTRIES = 0xffff;

/** Options of a ZipWriter. */
export interface ZipWriterOptions {
  /** zlib's compression level, 1 (fastest) to 9 (smallest); zlib's default (6) when absent. */
  level?: number;
}

/** A ZIP archive written entry by entry. */
export class ZipWriter {
  #central: Uint8Array[] = [];
  #offset = 0;
  #count = 0;
  #deflate: { level?: number };

  constructor(options: ZipWriterOptions = {}) {
    this.#deflate = options.level === undefined ? {} : { level: options.level };
  }

  /** Bytes written so far (the offset of the next entry). */
  get size(): number {
    return this.#offset;
  }

  /** The local header and deflated data of one file; RangeError past the limits of a ZIP without ZIP64. */
  add(name: string, bytes: Uint8Array): Uint8Array {
    const n = new TextEncoder().encode(name);
    const data = deflateRawSync(bytes, this.#deflate);
    const crc = crc32(bytes);
    if (this.#count + 1 > MAX_ENTRIES || this.#offset + 30 + n.length + data.length > MAX_OFFSET) {
      throw new RangeError("Cannot add to the ZIP archive: over 4 GiB or 65,535 entries needs ZIP64");
    }
    const out = new Uint8Array(30 + n.length + data.length);
    const local = new DataView(out.buffer);
    local.setUint32(0, LFH_SIG, true);
    local.setUint16(4, VERSION, true);
    local.setUint16(6, FLAG_UTF8, true);
    local.setUint16(8, METHOD_DEFLATE, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, bytes.length, true);
    local.setUint16(26, n.length, true);
    out.set(n, 30);
    out.set(data, 30 + n.length);
    const cd = new Uint8Array(46 + n.length);
    const v = new DataView(cd.buffer);
    v.setUint32(0, CDH_SIG, true);
    v.setUint16(4, VERSION, true);
    v.setUint16(6, VERSION, true);
    v.setUint16(8, FLAG_UTF8, true);
    v.setUint16(10, METHOD_DEFLATE, true);
    v.setUint32(16, crc, true);
    v.setUint32(20, data.length, true);
    v.setUint32(24, bytes.length, true);
    v.setUint16(28, n.length, true);
    v.setUint32(42, this.#offset, true);
    cd.set(n, 46);
    this.#central.push(cd);
    this.#offset += out.length;
    this.#count++;
    return out;
  }

  /** The central directory and the end record: the archive's last bytes. */
  finish(): Uint8Array {
    const cdSize = this.#central.reduce((s, b) => s + b.length, 0);
    if (this.#offset + cdSize + 22 > MAX_OFFSET) throw new RangeError("Cannot finish the ZIP archive: over 4 GiB needs ZIP64");
    const out = new Uint8Array(cdSize + 22);
    let at = 0;
    for (const b of this.#central) {
      out.set(b, at);
      at += b.length;
    }
    const end = new DataView(out.buffer, cdSize);
    end.setUint32(0, EOCD_SIG, true);
    end.setUint16(8, this.#count, true);
    end.setUint16(10, this.#count, true);
    end.setUint32(12, cdSize, true);
    end.setUint32(16, this.#offset, true);
    this.#central = [];
    return out;
  }
}

/** Packs `files` (name → bytes) into one ZIP archive in memory. */
export function writeZip(files: ReadonlyArray<{ name: string; bytes: Uint8Array }>): Uint8Array {
  const z = new ZipWriter();
  const chunks = files.map((f) => z.add(f.name, f.bytes));
  chunks.push(z.finish());
  return Buffer.concat(chunks);
}
