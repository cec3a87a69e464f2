/**
 * The worker thread of invoice_workers.ts: reads one invoice per message and
 * posts it back, or what it threw (thread_errors.ts), so that the main thread
 * rebuilds the same error: the XmlError or InvoiceError that the API answers 422
 * for, or the bug it is. Asked for `json`, it
 * posts the invoice's JSON bytes instead (README "The invoice object": the model
 * as it is, JSON.stringify of it, as lib/api/documents/invoice_json.ts makes it),
 * handed over without a copy, so the main thread never holds the tree. Asked
 * for `pdf`, it renders the invoice with the fonts the pool was started with. Asked
 * for `fields`, it posts only the fields a document record keeps and the verdict (a sync run's
 * import: the tree never leaves the thread). Asked to `check`, it reads and
 * validates an upload from one parse, against the schemas the pool was started with;
 * asked to `validate`, it posts the verdict alone (POST /validate, a document's `validation`).
 * After a large input (INLINE_LIMIT_BYTES and over) it collects its garbage at once (see _collect).
 * @module
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import { importFields } from "../../lib/contracts/record_json.ts";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import { readAndValidate, verdictOf } from "../../lib/formats/validation/read_and_validate.ts";
import { type SchemaFiles, schemaSetOf } from "../../lib/formats/validation/schema_set.ts";
import { type PdfFontFiles, PdfFonts } from "../../lib/formats/pdf/pdf_fonts.ts";
import { type RenderOptions, renderInvoicePdf } from "../../lib/formats/pdf/invoice_pdf.ts";
import { INLINE_LIMIT_BYTES } from "./invoice_workers.ts";
import { describeThreadError } from "./thread_errors.ts";
import { INVOICE_THREAD_NICE, setThreadNice } from "./thread_priority.ts";

setThreadNice(INVOICE_THREAD_NICE); // behind the event loop when both want a core (thread_priority.ts)

// The fonts are parsed once per thread, as the main thread does once per app.
const data = workerData as { fonts?: PdfFontFiles; schemas?: SchemaFiles } | null;
const fonts = data?.fonts ? new PdfFonts(data.fonts) : null;

const encoder = new TextEncoder();

/**
 * A full garbage collection, run once a large input's answer is posted. Its tree (a 9 MB FA(3) makes ~100 MB) is
 * garbage then, but V8 left to itself lets the next one's grow beside it: six hostile 8 MB uploads after a series
 * of 9 MB ones peaked at 556–706 MB of the server's memory, 407–438 MB with this (bench/upload_pressure.bench.ts).
 * The collection costs the thread some milliseconds after a read of hundreds; small inputs never trigger it.
 * `gc` is given only to contexts made after the flag is set, hence the new context (process-wide, as V8's flags are).
 */
setFlagsFromString("--expose-gc");
const _collect = runInNewContext("gc") as () => void;

parentPort?.on("message", (m: { id: number; xml: Uint8Array; json?: boolean; fields?: boolean; check?: boolean; validate?: boolean; pdf?: Omit<RenderOptions, "fonts"> }) => {
  if (m.xml.byteLength >= INLINE_LIMIT_BYTES) setImmediate(_collect); // after the answer below is posted
  try {
    // Each schema type is compiled on first use, in this thread, from the files it was started with.
    const schemas = data?.schemas ? schemaSetOf(data.schemas) : null;
    if (m.check) return parentPort!.postMessage({ id: m.id, checked: readAndValidate(m.xml, schemas) });
    if (m.validate) return parentPort!.postMessage({ id: m.id, report: verdictOf(m.xml, schemas) });
    if (m.fields) return parentPort!.postMessage({ id: m.id, fields: importFields(m.xml, schemas) });
    if (m.pdf && fonts === null) throw new Error("Cannot render a PDF: the invoice threads were started without fonts");
    const invoice = readInvoiceXml(m.xml);
    if (m.pdf) {
      const rendered = renderInvoicePdf(invoice, { ...m.pdf, fonts: fonts! });
      parentPort!.postMessage({ id: m.id, pdf: rendered }, [rendered.bytes.buffer as ArrayBuffer]);
    } else if (m.json) {
      const json = encoder.encode(JSON.stringify(invoice));
      parentPort!.postMessage({ id: m.id, json }, [json.buffer as ArrayBuffer]);
    } else parentPort!.postMessage({ id: m.id, invoice });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: describeThreadError(e) });
  }
});

parentPort?.postMessage({ ready: true }); // the pool sends reads here from now on
