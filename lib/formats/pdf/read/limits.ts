/**
 * The limits of the PDF reader and the budget that enforces them while one file is read. Every
 * limit is a finite default sized from real invoices with room to spare; a PDF over one ends in a
 * PdfReadError with the limit's reason code, never in a partial answer. The work budget counts the
 * bytes the tokenizer and the searches look at, so no structure (loops, huge counts) runs unbounded.
 * @module
 */

import { PdfReadError } from "./read_error.ts";

/** Limits of one extractEmbeddedInvoice() call. */
export interface PdfReadLimits {
  /** Object numbers in the cross-reference data (or found by a scan), and objects parsed. */
  maxObjects: number;
  /** Values (numbers, names, strings, arrays, dictionaries…) parsed in all objects together: bounds the memory they hold. */
  maxValues: number;
  /** Nesting of arrays and dictionaries in one object, and of objects needed to read one object. */
  maxDepth: number;
  /** Bytes of one stream, as declared by /Length and as decoded. */
  maxStreamBytes: number;
  /** Decoded bytes of all streams read (cross-reference and object streams, the embedded file). */
  maxTotalBytes: number;
  /** Embedded files looked at (catalog /AF entries and /EmbeddedFiles names). */
  maxEmbeddedFiles: number;
  /** Cross-reference sections chained by /Prev and /XRefStm (one per incremental update). */
  maxUpdates: number;
  /** Nodes of the /EmbeddedFiles name tree visited. */
  maxNameTreeNodes: number;
  /** Bytes tokenized, plus an eighth of the bytes searched (for `endstream`, for objects in a broken file). */
  maxWorkBytes: number;
}

/** The defaults. */
export const DEFAULT_PDF_READ_LIMITS: Readonly<PdfReadLimits> = Object.freeze({
  // A 100-page invoice with fonts and images has a few thousand objects; the ISO 32000-1
  // Annex C limit of 8,388,607 indirect objects is far beyond any invoice.
  maxObjects: 200_000,
  // The reader parses the catalog, the name tree, the file specifications and cross-reference dictionaries,
  // never page content: a few thousand values in real files. A parsed value takes about 100 bytes, so this
  // keeps what one file can make the reader hold to some 25 MB.
  maxValues: 250_000,
  // Real documents nest a handful of levels (page tree dictionaries, annotation arrays).
  maxDepth: 64,
  // As lib/formats/zip/read.ts: KSeF caps an invoice with attachments at 10 MB, XRechnung's
  // attachments are a few MB; 32 MB is room for the XML with its embedded attachments.
  maxStreamBytes: 32 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
  // Factur-X carries one XML, sometimes with a few attachments beside it.
  maxEmbeddedFiles: 1_000,
  // Each incremental update (a signature, a form fill) adds one section; dozens is already rare.
  maxUpdates: 100,
  maxNameTreeNodes: 10_000,
  // Reading a real Factur-X file tokenizes a few kilobytes; this is a whole 32 MB file tokenized, about
  // 0.5 s on an idle core here (8–30 MB/s measured while the machine was shared by ~8 jobs), or a broken
  // 64 MB file searched four times over (searches run at about 1 GB/s, hence the eighth).
  maxWorkBytes: 32 * 1024 * 1024,
});

/** The defaults with `overrides` applied; throws RangeError for a limit that is not a positive integer. */
export function resolvePdfReadLimits(overrides: Partial<PdfReadLimits> = {}): PdfReadLimits {
  const limits = { ...DEFAULT_PDF_READ_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`PDF read limit ${name} must be a positive integer, got ${String(value)}`);
  }
  return limits;
}

/** What one read has used so far; each charge throws PdfReadError past its limit. */
export class ReadBudget {
  readonly limits: PdfReadLimits;
  #work = 0;
  #decoded = 0;
  #objects = 0;
  #values = 0;

  constructor(limits: PdfReadLimits) {
    this.limits = limits;
  }

  /** Bytes scanned. */
  work(bytes: number): void {
    this.#work += bytes;
    if (this.#work > this.limits.maxWorkBytes) throw new PdfReadError("too_much_work", `Reading this PDF takes more than ${this.limits.maxWorkBytes} bytes of scanning`);
  }

  /** Bytes searched (Buffer.indexOf, byte loops): an eighth of tokenizing's cost per byte. */
  search(bytes: number): void {
    this.work(Math.ceil(bytes / 8));
  }

  /** One more value parsed. */
  value(): void {
    if (++this.#values > this.limits.maxValues) throw new PdfReadError("too_many_values", `This PDF needs more than ${this.limits.maxValues} values parsed`);
  }

  /** One more object parsed. */
  object(): void {
    if (++this.#objects > this.limits.maxObjects) throw new PdfReadError("too_many_objects", `This PDF needs more than ${this.limits.maxObjects} objects parsed`);
  }

  /** Decoded bytes still allowed in total. */
  decodedLeft(): number {
    return this.limits.maxTotalBytes - this.#decoded;
  }

  /** Bytes decoded. */
  decoded(bytes: number): void {
    this.#decoded += bytes;
    if (this.#decoded > this.limits.maxTotalBytes) throw new PdfReadError("too_much_data", `This PDF's streams decode to more than ${this.limits.maxTotalBytes} bytes`);
  }
}
