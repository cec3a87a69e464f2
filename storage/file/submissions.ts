/**
 * The submissions collection of a file-store tenant (API.md §5): creation refuses the same XML bytes or the
 * same business key, found through in-memory hash indexes over the slots; lookups by id and the change feed.
 * It does not take locks: the tenant store runs every call inside its write or read step.
 * @module
 */
import { businessKey, submissionJson } from "../../lib/contracts/record_json.ts";
import { decodeOrdinalId, encodeOrdinalId } from "../../lib/contracts/ids.ts";
import type { ChangePage, IdempotencyTag, Stored, SubmissionInput, SubmissionRecord } from "../../lib/contracts/storage.ts";
import { idemMeta, parseRecord, SUB_HASH, subColumns, walkFeed } from "./columns.ts";
import { hash32 } from "./hash32.ts";
import { HashIndex } from "./hash_index.ts";
import type { IdempotencyFiles } from "./idempotency.ts";
import { RecordLog } from "./record_log.ts";

const enc = new TextEncoder();

/** A tenant's submissions in `dir`. */
export class FileSubmissions {
  /** The record log (the tenant store reads its feed and catches it up). */
  readonly log: RecordLog;
  #idem: IdempotencyFiles;
  #bySha = new HashIndex();
  #byBusinessKey = new HashIndex();

  constructor(dir: string, durable: boolean, idem: IdempotencyFiles) {
    this.log = new RecordLog(dir, "submissions", { durable, columnsOf: subColumns });
    this.#idem = idem;
    this.#index(0);
  }

  /** Takes in what other processes appended to a shared directory. */
  catchUp(writer: boolean): void {
    this.#index(this.log.catchUp(subColumns, writer));
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
    const bk = businessKey(input.fields);
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
    const sub: SubmissionRecord = {
      id: encodeOrdinalId("sub", Date.parse(now), ordinal),
      status: "accepted",
      ...input.fields,
      sha256: input.xml.sha256,
      size: input.xml.size,
      created_at: now,
    };
    const text = submissionJson(sub);
    const json = enc.encode(text);
    const meta = idemMeta(idem, text, now);
    this.log.write(ordinal, json, subColumns(json), meta && enc.encode(JSON.stringify(meta)));
    if (meta) this.#idem.put(meta);
    this.#bySha.add(shaHash, ordinal);
    this.#byBusinessKey.add(bkHash, ordinal);
    return { created: sub };
  }

  /** The submission with this id, or null. */
  get(id: string): Stored<SubmissionRecord> | null {
    const o = decodeOrdinalId("sub", id);
    if (o < 0 || o >= this.log.count) return null;
    const json = this.log.read(o);
    const record = parseRecord<SubmissionRecord>(json);
    return record.id === id ? { record, json } : null;
  }

  /** The change feed from `after`. */
  changes(after: number, limit: number, maxScan: number): ChangePage {
    return walkFeed(this.log, after, limit, maxScan, () => true, null);
  }
}
