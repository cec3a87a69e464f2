/**
 * Validation at the API edge (README "Validation"): the verdict on an upload, the 422
 * refusal that lists every finding, the `validation` object of submissions and documents,
 * and `POST /api/v1/validate`, which answers the verdict and stores nothing.
 * @module
 */
import type { ApiRoute, Context } from "./context.ts";
import { okJson } from "./openapi/operation.ts";
import { type ValidationReport, validationSummary } from "../formats/validation/invoice_validation.ts";
import type { Violation } from "../formats/validation/violation.ts";
import { uploadedInvoice } from "./pdf_upload.ts";
import { InvoiceError } from "../formats/invoice/errors.ts";
import { XmlError } from "../formats/xml/errors.ts";
import { ApiError, validationError } from "../http/errors.ts";
import { json } from "../http/respond.ts";
import type { ApiResponse } from "../http/types.ts";

/** 422 VALIDATION_ERROR naming the first error, with every finding in `violations` (README "Validation"). */
export function refusal(report: ValidationReport): ApiError {
  const first = report.errors[0]!;
  const field = first.field ?? (first.path === "/" ? "xml" : `xml:${first.path}`);
  const where = first.line === null ? "" : ` (line ${first.line}, column ${first.column})`;
  return new ApiError("VALIDATION_ERROR", `The invoice fails ${first.rule}: ${first.message}${where}`, {
    field, issue: first.message, violations: [...report.errors, ...report.warnings],
  });
}

/**
 * The report with each finding's `field`: the invoice-object path of what was written at its XML path (an invoice
 * created from JSON, README "Creating invoices"); findings at no written field keep none.
 */
export function withFields(report: ValidationReport, fieldAt: (path: string) => string | null): ValidationReport {
  const add = (v: Violation): Violation => {
    const field = fieldAt(v.path);
    return field === null ? v : { ...v, field };
  };
  return { ...report, errors: report.errors.map(add), warnings: report.warnings.map(add) };
}

/** 422 VALIDATION_ERROR for an invoice object refused before its XML is written: each finding names its JSON path. */
export function objectRefusal(findings: readonly { rule: string; field: string; message: string; path?: string }[]): ApiError {
  const first = findings[0]!;
  const violations: Violation[] = findings.map((f) => ({ rule: f.rule, severity: "error", path: f.path ?? "/", line: null, column: null, message: f.message, field: f.field }));
  return new ApiError("VALIDATION_ERROR", `The invoice object fails ${first.rule}: ${first.message}`, { field: first.field, issue: first.message, violations });
}

/** `json` (a record's JSON object) with `validation` (the object's JSON, or null) added as its last key. */
export function withValidation(json: Uint8Array, validation: Uint8Array | null): Uint8Array {
  const text = new TextDecoder().decode(json);
  const value = validation === null ? "null" : new TextDecoder().decode(validation);
  return new TextEncoder().encode(`${text.slice(0, text.lastIndexOf("}"))},"validation":${value}}`);
}

/**
 * A stored XML's `validation` object (JSON), judged once per process and kept by its SHA-256; null when the XML is
 * missing or not readable as a supported format (a document is never refused: there is no verdict to give). Any
 * other failure is thrown (a 503 of the large-read queue as itself, a bug as a logged 500), never shown as null.
 */
export async function storedVerdict(ctx: Context, sha256: string): Promise<Uint8Array | null> {
  const hit = ctx.app.verdicts.get(sha256);
  if (hit !== undefined) return hit;
  // Concurrent requests for one document's verdict wait for one judgement (README "Limits").
  return ctx.app.builds.run(`${ctx.tenant.tenant}/verdict-${sha256}`, () => ctx.req.aborted?.() === true, (gone) => _judge(ctx, sha256, gone));
}

async function _judge(ctx: Context, sha256: string, gone: () => boolean): Promise<Uint8Array | null> {
  const blob = await ctx.tenant.getBlob(sha256);
  if (blob === null) return null;
  let report: ValidationReport;
  try {
    report = await ctx.app.validate(await blob.bytes(), { tenant: ctx.tenant.tenant, gone });
  } catch (e) {
    // XML that is no readable invoice has no verdict; anything else (429/503 of the large-read queue, a bug) is thrown.
    if (e instanceof XmlError || e instanceof InvoiceError) return null;
    throw e;
  }
  const json = new TextEncoder().encode(JSON.stringify(validationSummary(report)));
  ctx.app.verdicts.set(sha256, json);
  return json;
}

async function validateRequest(ctx: Context): Promise<ApiResponse> {
  const part = ctx.body.kind === "multipart" ? ctx.body.parts.find((p) => p.name === "xml") : undefined;
  if (!part) throw validationError("xml", "required", "xml is required");
  if (part.body.length === 0) throw validationError("xml", "empty", "xml is empty");
  const report = await ctx.app.validate(uploadedInvoice(part.body).xml, { tenant: ctx.tenant.tenant });
  return json(200, JSON.stringify({ valid: report.valid, format: report.format, checks: report.checks, errors: report.errors, warnings: report.warnings }));
}

/** POST /api/v1/validate: multipart like an upload, or the XML itself as application/xml. */
export const validationRoutes: ApiRoute[] = [
  {
    method: "POST", pattern: "/api/v1/validate", scope: "submissions:write", body: "upload", handle: validateRequest,
    openapi: {
      id: "validateInvoice", tag: "Submissions", summary: "Validate an invoice without submitting it",
      description: "The same checks as an upload, answered as a verdict: multipart like `POST /submissions` (the `xml` part, which may be a Factur-X or ZUGFeRD PDF: its embedded invoice is judged), or the XML itself with `Content-Type: application/xml`. Nothing is stored and no event fires. A body that is not XML or not a supported format is 422 as for an upload.",
      ok: { 200: okJson("The verdict", "ValidationReport") },
      errors: ["VALIDATION_ERROR", "UNSUPPORTED_MEDIA_TYPE", "NO_EMBEDDED_INVOICE"],
    },
  },
];
