/**
 * Upserts of documents as sets (a sync run's batch): under the feed's lock, one SELECT of the batch's existing
 * rows, then one statement that writes every new version, its change-feed row and the moves between kept counts,
 * instead of a few statements per document. Inputs are applied in order against what the ones before them made,
 * so the outcomes, the feed positions (consecutive, in input order) and the counts are those of upserts one by
 * one; a key repeated within the batch is folded into one row of the documents table carrying its last version.
 * The rules shared with the single upsert (documents.ts) are here too.
 * @module
 */
import { documentJson, fieldsOf, sameFields } from "../../lib/contracts/record_json.ts";
import { newId } from "../../lib/contracts/ids.ts";
import { importVerdict } from "../../lib/contracts/summary_counts.ts";
import type { DocumentInput, DocumentRecord, UpsertOutcome } from "../../lib/contracts/storage.ts";
import { dayNumber, NULL_DAY } from "../../lib/contracts/document_filter.ts";
import { TENANT_KEY, type PgQueryable } from "./client.ts";
import { recordOf } from "./feed.ts";

/** What an upsert answers. */
export type Upserted = { document: DocumentRecord; outcome: UpsertOutcome };

/** True when an input brings nothing new to the stored document. */
export function unchanged(old: DocumentRecord, input: DocumentInput): boolean {
  if (input.ksef_number != null && input.ksef_number !== old.ksef_number) return false; // a new KSeF number is a change
  return input.xml
    ? old.xml_available && old.sha256 === input.xml.sha256
    : old.xml_available || sameFields(fieldsOf(old), input.fields); // metadata never replaces XML
}

/** True when a change moves a document between kept counts. */
export function recounts(old: DocumentRecord, doc: DocumentRecord): boolean {
  return old.type !== doc.type || old.format !== doc.format || old.xml_available !== doc.xml_available || old.issue_date !== doc.issue_date ||
    (old.seller?.tax_id ?? null) !== (doc.seller?.tax_id ?? null) || (old.buyer?.tax_id ?? null) !== (doc.buyer?.tax_id ?? null);
}

/** The document an input makes of the stored one (or of none). */
export function nextDocument(old: DocumentRecord | null, input: DocumentInput, now: string): DocumentRecord {
  return {
    id: old?.id ?? newId("doc", Date.parse(now)),
    source: input.source, external_id: input.external_id, ...input.fields,
    ksef_number: input.ksef_number ?? old?.ksef_number ?? null,
    xml_available: input.xml !== null, sha256: input.xml?.sha256 ?? null, size: input.xml?.size ?? null,
    received_at: input.received_at ?? old?.received_at ?? null, synced_at: now, updated_at: now,
  };
}

/** The issue day of a document as its column holds it. */
export function issueDay(d: DocumentRecord): number | null {
  const day = dayNumber(d.issue_date);
  return day === NULL_DAY ? null : day;
}

const _key = (source: string, externalId: string): string => `${source}\u0000${externalId}`;

/** The stored documents of the inputs' (source, external_id) pairs, by key, in one query. */
export async function findMany(c: PgQueryable, tenant: string, inputs: DocumentInput[]): Promise<Map<string, DocumentRecord>> {
  const r = await c.query(`SELECT json FROM documents
    WHERE ${TENANT_KEY} AND (source, external_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
  [tenant, inputs.map((i) => i.source), inputs.map((i) => i.external_id)]);
  const found = new Map<string, DocumentRecord>();
  for (const row of r.rows) {
    const d = recordOf<DocumentRecord>(row.json);
    found.set(_key(d.source, d.external_id), d);
  }
  return found;
}

/** The answers of upserts, one by one, of inputs that all turn out unchanged against `stored`; null if one does not. */
export function allUnchanged(inputs: DocumentInput[], stored: Map<string, DocumentRecord>): Upserted[] | null {
  const out: Upserted[] = [];
  for (const input of inputs) {
    const old = stored.get(_key(input.source, input.external_id));
    if (!old || !unchanged(old, input)) return null;
    out.push({ document: old, outcome: "unchanged" });
  }
  return out;
}

/** Moves between the kept counts (schema.ts, migration 5), summed per row of each count table. */
class _CountMoves {
  readonly totals = new Map<string, { row: [string, string, boolean]; n: number }>();
  readonly taxes = new Map<string, { row: [string, string, string, string, boolean]; n: number }>();
  readonly days = new Map<string, { row: [number, string, string, boolean]; n: number }>();

  // A document into (delta 1) or out of (-1) the counts of its values ('' stands for a null type or format).
  add(d: DocumentRecord, delta: number): void {
    const type = d.type ?? "", format = d.format ?? "", xml = d.xml_available;
    const bump = <R extends unknown[]>(m: Map<string, { row: R; n: number }>, row: R): void => {
      const k = JSON.stringify(row);
      const e = m.get(k);
      if (e) e.n += delta;
      else m.set(k, { row, n: delta });
    };
    bump(this.totals, [type, format, xml]);
    for (const [role, party] of [["seller", d.seller], ["buyer", d.buyer]] as const) {
      if (party?.tax_id != null) bump(this.taxes, [role, party.tax_id, type, format, xml]);
    }
    const day = issueDay(d);
    if (day !== null) bump(this.days, [day, type, format, xml]);
  }
}

/** The columns of `m`'s rows whose sum is not zero, as arrays (one per column, then the sums). */
function _columns<R extends unknown[]>(m: Map<string, { row: R; n: number }>, width: number): unknown[][] {
  const cols: unknown[][] = Array.from({ length: width + 1 }, () => []);
  for (const { row, n } of m.values()) {
    if (n === 0) continue;
    row.forEach((v, i) => cols[i]!.push(v));
    cols[width]!.push(n);
  }
  return cols;
}

/** One change of the batch: a new version at feed position `seq`. */
interface _Change {
  doc: DocumentRecord;
  seq: number;
  first: boolean;
  /** The documents-table row of a new key takes the position of its first change in the batch as its `ord`. */
  ord: number;
  /** The last change of its key in the batch: the one the documents table keeps. */
  last: boolean;
  /** The verdict on its XML at import (DocumentInput.valid), kept in the documents table's `valid` column. */
  valid: boolean | null;
}

/**
 * Applies `inputs` in order, in transaction `c` that holds the documents feed's lock at position `seq`, against
 * `stored` (the batch's existing documents, read under that lock); returns the answers in input order.
 */
export async function upsertBatch(
  c: PgQueryable, tenant: string, inputs: DocumentInput[], now: string, seq: number, stored: Map<string, DocumentRecord>,
): Promise<Upserted[]> {
  const current = new Map(stored);
  const changes: _Change[] = [];
  const lastOf = new Map<string, _Change>();
  const moves = new _CountMoves();
  const out: Upserted[] = [];
  for (const input of inputs) {
    const key = _key(input.source, input.external_id);
    const old = current.get(key) ?? null;
    if (old && unchanged(old, input)) {
      out.push({ document: old, outcome: "unchanged" });
      continue;
    }
    const doc = nextDocument(old, input, now);
    const before = lastOf.get(key);
    if (before) before.last = false;
    const change: _Change = { doc, seq: seq + changes.length, first: !old, ord: before?.ord ?? seq + changes.length, last: true, valid: importVerdict(input) };
    changes.push(change);
    lastOf.set(key, change);
    current.set(key, doc);
    if (!old || recounts(old, doc)) {
      if (old) moves.add(old, -1);
      moves.add(doc, 1);
    }
    out.push({ document: doc, outcome: old ? "updated" : "created" });
  }
  if (changes.length > 0) await _write(c, tenant, now, seq + changes.length, changes, moves);
  return out;
}

// One statement: the versions (v), the documents rows of each key's last one (d), every change (c), the feed's
// new length (f), and the count moves (n1–n3).
async function _write(c: PgQueryable, tenant: string, now: string, length: number, changes: _Change[], moves: _CountMoves): Promise<void> {
  const col = <T>(f: (ch: _Change) => T): T[] => changes.map(f);
  await c.query(`WITH v AS (
      SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[], $8::text[], $9::integer[], $10::text[],
        $11::text[], $12::boolean[], $13::text[], $14::text[], $15::text[], $16::boolean[], $17::boolean[], $35::boolean[])
      AS v (id, source, external_id, seq, ord, type, format, issue_day, seller_tax_id, buyer_tax_id, xml_available, sha256, json, ksef_number, first, last, valid)),
    d AS (
      INSERT INTO documents (tenant, id, source, external_id, seq, ord, type, format, issue_day, seller_tax_id, buyer_tax_id, xml_available, sha256, synced_at, json, ksef_number, valid)
      SELECT $1, id, source, external_id, seq, ord, type, format, issue_day, seller_tax_id, buyer_tax_id, xml_available, sha256, $18::timestamptz, json, ksef_number, valid
      FROM v WHERE last
      ON CONFLICT (tenant, source, external_id) DO UPDATE SET seq = EXCLUDED.seq, type = EXCLUDED.type, format = EXCLUDED.format,
        issue_day = EXCLUDED.issue_day, seller_tax_id = EXCLUDED.seller_tax_id, buyer_tax_id = EXCLUDED.buyer_tax_id,
        xml_available = EXCLUDED.xml_available, sha256 = EXCLUDED.sha256, synced_at = EXCLUDED.synced_at, json = EXCLUDED.json,
        ksef_number = EXCLUDED.ksef_number, valid = EXCLUDED.valid),
    c AS (INSERT INTO changes (tenant, collection, seq, first, json) SELECT $1, 'documents', seq, first, json FROM v),
    f AS (UPDATE feeds SET length = $19 WHERE tenant = $1 AND collection = 'documents'),
    n1 AS (INSERT INTO document_counts (tenant, type, format, xml_available, n)
      SELECT $1, * FROM unnest($20::text[], $21::text[], $22::boolean[], $23::bigint[])
      ON CONFLICT (tenant, type, format, xml_available) DO UPDATE SET n = document_counts.n + EXCLUDED.n),
    n2 AS (INSERT INTO document_tax_counts (tenant, role, tax_id, type, format, xml_available, n)
      SELECT $1, * FROM unnest($24::text[], $25::text[], $26::text[], $27::text[], $28::boolean[], $29::bigint[])
      ON CONFLICT (tenant, role, tax_id, type, format, xml_available) DO UPDATE SET n = document_tax_counts.n + EXCLUDED.n),
    n3 AS (INSERT INTO document_day_counts (tenant, issue_day, type, format, xml_available, n)
      SELECT $1, * FROM unnest($30::integer[], $31::text[], $32::text[], $33::boolean[], $34::bigint[])
      ON CONFLICT (tenant, issue_day, type, format, xml_available) DO UPDATE SET n = document_day_counts.n + EXCLUDED.n)
    SELECT 1`, [
    tenant,
    col((ch) => ch.doc.id), col((ch) => ch.doc.source), col((ch) => ch.doc.external_id), col((ch) => ch.seq), col((ch) => ch.ord),
    col((ch) => ch.doc.type), col((ch) => ch.doc.format), col((ch) => issueDay(ch.doc)), col((ch) => ch.doc.seller?.tax_id ?? null),
    col((ch) => ch.doc.buyer?.tax_id ?? null), col((ch) => ch.doc.xml_available), col((ch) => ch.doc.sha256), col((ch) => documentJson(ch.doc)),
    col((ch) => ch.doc.ksef_number), col((ch) => ch.first), col((ch) => ch.last),
    now, length,
    ..._columns(moves.totals, 3), ..._columns(moves.taxes, 5), ..._columns(moves.days, 4),
    col((ch) => ch.valid),
  ]);
}
