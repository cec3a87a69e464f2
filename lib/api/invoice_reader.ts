/**
 * Reading invoice XML without stalling other tenants (issue 15 #15): small
 * documents are read at once; large ones take one of a few slots, so that only
 * so many large trees exist at a time, and are read off the event loop when the
 * embedder gives a way to (server.ts: worker threads on Node). More waiting than
 * the queue holds is 503 with Retry-After, not an ever longer wait.
 * @module
 */
import type { Invoice } from "../formats/invoice/model.ts";
import { readInvoiceXml } from "../formats/invoice/read_xml.ts";
import { ApiError } from "../http/errors.ts";

/** Inputs from this size are "large": a hostile one of them takes ~0.1 s of CPU and tens of MB of tree. */
export const LARGE_XML_BYTES = 256 * 1024;
/** Large reads at once per process: with two cores, one for reading leaves the other to the event loop (bench/xml_pressure). */
export const MAX_LARGE_READS = 1;
/** Large reads that may wait for a slot; beyond, 503: sixteen 10 MiB uploads are already 160 MiB held. */
export const MAX_WAITING_READS = 16;

/**
 * Reads invoices from XML bytes. A request is refused with 503 when too many large reads wait; background work
 * (a sync) passes `{ wait: true }` and queues instead, since a refusal there would fail a good document.
 */
export type InvoiceReader = (xml: Uint8Array, options?: { wait?: boolean }) => Promise<Invoice>;

/** Options of createInvoiceReader. */
export interface InvoiceReaderOptions {
  /** Reads one invoice off the event loop (a worker thread); without it large reads run inline, one slot at a time. */
  offThread?: InvoiceReader | undefined;
  largeBytes?: number;
  maxLarge?: number;
  maxWaiting?: number;
}

/** The reader of the app: small inputs inline, large ones through a bounded number of slots. */
export function createInvoiceReader(o: InvoiceReaderOptions = {}): InvoiceReader {
  const large = o.largeBytes ?? LARGE_XML_BYTES;
  const maxLarge = o.maxLarge ?? MAX_LARGE_READS;
  const maxWaiting = o.maxWaiting ?? MAX_WAITING_READS;
  let running = 0;
  const waiting: (() => void)[] = [];

  async function slot(wait: boolean): Promise<void> {
    if (running < maxLarge) return void running++;
    if (waiting.length >= maxWaiting && !wait) {
      throw new ApiError("SERVICE_UNAVAILABLE", "Too many large invoices are being read: retry shortly", {}, { "retry-after": "1" });
    }
    await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over by release()
  }

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }

  return async (xml, options) => {
    if (xml.byteLength < large) return readInvoiceXml(xml);
    await slot(options?.wait === true);
    try {
      if (o.offThread) return await o.offThread(xml);
      await new Promise((r) => setTimeout(r, 0)); // let waiting requests run before the loop is held
      return readInvoiceXml(xml);
    } finally {
      release();
    }
  };
}
