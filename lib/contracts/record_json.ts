/**
 * The JSON of the records (documents, submissions and sync runs of README “Documents and the inbox”
 * and §5), and the fields that documents take from an invoice model or, before
 * the XML arrives, from source metadata. Stores keep document and submission
 * JSON as the bytes that are sent, links included, so that a feed page is the
 * stored bytes joined without parsing them again.
 * @module
 */
import { InvoiceError } from "../formats/invoice/errors.ts";
import type { Invoice } from "../formats/invoice/model.ts";
import type { ValidationSummary } from "../formats/validation/invoice_validation.ts";
import { partyTaxId } from "../formats/invoice/read.ts";
import { parseDate } from "../formats/invoice/query.ts";
import { readInvoiceXml } from "../formats/invoice/read_xml.ts";
import { readAndValidate } from "../formats/validation/read_and_validate.ts";
import type { SchemaSet } from "../formats/validation/schema_set.ts";
import { DOCUMENT_TYPES, INVOICE_FORMATS } from "../formats/invoice/vocabulary.ts";
import type {
  DocumentFields, DocumentRecord, ImportedFields, PartySummary, SubmissionFilter, SubmissionInput, SubmissionKsef, SubmissionRecord, SyncRunRecord, TotalsSummary,
} from "./storage.ts";

/** The response JSON of a document (README “Documents and the inbox”), keys in the documented order. */
export function documentJson(d: DocumentRecord): string {
  const self = `/api/v1/documents/${d.id}`;
  return JSON.stringify({
    id: d.id, source: d.source, external_id: d.external_id,
    format: d.format, type: d.type, number: d.number, issue_date: d.issue_date, currency: d.currency,
    seller: d.seller, buyer: d.buyer, totals: d.totals, ksef_number: d.ksef_number ?? null,
    xml_available: d.xml_available, sha256: d.sha256, size: d.size,
    received_at: d.received_at, synced_at: d.synced_at, updated_at: d.updated_at,
    // Nothing to link to until the XML is there (README “Documents and the inbox”).
    links: { self, xml: d.xml_available ? `${self}/xml` : null, pdf: d.xml_available ? `${self}/pdf` : null },
  });
}

/**
 * The response JSON of a submission (the OpenAPI document). The UPO is stored before `ksef.status` becomes `accepted`
 * (README "Sending to KSeF"), so an accepted submission always has one to link to.
 */
export function submissionJson(s: SubmissionRecord): string {
  const self = `/api/v1/submissions/${s.id}`;
  const ksef = s.ksef ? _ksefJson(s.ksef) : null;
  return JSON.stringify({
    id: s.id, status: s.status,
    format: s.format, type: s.type, number: s.number, issue_date: s.issue_date, currency: s.currency,
    seller: s.seller, buyer: s.buyer, totals: s.totals,
    sha256: s.sha256, size: s.size, ksef_number: s.ksef?.ksef_number ?? null, ksef, validation: _validationJson(s.validation),
    source: s.source ?? null, conversion: s.conversion ?? null,
    created_at: s.created_at, updated_at: s.updated_at ?? s.created_at,
    links: { self, xml: `${self}/xml`, pdf: `${self}/pdf`, source: `${self}/source`, upo: s.ksef?.status === "accepted" ? `${self}/upo` : null },
  });
}

/** A new submission's record: `ksef` starts queued when it is to be sent. */
export function newSubmission(id: string, input: SubmissionInput, now: string): SubmissionRecord {
  return {
    id, status: "accepted", ...input.fields, sha256: input.xml.sha256, size: input.xml.size, created_at: now, updated_at: now,
    source: input.source ?? null, conversion: input.conversion ?? null,
    ksef: input.send
      ? {
        status: "queued", ksef_number: null, acquired_at: null, session: null, session_type: null, reference: null, attempts: 0, error: null, updated_at: now,
        mode: input.issue?.mode ?? "online", invoicing_mode: null, deadline: input.issue?.deadline ?? null, deadline_warned_at: null,
        corrects: input.corrects ?? null, corrected_by: null,
      }
      : null,
  };
}

// The `ksef` object as the API shows it: fields that older records lack get their defaults.
function _ksefJson(k: SubmissionKsef): SubmissionKsef {
  return {
    ...k, session_type: k.session_type ?? null, mode: k.mode ?? "online", invoicing_mode: k.invoicing_mode ?? null, deadline: k.deadline ?? null,
    deadline_warned_at: k.deadline_warned_at ?? null, corrects: k.corrects ?? null, corrected_by: k.corrected_by ?? null, warnings: k.warnings ?? [],
  };
}

/** The submission with a new `ksef` state (its `updated_at` becomes the state's). */
export function withKsef(s: SubmissionRecord, ksef: SubmissionKsef): SubmissionRecord {
  return { ...s, ksef, updated_at: ksef.updated_at };
}

/** True when a submission passes the feed's filters. */
export function matchesSubmissionFilter(s: SubmissionRecord, f: SubmissionFilter): boolean {
  return (f.ksef_status === undefined || s.ksef?.status === f.ksef_status)
    && (f.ksef_mode === undefined || (s.ksef != null && (s.ksef.mode ?? "online") === f.ksef_mode))
    && (f.deadline_before === undefined || isOverdue(s, f.deadline_before))
    && (f.format === undefined || s.format === f.format)
    && (f.type === undefined || s.type === f.type);
}

/** True for an offline submission KSeF has not accepted whose deadline is before the day `before` (README "Offline invoices"). */
export function isOverdue(s: SubmissionRecord, before: string): boolean {
  const k = s.ksef;
  return k?.mode === "offline" && k.status !== "accepted" && typeof k.deadline === "string" && k.deadline < before;
}

/** The JSON of a run (README “Documents and the inbox”). */
export function runJson(r: SyncRunRecord): Record<string, unknown> {
  return {
    id: r.id, source: r.source, status: r.status, requested_at: r.requested_at, started_at: r.started_at, finished_at: r.finished_at,
    waiting_until: r.waiting_until ?? null, counts: r.counts, errors: r.errors, skipped: r.skipped ?? [], warnings: r.warnings ?? [],
    ...(r.status === "failed" ? { error: r.error } : {}),
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
    seller: { name: inv.seller.name, tax_id: partyTaxId(inv.seller) },
    buyer: { name: inv.buyer.name, tax_id: partyTaxId(inv.buyer) },
    totals: { net: inv.totals.net, tax: inv.totals.tax, gross: inv.totals.gross },
  };
}

/** The fields a document record keeps, read from invoice XML without its lines (none of the fields comes from them). */
export function fieldsFromXml(xml: Uint8Array): DocumentFields {
  return fieldsFromInvoice(readInvoiceXml(xml, { lines: false }));
}

/**
 * What a sync imports of a document's XML, from one parse: its record's fields and the verdict on it, the one its
 * `validation` gives with the same schemas (README "Validation"; null schemas leave the schema check out).
 */
export function importFields(xml: Uint8Array, schemas: SchemaSet | null): ImportedFields {
  const { invoice, report } = readAndValidate(xml, schemas);
  return { fields: fieldsFromInvoice(invoice), valid: report.valid };
}

const DECIMAL_RE = /^-?\d+(\.\d+)?$/;
const MAX_TEXT = 512; // longest name or number taken from metadata
const MAX_TAX_ID = 64;
/** The fields a metadata file may hold (README “Documents and the inbox”); any other key is ignored. */
const KNOWN = ["type", "format", "number", "issue_date", "currency", "seller", "buyer", "totals", "received_at"];

// Bad metadata is invalid content like a bad invoice: the API edge maps InvoiceError to VALIDATION_ERROR.
function _bad(field: string, issue: string, message: string): never {
  throw new InvoiceError(field, issue, `Metadata field ${field} ${message}`);
}

// Absent and null are both "not known"; anything else must have the documented shape.
function _text(v: unknown, field: string, max: number): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || v.length === 0 || v.length > max) _bad(field, "invalid_value", `must be a string of 1 to ${max} characters`);
  return v;
}

function _oneOf<T extends string>(v: unknown, field: string, allowed: readonly string[]): T | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || !allowed.includes(v)) _bad(field, "invalid_value", `must be one of ${allowed.join(", ")}`);
  return v as T;
}

function _date(v: unknown, field: string): string | null {
  const s = _text(v, field, 10);
  if (s === null) return null;
  // Only YYYY-MM-DD comes back unchanged, and only a day of the calendar (2024-02-30 is refused).
  if (parseDate(s) !== s) _bad(field, "invalid_date", `must be a date YYYY-MM-DD: ${s}`);
  return s;
}

function _object(v: unknown, field: string): Record<string, unknown> | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "object" || Array.isArray(v)) _bad(field, "invalid_type", "must be an object");
  return v as Record<string, unknown>;
}

function _party(v: unknown, field: string): PartySummary | null {
  const o = _object(v, field);
  if (!o) return null;
  const p = { name: _text(o.name, `${field}.name`, MAX_TEXT), tax_id: _text(o.tax_id, `${field}.tax_id`, MAX_TAX_ID) };
  return p.name === null && p.tax_id === null ? null : p;
}

// Money is a decimal string (the conventions in /docs), never a JSON number.
function _money(v: unknown, field: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || !DECIMAL_RE.test(v)) _bad(field, "invalid_decimal", "must be a decimal string such as \"1230.00\"");
  return v;
}

/**
 * The fields a source's metadata supplies for a document whose XML is not yet available (README “Documents and the inbox”): the
 * known fields in the document JSON's shape; unknown fields are ignored. A known field with a bad value, or
 * metadata with none of the known fields, throws VALIDATION_ERROR naming the field.
 */
export function fieldsFromMetadata(meta: Record<string, unknown>): { fields: DocumentFields; received_at: string | null } {
  if (!KNOWN.some((k) => k in meta)) throw new InvoiceError("metadata", "no_known_field", `Metadata has none of the fields ${KNOWN.join(", ")}`);
  const t = _object(meta.totals, "totals");
  const totals: TotalsSummary | null = t ? { net: _money(t.net, "totals.net"), tax: _money(t.tax, "totals.tax"), gross: _money(t.gross, "totals.gross") } : null;
  const received = _text(meta.received_at, "received_at", 40);
  if (received !== null && Number.isNaN(Date.parse(received))) _bad("received_at", "invalid_date", "must be an ISO 8601 date and time");
  const currency = _text(meta.currency, "currency", 3);
  if (currency !== null && !/^[A-Z]{3}$/.test(currency)) _bad("currency", "invalid_value", "must be an ISO 4217 code such as PLN");
  return {
    fields: {
      type: _oneOf<NonNullable<DocumentFields["type"]>>(meta.type, "type", DOCUMENT_TYPES),
      format: _oneOf<NonNullable<DocumentFields["format"]>>(meta.format, "format", INVOICE_FORMATS),
      number: _text(meta.number, "number", MAX_TEXT),
      issue_date: _date(meta.issue_date, "issue_date"),
      currency,
      seller: _party(meta.seller, "seller"),
      buyer: _party(meta.buyer, "buyer"),
      totals: totals && (totals.net ?? totals.tax ?? totals.gross) !== null ? totals : null,
    },
    received_at: received === null ? null : new Date(received).toISOString(),
  };
}

/** True when two field sets say the same thing. */
export function sameFields(a: DocumentFields, b: DocumentFields): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The duplicate key of the OpenAPI document: seller tax id + document type + invoice number. */
export function businessKey(f: DocumentFields): string {
  return `${f.seller?.tax_id ?? ""}\u0000${f.type ?? ""}\u0000${f.number ?? ""}`;
}

/**
 * The duplicate key a new submission is checked and stored under: its business key, except for a technical
 * correction (README "Offline invoices"), which repeats the seller, type and number of the invoice it corrects by
 * design and is told apart by its content (its SHA-256 is checked for duplicates as every upload's is).
 */
export function submissionKey(input: SubmissionInput): string {
  const key = businessKey(input.fields);
  return input.corrects === undefined ? key : `${key}\u0000correction\u0000${input.xml.sha256}`;
}

/** The fields of a stored record, in the same shape as `fieldsFromInvoice` makes them. */
export function fieldsOf(r: DocumentFields): DocumentFields {
  return {
    type: r.type, format: r.format, number: r.number, issue_date: r.issue_date, currency: r.currency,
    seller: r.seller, buyer: r.buyer, totals: r.totals,
  };
}

/** A stored verdict as JSON: ones stored before `errors` was kept are of accepted uploads, which had none. */
function _validationJson(v: ValidationSummary | null | undefined): ValidationSummary | null {
  if (v === null || v === undefined) return null;
  return v.errors === undefined ? { valid: v.valid, checks: v.checks, errors: [], warnings: v.warnings } : v;
}
