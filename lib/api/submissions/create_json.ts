/**
 * The invoice object of a JSON request written as XML (README "Creating invoices"), for `POST /api/v1/submissions`
 * with JSON, `POST /api/v1/convert` and the `convert` command: the object is read against the OpenAPI document's
 * invoice schemas (every field optional), what follows from its values is computed or checked, and the format's
 * writer writes the XML, which the caller then checks as an upload. Every refusal names the JSON path at fault
 * (`invoice.lines[2].net_price`) beside the XML path it went to.
 * @module
 */
import type { ConversionLossRecord } from "../../contracts/storage.ts";
import { completeInvoice, type WrittenFormat } from "../../formats/invoice/compute.ts";
import { EN16931_PROFILE } from "../../formats/invoice/convert.ts";
import { InvoiceError } from "../../formats/invoice/errors.ts";
import type { Invoice } from "../../formats/invoice/model.ts";
import { partyTaxId } from "../../formats/invoice/read.ts";
import { fieldAt, writeInvoice, WRITTEN_FORMATS } from "../../formats/invoice/write_invoice.ts";
import { badRequest, validationError } from "../../http/errors.ts";
import { objectRefusal } from "../validation.ts";
import { readInvoiceInput } from "./invoice_input.ts";

/** An invoice object written as XML, what the format had no place for, and where each value went. */
export interface MadeInvoice {
  xml: Uint8Array;
  invoice: Invoice;
  losses: ConversionLossRecord[];
  fieldAt: (path: string) => string | null;
}

/** The `format` of a JSON request: 422 when absent, 400 when not one written. */
export function writtenFormat(value: unknown): WrittenFormat {
  if (value === undefined || value === null) throw validationError("format", "required", "format is required: ksef-fa3, ubl or cii");
  if (typeof value !== "string" || !(WRITTEN_FORMATS as readonly string[]).includes(value)) {
    throw badRequest("format", "invalid_value", `format must be one of ${WRITTEN_FORMATS.join(", ")}`);
  }
  return value as WrittenFormat;
}

/**
 * Reads the invoice object `value`, computes what follows from it, and writes it in `format`; 422 naming the JSON
 * path of each value that does not fit or disagree. The XML is not validated here: the caller checks it as an upload.
 */
export function makeInvoiceXml(value: unknown, format: WrittenFormat, now: Date): MadeInvoice {
  if (value === undefined || value === null) throw validationError("invoice", "required", "invoice is required: the invoice object");
  if (typeof value !== "object" || Array.isArray(value)) throw objectRefusal([{ rule: "INVOICE-JSON", field: "invoice", message: "invoice must be an object" }]);
  // `format` is the request's; `type` follows from the kind unless the object gives it (compute.ts).
  const { invoice, findings } = readInvoiceInput({ format, type: "other", ...value });
  if (findings.length > 0) throw objectRefusal(findings.map((f) => ({ rule: "INVOICE-JSON", ...f })));
  invoice.format = format;
  if (format !== "ksef-fa3") invoice.profile ??= EN16931_PROFILE;
  // What every submission holds (its duplicate key), named as the object's fields rather than as XML paths.
  const missing = [
    invoice.number === null ? "invoice.number" : null, invoice.issue_date === null ? "invoice.issue_date" : null,
    partyTaxId(invoice.seller) === null ? "invoice.seller.tax_id" : null,
  ].filter((f): f is string => f !== null);
  if (missing.length > 0) throw objectRefusal(missing.map((field) => ({ rule: "INVOICE-JSON", field, message: `${field} is required` })));
  const computed = completeInvoice(invoice, format);
  let written;
  try {
    written = writeInvoice(invoice, format, { now, trace: true });
  } catch (e) {
    // A value XML cannot carry (a control character): the writer names its field.
    if (e instanceof InvoiceError) throw objectRefusal([{ rule: "INVOICE-JSON", field: e.field, message: e.message }]);
    throw e;
  }
  const fields = written.fields;
  if (computed.length > 0) {
    // Where the disagreeing value went in the XML, so that the answer names both places.
    const pathOf = (field: string) => fields.find((f) => f.field === field)?.path;
    throw objectRefusal(computed.map((f) => {
      const path = pathOf(f.field);
      return path === undefined ? f : { ...f, path };
    }));
  }
  return {
    xml: new TextEncoder().encode(written.xml), invoice,
    losses: written.losses.map((l) => ({ path: null, ...l })),
    fieldAt: (path) => fieldAt(fields, path),
  };
}
