/**
 * The `integrator-api/validator` entry point (README "Validation", "Embedding the core"): the invoice validator
 * (XML Schema, EN 16931 rules, KSeF file limits) with the official schemas shipped in this folder, for callers who
 * want only the verdict on an invoice and not the API. It re-exports; it holds no logic.
 * @module
 */
export { readSchemaFiles } from "./schema_files.ts";
export { SchemaSet, schemaSetOf, type SchemaFiles } from "../../lib/formats/validation/schema_set.ts";
export { readAndValidate, verdictOf, type CheckedInvoice } from "../../lib/formats/validation/read_and_validate.ts";
export { formatOf, MAX_VIOLATIONS, validateInvoice, validationSummary, type ValidationReport, type ValidationSummary } from "../../lib/formats/validation/invoice_validation.ts";
export { checkKsefFile, KSEF_MAX_BYTES, KSEF_MAX_BYTES_WITH_ATTACHMENTS } from "../../lib/formats/validation/ksef_file.ts";
export type { Severity, Violation } from "../../lib/formats/validation/violation.ts";
export type { SchemaFile } from "../../lib/formats/xsd/compile.ts";
export { XmlError } from "../../lib/formats/xml/errors.ts";
export { InvoiceError } from "../../lib/formats/invoice/errors.ts";
