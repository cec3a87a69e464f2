/**
 * Worker threads that read invoice XML off the event loop: a
 * 10 MiB hostile upload then costs another tenant's request nothing but a share
 * of the CPU. A fixed number of threads, each reading one invoice at a time;
 * the caller (lib/api/invoice_reader.ts) bounds how many wait. Node only: on
 * Deno the reads stay on the main thread, in their slots. Threads start on
 * their first read (or warm()), so a pool that is never used costs nothing;
 * until one is ready, small reads are done on the main thread and large ones
 * (from INLINE_LIMIT_BYTES) wait for it: a 9 MB upload read here would hold the
 * event loop, and every tenant's requests with it, for a third of a second.
 * @module
 */
import { Worker } from "node:worker_threads";
import { importFields } from "../../lib/contracts/record_json.ts";
import type { ImportedFields } from "../../lib/contracts/storage.ts";
import type { Invoice } from "../../lib/formats/invoice/model.ts";
import { readInvoiceXml } from "../../lib/formats/invoice/read_xml.ts";
import { type CheckedInvoice, readAndValidate, verdictOf } from "../../lib/formats/validation/read_and_validate.ts";
import type { ValidationReport } from "../../lib/formats/validation/invoice_validation.ts";
import { type SchemaFiles, schemaSetOf } from "../../lib/formats/validation/schema_set.ts";
import { type PdfFontFiles, PdfFonts } from "../../lib/formats/pdf/pdf_fonts.ts";
import { type RenderedPdf, type RenderOptions, renderInvoicePdf } from "../../lib/formats/pdf/invoice_pdf.ts";
import { rebuildThreadError, type ThreadError } from "./thread_errors.ts";

/**
 * Inputs from this size wait for a thread rather than being read on the main thread while none is ready: the
 * large-read threshold of lib/api/invoice_reader.ts (LARGE_XML_BYTES), under which a read costs a few milliseconds.
 */
export const INLINE_LIMIT_BYTES = 256 * 1024;

/** A pool of invoice-reading threads. */
export interface InvoiceWorkers {
  read(xml: Uint8Array): Promise<Invoice>;
  /** The invoice's JSON bytes, made in the thread (README "The invoice object"). */
  json(xml: Uint8Array): Promise<Uint8Array>;
  /** The fields a document record keeps and the verdict on the XML (lib/contracts/record_json.ts), in the thread. */
  fields(xml: Uint8Array): Promise<ImportedFields>;
  /** An upload read and validated from one parse, against the schemas the pool was started with. */
  check(xml: Uint8Array): Promise<CheckedInvoice>;
  /** The verdict alone (lib/formats/validation/read_and_validate.ts verdictOf), against the same schemas. */
  validate(xml: Uint8Array): Promise<ValidationReport>;
  /** The invoice rendered as a PDF in the thread, with the fonts the pool was started with. */
  pdf(xml: Uint8Array, options: Omit<RenderOptions, "fonts">): Promise<RenderedPdf>;
  /** Threads started so far (they start on demand). */
  started(): number;
  /** Starts a thread now, if none is, and resolves once one is ready (until then reads are done on the main thread). */
  warm(): Promise<void>;
  /** Ends the threads. */
  close(): Promise<void>;
}

interface _Reply {
  id: number;
  invoice?: Invoice;
  json?: Uint8Array;
  fields?: ImportedFields;
  checked?: CheckedInvoice;
  report?: ValidationReport;
  pdf?: RenderedPdf;
  /** What the thread threw (thread_errors.ts), rebuilt here as the same class with the same fields. */
  error?: ThreadError;
}

/** A pool of up to `size` threads; with `fonts` they can render PDFs, with `schemas` validate uploads. */
export function createInvoiceWorkers(size: number, fonts?: PdfFontFiles, schemas?: SchemaFiles): InvoiceWorkers {
  // Compiled (the npm package's dist/, README "Embedding the core") this module is .js and so is the worker's entry.
  const compiled = import.meta.url.endsWith(".js");
  const url = new URL(compiled ? "./invoice_worker.js" : "./invoice_worker.ts", import.meta.url).href;
  // A worker does not inherit the main thread's module hooks: on a Node without type stripping (20, run through
  // tsx) the worker registers tsx itself before loading the TypeScript entry.
  const strips = typeof (process.features as { typescript?: unknown }).typescript === "string";
  const boot = compiled || strips
    ? `import(${JSON.stringify(url)});`
    : `import("tsx/esm/api").then((t) => t.register()).then(() => import(${JSON.stringify(url)}));`;
  type _Thread = { w: Worker; ready: boolean; dead: boolean; pending: Map<number, { resolve: (r: _Reply) => void; reject: (e: Error) => void }> };
  const threads: _Thread[] = [];
  const readyWaiters: (() => void)[] = [];
  let next = 0;
  function start(): void {
    const w = new Worker(boot, { eval: true, workerData: { fonts, schemas } });
    w.unref(); // a thread never keeps the process alive
    const t: _Thread = { w, ready: false, dead: false, pending: new Map() };
    threads.push(t);
    t.w.on("message", (r: _Reply | { ready: true }) => {
      if ("ready" in r) {
        t.ready = true;
        return void readyWaiters.splice(0).forEach((wake) => wake());
      }
      const p = t.pending.get(r.id);
      t.pending.delete(r.id);
      if (!p) return;
      if (r.error) p.reject(rebuildThreadError(r.error));
      else p.resolve(r);
    });
    // A thread that fails is not used again; its reads fail, later ones go to the others or the main thread.
    const died = (cause?: unknown): void => {
      t.dead = true;
      const stopped = (): Error => new Error("The invoice reading thread stopped", cause instanceof Error ? { cause } : {});
      for (const [id, p] of t.pending) (t.pending.delete(id), p.reject(stopped()));
      readyWaiters.splice(0).forEach((wake) => wake());
    };
    t.w.on("error", died); // e.g. ERR_WORKER_OUT_OF_MEMORY: the reads it had fail with it as their cause
    t.w.on("exit", () => died());
  }
  // The thread with the fewest reads in hand among those that are ready; null (read on the main thread) while none
  // is: a thread takes a second or so to start, and reads meanwhile do not wait for it.
  function post(xml: Uint8Array, json: boolean, pdf?: Omit<RenderOptions, "fonts">, ask: { fields?: boolean; check?: boolean; validate?: boolean } = {}): Promise<_Reply> | null {
    const ready = threads.filter((t) => t.ready && !t.dead);
    // Another thread starts when every one is busy (and none is starting), until the pool has `size`.
    if (threads.length < size && ready.length === threads.filter((t) => !t.dead).length && ready.every((t) => t.pending.size > 0)) start();
    if (ready.length === 0) {
      if (xml.byteLength < INLINE_LIMIT_BYTES) return null;
      // A large input waits for the thread that is starting (or starts one: the dead are replaced up to `size`).
      if (!threads.some((t) => !t.dead) && threads.filter((t) => t.dead).length >= size) return null;
      return pool.warm().then(() => (threads.some((t) => t.ready && !t.dead) ? post(xml, json, pdf, ask) : null)).then((r) => r ?? _inline(xml, json, pdf, ask));
    }
    const t = ready.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = next++;
    return new Promise<_Reply>((resolve, reject) => {
      t.pending.set(id, { resolve, reject });
      t.w.postMessage({ id, xml, json, pdf, ...ask });
    });
  }
  // What a thread would have answered, made here: only when no thread can start at all.
  function _inline(xml: Uint8Array, json: boolean, pdf: Omit<RenderOptions, "fonts"> | undefined, ask: { fields?: boolean; check?: boolean; validate?: boolean }): _Reply {
    if (ask.check) return { id: -1, checked: readAndValidate(xml, schemas ? schemaSetOf(schemas) : null) };
    if (ask.validate) return { id: -1, report: verdictOf(xml, schemas ? schemaSetOf(schemas) : null) };
    if (ask.fields) return { id: -1, fields: importFields(xml, schemas ? schemaSetOf(schemas) : null) };
    if (pdf) {
      if (!fonts) throw new Error("Cannot render a PDF: the invoice threads were started without fonts");
      return { id: -1, pdf: renderInvoicePdf(readInvoiceXml(xml), { ...pdf, fonts: new PdfFonts(fonts) }) };
    }
    const invoice = readInvoiceXml(xml);
    return json ? { id: -1, json: new TextEncoder().encode(JSON.stringify(invoice)) } : { id: -1, invoice };
  }
  const pool: InvoiceWorkers = {
    async read(xml) {
      const r = post(xml, false);
      return r === null ? readInvoiceXml(xml) : (await r).invoice!;
    },
    async json(xml) {
      const r = post(xml, true);
      return r === null ? new TextEncoder().encode(JSON.stringify(readInvoiceXml(xml))) : (await r).json!;
    },
    async fields(xml) {
      const r = post(xml, false, undefined, { fields: true });
      return r === null ? importFields(xml, schemas ? schemaSetOf(schemas) : null) : (await r).fields!;
    },
    async check(xml) {
      const r = post(xml, false, undefined, { check: true });
      return r === null ? readAndValidate(xml, schemas ? schemaSetOf(schemas) : null) : (await r).checked!;
    },
    async validate(xml) {
      const r = post(xml, false, undefined, { validate: true });
      return r === null ? verdictOf(xml, schemas ? schemaSetOf(schemas) : null) : (await r).report!;
    },
    async pdf(xml, options) {
      const r = post(xml, false, options);
      if (r === null && !fonts) throw new Error("Cannot render a PDF: the invoice threads were started without fonts");
      if (r === null) return renderInvoicePdf(readInvoiceXml(xml), { ...options, fonts: new PdfFonts(fonts!) });
      return (await r).pdf!;
    },
    started: () => threads.length,
    async warm() {
      if (threads.length === 0) start();
      while (!threads.some((t) => t.ready) && threads.some((t) => !t.dead)) await new Promise<void>((wake) => readyWaiters.push(wake));
    },
    async close() {
      await Promise.all(threads.map((t) => t.w.terminate()));
    },
  };
  return pool;
}
