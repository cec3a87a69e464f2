/**
 * The one error type of the invoice readers: a document that parses as XML but
 * is not a supported invoice, or lacks a value that the caller requires. It
 * names the field (`xml` or an XML path such as `xml:/Faktura/Fa/P_2`) and a
 * short issue; the API edge answers it as 422 VALIDATION_ERROR (the OpenAPI document).
 * @module
 */

/** An invoice the readers refuse. */
export class InvoiceError extends Error {
  /** `xml`, or the XML path of the missing or invalid value. */
  readonly field: string;
  /** A short fixed phrase, e.g. `required`. */
  readonly issue: string;

  constructor(field: string, issue: string, message: string) {
    super(message);
    this.name = "InvoiceError";
    this.field = field;
    this.issue = issue;
  }
}
