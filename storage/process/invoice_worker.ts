/**
 * The worker thread of invoice_workers.ts: reads one invoice per message and
 * posts it back, or the error's parts, so that the main thread can rebuild the
 * XmlError or InvoiceError that the API answers 422 for. Asked for `json`, it
 * posts the invoice's JSON bytes instead (README "The invoice object": the model
 * as it is, JSON.stringify of it, as lib/api/documents/invoice_json.ts makes it),
 * handed over without a copy, so the main thread never holds the tree.
 * @module
 */
import { parentPort } from "node:worker_threads";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";

const encoder = new TextEncoder();

parentPort?.on("message", (m: { id: number; xml: Uint8Array; json?: boolean }) => {
  try {
    const invoice = readInvoiceXml(m.xml);
    if (m.json) {
      const json = encoder.encode(JSON.stringify(invoice));
      parentPort!.postMessage({ id: m.id, json }, [json.buffer as ArrayBuffer]);
    } else parentPort!.postMessage({ id: m.id, invoice });
  } catch (e) {
    const err = e as Error & { line?: number; column?: number; field?: string; issue?: string };
    parentPort!.postMessage({ id: m.id, error: { name: err.name, message: err.message, line: err.line, column: err.column, field: err.field, issue: err.issue } });
  }
});
