/**
 * Invoices whose XML KSeF cannot deliver yet. An export package may lack an
 * invoice's `{ksefNumber}.xml`; the source then asks for it by number
 * (GET /invoices/ksef/{ksefNumber}, which answers `application/xml`), and when
 * KSeF answers 21165 ("nie jest jeszcze dostępna") the document is stored from
 * the package's metadata and remembered here. Every later sync asks again,
 * least recently tried first, until the XML arrives: the document then updates
 * from the XML (it moves in the feed and fires `document.updated`).
 * @module
 */
import type { SourceItem } from "../../../lib/contracts/document_source.ts";
import type { KsefClient } from "../connection/client.ts";
import { exceptionCodes } from "../connection/errors.ts";
import type { InvoiceMetadata } from "./export.ts";

/** A document stored from metadata, waiting for its XML. */
export interface Pending {
  metadata: InvoiceMetadata;
  /** When it was last asked for, ms (0: not yet). */
  tried?: number;
}

/**
 * Pending documents asked for per sync: GET /invoices/ksef/{ksefNumber} allows 16 a minute (open-api.json, 429 of the
 * operation), so the retries alone never make a sync wait for the minute window; the rest wait for the next sync.
 */
export const MAX_PENDING_PER_SYNC = 16;
/** open-api.json GET /invoices/ksef/{ksefNumber}, 400: no such invoice (it will never arrive). */
const NO_SUCH_INVOICE = 21164;

/** The invoice by its KSeF number: its XML, or (while KSeF cannot deliver it) a document from its metadata. */
export async function fetchByNumber(client: KsefClient, inv: InvoiceMetadata, signal: AbortSignal): Promise<SourceItem> {
  const res = await client.call("download", "GET", `/invoices/ksef/${encodeURIComponent(inv.ksefNumber)}`, undefined, signal, [400], "application/xml");
  if (res.ok) return _xmlItem(inv, new Uint8Array(await res.arrayBuffer()), async () => {});
  await res.body?.cancel();
  return { external_id: inv.ksefNumber, ksef_number: inv.ksefNumber, xml: null, metadata: metadataFields(inv), ack: async () => {}, reject: async () => {} };
}

/** Asks KSeF again for pending documents; yields those whose XML arrived (acknowledging one forgets it). */
export async function* retryPending(client: KsefClient, pending: Record<string, Pending>, save: () => void, now: () => number, signal: AbortSignal): AsyncGenerator<SourceItem> {
  const due = Object.entries(pending).sort(([, a], [, b]) => (a.tried ?? 0) - (b.tried ?? 0)).slice(0, MAX_PENDING_PER_SYNC);
  for (const [n, p] of due) {
    if (signal.aborted) return;
    const res = await client.call("download", "GET", `/invoices/ksef/${encodeURIComponent(n)}`, undefined, signal, [400], "application/xml");
    p.tried = now();
    if (!res.ok) {
      const codes = exceptionCodes(await res.json().catch(() => null));
      if (codes.includes(NO_SUCH_INVOICE)) delete pending[n];
      save();
      continue;
    }
    const xml = new Uint8Array(await res.arrayBuffer());
    yield _xmlItem(p.metadata, xml, async () => {
      delete pending[n];
      save();
    });
  }
}

function _xmlItem(inv: InvoiceMetadata, xml: Uint8Array, ack: () => Promise<void>): SourceItem {
  return { external_id: inv.ksefNumber, ksef_number: inv.ksefNumber, xml, metadata: null, ack, reject: async () => {} };
}

/** open-api.json FormCode systemCode (InvoiceMetadata.formCode) → the document's format. */
const _FORMATS: Readonly<Record<string, string>> = {
  "FA (2)": "ksef-fa2", "FA (3)": "ksef-fa3", "FA_RR (1)": "ksef-fa-rr1", "PEF (3)": "ksef-pef3", "PEF_KOR (3)": "ksef-pef3",
};

/** open-api.json InvoiceType → the document's type (a PEF correction, KorPef, is a UBL CreditNote). */
const _TYPES: Readonly<Record<string, string>> = {
  Vat: "invoice", Zal: "invoice", Roz: "invoice", Upr: "invoice", VatPef: "invoice", VatPefSp: "invoice", VatRr: "invoice",
  Kor: "correction", KorZal: "correction", KorRoz: "correction", KorVatRr: "correction", KorPef: "credit_note",
};

/**
 * The document JSON fields of KSeF's InvoiceMetadata. open-api.json: `vatAmount` is "Łączna kwota VAT wyrażona w
 * PLN", while `netAmount` and `grossAmount` are the invoice's own totals. A document's totals carry one currency
 * (`currency`), so the VAT goes into `totals.tax` only for a PLN invoice; for another currency it stays null until
 * the XML arrives (which gives the VAT in the invoice's currency and in PLN).
 */
export function metadataFields(inv: InvoiceMetadata): Record<string, unknown> {
  const money = (v: number | undefined): string | null => (typeof v === "number" && Number.isFinite(v) ? v.toFixed(2) : null);
  const pln = inv.currency === "PLN";
  const system = inv.formCode?.systemCode;
  const type = inv.invoiceType;
  return {
    format: system !== undefined && Object.hasOwn(_FORMATS, system) ? _FORMATS[system] : null,
    type: type !== undefined && Object.hasOwn(_TYPES, type) ? _TYPES[type] : null,
    number: inv.invoiceNumber ?? null, issue_date: inv.issueDate ?? null, currency: inv.currency ?? null,
    seller: { name: inv.seller?.name ?? null, tax_id: inv.seller?.nip ?? null },
    buyer: { name: inv.buyer?.name ?? null, tax_id: inv.buyer?.identifier?.value ?? null },
    totals: { net: money(inv.netAmount), tax: pln ? money(inv.vatAmount) : null, gross: money(inv.grossAmount) },
    // przyrostowe-pobieranie-faktur.md: the date of receipt is the date the KSeF number was assigned.
    received_at: inv.acquisitionDate ?? null,
  };
}
