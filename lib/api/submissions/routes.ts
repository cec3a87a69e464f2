/**
 * The submissions endpoints (the OpenAPI document): upload an invoice as multipart/form-data
 * (the `xml` part), list the tenant's submissions as a change feed, read one,
 * and download its exact bytes or its PDF rendering.
 * @module
 */
import { downloadRoutes, pdfResponse, sourceDownload, tenantQrEnvironment, xmlDownload } from "../downloads.ts";
import { isKsefFormat } from "../../formats/invoice/vocabulary.ts";
import { feedListing } from "../feed_listing.ts";
import { wantsInvoice, withInvoice } from "../invoice_expand.ts";
import { CURSOR_LIMIT, intParam } from "../list_query.ts";
import { parseSubmissionFilter } from "./filter.ts";
import { sessionUpoKey, upoKey } from "../../contracts/ksef_upo.ts";
import type { ApiRoute, Context } from "../context.ts";
import { createSubmission } from "./create.ts";
import { offlineCertificateLink } from "./offline_link.ts";
import { DEFAULT_DEADLINE_NEAR_MS } from "../../ksef/deadline_near.ts";
import { DOWNLOAD_PARAMS, created, download, okJson } from "../openapi/operation.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { apiError } from "../errors.ts";
import { json } from "../../http/respond.ts";
import type { ApiResponse } from "../../http/types.ts";
import type { ChangePage, Stored, SubmissionFilter, SubmissionRecord, TenantStore } from "../../contracts/storage.ts";

async function listSubmissions(ctx: Context): Promise<ApiResponse> {
  const q = ctx.req.query;
  const limit = intParam(q, "limit", CURSOR_LIMIT.min, CURSOR_LIMIT.max, CURSOR_LIMIT.default);
  const { filter, filterKey } = parseSubmissionFilter(q, ctx.app.now(), ctx.app.ksefSend?.deadlineNearMs ?? DEFAULT_DEADLINE_NEAR_MS);
  return feedListing(ctx, {
    collection: "submissions", cursor: q.get("cursor"), limit, filter, filterKey, expand: wantsInvoice(q),
    variant: filter.deadline_before ?? "", read: _readSubmissions,
  });
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
  // A Factur-X or ZUGFeRD upload's own PDF is the document the seller issued (README "EU formats"): it is the
  // submission's PDF, unless a language or Factur-X is asked for, which our rendering gives.
  if (record.source?.media_type === "application/pdf" && !ctx.req.query.has("lang") && !ctx.req.query.has("as")) {
    const blob = await ctx.tenant.getBlob(record.source.sha256);
    if (!blob) throw new ApiError("INTERNAL_ERROR", "Submission source is missing");
    return sourceDownload(ctx, blob, "application/pdf", record.number ?? record.id);
  }
  // Once KSeF accepted it, the rendering shows its KSeF number, as a document's does.
  // Its QR code links to the environment of the tenant's ksef source, sending or not (README "Offline invoices").
  const environment = record.format !== null && isKsefFormat(record.format) ? tenantQrEnvironment(ctx) : "prod";
  // An offline invoice carries KOD I labelled OFFLINE until its KSeF number is known, and KOD II (README "Offline invoices").
  const offline = record.ksef?.mode === "offline";
  const certificateLink = offline ? await offlineCertificateLink(ctx, record, environment) : null;
  const res = await pdfResponse(ctx, record.sha256, record.number ?? record.id, record.format, { ksefNumber: record.ksef?.ksef_number ?? null, environment, offline, certificateLink }, record.created_at);
  if (!res) throw new ApiError("INTERNAL_ERROR", "Submission XML is missing");
  return res;
}

/**
 * The bytes the submission was made from, as received (README "Creating invoices"): a created invoice's JSON, a
 * converted upload's original, a Factur-X upload's PDF; the XML itself when that is what was received.
 */
async function downloadSource(ctx: Context): Promise<ApiResponse> {
  const { record } = await findSubmission(ctx);
  const source = record.source ?? null;
  const blob = await ctx.tenant.getBlob(source?.sha256 ?? record.sha256);
  if (!blob) throw new ApiError("INTERNAL_ERROR", "Submission source is missing");
  if (source === null) return xmlDownload(ctx, blob, record.number ?? record.id);
  return sourceDownload(ctx, blob, source.media_type, `${record.number ?? record.id}-source`);
}

/** The UPO as KSeF issued it; 404 UPO_NOT_AVAILABLE until the submission is accepted by KSeF. */
async function downloadUpo(ctx: Context): Promise<ApiResponse> {
  const { record } = await findSubmission(ctx);
  const upo = record.ksef?.status === "accepted" ? await ctx.tenant.getDerived(upoKey(record.id)) : null;
  if (!upo) throw apiError("UPO_NOT_AVAILABLE", "KSeF has not issued the official receipt (UPO) of this submission yet");
  return xmlDownload(ctx, upo, `${record.number ?? record.id}-UPO`);
}

/**
 * The page of its batch session's collective UPO that lists the submission (README "Sending to KSeF"), as KSeF
 * issued it; 404 UPO_NOT_AVAILABLE until it is kept (and for a submission not sent in a batch session).
 */
async function downloadSessionUpo(ctx: Context): Promise<ApiResponse> {
  const { record } = await findSubmission(ctx);
  const pointer = record.ksef?.session_type === "batch" ? await ctx.tenant.getDerived(sessionUpoKey(record.id)) : null;
  const page = pointer ? await ctx.tenant.getDerived(new TextDecoder().decode(await pointer.bytes())) : null;
  if (!page) throw apiError("UPO_NOT_AVAILABLE", "KSeF has not issued the collective UPO of this submission's batch session yet");
  return xmlDownload(ctx, page, `${record.number ?? record.id}-session-UPO`);
}

async function getSubmission(ctx: Context): Promise<ApiResponse> {
  const { record, json: body } = await findSubmission(ctx);
  return json(200, await withInvoice(ctx, body, record.sha256));
}

/** The submissions routes. */
export const submissionRoutes: ApiRoute[] = [
  {
    method: "POST", pattern: "/api/v1/submissions", scope: "submissions:write", body: "invoice", handle: createSubmission,
    openapi: {
      id: "createSubmission", tag: "Submissions", summary: "Submit an invoice",
      description: "The invoice goes in the `xml` part, or the body is the JSON of an invoice to create (`SubmissionCreateJson`, README \"Creating invoices\"). With `as`, the upload is converted first (README \"Converting invoices\"). It must be well-formed (no DTD), a supported format, hold a number, an issue date and the seller's tax id, and pass validation: KSeF's file rules and the FA schema for KSeF invoices; the UBL or CII schema and, for documents that claim EN 16931, its business rules. An invoice with errors is refused with 422 `VALIDATION_ERROR`, `details.field` = `xml:<path of the first error>` and `details.violations` listing every error and warning (at most 200); warnings never refuse.",
      requestBody: { schema: "SubmissionCreate", required: true }, jsonBody: "SubmissionCreateJson",
      ok: { 201: created("The accepted submission", "Submission") },
      errors: ["DUPLICATE_SUBMISSION", "VALIDATION_ERROR", "NO_EMBEDDED_INVOICE"],
    },
  },
  {
    method: "GET", pattern: "/api/v1/submissions", scope: "submissions:read", handle: listSubmissions,
    openapi: {
      id: "listSubmissions", tag: "Submissions", summary: "List submissions (the feed)",
      description: "The change feed in order of last change, oldest first: a submission whose KSeF state changes moves to the end, so a client following the feed sees each KSeF outcome (deduplicate by id).",
      params: ["Cursor", "Limit", "KsefStatus", "KsefMode", "Overdue", "SubmissionFormat", "SubmissionType", "Expand"],
      ok: { 200: okJson("A page of submissions", "SubmissionFeedPage") },
    },
  },
  {
    method: "GET", pattern: "/api/v1/submissions/:id", scope: "submissions:read", handle: getSubmission,
    openapi: { id: "getSubmission", tag: "Submissions", summary: "Get a submission", params: ["SubmissionId"], ok: { 200: okJson("The submission", "Submission") }, errors: ["NOT_FOUND"] },
  },
  ...downloadRoutes({
    pattern: "/api/v1/submissions/:id", scope: "submissions:read", tag: "Submissions", idParam: "SubmissionId", resource: "Submission",
    errors: ["NOT_FOUND"],
    xml: { handle: downloadXml, description: "The exact uploaded bytes." },
    pdf: {
      handle: downloadPdf,
      description: "Once KSeF accepted the submission, the rendering shows its KSeF number. A KSeF invoice carries KOD I (the link to the invoice in KSeF), labelled with its KSeF number once known and `OFFLINE` before for an offline invoice, which also carries KOD II labelled `CERTYFIKAT` (the certificate link signed with the tenant's KSeF certificate of type Offline, README \"Offline invoices\").",
    },
  }),
  {
    method: "GET", pattern: "/api/v1/submissions/:id/source", scope: "submissions:read", handle: downloadSource,
    openapi: {
      id: "getSubmissionSource", tag: "Submissions", summary: "Download the bytes a submission was made from",
      description: "The request's invoice as received, when it is not the stored XML: the JSON of an invoice created from JSON (`application/json`), the original of an upload converted with `as` (its XML), the PDF of a Factur-X or ZUGFeRD upload (`application/pdf`). For an XML stored as uploaded, the same bytes as `/xml`. `source` in the submission says which.",
      params: ["SubmissionId", ...DOWNLOAD_PARAMS], ok: download("Source"), errors: ["NOT_FOUND"],
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
  {
    method: "GET", pattern: "/api/v1/submissions/:id/session-upo", scope: "submissions:read", handle: downloadSessionUpo,
    openapi: {
      id: "getSubmissionSessionUpo", tag: "Submissions", summary: "Download the page of the batch session's collective UPO that lists a submission",
      description: "For a submission sent in a KSeF batch session (`ksef.session_type` batch): the page of the session's collective UPO (`Potwierdzenie`, XAdES-signed XML) that lists this invoice, exactly as KSeF issued it. 404 `UPO_NOT_AVAILABLE` until KSeF issued it, and for a submission sent online.",
      params: ["SubmissionId", ...DOWNLOAD_PARAMS], ok: download("Xml"), errors: ["NOT_FOUND", "UPO_NOT_AVAILABLE"],
    },
  },
];
