/**
 * An uploaded invoice that may come as a PDF carrying it (README "EU formats": Factur-X 1.0, ZUGFeRD 2.x and 1.0,
 * XRechnung in a PDF): the embedded XML is the invoice, checked and stored as an XML upload, and the PDF is kept as
 * what the seller issued. A PDF the reader refuses (damaged, encrypted, over a limit) is 422 naming the reason; a
 * readable one without an embedded invoice is 422 NO_EMBEDDED_INVOICE.
 * @module
 */
import { extractEmbeddedInvoice, isPdf, PdfReadError } from "../formats/pdf/read/embedded_invoice.ts";
import { validationError } from "../http/errors.ts";
import { apiError } from "./errors.ts";

/** The invoice XML of an upload, and the PDF it came in (null for XML). */
export interface UploadedInvoice {
  xml: Uint8Array;
  pdf: Uint8Array | null;
}

/** The invoice of `bytes`: the bytes themselves, or the XML a PDF carries. */
export function uploadedInvoice(bytes: Uint8Array): UploadedInvoice {
  if (!isPdf(bytes)) return { xml: bytes, pdf: null };
  let embedded;
  try {
    embedded = extractEmbeddedInvoice(bytes);
  } catch (e) {
    if (e instanceof PdfReadError) throw validationError("xml", e.reason, `The PDF cannot be read: ${e.message}`);
    throw e;
  }
  if (embedded === null) {
    throw apiError("NO_EMBEDDED_INVOICE", "The PDF carries no embedded invoice: a Factur-X or ZUGFeRD PDF embeds factur-x.xml, zugferd-invoice.xml or xrechnung.xml");
  }
  return { xml: embedded.xml, pdf: bytes };
}
