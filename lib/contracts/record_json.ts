/**
 * The JSON of the records (documents, submissions and sync runs of API.md §4
 * and §5), and the fields that documents take from an invoice model or, before
 * the XML arrives, from source metadata. Stores keep document and submission
 * JSON as the bytes that are sent, links included, so that a feed page is the
 * stored bytes joined without parsing them again.
 * @module
 */
import type { Invoice } from "../formats/invoice/model.ts";
import { DOCUMENT_TYPES, INVOICE_FORMATS, isOneOf } from "../formats/invoice/vocabulary.ts";
import type { DocumentFields, DocumentRecord, PartySummary, SubmissionRecord, SyncRunRecord, TotalsSummary } from "./storage.ts";

/** The response JSON of a document (API.md §4), keys in the documented order. */
export function documentJson(d: DocumentRecord): string {
  const self = `/api/v1/documents/${d.id}`;
  return JSON.stringify({
    id: d.id, source: d.source, external_id: d.external_id,
    format: d.format, type: d.type, number: d.number, issue_date: d.issue_date, currency: d.currency,
    seller: d.seller, buyer: d.buyer, totals: d.totals, ksef_number: d.ksef_number ?? null,
    xml_available: d.xml_available, sha256: d.sha256, size: d.size,
    received_at: d.received_at, synced_at: d.synced_at, updated_at: d.updated_at,
    links: { self, xml: `${self}/xml`, pdf: `${self}/pdf` },
  });
}

/** The response JSON of a submission (API.md §5). */
export function submissionJson(s: SubmissionRecord): string {
  const self = `/api/v1/submissions/${s.id}`;
  return JSON.stringify({
    id: s.id, status: s.status,
    format: s.format, type: s.type, number: s.number, issue_date: s.issue_date, currency: s.currency,
    seller: s.seller, buyer: s.buyer, totals: s.totals,
    sha256: s.sha256, size: s.size, created_at: s.created_at,
    links: { self, xml: `${self}/xml`, pdf: `${self}/pdf` },
  });
}

/** The JSON of a run (API.md §4.4). */
export function runJson(r: SyncRunRecord): Record<string, unknown> {
  return {
    id: r.id, source: r.source, status: r.status, requested_at: r.requested_at, started_at: r.started_at, finished_at: r.finished_at,
    waiting_until: r.waiting_until ?? null, counts: r.counts, errors: r.errors, ...(r.status === "failed" ? { error: r.error } : {}),
    links: { self: `/api/v1/documents/sync/${r.id}` },
  };
}

/** The document fields of an invoice. */
export function fieldsFromInvoice(inv: Invoice): DocumentFields {
  return {
    type: inv.type,
    format: inv.format,
    number: inv.number,
    issue_date: inv.issue_date,
    currency: inv.currency,
    seller: { name: inv.seller.name, tax_id: _taxId(inv.seller) },
    buyer: { name: inv.buyer.name, tax_id: _taxId(inv.buyer) },
    totals: { net: inv.totals.net, tax: inv.totals.tax, gross: inv.totals.gross },
  };
}

const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;

/** The party's VAT id (BT-31), else its first other tax id (BT-32); the same rule as partyTaxId of formats/invoice/read.ts. */
function _taxId(p: Invoice["seller"]): string | null {
  return p.tax_id?.value ?? p.other_tax_ids[0]?.value ?? null;
}

function _str(v: unknown, max = 512): string | null {
  return typeof v === "string" && v.length > 0 && v.length <= max ? v : null;
}

function _party(v: unknown): PartySummary | null {
  if (!v || typeof v !== "object") return null;
  const o = v as Record<string, unknown>;
  const p = { name: _str(o.name), tax_id: _str(o.tax_id, 64) };
  return p.name === null && p.tax_id === null ? null : p;
}

function _money(v: unknown): string | null {
  const s = typeof v === "number" && Number.isFinite(v) ? String(v) : v;
  return typeof s === "string" && DECIMAL_RE.test(s) ? s : null;
}

/**
 * The fields a source's metadata supplies for a document whose XML is not yet
 * available (API.md §4.5): known fields in the document JSON's shape; unknown
 * fields and values of the wrong shape are ignored.
 */
export function fieldsFromMetadata(meta: Record<string, unknown>): { fields: DocumentFields; received_at: string | null } {
  const t = meta.totals && typeof meta.totals === "object" ? (meta.totals as Record<string, unknown>) : null;
  const totals: TotalsSummary | null = t ? { net: _money(t.net), tax: _money(t.tax), gross: _money(t.gross) } : null;
  const issue = _str(meta.issue_date, 10);
  const received = _str(meta.received_at, 40);
  return {
    fields: {
      type: isOneOf(DOCUMENT_TYPES, meta.type) ? meta.type : null,
      format: isOneOf(INVOICE_FORMATS, meta.format) ? meta.format : null,
      number: _str(meta.number),
      issue_date: issue && DATE_RE.test(issue) ? issue : null,
      currency: typeof meta.currency === "string" && /^[A-Z]{3}$/.test(meta.currency) ? meta.currency : null,
      seller: _party(meta.seller),
      buyer: _party(meta.buyer),
      totals: totals && (totals.net ?? totals.tax ?? totals.gross) !== null ? totals : null,
    },
    received_at: received && !Number.isNaN(Date.parse(received)) ? new Date(received).toISOString() : null,
  };
}

/** True when two field sets say the same thing. */
export function sameFields(a: DocumentFields, b: DocumentFields): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The duplicate key of API.md §5: seller tax id + document type + invoice number. */
export function businessKey(f: DocumentFields): string {
  return `${f.seller?.tax_id ?? ""}\u0000${f.type ?? ""}\u0000${f.number ?? ""}`;
}

/** The fields of a stored record, in the same shape as `fieldsFromInvoice` makes them. */
export function fieldsOf(r: DocumentFields): DocumentFields {
  return {
    type: r.type, format: r.format, number: r.number, issue_date: r.issue_date, currency: r.currency,
    seller: r.seller, buyer: r.buyer, totals: r.totals,
  };
}
