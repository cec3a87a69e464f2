/**
 * Idempotency records of one tenant: JSON lines appended (and fsynced) to one
 * file per UTC day, held in memory for lookups. Keys live 24 hours (API.md §7),
 * so files older than two days are deleted: memory and disk stay bounded by
 * two days of POSTs. A torn last line (crash mid-append) is skipped at load.
 * @module
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { IdempotencyRecord } from "../lib/storage.ts";

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

  constructor(dir: string) {
    this.#dir = dir;
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".log")).sort()) {
      for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
        if (!line) continue;
        try {
          const r = JSON.parse(line) as IdempotencyRecord;
          this.#byKey.set(r.key, r);
        } catch {
          // A line cut short by a crash: its request never got an answer, so a retry executes again.
        }
      }
    }
  }

  get(key: string, now: number, maxAgeMs: number): IdempotencyRecord | null {
    const r = this.#byKey.get(key);
    return r && now - Date.parse(r.created_at) < maxAgeMs ? r : null;
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  put(record: IdempotencyRecord): void {
    const day = _day(record.created_at);
    if (day !== this.#day) this.#rotate(day);
    const fd = openSync(join(this.#dir, `${day}.log`), "a");
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.#byKey.set(record.key, record);
  }

  // Deletes day files and keys older than KEEP_DAYS (cleanup, API.md §7: 24 hours).
  #rotate(day: string): void {
    this.#day = day;
    const cutoff = Date.parse(`${day}T00:00:00Z`) - (KEEP_DAYS - 1) * DAY_MS;
    for (const name of readdirSync(this.#dir)) {
      if (name.endsWith(".log") && Date.parse(`${name.slice(0, 10)}T00:00:00Z`) < cutoff) rmSync(join(this.#dir, name), { force: true });
    }
    for (const [k, r] of this.#byKey) if (Date.parse(r.created_at) < cutoff) this.#byKey.delete(k);
  }
}
