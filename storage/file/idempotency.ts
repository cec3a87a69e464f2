/**
 * Idempotency records of one tenant: JSON lines appended (and fdatasynced, a
 * batch at a time by commit()) to one file per UTC day, held in memory for lookups. Keys live 24 hours (the idempotency conventions in /docs),
 * so files older than two days are deleted: memory and disk stay bounded by
 * two days of POSTs. A torn last line (crash mid-append) is skipped at load.
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { appendFlushed } from "../atomic.ts";
import { join } from "node:path";
import type { IdempotencyRecord } from "../../lib/contracts/storage.ts";
import { claimMarkerAsync } from "./lock.ts";

const KEEP_DAYS = 2;
const DAY_MS = 86_400_000;

function _day(iso: string): string {
  return iso.slice(0, 10);
}

/** The idempotency records in `dir`. */
export class IdempotencyFiles {
  #dir: string;
  #byKey = new Map<string, IdempotencyRecord>();
  #day = "";
  #read = new Map<string, number>(); // bytes of each day file taken in so far
  #queued = new Map<string, string[]>(); // lines waiting for commit(), by day file

  constructor(dir: string) {
    this.#dir = dir;
    mkdirSync(dir, { recursive: true });
    mkdirSync(`${dir}-inflight`, { recursive: true });
    this.refresh();
  }

  /** Takes in lines appended since the last look (by this or, on a shared data directory, another process). */
  refresh(): void {
    for (const name of readdirSync(this.#dir).filter((n) => n.endsWith(".log")).sort()) {
      const fd = openSync(join(this.#dir, name), "r");
      try {
        const from = this.#read.get(name) ?? 0;
        const size = fstatSync(fd).size;
        if (size <= from) continue;
        const buf = Buffer.allocUnsafe(size - from);
        readSync(fd, buf, 0, buf.length, from);
        const end = buf.lastIndexOf(10) + 1; // a line still being written is taken next time
        for (const line of buf.subarray(0, end).toString("utf8").split("\n")) {
          if (!line) continue;
          try {
            const r = JSON.parse(line) as IdempotencyRecord;
            this.#byKey.set(r.key, r);
          } catch {
            // A line cut short by a crash: its request never got an answer, so a retry executes again.
          }
        }
        this.#read.set(name, from + end);
      } finally {
        closeSync(fd);
      }
    }
  }

  #marker(key: string): string {
    return join(`${this.#dir}-inflight`, createHash("sha256").update(key).digest("hex"));
  }

  /** Marks a key as executing; false when a live request (of any process) holds it. */
  begin(key: string): Promise<boolean> {
    return claimMarkerAsync(this.#marker(key));
  }

  async end(key: string): Promise<void> {
    await rm(this.#marker(key), { force: true });
  }

  get(key: string, now: number, maxAgeMs: number): IdempotencyRecord | null {
    const r = this.#byKey.get(key);
    return r && now - Date.parse(r.created_at) < maxAgeMs ? r : null;
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  /** Takes in a record now; commit() makes it durable. */
  put(record: IdempotencyRecord): void {
    const day = _day(record.created_at);
    const lines = this.#queued.get(day) ?? [];
    lines.push(`${JSON.stringify(record)}\n`);
    this.#queued.set(day, lines);
    this.#byKey.set(record.key, record); // the line is taken in again by refresh(), harmlessly
  }

  /** Appends the queued lines: one write and one fdatasync per day file. */
  async commit(): Promise<void> {
    for (const [day, lines] of [...this.#queued]) {
      this.#queued.delete(day);
      if (day !== this.#day) await this.#rotate(day);
      await appendFlushed(join(this.#dir, `${day}.log`), lines.join(""));
    }
  }

  // Deletes day files and keys older than KEEP_DAYS (cleanup, the idempotency conventions in /docs: 24 hours).
  async #rotate(day: string): Promise<void> {
    this.#day = day;
    const cutoff = Date.parse(`${day}T00:00:00Z`) - (KEEP_DAYS - 1) * DAY_MS;
    for (const name of await readdir(this.#dir)) {
      if (name.endsWith(".log") && Date.parse(`${name.slice(0, 10)}T00:00:00Z`) < cutoff) await rm(join(this.#dir, name), { force: true });
    }
    for (const [k, r] of this.#byKey) if (Date.parse(r.created_at) < cutoff) this.#byKey.delete(k);
  }
}
