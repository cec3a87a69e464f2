/**
 * The documents collection of a file-store tenant: upserts keyed by (source, external_id), lookups by id, the
 * change feed and page mode (API.md §4.1). Records live in a RecordLog; this module adds the in-memory index
 * from external id to ordinal. It does not take locks: the tenant store runs every call inside its write or read step.
 * @module
 */
import { documentJson, fieldsOf, sameFields } from "../../lib/api/documents/document_json.ts";
import { decodeOrdinalId, encodeOrdinalId } from "../../lib/contracts/ids.ts";
import type { ChangePage, DocumentFilter, DocumentInput, DocumentRecord, DocumentSort, Stored, UpsertOutcome } from "../../lib/contracts/storage.ts";
import { dayNumber, FORMAT_CODES, matchesFilter, NULL_DAY, TYPE_CODES } from "../../lib/contracts/document_filter.ts";
import { selectPage } from "../../lib/contracts/page_selection.ts";
import { DOC_CODE, DOC_HASH, docColumns, externalIdHash, parseRecord, walkFeed } from "./columns.ts";
import { hash32 } from "./crc32.ts";
import { HashIndex } from "./hash_index.ts";
import { RecordLog } from "./record_log.ts";

const enc = new TextEncoder();

/** A tenant's documents in `dir`. */
export class FileDocuments {
  /** The record log (the tenant store reads its feed and catches it up). */
  readonly log: RecordLog;
  #byExternalId = new HashIndex();

  constructor(dir: string, durable: boolean) {
    this.log = new RecordLog(dir, "documents", { durable, columnsOf: docColumns });
    this.#index(0);
  }

  /** Takes in what other processes appended to a shared directory. */
  catchUp(writer: boolean): void {
    this.#index(this.log.catchUp(docColumns, writer));
  }

  // Adds ordinals from `from` on to the in-memory index.
  #index(from: number): void {
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
      if (unchanged) return { document: old, outcome: "unchanged" };
    }
    const isNew = ordinal < 0;
    if (isNew) ordinal = this.log.count;
    const doc: DocumentRecord = {
      id: old?.id ?? encodeOrdinalId("doc", Date.parse(now), ordinal),
      source: input.source,
      external_id: input.external_id,
      ...input.fields,
      xml_available: input.xml !== null,
      sha256: input.xml?.sha256 ?? null,
      size: input.xml?.size ?? null,
      received_at: input.received_at ?? old?.received_at ?? null,
      synced_at: now,
      updated_at: now,
    };
    const json = enc.encode(documentJson(doc));
    this.log.write(ordinal, json, docColumns(json));
    if (isNew) this.#byExternalId.add(key, ordinal);
    return { document: doc, outcome: isNew ? "created" : "updated" };
  }

  /** The document with this id, or null. */
  get(id: string): Stored<DocumentRecord> | null {
    const o = decodeOrdinalId("doc", id);
    if (o < 0 || o >= this.log.count) return null;
    const json = this.log.read(o);
    const record = parseRecord<DocumentRecord>(json);
    return record.id === id ? { record, json } : null;
  }

  /** The change feed from `after` (TenantStore.documentChanges). */
  changes(after: number, limit: number, filter: DocumentFilter, maxScan: number): ChangePage {
    const pass = this.#columnFilter(filter);
    const exact = filter.seller_tax_id !== undefined || filter.buyer_tax_id !== undefined;
    return walkFeed(this.log, after, limit, maxScan, pass, exact ? (j) => matchesFilter(parseRecord(j), filter) : null);
  }

  /** Page mode (TenantStore.documentPage). */
  page(filter: DocumentFilter, sort: DocumentSort, offset: number, limit: number): { items: Uint8Array[]; total: number } {
    const pass = this.#columnFilter(filter);
    const log = this.log;
    const exact = filter.seller_tax_id !== undefined || filter.buyer_tax_id !== undefined;
    const byDay = sort === "-issue_date" || sort === "issue_date";
    const key = (o: number): number => (byDay ? log.dayOf(o) : log.timeOf(o));
    const isExact = (o: number): boolean => matchesFilter(parseRecord(log.read(o)), filter);
    // Tax ids are filtered by their 32-bit hash (so a total may count a colliding tax id: odds ~n²/2³³ for n ids);
    // the page's own items are checked exactly, and in the rare
    // case of a hash collision among them the page is selected again with the exact check on every candidate.
    let page = selectPage(log.count, offset + limit, sort.startsWith("-"), pass, key);
    if (exact && !page.ordinals.every(isExact)) page = selectPage(log.count, offset + limit, sort.startsWith("-"), (o) => pass(o) && isExact(o), key);
    return { items: log.readMany(page.ordinals.slice(offset)), total: page.total };
  }

  #columnFilter(f: DocumentFilter): (o: number) => boolean {
    const log = this.log;
    const type = f.type ? TYPE_CODES[f.type] : 0;
    const format = f.format ? FORMAT_CODES[f.format] : 0;
    const xml = f.xml_available === undefined ? -1 : f.xml_available ? 1 : 0;
    const seller = f.seller_tax_id ? hash32(f.seller_tax_id) : 0;
    const buyer = f.buyer_tax_id ? hash32(f.buyer_tax_id) : 0;
    const from = f.issue_date_from ? dayNumber(f.issue_date_from) : NULL_DAY;
    const to = f.issue_date_to ? dayNumber(f.issue_date_to) : 0x7fffffff;
    const dated = f.issue_date_from !== undefined || f.issue_date_to !== undefined;
    return (o) => {
      if (type && log.codeOf(o, DOC_CODE.type) !== type) return false;
      if (format && log.codeOf(o, DOC_CODE.format) !== format) return false;
      if (xml >= 0 && log.codeOf(o, DOC_CODE.xmlAvailable) !== xml) return false;
      if (seller && log.hashOf(o, DOC_HASH.sellerTaxId) !== seller) return false;
      if (buyer && log.hashOf(o, DOC_HASH.buyerTaxId) !== buyer) return false;
      if (dated) {
        const day = log.dayOf(o);
        if (day === NULL_DAY || day < from || day > to) return false;
      }
      return true;
    };
  }
}
