/**
 * Reading invoice XML without stalling other tenants: small
 * documents are read at once; large ones take one of a few slots, so that only
 * so many large trees exist at a time, and are read off the event loop when the
 * embedder gives a way to (server.ts: worker threads on Node). More waiting than
 * a tenant's share of the queue is 429, more than the queue holds 503, both with
 * Retry-After, not an ever longer wait.
 * @module
 */
import { fieldsFromInvoice, importFields } from "../contracts/record_json.ts";
import type { ImportedFields } from "../contracts/storage.ts";
import type { Invoice } from "../formats/invoice/model.ts";
import { readInvoiceXml } from "../formats/invoice/read_xml.ts";
import type { ValidationReport } from "../formats/validation/invoice_validation.ts";
import { type CheckedInvoice, readAndValidate, verdictOf } from "../formats/validation/read_and_validate.ts";
import type { SchemaSet } from "../formats/validation/schema_set.ts";
import { ApiError } from "../http/errors.ts";
import { invoiceJson } from "./documents/invoice_json.ts";
import type { PdfFonts } from "../formats/pdf/pdf_fonts.ts";
import { type RenderedPdf, type RenderOptions, renderInvoicePdf } from "../formats/pdf/invoice_pdf.ts";

/** Inputs from this size are "large": a hostile one of them takes ~0.1 s of CPU and tens of MB of tree. */
export const LARGE_XML_BYTES = 256 * 1024;
/** Large reads at once per process: with two cores, one for reading leaves the other to the event loop (bench/xml_pressure). */
export const MAX_LARGE_READS = 1;
/** Large reads that may wait for a slot; beyond, 503 (the server is full): sixteen 10 MiB uploads are already 160 MiB held. */
export const MAX_WAITING_READS = 16;
/**
 * Large reads of one tenant that may wait: a quarter of the queue, so that one tenant's burst of large uploads
 * or downloads leaves room for others' (README "Limits"); beyond, 429 for that tenant alone. Slots are handed to
 * the waiting tenants in turn.
 */
export const MAX_WAITING_READS_PER_TENANT = 4;

/**
 * Reads invoices from XML bytes. A request is refused when too many large reads wait (429 over its tenant's share,
 * 503 when the queue is full); background work (a sync) passes `{ wait: true }` and queues instead, since a
 * refusal there would fail a good document.
 */
export type InvoiceReader = (xml: Uint8Array, options?: { wait?: boolean; tenant?: string }) => Promise<Invoice>;

/**
 * Builds the `invoice` object's JSON bytes from XML bytes (README "The invoice object"), in the same slots as
 * InvoiceReader: for a large invoice the tree and its JSON are made where the reading happens (a worker thread),
 * and only the bytes come back, so the event loop never holds the tree nor stringifies it.
 */
export type InvoiceJsonBuilder = (xml: Uint8Array, options?: LargeReadOptions) => Promise<Uint8Array>;

/**
 * Whose read it is, and how to tell that its client has gone: a large read that waited for its slot is then
 * dropped rather than done for nobody. One already running is finished, since its result is kept.
 */
export interface LargeReadOptions {
  tenant?: string;
  gone?: () => boolean;
}

/** What a PDF rendering needs beside the XML and the fonts. */
export type PdfJob = Omit<RenderOptions, "fonts">;

/** Renders the invoice of XML bytes as a PDF; a large one in the same slots (and threads) as InvoiceReader. */
export type PdfRenderer = (xml: Uint8Array, options: PdfJob & LargeReadOptions) => Promise<RenderedPdf>;

/**
 * The fields a document record keeps and the verdict on the XML, from XML bytes and one parse (a sync run's import):
 * small inputs off the event loop when threads are given (only those come back), large ones in the same slots as
 * InvoiceReader.
 */
export type FieldsReader = (xml: Uint8Array, options?: { tenant?: string }) => Promise<ImportedFields>;

/** Reads and validates an upload from one parse (README "Validation"); a large one in the same slots as InvoiceReader. */
export type UploadChecker = (xml: Uint8Array, options?: { tenant?: string }) => Promise<CheckedInvoice>;

/**
 * The verdict on XML bytes alone (POST /api/v1/validate, a document's `validation`), also for an invoice the reader
 * refuses; a large one in the same slots as InvoiceReader.
 */
export type InvoiceValidator = (xml: Uint8Array, options?: { tenant?: string; gone?: () => boolean }) => Promise<ValidationReport>;

/** The readers of the app, sharing one set of slots for large inputs. */
export interface LargeReads {
  check: UploadChecker;
  validate: InvoiceValidator;
  read: InvoiceReader;
  json: InvoiceJsonBuilder;
  pdf: PdfRenderer;
  fields: FieldsReader;
  /** Large reads waiting for a slot (GET /metrics). */
  waiting(): number;
  /**
   * Throws the refusal a large read of `tenant` would get now (429 over its share of the waiting places, 503 when all
   * are taken), so that a large upload can be refused before its body is read: receiving megabytes only to refuse
   * them costs the event loop the copies and the garbage collections of every byte.
   */
  admit(tenant: string): void;
}

/** Options of createInvoiceReader. */
export interface InvoiceReaderOptions {
  /** Reads one invoice off the event loop (a worker thread); without it large reads run inline, one slot at a time. */
  offThread?: InvoiceReader | undefined;
  /** Builds one invoice's JSON off the event loop (a worker thread); without it, offThread's invoice is stringified here. */
  offThreadJson?: ((xml: Uint8Array) => Promise<Uint8Array>) | undefined;
  /** Reads one invoice's record fields and verdict off the event loop (worker threads); without it, here. */
  offThreadFields?: ((xml: Uint8Array) => Promise<ImportedFields>) | undefined;
  /** Reads and validates one upload off the event loop (worker threads started with the schemas). */
  offThreadCheck?: ((xml: Uint8Array) => Promise<CheckedInvoice>) | undefined;
  /** The verdict on one invoice off the event loop (worker threads started with the schemas). */
  offThreadValidate?: ((xml: Uint8Array) => Promise<ValidationReport>) | undefined;
  /** The schemas invoices are validated against here, without the threads; null leaves the schema check out. */
  schemas?: SchemaSet | null;
  /** Renders one invoice's PDF off the event loop (a worker thread started with the fonts). */
  offThreadPdf?: ((xml: Uint8Array, options: PdfJob) => Promise<RenderedPdf>) | undefined;
  /** The fonts for PDFs rendered here; null or absent: rendering here is a programmer mistake (500). */
  fonts?: PdfFonts | null;
  largeBytes?: number;
  maxLarge?: number;
  maxWaiting?: number;
  maxWaitingPerTenant?: number;
}

/** The reader of the app: small inputs inline, large ones through a bounded number of slots. */
export function createInvoiceReader(o: InvoiceReaderOptions = {}): InvoiceReader {
  return createLargeReads(o).read;
}

/** The invoice reader and the invoice JSON builder of the app: small inputs inline, large ones through the same slots. */
export function createLargeReads(o: InvoiceReaderOptions = {}): LargeReads {
  const large = o.largeBytes ?? LARGE_XML_BYTES;
  const maxLarge = o.maxLarge ?? MAX_LARGE_READS;
  const maxWaiting = o.maxWaiting ?? MAX_WAITING_READS;
  const maxPerTenant = o.maxWaitingPerTenant ?? MAX_WAITING_READS_PER_TENANT;
  let running = 0;
  // The waiting reads by tenant, in the order the tenants get their turn (the first is next).
  const queues = new Map<string, (() => void)[]>();
  let waitingCount = 0;
  let lastServed: string | null = null;

  // The refusal of a read that would wait now, if any.
  function admit(tenant: string): void {
    if (running < maxLarge) return;
    if (waitingCount >= maxWaiting) {
      throw new ApiError("SERVICE_UNAVAILABLE", "Too many large invoices are being read: retry shortly", {}, { "retry-after": "1" });
    }
    if ((queues.get(tenant)?.length ?? 0) >= maxPerTenant) {
      throw new ApiError("RATE_LIMITED", `Too many of this tenant's large invoices are being read (at most ${maxPerTenant} waiting): retry shortly`, { retry_after_seconds: 1 }, { "retry-after": "1" });
    }
  }

  async function slot(tenant: string, wait: boolean): Promise<void> {
    if (running < maxLarge) {
      lastServed = tenant;
      return void running++;
    }
    const queue = queues.get(tenant) ?? [];
    if (!wait) admit(tenant);
    await new Promise<void>((resolve) => {
      queue.push(resolve); // the slot is handed over by release()
      queues.set(tenant, queue);
      waitingCount++;
    });
  }

  // Hands the slot to the next waiting read of the tenant whose turn it is (not the one served last, while
  // another waits); that tenant goes to the back.
  function release(): void {
    if (queues.size === 0) return void running--;
    const tenant = [...queues.keys()].find((t) => t !== lastServed) ?? lastServed!;
    const queue = queues.get(tenant)!;
    lastServed = tenant;
    queues.delete(tenant);
    if (queue.length > 1) queues.set(tenant, queue);
    waitingCount--;
    queue.shift()!();
  }

  async function inSlot<T>(tenant: string, wait: boolean, work: () => Promise<T>, gone?: () => boolean): Promise<T> {
    await slot(tenant, wait);
    try {
      if (gone?.() === true) throw new Error("The client went away while its large read waited");
      return await work();
    } finally {
      release();
    }
  }

  const inline = async (xml: Uint8Array): Promise<Invoice> => {
    await new Promise((r) => setTimeout(r, 0)); // let waiting requests run before the loop is held
    return readInvoiceXml(xml);
  };
  /**
   * Small inputs at once, large ones in a slot; each on `thread` when given (`small` says whether small ones go
   * there too), otherwise `here`, a large one after waiting requests have had their turn.
   */
  async function offLoop<T>(xml: Uint8Array, slotOf: { tenant?: string; wait?: boolean; gone?: () => boolean } | undefined,
    thread: ((xml: Uint8Array) => Promise<T>) | undefined, small: boolean, here: () => T): Promise<T> {
    if (xml.byteLength < large) return thread && small ? thread(xml) : here();
    return inSlot(slotOf?.tenant ?? "", slotOf?.wait === true, async () => {
      if (thread) return thread(xml);
      await new Promise((r) => setTimeout(r, 0)); // let waiting requests run before the loop is held
      return here();
    }, slotOf?.gone);
  }
  // A large invoice's fields from the whole model when the embedder gives a reading thread but no fields thread,
  // and its verdict from the validating thread if there is one (never judged on the event loop: null).
  const wholeFields = o.offThread
    ? async (xml: Uint8Array): Promise<ImportedFields> => {
      const [invoice, report] = await Promise.all([o.offThread!(xml), o.offThreadValidate?.(xml) ?? null]);
      return { fields: fieldsFromInvoice(invoice), valid: report?.valid ?? null };
    }
    : undefined;
  const encoder = new TextEncoder();
  return {
    waiting: () => waitingCount,
    admit,
    read: (xml, options) => offLoop(xml, options, o.offThread, false, () => readInvoiceXml(xml)),
    async json(xml, options) {
      if (xml.byteLength < large) return encoder.encode(invoiceJson(readInvoiceXml(xml)));
      return inSlot(options?.tenant ?? "", false, async () => {
        if (o.offThreadJson) return o.offThreadJson(xml);
        return encoder.encode(invoiceJson(await (o.offThread ? o.offThread(xml) : inline(xml))));
      }, options?.gone);
    },
    check: (xml, options) => offLoop(xml, options, o.offThreadCheck, true, () => readAndValidate(xml, o.schemas ?? null)),
    validate: (xml, options) => offLoop(xml, options, o.offThreadValidate, true, () => verdictOf(xml, o.schemas ?? null)),
    // Only the fields come back from a thread, not a large invoice's whole model; a sync run waits for its slot.
    fields: (xml, options) => offLoop(xml, { ...options, wait: true }, o.offThreadFields ?? wholeFields, o.offThreadFields !== undefined, () => importFields(xml, o.schemas ?? null)),
    async pdf(xml, { tenant, gone, ...job }) {
      const render = (invoice: Invoice): RenderedPdf => {
        // A programmer mistake (createApp without pdfFonts), answered 500 like any other.
        if (!o.fonts) throw new Error("Cannot render a PDF: the app was created without pdfFonts");
        return renderInvoicePdf(invoice, { ...job, fonts: o.fonts });
      };
      if (xml.byteLength < large) return render(readInvoiceXml(xml));
      return inSlot(tenant ?? "", false, async () => {
        if (o.offThreadPdf) return o.offThreadPdf(xml, job);
        return render(await (o.offThread ? o.offThread(xml) : inline(xml)));
      }, gone);
    },
  };
}
