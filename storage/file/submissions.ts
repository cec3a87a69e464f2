/**
 * The submissions collection of a file-store tenant (the OpenAPI document): creation refuses the same XML bytes or the
 * same business key, found through in-memory hash indexes over the slots; lookups by id and the change feed.
 * It does not take locks: the tenant store runs every call inside its write or read step.
 * @module
 */
import { businessKey, submissionKey, matchesSubmissionFilter, newSubmission, submissionJson, withKsef } from "../../lib/contracts/record_json.ts";
import { FORMAT_CODES, TYPE_CODES } from "../../lib/contracts/document_filter.ts";
import { decodeOrdinalId, encodeOrdinalId } from "../../lib/contracts/ids.ts";
import type { ChangePage, IdempotencyTag, Stored, SubmissionFilter, SubmissionInput, SubmissionKsef, SubmissionRecord } from "../../lib/contracts/storage.ts";
import { idemMeta, KSEF_STATUS_CODES, parseRecord, readByOrdinalId, SUB_CODE, SUB_HASH, subColumns, subColumnsOf, walkFeed } from "./columns.ts";
import { hash32 } from "./hash32.ts";
import { HashIndex } from "./hash_index.ts";
import type { IdempotencyFiles } from "./idempotency.ts";
import { RecordLog } from "./record_log.ts";
import { CountTally, submissionCountKeys } from "../../lib/contracts/summary_counts.ts";

const enc = new TextEncoder();

/** A tenant's submissions in `dir`. */
export class FileSubmissions {
  /** The record log (the tenant store reads its feed and catches it up). */
  readonly log: RecordLog;
  #idem: IdempotencyFiles;
  #bySha = new HashIndex();
  #byBusinessKey = new HashIndex();
  /** No submission before this ordinal is queued or sending. */
  #pendingFrom = 0;
  /**
   * The summary's counters (README "Summary"), counted from the latest versions at open (the log decides, so they
   * are right after a crash) and moved on every write.
   */
  #counts = new CountTally();
  /** Another process wrote (WORKERS > 1): counted again when next read, not on every catch-up. */
  #countsStale = false;

  /** The summary's counters, up to date. */
  get counts(): CountTally {
    if (this.#countsStale) this.#countAll();
    return this.#counts;
  }

  constructor(dir: string, durable: boolean, idem: IdempotencyFiles) {
    this.log = new RecordLog(dir, "submissions", { durable, columnsOf: subColumns });
    this.#idem = idem;
    this.#index(0);
    this.#countAll();
  }

  /** Takes in what other processes appended to a shared directory. */
  catchUp(writer: boolean): void {
    let changed = false;
    this.#index(this.log.catchUp(subColumns, writer, () => (changed = true)));
    if (changed) this.#countsStale = true;
  }

  #countAll(): void {
    this.#counts.clear();
    for (let o = 0; o < this.log.count; o++) this.#counts.move(null, submissionCountKeys(parseRecord<SubmissionRecord>(this.log.read(o))));
    this.#countsStale = false;
  }

  #index(from: number): void {
    for (let o = from; o < this.log.count; o++) {
      this.#bySha.add(this.log.hashOf(o, SUB_HASH.sha256), o);
      this.#byBusinessKey.add(this.log.hashOf(o, SUB_HASH.businessKey), o);
    }
  }

  /** Stores a submission unless one with the same XML hash or business key exists. */
  create(input: SubmissionInput, now: string, idem?: IdempotencyTag): { created: SubmissionRecord } | { duplicateOf: string } {
    const shaHash = hash32(input.xml.sha256);
    const bk = submissionKey(input);
    const bkHash = hash32(bk);
    for (const o of this.#bySha.find(shaHash)) {
      const s = parseRecord<SubmissionRecord>(this.log.read(o));
      if (s.sha256 === input.xml.sha256) return { duplicateOf: s.id };
    }
    for (const o of this.#byBusinessKey.find(bkHash)) {
      const s = parseRecord<SubmissionRecord>(this.log.read(o));
      if (businessKey(s) === bk) return { duplicateOf: s.id };
    }
    const ordinal = this.log.count;
    const sub = newSubmission(encodeOrdinalId("sub", Date.parse(now), ordinal), input, now);
    const text = submissionJson(sub);
    const json = enc.encode(text);
    const meta = idemMeta(idem, text, now);
    this.log.write(ordinal, json, subColumnsOf(sub), meta && enc.encode(JSON.stringify(meta)));
    if (meta) this.#idem.put(meta);
    this.#bySha.add(shaHash, ordinal);
    this.#byBusinessKey.add(bkHash, ordinal);
    if (!this.#countsStale) this.#counts.move(null, submissionCountKeys(sub));
    return { created: sub };
  }

  /** The submission with this id, or null. */
  get(id: string): Stored<SubmissionRecord> | null {
    return readByOrdinalId<SubmissionRecord>(this.log, "sub", id);
  }

  /** The change feed from `after`, filtered by the slots' code columns. */
  changes(after: number, limit: number, maxScan: number, filter: SubmissionFilter = {}): ChangePage {
    const want = [
      filter.ksef_status === undefined ? -1 : KSEF_STATUS_CODES[filter.ksef_status],
      filter.type === undefined ? -1 : TYPE_CODES[filter.type],
      filter.format === undefined ? -1 : FORMAT_CODES[filter.format],
    ] as const;
    // The offline filters (README "Offline invoices") have no code column: the few records that pass the columns are read.
    const read = filter.ksef_mode !== undefined || filter.deadline_before !== undefined;
    const pass = (o: number): boolean =>
      (want[0] < 0 || this.log.codeOf(o, SUB_CODE.ksefStatus) === want[0])
      && (want[1] < 0 || this.log.codeOf(o, SUB_CODE.type) === want[1])
      && (want[2] < 0 || this.log.codeOf(o, SUB_CODE.format) === want[2]);
    return walkFeed(this.log, after, limit, maxScan, pass, read ? (json) => matchesSubmissionFilter(parseRecord<SubmissionRecord>(json), filter) : null);
  }

  /** Writes a new version with this `ksef` state; null when there is no such submission. */
  saveKsef(id: string, ksef: SubmissionKsef): Stored<SubmissionRecord> | null {
    const o = decodeOrdinalId("sub", id);
    const old = this.get(id);
    if (!old) return null;
    const record = withKsef(old.record, ksef);
    const json = enc.encode(submissionJson(record));
    this.log.write(o, json, subColumnsOf(record));
    if (!this.#countsStale) this.#counts.move(submissionCountKeys(old.record), submissionCountKeys(record));
    return { record, json };
  }

  /**
   * Queued and sending submissions in acceptance (ordinal) order, found by their slots' status code. A status only
   * moves forward, so the scan starts at the first ordinal that was still waiting last time.
   */
  pending(limit: number): SubmissionRecord[] {
    const out: SubmissionRecord[] = [];
    let first = -1;
    for (let o = this.#pendingFrom; o < this.log.count && out.length < limit; o++) {
      const code = this.log.codeOf(o, SUB_CODE.ksefStatus);
      if (code !== KSEF_STATUS_CODES.queued && code !== KSEF_STATUS_CODES.sending) continue;
      if (first < 0) first = o;
      out.push(parseRecord<SubmissionRecord>(this.log.read(o)));
    }
    this.#pendingFrom = first < 0 ? (out.length === 0 ? this.log.count : this.#pendingFrom) : first;
    return out;
  }
}
