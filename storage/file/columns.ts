/**
 * What the file store keeps of each record in its slot (see record_log.ts): the index columns of documents,
 * submissions, runs and webhooks, the idempotency meta an effect record carries, and the feed walk that
 * skips superseded versions. Pure functions over a RecordLog; the tenant store composes them.
 * @module
 */
import { businessKey } from "../../lib/contracts/record_json.ts";
import type { ChangePage, DocumentRecord, IdempotencyRecord, IdempotencyTag, Stored, SubmissionRecord, SyncRunRecord, WebhookRecord } from "../../lib/contracts/storage.ts";
import { decodeOrdinalId, type IdPrefix } from "../../lib/contracts/ids.ts";
import { hash32 } from "./hash32.ts";
import { dayNumber, FORMAT_CODES, NULL_DAY, TYPE_CODES } from "../../lib/contracts/document_filter.ts";
import type { RecordLog, SlotColumns } from "./record_log.ts";

const dec = new TextDecoder();
const enc = new TextEncoder();

/** Parses a record's JSON bytes. */
export function parseRecord<T>(bytes: Uint8Array): T {
  return JSON.parse(dec.decode(bytes)) as T;
}

/**
 * The record whose id is `id`, in a log whose ids encode their ordinal (documents, submissions), or null: an id
 * that decodes to a slot holding another record (forged, or of another tenant) finds nothing.
 */
export function readByOrdinalId<T extends { id: string }>(log: RecordLog, prefix: IdPrefix, id: string): Stored<T> | null {
  const o = decodeOrdinalId(prefix, id);
  if (o < 0 || o >= log.count) return null;
  const json = log.read(o);
  const record = parseRecord<T>(json);
  return record.id === id ? { record, json } : null;
}

export const RUN_STATUS = { queued: 1, running: 2, succeeded: 3, failed: 4 } as const;
export const WEBHOOK_STATUS = { enabled: 1, disabled: 2, deleted: 3 } as const;

/** Which hash column (SlotColumns.h) holds what, per collection. */
export const DOC_HASH = { sellerTaxId: 0, buyerTaxId: 1, externalId: 2, ksefNumber: 3 } as const;
export const SUB_HASH = { sha256: 1, businessKey: 2 } as const;
export const RUN_HASH = { source: 0 } as const;
/** Which code column (SlotColumns.c) holds what, per collection. */
export const DOC_CODE = { type: 0, format: 1, xmlAvailable: 2, verdict: 3 } as const;
/** A document's verdict code (DOC_CODE.verdict): 0 = not judged, as in every slot written before it existed. */
export const VERDICT_CODES = { valid: 1, invalid: 2 } as const;
export const SUB_CODE = { ksefStatus: 0, type: 1, format: 2 } as const;
/** A submission's `ksef.status` as a slot code; 0 = not sent. */
export const KSEF_STATUS_CODES = { queued: 1, sending: 2, accepted: 3, rejected: 4 } as const;
/** Runs and webhooks keep their status code in code column 0. */
export const STATUS_CODE = 0;

/** What an effect record carries of the request that caused it (committed in the same write). */
export interface IdemMeta {
  key: string;
  fingerprint: string;
  response: IdempotencyRecord["response"];
  created_at: string;
}

export function idemMeta(idem: IdempotencyTag | undefined, json: string, now: string): IdemMeta | null {
  return idem ? { key: idem.key, fingerprint: idem.fingerprint, response: idem.respond(json), created_at: now } : null;
}

/** The meta bytes of a document version whose XML was judged on import (DocumentInput.valid), or null. */
export function docMeta(valid: boolean | null | undefined): Uint8Array | null {
  return valid === true || valid === false ? enc.encode(JSON.stringify({ valid })) : null;
}

/** A document's slot columns; its meta bytes (docMeta) hold the verdict, which the document JSON never shows. */
export function docColumns(json: Uint8Array, meta: Uint8Array | null): SlotColumns {
  return docColumnsOf(parseRecord<DocumentRecord>(json), meta === null ? null : parseRecord<{ valid?: boolean }>(meta).valid);
}

/** docColumns of a record in hand and the verdict its meta bytes hold (a write need not parse back what it just serialised). */
export function docColumnsOf(d: DocumentRecord, valid: boolean | null | undefined): SlotColumns {
  const verdict = valid === true ? VERDICT_CODES.valid : valid === false ? VERDICT_CODES.invalid : 0;
  return {
    time: Date.parse(d.synced_at),
    day: dayNumber(d.issue_date),
    h: _columns(DOC_HASH, {
      sellerTaxId: d.seller?.tax_id ? hash32(d.seller.tax_id) : 0,
      buyerTaxId: d.buyer?.tax_id ? hash32(d.buyer.tax_id) : 0,
      externalId: externalIdHash(d.source, d.external_id),
      ksefNumber: d.ksef_number ? hash32(d.ksef_number) : 0,
    }),
    c: _columns(DOC_CODE, { type: d.type ? TYPE_CODES[d.type] : 0, format: d.format ? FORMAT_CODES[d.format] : 0, xmlAvailable: d.xml_available ? 1 : 0, verdict }),
  };
}

export function subColumns(json: Uint8Array): SlotColumns {
  return subColumnsOf(parseRecord<SubmissionRecord>(json));
}

/** subColumns of a record in hand (a write need not parse back what it just serialised). */
export function subColumnsOf(s: SubmissionRecord): SlotColumns {
  return {
    time: Date.parse(s.created_at),
    day: dayNumber(s.issue_date),
    h: _columns(SUB_HASH, { sha256: hash32(s.sha256), businessKey: hash32(businessKey(s)) }),
    c: _columns(SUB_CODE, {
      ksefStatus: s.ksef ? KSEF_STATUS_CODES[s.ksef.status] : 0,
      type: s.type ? TYPE_CODES[s.type] : 0, format: s.format ? FORMAT_CODES[s.format] : 0,
    }),
  };
}

export function webhookColumns(json: Uint8Array): SlotColumns {
  const w = parseRecord<WebhookRecord>(json);
  return { time: Date.parse(w.created_at), day: NULL_DAY, h: [0, 0, 0, 0], c: _columns({ status: STATUS_CODE }, { status: WEBHOOK_STATUS[w.status] }) };
}

export function runColumns(json: Uint8Array): SlotColumns {
  const r = parseRecord<SyncRunRecord>(json);
  return {
    time: Date.parse(r.requested_at), day: NULL_DAY,
    h: _columns(RUN_HASH, { source: hash32(r.source) }), c: _columns({ status: STATUS_CODE }, { status: RUN_STATUS[r.status] }),
  };
}

/** The hash under which a document is found by (source, external_id). */
export function externalIdHash(source: string, externalId: string): number {
  return hash32(`${source}\u0000${externalId}`);
}

// Four columns from named values placed by a layout (unnamed columns are 0).
function _columns<K extends string>(layout: Record<K, number>, values: Record<K, number>): [number, number, number, number] {
  const out: [number, number, number, number] = [0, 0, 0, 0];
  for (const k in layout) out[layout[k]] = values[k];
  return out;
}

// Walks the feed from `after`: an entry counts only if it is its record's latest change.
export function walkFeed(
  log: RecordLog, after: number, limit: number, maxScan: number,
  pass: (o: number) => boolean, exact: ((json: Uint8Array) => boolean) | null,
): ChangePage {
  const picked: number[] = [];
  let seq = Math.max(0, after);
  const end = Math.min(log.feedLength, seq + maxScan);
  const BATCH = Math.max(limit * 2, 256);
  outer: while (seq < end) {
    const ords = log.feedOrdinals(seq, Math.min(BATCH, end - seq));
    for (let i = 0; i < ords.length; i++, seq++) {
      const o = ords[i]!;
      if (log.latestSeq(o) !== seq || !pass(o)) continue;
      if (exact && !exact(log.read(o))) continue;
      picked.push(o);
      if (picked.length === limit) {
        seq++;
        break outer;
      }
    }
  }
  return { items: log.readMany(picked), next: seq, hasMore: seq < log.feedLength };
}
