/**
 * The worker thread of invoice_workers.ts: reads one invoice per message and
 * posts it back, or the error's parts, so that the main thread can rebuild the
 * XmlError or InvoiceError that the API answers 422 for.
 * @module
 */
import { parentPort } from "node:worker_threads";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";

parentPort?.on("message", (m: { id: number; xml: Uint8Array }) => {
  try {
    parentPort!.postMessage({ id: m.id, invoice: readInvoiceXml(m.xml) });
  } catch (e) {
    const err = e as Error & { line?: number; column?: number; field?: string; issue?: string };
    parentPort!.postMessage({ id: m.id, error: { name: err.name, message: err.message, line: err.line, column: err.column, field: err.field, issue: err.issue } });
  }
});
