/**
 * The one error the PDF reader throws for a file it refuses: a reason code a caller can map to an
 * answer (a damaged file, an encrypted one, one over a limit of limits.ts) and a sentence for people.
 * A readable PDF that carries no invoice is not an error: extractEmbeddedInvoice() returns null.
 * @module
 */

/** Why a PDF was refused. */
export const PDF_READ_REASONS = [
  "not_pdf", // no `%PDF-` header in the first 1024 bytes
  "damaged", // the structure cannot be read, even by scanning for objects
  "encrypted", // the trailer has /Encrypt: embedded files are encrypted too (PDF/A-3 forbids encryption)
  "unsupported", // a stream filter or predictor this reader does not implement
  "loop", // a /Prev chain, a reference or an object stream that leads back to itself
  "too_many_objects",
  "too_many_values",
  "too_deep",
  "stream_too_large",
  "too_much_data",
  "too_many_files",
  "too_many_updates",
  "name_tree_too_large",
  "too_much_work",
] as const;

/** A reason code of PdfReadError. */
export type PdfReadReason = typeof PDF_READ_REASONS[number];

/** A PDF the reader refuses: damaged, encrypted, looping, or over one of the limits. */
export class PdfReadError extends Error {
  /** What went wrong, as a code. */
  readonly reason: PdfReadReason;

  constructor(reason: PdfReadReason, message: string) {
    super(message);
    this.name = "PdfReadError";
    this.reason = reason;
  }
}
