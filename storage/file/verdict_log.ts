/**
 * Verdicts on documents judged after they were stored (README "Summary": older documents are judged in the
 * background), kept beside the documents log and never in it: a version judged later gets no new version, so the
 * document keeps its place in the feed and no webhook event fires. `documents.verdicts` is append-only, 16 bytes
 * an entry: [u32 ordinal][u32 seq of the judged version][u32 verdict code][u32 crc32 of the first 12 bytes].
 * An entry counts only while its version is the document's latest (documents.ts checks the seq); a torn tail is
 * cut off at open, as record_log.ts does with the log. It does not compact: one entry per document stored without
 * a verdict, and only those.
 * @module
 */
import { Buffer } from "node:buffer";
import { closeSync, fstatSync, ftruncateSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "../../lib/formats/zip/crc32.ts";
import { fdatasyncAsync, writeAllAsync } from "../atomic.ts";

const ENTRY = 16;

/** Hears one verdict: the document's ordinal, the seq of the version judged, and its verdict code (columns.ts). */
export type ApplyVerdict = (ordinal: number, seq: number, code: number) => void;

/** An open verdicts file. */
export class VerdictLog {
  #fd: number;
  #durable: boolean;
  /** Bytes of whole, checked entries taken in so far (this process's appends included once written). */
  #size = 0;
  #queued: Buffer[] = [];

  /**
   * Opens `documents.verdicts` in `dir` and hands every entry in it to `apply`, oldest first. A torn tail is cut here
   * unless the directory is `shared`: then another process may be appending, and the tail is cut under the lock.
   */
  constructor(dir: string, o: { durable: boolean; shared: boolean }, apply: ApplyVerdict) {
    this.#durable = o.durable;
    this.#fd = openSync(join(dir, "documents.verdicts"), "a+");
    this.catchUp(!o.shared, apply);
  }

  /**
   * Takes in entries appended since this process last looked (by another process, on a shared directory: one
   * fstat when there are none). With `writer` (at open, or holding the cross-process lock) a torn tail is cut.
   */
  catchUp(writer: boolean, apply: ApplyVerdict): void {
    const end = fstatSync(this.#fd).size;
    if (end <= this.#size) return;
    const buf = Buffer.allocUnsafe(end - this.#size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(this.#fd, buf, got, buf.length - got, this.#size + got);
      if (n === 0) break;
      got += n;
    }
    let at = 0;
    for (; at + ENTRY <= got; at += ENTRY) {
      if (crc32(buf.subarray(at, at + 12)) !== buf.readUInt32LE(at + 12)) break; // torn, or still being written
      apply(buf.readUInt32LE(at), buf.readUInt32LE(at + 4), buf.readUInt32LE(at + 8));
    }
    this.#size += at;
    if (writer && this.#size < end) ftruncateSync(this.#fd, this.#size);
  }

  /** Queues a verdict for the next commit(). */
  append(ordinal: number, seq: number, code: number): void {
    const e = Buffer.allocUnsafe(ENTRY);
    e.writeUInt32LE(ordinal, 0);
    e.writeUInt32LE(seq, 4);
    e.writeUInt32LE(code, 8);
    e.writeUInt32LE(crc32(e.subarray(0, 12)), 12);
    this.#queued.push(e);
  }

  /** Writes what is queued in one append and (durable) one fdatasync; on failure the file is cut back. */
  async commit(): Promise<void> {
    if (this.#queued.length === 0) return;
    const bytes = Buffer.concat(this.#queued.splice(0));
    try {
      await writeAllAsync(this.#fd, bytes, this.#size);
      if (this.#durable) await fdatasyncAsync(this.#fd);
    } catch (e) {
      try {
        ftruncateSync(this.#fd, this.#size);
      } catch {
        // the entries past #size are cut at the next open
      }
      throw e;
    }
    this.#size += bytes.length;
  }

  close(): void {
    closeSync(this.#fd);
  }
}
