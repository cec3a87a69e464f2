/**
 * The submissions endpoints (the OpenAPI document): upload an invoice as multipart/form-data
 * (the `xml` part), list the tenant's submissions as a change feed, read one,
 * and download its exact bytes or its PDF rendering.
 * @module
 */
import { fieldsFromInvoice } from "../../contracts/record_json.ts";
import { pdfResponse, xmlDownload } from "../downloads.ts";
import { feedListing } from "../feed_listing.ts";
import { wantsInvoice, withInvoice } from "../invoice_expand.ts";
import { CURSOR_LIMIT, intParam } from "../list_query.ts";
import { parseSubmissionFilter } from "./filter.ts";
import { upoKey } from "../../contracts/ksef_upo.ts";
import { idempotencyTag, type ApiRoute, type Context } from "../context.ts";
import { DOWNLOAD_PARAMS, created, download, okJson } from "../openapi/operation.ts";
import { ApiError, notFound, validationError } from "../../http/errors.ts";
import { apiError } from "../errors.ts";
import { json } from "../../http/respond.ts";
import type { ApiResponse } from "../../http/types.ts";
import { requireSubmissionFields } from "../../formats/invoice/read.ts";
import { validationSummary } from "../../formats/validation/invoice_validation.ts";
import { refusal } from "../validation.ts";
import type { ChangePage, Stored, StoredResponse, SubmissionFilter, SubmissionRecord, TenantStore } from "../../contracts/storage.ts";

async function createSubmission(ctx: Context): Promise<ApiResponse> {
  const part = ctx.body.kind === "multipart" ? ctx.body.parts.find((p) => p.name === "xml") : undefined;
  if (!part) throw validationError("xml", "required", "xml is required");
  if (part.body.length === 0) throw validationError("xml", "empty", "xml is empty");
  const { invoice, report } = await ctx.app.checkUpload(part.body, { tenant: ctx.tenant.tenant });
  requireSubmissionFields(invoice);
  if (!report.valid) throw refusal(report);
  const blob = await ctx.tenant.putBlob(part.body);
  const created = (json: string): StoredResponse => ({ status: 201, location: `/api/v1/submissions/${(JSON.parse(json) as SubmissionRecord).id}`, body: json });
  // KSeF FA invoices of a tenant that sends are queued for KSeF (README "Sending to KSeF"); UBL and CII never are.
  const send = (invoice.format === "ksef-fa2" || invoice.format === "ksef-fa3") && (ctx.app.ksefSend?.sends(ctx.tenant.tenant) ?? false);
  const input = { fields: { ...fieldsFromInvoice(invoice), validation: validationSummary(report) }, xml: blob, ...(send ? { send } : {}) };
  const result = await ctx.tenant.createSubmission(input, new Date(ctx.app.now()).toISOString(), idempotencyTag(ctx, created));
  if ("duplicateOf" in result) {
    throw apiError("DUPLICATE_SUBMISSION", "This invoice was already submitted", { existing_id: result.duplicateOf });
  }
  // submission.created is delivered from the submissions feed (lib/jobs/webhooks/endpoint_pass.ts).
  if (send) ctx.app.ksefSend?.wake();
  const sub = await ctx.tenant.getSubmission(result.created.id);
  return json(201, sub!.json, { location: `/api/v1/submissions/${result.created.id}` });
}

async function listSubmissions(ctx: Context): Promise<ApiResponse> {
  const q = ctx.req.query;
  const limit = intParam(q, "limit", CURSOR_LIMIT.min, CURSOR_LIMIT.max, CURSOR_LIMIT.default);
  const { filter, filterKey } = parseSubmissionFilter(q);
  return feedListing(ctx, { collection: "submissions", cursor: q.get("cursor"), limit, filter, filterKey, expand: wantsInvoice(q), read: _readSubmissions });
}

function _readSubmissions(tenant: TenantStore, from: number, n: number, maxScan: number, filter: SubmissionFilter): Promise<ChangePage> {
  return tenant.submissionChanges(from, n, maxScan, filter);
}

async function findSubmission(ctx: Context): Promise<Stored<SubmissionRecord>> {
  const sub = await ctx.tenant.getSubmission(ctx.params.id!);
  if (!sub) throw notFound("Submission not found");
  return sub;
}

async function downloadXml(ctx: Context): Promise<ApiResponse> {
  const { record } = await findSubmission(ctx);
  const blob = await ctx.tenant.getBlob(record.sha256);
  if (!blob) throw new ApiError("INTERNAL_ERROR", "Submission XML is missing");
  return xmlDownload(ctx, blob, record.number ?? record.id);
}

async function downloadPdf(ctx: Context): Promise<ApiResponse> {
  const { record } = await findSubmission(ctx);
  // Once KSeF accepted it, the rendering shows its KSeF number, as a document's does.
  const res = await pdfResponse(ctx, record.sha256, record.number ?? record.id, record.format, record.ksef?.ksef_number ?? null);
  if (!res) throw new ApiError("INTERNAL_ERROR", "Submission XML is missing");
  return res;
}

/** The UPO as KSeF issued it; 404 UPO_NOT_AVAILABLE until the submission is accepted by KSeF. */
async function downloadUpo(ctx: Context): Promise<ApiResponse> {
  const { record } = await findSubmission(ctx);
  const upo = record.ksef?.status === "accepted" ? await ctx.tenant.getDerived(upoKey(record.id)) : null;
  if (!upo) throw apiError("UPO_NOT_AVAILABLE", "KSeF has not issued the official receipt (UPO) of this submission yet");
  return xmlDownload(ctx, upo, `${record.number ?? record.id}-UPO`);
}

async function getSubmission(ctx: Context): Promise<ApiResponse> {
  const { record, json: body } = await findSubmission(ctx);
  return json(200, await withInvoice(ctx, body, record.sha256));
}

/** The submissions routes. */
export const submissionRoutes: ApiRoute[] = [
  {
    method: "POST", pattern: "/api/v1/submissions", scope: "submissions:write", body: "multipart", handle: createSubmission,
    openapi: {
      id: "createSubmission", tag: "Submissions", summary: "Submit an invoice",
      description: "The invoice goes in the `xml` part. It must be well-formed (no DTD), a supported format, hold a number, an issue date and the seller's tax id, and pass validation: KSeF's file rules and the FA schema for KSeF invoices; the UBL or CII schema and, for documents that claim EN 16931, its business rules. An invoice with errors is refused with 422 `VALIDATION_ERROR`, `details.field` = `xml:<path of the first error>` and `details.violations` listing every error and warning (at most 200); warnings never refuse.",
      ok: { 201: created("The accepted submission", "Submission") },
      errors: ["DUPLICATE_SUBMISSION", "VALIDATION_ERROR"],
    },
  },
  {
    method: "GET", pattern: "/api/v1/submissions", scope: "submissions:read", handle: listSubmissions,
    openapi: {
      id: "listSubmissions", tag: "Submissions", summary: "List submissions (the feed)",
      description: "The change feed in order of last change, oldest first: a submission whose KSeF state changes moves to the end, so a client following the feed sees each KSeF outcome (deduplicate by id).",
      params: ["Cursor", "Limit", "KsefStatus", "SubmissionFormat", "SubmissionType", "Expand"],
      ok: { 200: okJson("A page of submissions", "SubmissionFeedPage") },
    },
  },
  {
    method: "GET", pattern: "/api/v1/submissions/:id", scope: "submissions:read", handle: getSubmission,
    openapi: { id: "getSubmission", tag: "Submissions", summary: "Get a submission", params: ["SubmissionId"], ok: { 200: okJson("The submission", "Submission") }, errors: ["NOT_FOUND"] },
  },
  {
    method: "GET", pattern: "/api/v1/submissions/:id/xml", scope: "submissions:read", handle: downloadXml,
    openapi: {
      id: "getSubmissionXml", tag: "Submissions", summary: "Download a submission's XML",
      description: "The exact uploaded bytes.", params: ["SubmissionId", ...DOWNLOAD_PARAMS],
      ok: download("Xml"), errors: ["NOT_FOUND"],
    },
  },
  {
    method: "GET", pattern: "/api/v1/submissions/:id/pdf", scope: "submissions:read", handle: downloadPdf,
    openapi: {
      id: "getSubmissionPdf", tag: "Submissions", summary: "Download a submission's PDF rendering",
      description: "Once KSeF accepted the submission, the rendering shows its KSeF number.",
      params: ["SubmissionId", "Lang", ...DOWNLOAD_PARAMS], ok: download("Pdf"), errors: ["NOT_FOUND"],
    },
  },
  {
    method: "GET", pattern: "/api/v1/submissions/:id/upo", scope: "submissions:read", handle: downloadUpo,
    openapi: {
      id: "getSubmissionUpo", tag: "Submissions", summary: "Download a submission's official KSeF receipt (UPO)",
      description: "The UPO (`Potwierdzenie`, XAdES-signed XML) exactly as KSeF issued it for this invoice, once `ksef.status` is accepted.",
      params: ["SubmissionId", ...DOWNLOAD_PARAMS], ok: download("Xml"), errors: ["NOT_FOUND", "UPO_NOT_AVAILABLE"],
    },
  },
];
