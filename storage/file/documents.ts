/**
 * The documents collection of a file-store tenant: upserts keyed by (source, external_id), lookups by id, the
 * change feed and page mode (README “Parameters”). Records live in a RecordLog; this module keeps the in-memory index
 * from external id to ordinal and the document index of filters and sorts (document_index.ts) up to date, and the
 * verdicts judged after a version was written (verdict_log.ts) in its slot's verdict code, in memory.
 * It does not take locks: the tenant store runs every call inside its write or read step.
 * @module
 */
import { documentJson, fieldsOf, sameFields } from "../../lib/contracts/record_json.ts";
import { decodeOrdinalId, encodeOrdinalId } from "../../lib/contracts/ids.ts";
import type {
  ChangePage, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, DocumentVerdict, Stored, UnjudgedPage, UpsertOutcome,
} from "../../lib/contracts/storage.ts";
import { DOC_CODE, DOC_HASH, docColumns, docColumnsOf, docMeta, externalIdHash, parseRecord, readByOrdinalId, VERDICT_CODES } from "./columns.ts";
import { DocumentIndex, type DocumentIndexOptions } from "./document_index.ts";
import { HashIndex } from "./hash_index.ts";
import { RecordLog } from "./record_log.ts";
import { VerdictLog } from "./verdict_log.ts";
import { COUNT_KEY, CountTally, dayKey, importVerdict } from "../../lib/contracts/summary_counts.ts";

const enc = new TextEncoder();
/** Slots one unjudged() call looks at, at most: in-memory codes, well under a millisecond of the event loop. */
const MAX_UNJUDGED_SCAN = 65_536;

/** A tenant's documents in `dir`. */
export class FileDocuments {
  /** The record log (the tenant store reads its feed and catches it up). */
  readonly log: RecordLog;
  #byExternalId = new HashIndex();
  #index: DocumentIndex;
  /** The summary's counters (README "Summary"), derived from the slots at open: the log decides, as for the index. */
  #counts = new CountTally();
  /** Another process wrote (WORKERS > 1): counted again from the slots when next read, not on every catch-up. */
  #countsStale = false;

  /** Verdicts judged after their version was written (the tenant store commits it after the log). */
  readonly verdicts: VerdictLog;

  /** `shared`: other processes use the directory (WORKERS > 1), so the verdicts file's tail is cut only under the lock. */
  constructor(dir: string, durable: boolean, indexOptions: DocumentIndexOptions = {}, shared = false) {
    this.log = new RecordLog(dir, "documents", { durable, columnsOf: docColumns });
    this.verdicts = new VerdictLog(dir, { durable, shared }, this.#applyVerdict);
    this.#indexIds(0);
    this.#index = new DocumentIndex(this.log, indexOptions);
    this.#countAll();
  }

  // A verdict from the verdicts file counts while its version is the document's latest: a newer version was
  // imported with a verdict of its own (or none). Recounted from the slots when next read.
  #applyVerdict = (o: number, seq: number, code: number): void => {
    if (o >= this.log.count || this.log.latestSeq(o) !== seq || this.log.codeOf(o, DOC_CODE.verdict) !== 0) return;
    this.log.setCode(o, DOC_CODE.verdict, code);
    this.#countsStale = true;
  };

  // The slots hold what the counters need (synced_at as the slot time, xml_available as a code): no record is parsed.
  #slotKeys(o: number): string[] {
    const keys: string[] = [COUNT_KEY.documentsTotal, COUNT_KEY.documentsSynced + dayKey(new Date(this.log.timeOf(o)).toISOString())];
    if (this.log.codeOf(o, DOC_CODE.xmlAvailable) === 0) keys.push(COUNT_KEY.documentsXmlMissing);
    if (this.log.codeOf(o, DOC_CODE.verdict) === VERDICT_CODES.invalid) keys.push(COUNT_KEY.documentsInvalid);
    return keys;
  }

  #countAll(): void {
    this.#counts.clear();
    for (let o = 0; o < this.log.count; o++) this.#counts.move(null, this.#slotKeys(o));
    this.#countsStale = false;
  }

  /** The summary's counters, up to date. */
  get counts(): CountTally {
    if (this.#countsStale) this.#countAll();
    return this.#counts;
  }

  /** Takes in what other processes appended to a shared directory. */
  catchUp(writer: boolean): void {
    const changed = new Set<number>();
    this.#indexIds(this.log.catchUp(docColumns, writer, (o) => changed.add(o)));
    for (const o of changed) this.#index.changed(o, () => parseRecord<DocumentRecord>(this.log.read(o)));
    // Another process's writes replaced versions this one never saw: count again from the slots (memory only).
    if (changed.size > 0) this.#countsStale = true;
    // After the log: a verdict names a version that the log already holds.
    this.verdicts.catchUp(writer, this.#applyVerdict);
  }

  // Adds ordinals from `from` on to the external id index.
  #indexIds(from: number): void {
    for (let o = from; o < this.log.count; o++) this.#byExternalId.add(this.log.hashOf(o, DOC_HASH.externalId), o);
  }

  /** Creates or updates the document of (source, external_id). */
  upsert(input: DocumentInput, now: string): { document: DocumentRecord; outcome: UpsertOutcome } {
    const key = externalIdHash(input.source, input.external_id);
    let ordinal = -1;
    let old: DocumentRecord | null = null;
    for (const o of this.#byExternalId.find(key)) {
      const d = parseRecord<DocumentRecord>(this.log.read(o));
      if (d.source === input.source && d.external_id === input.external_id) {
        ordinal = o;
        old = d;
        break;
      }
    }
    if (old) {
      const unchanged = input.xml
        ? old.xml_available && old.sha256 === input.xml.sha256
        : old.xml_available || sameFields(fieldsOf(old), input.fields); // metadata never replaces XML
      if (unchanged && (input.ksef_number == null || input.ksef_number === old.ksef_number)) return { document: old, outcome: "unchanged" };
    }
    const isNew = ordinal < 0;
    if (isNew) ordinal = this.log.count;
    const doc: DocumentRecord = {
      id: old?.id ?? encodeOrdinalId("doc", Date.parse(now), ordinal),
      source: input.source,
      external_id: input.external_id,
      ...input.fields,
      ksef_number: input.ksef_number ?? old?.ksef_number ?? null,
      xml_available: input.xml !== null,
      sha256: input.xml?.sha256 ?? null,
      size: input.xml?.size ?? null,
      received_at: input.received_at ?? old?.received_at ?? null,
      synced_at: now,
      updated_at: now,
    };
    const json = enc.encode(documentJson(doc));
    const before = isNew ? null : this.#slotKeys(ordinal);
    // The verdict goes in the version's meta bytes: committed with it, and never part of the document JSON.
    const valid = importVerdict(input);
    this.log.write(ordinal, json, docColumnsOf(doc, valid), docMeta(valid));
    if (!this.#countsStale) this.#counts.move(before, this.#slotKeys(ordinal));
    if (isNew) this.#byExternalId.add(key, ordinal);
    this.#index.changed(ordinal, doc);
    return { document: doc, outcome: isNew ? "created" : "updated" };
  }

  /** Documents with XML and no verdict, in ordinal order from `from` (TenantStore.unjudgedDocuments). */
  unjudged(from: number, limit: number): UnjudgedPage {
    const items: UnjudgedPage["items"] = [];
    const end = Math.min(this.log.count, Math.max(0, from) + MAX_UNJUDGED_SCAN);
    let o = Math.max(0, from);
    for (; o < end && items.length < limit; o++) {
      if (this.log.codeOf(o, DOC_CODE.xmlAvailable) !== 1 || this.log.codeOf(o, DOC_CODE.verdict) !== 0) continue;
      const d = parseRecord<DocumentRecord>(this.log.read(o));
      items.push({ id: d.id, sha256: d.sha256! });
    }
    return { items, next: o < this.log.count ? o : null };
  }

  /**
   * Keeps verdicts of documents that have none and still hold the judged XML (TenantStore.saveVerdicts): in the
   * verdicts file and the slot's code, never as a new version.
   */
  saveVerdicts(verdicts: readonly DocumentVerdict[]): number {
    let kept = 0;
    for (const v of verdicts) {
      const o = decodeOrdinalId("doc", v.id);
      if (o < 0 || o >= this.log.count || this.log.codeOf(o, DOC_CODE.xmlAvailable) !== 1 || this.log.codeOf(o, DOC_CODE.verdict) !== 0) continue;
      const d = parseRecord<DocumentRecord>(this.log.read(o));
      if (d.id !== v.id || d.sha256 !== v.sha256) continue;
      const code = v.valid ? VERDICT_CODES.valid : VERDICT_CODES.invalid;
      const before = this.#slotKeys(o);
      this.log.setCode(o, DOC_CODE.verdict, code);
      this.verdicts.append(o, this.log.latestSeq(o), code);
      if (!this.#countsStale) this.#counts.move(before, this.#slotKeys(o));
      kept++;
    }
    return kept;
  }

  /** The document with this id, or null. */
  get(id: string): Stored<DocumentRecord> | null {
    return readByOrdinalId<DocumentRecord>(this.log, "doc", id);
  }

  /** The change feed from `after` (TenantStore.documentChanges): with an index, a page is full whenever enough documents match. */
  changes(after: number, limit: number, filter: DocumentFilter, maxScan: number): ChangePage {
    const { ordinals, next } = this.#index.changes(Math.max(0, after), limit, filter, maxScan);
    return { items: this.log.readMany(ordinals), next, hasMore: next < this.log.feedLength };
  }

  /** Page mode (TenantStore.documentPage): an index walk, with an exact total. */
  page(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number): { items: Uint8Array[]; total: number } {
    const { ordinals, total } = this.#index.page(filter, sort, offset, limit);
    return { items: this.log.readMany(ordinals), total };
  }
}
