/**
 * The notices feed of a file-store tenant (README "Webhooks"): events that belong to no record, such as a KSeF
 * certificate nearing its end, in a record log of their own so that they share the group commit, the crash
 * recovery and the WORKERS > 1 catch-up of every other feed. Each notice is one record written once; nothing is
 * looked up by it, so its slot columns are empty.
 * @module
 */
import type { NoticeRecord } from "../../lib/contracts/storage.ts";
import { NO_DAY, RecordLog, type SlotColumns } from "./record_log.ts";

const enc = new TextEncoder();

function _noColumns(): SlotColumns {
  return { time: 0, day: NO_DAY, h: [0, 0, 0, 0], c: [0, 0, 0, 0] };
}

/** A tenant's notices in `dir`. */
export class FileNotices {
  /** The record log (the tenant store reads its feed, commits and catches it up). */
  readonly log: RecordLog;

  constructor(dir: string, durable: boolean) {
    this.log = new RecordLog(dir, "notices", { durable, columnsOf: _noColumns });
  }

  /** Takes in what other processes appended to a shared directory. */
  catchUp(writer: boolean): void {
    this.log.catchUp(_noColumns, writer);
  }

  /** Queues a notice as a new record; returns its feed position. */
  append(notice: NoticeRecord): number {
    const json = enc.encode(JSON.stringify(notice));
    return this.log.write(this.log.count, json, _noColumns());
  }
}
