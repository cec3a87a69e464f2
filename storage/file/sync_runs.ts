/**
 * The sync runs collection of a file-store tenant (README “Documents and the inbox”): a queued or running run per source coalesces
 * new requests; runs are saved as new versions of their record. It does not take locks: the tenant store runs
 * every call inside its write or read step.
 * @module
 */
import { decodeOrdinalId, encodeOrdinalId } from "../../lib/contracts/ids.ts";
import type { IdempotencyTag, SyncRunRecord } from "../../lib/contracts/storage.ts";
import { idemMeta, parseRecord, RUN_HASH, RUN_STATUS, runColumns, STATUS_CODE } from "./columns.ts";
import { hash32 } from "./hash32.ts";
import type { IdempotencyFiles } from "./idempotency.ts";
import { RecordLog } from "./record_log.ts";

const enc = new TextEncoder();

/** A tenant's sync runs in `dir`. */
export class FileSyncRuns {
  /** The record log (the tenant store reads its feed and catches it up). */
  readonly log: RecordLog;
  #idem: IdempotencyFiles;

  constructor(dir: string, durable: boolean, idem: IdempotencyFiles) {
    this.log = new RecordLog(dir, "runs", { durable, columnsOf: runColumns });
    this.#idem = idem;
  }

  /** Takes in what other processes appended to a shared directory. */
  catchUp(writer: boolean): void {
    this.log.catchUp(runColumns, writer);
  }

  /** The queued or running run of a source, or a new queued one. */
  request(source: string, now: string, idem?: IdempotencyTag): { run: SyncRunRecord; created: boolean } {
    const active = this.active().find((r) => r.source === source);
    if (active) return { run: active, created: false };
    const ordinal = this.log.count;
    const run: SyncRunRecord = {
      id: encodeOrdinalId("sync", Date.parse(now), ordinal),
      source, status: "queued", requested_at: now, started_at: null, finished_at: null,
      counts: { fetched: 0, created: 0, updated: 0, unchanged: 0, failed: 0 }, errors: [], error: null, waiting_until: null, skipped: [],
    };
    const text = JSON.stringify(run);
    const json = enc.encode(text);
    const meta = idemMeta(idem, text, now);
    this.log.write(ordinal, json, runColumns(json), meta && enc.encode(JSON.stringify(meta)));
    if (meta) this.#idem.put(meta);
    return { run, created: true };
  }

  /** Writes a new version of a run. */
  save(run: SyncRunRecord): void {
    const o = decodeOrdinalId("sync", run.id);
    // The ordinal alone would let an id that was never issued overwrite the record at its position.
    if (o < 0 || o >= this.log.count || parseRecord<SyncRunRecord>(this.log.read(o)).id !== run.id) throw new RangeError(`Unknown run ${run.id}`);
    const json = enc.encode(JSON.stringify(run));
    this.log.write(o, json, runColumns(json));
  }

  /** The run with this id, or null. */
  get(id: string): SyncRunRecord | null {
    const o = decodeOrdinalId("sync", id);
    if (o < 0 || o >= this.log.count) return null;
    const run = parseRecord<SyncRunRecord>(this.log.read(o));
    return run.id === id ? run : null;
  }

  /** Queued and running runs. Active runs are few and recent: the status column is scanned from the newest run backwards. */
  active(): SyncRunRecord[] {
    const out: SyncRunRecord[] = [];
    for (let o = this.log.count - 1; o >= 0; o--) {
      const status = this.log.codeOf(o, STATUS_CODE);
      if (status === RUN_STATUS.queued || status === RUN_STATUS.running) out.push(parseRecord(this.log.read(o)));
    }
    return out;
  }

  /** The newest run of `source`: the source column is scanned from the newest run backwards (runs, not documents). */
  last(source: string): SyncRunRecord | null {
    const h = hash32(source);
    for (let o = this.log.count - 1; o >= 0; o--) {
      if (this.log.hashOf(o, RUN_HASH.source) !== h) continue;
      const run = parseRecord<SyncRunRecord>(this.log.read(o));
      if (run.source === source) return run;
    }
    return null;
  }
}
