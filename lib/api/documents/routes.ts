/**
 * The documents endpoints (README “Parameters”, README “Documents and the inbox”): the change feed and page mode,
 * one document, and its XML download.
 * @module
 */
import type { ApiRoute, Context } from "../context.ts";
import { DOCUMENT_FILTERS, DOWNLOAD_PARAMS, download, okJson } from "../openapi/operation.ts";
import { ApiError, notFound } from "../../http/errors.ts";
import { apiError } from "../errors.ts";
import { json, listBody } from "../../http/respond.ts";
import type { ApiResponse } from "../../http/types.ts";
import type { ChangePage, DocumentFilter, DocumentRecord, Stored, StoredBlob, TenantStore } from "../../contracts/storage.ts";
import { isKsefNumber } from "../../formats/invoice/ksef_number.ts";
import { parseListQuery } from "../list_query.ts";
import { downloadRoutes, pdfResponse, sourceDownload, sourceQrEnvironment, xmlDownload } from "../downloads.ts";
import { documentOriginalKey } from "../../contracts/document_source.ts";
import { isKsefFormat } from "../../formats/invoice/vocabulary.ts";
import { feedListing } from "../feed_listing.ts";
import { wantsInvoice, withInvoice, withInvoices } from "../invoice_expand.ts";
import { storedVerdict, withValidation } from "../validation.ts";

async function listDocuments(ctx: Context): Promise<ApiResponse> {
  const q = parseListQuery(ctx.req.query);
  const expand = wantsInvoice(ctx.req.query);
  if (q.mode === "page") {
    // As feed pages: the same bytes until the feed changes, so kept for the feed length they were made at.
    const version = await ctx.tenant.feedLength("documents");
    const key = `${ctx.tenant.tenant}\u0000documents\u0000page\u0000${q.page}\u0000${q.perPage}\u0000${q.sort}\u0000${q.filterKey}\u0000${expand}`;
    let body = ctx.app.pages.get(key, version);
    if (!body) {
      const page = await ctx.tenant.documentPage(q.filter, q.sort, (q.page - 1) * q.perPage, q.perPage);
      const items = expand ? await withInvoices(ctx, page.items, ctx.app.limits.expandedListBytes) : page.items;
      if (items.length < page.items.length) throw _expandTooLarge(ctx.app.limits.expandedListBytes);
      body = listBody(items, `"page":${q.page},"per_page":${q.perPage},"total":${page.total},"total_pages":${Math.ceil(page.total / q.perPage)}`);
      ctx.app.pages.set(key, version, body);
    }
    return json(200, body);
  }
  return feedListing(ctx, { collection: "documents", cursor: q.cursor, limit: q.limit, filter: q.filter, filterKey: q.filterKey, expand, read: _readDocuments });
}

function _readDocuments(tenant: TenantStore, from: number, limit: number, maxScan: number, filter: DocumentFilter): Promise<ChangePage> {
  return tenant.documentChanges(from, limit, filter, maxScan);
}

// Page mode cannot stop early (its pages are numbered), so a page over the budget is refused, naming it.
function _expandTooLarge(limit: number): ApiError {
  return new ApiError("BAD_REQUEST", `With expand=invoice this page would exceed ${limit} bytes: use cursor mode (it stops early) or a smaller per_page`, {
    field: "expand", issue: "response too large", limit_bytes: limit,
  });
}

/** The document of the `id` path parameter, or 404. */
export async function findDocument(ctx: Context): Promise<Stored<DocumentRecord>> {
  const doc = await ctx.tenant.getDocument(ctx.params.id!);
  if (!doc) throw notFound("Document not found");
  return doc;
}

/** 404 XML_NOT_AVAILABLE for a document whose XML has not arrived. */
export function xmlNotAvailable(): ApiError {
  return apiError("XML_NOT_AVAILABLE", "The document exists but its XML is not yet available");
}

async function downloadXml(ctx: Context): Promise<ApiResponse> {
  const { record } = await findDocument(ctx);
  const blob = record.sha256 ? await ctx.tenant.getBlob(record.sha256) : null;
  if (!record.xml_available || !blob) throw xmlNotAvailable();
  return xmlDownload(ctx, blob, record.number ?? record.external_id);
}

async function downloadPdf(ctx: Context): Promise<ApiResponse> {
  const { record } = await findDocument(ctx);
  // A Factur-X or ZUGFeRD PDF that came from the source is the document the seller issued (README "EU formats"): it
  // is the document's PDF, unless a language or Factur-X is asked for, which our rendering gives.
  const original = await _original(ctx, record);
  if (original !== null && !ctx.req.query.has("lang") && !ctx.req.query.has("as")) return sourceDownload(ctx, original, "application/pdf", record.number ?? record.external_id);
  // A KSeF number stored before sources were checked is shown only when well-formed (it keys the PDF cache).
  const ksef = record.ksef_number && isKsefNumber(record.ksef_number) ? record.ksef_number : null;
  // Its QR code links to the KSeF environment its source belongs to (a test source's invoices are not in production).
  const environment = record.format !== null && isKsefFormat(record.format) ? sourceQrEnvironment(ctx, record.source) : "prod";
  // A Factur-X rendering is dated when the source received the invoice (or, not knowing, when its record last changed).
  const madeAt = record.received_at !== null && !Number.isNaN(Date.parse(record.received_at)) ? record.received_at : record.updated_at;
  const res = record.xml_available && record.sha256 ? await pdfResponse(ctx, record.sha256, record.number ?? record.external_id, record.format, { ksefNumber: ksef, environment }, madeAt) : null;
  if (!res) throw xmlNotAvailable(); // the PDF is rendered from the XML (the error envelope in the OpenAPI document)
  return res;
}

/** What the source held: its original (a Factur-X PDF) when it had one, else the XML. */
async function downloadSource(ctx: Context): Promise<ApiResponse> {
  const { record } = await findDocument(ctx);
  const original = await _original(ctx, record);
  if (original !== null) return sourceDownload(ctx, original, "application/pdf", `${record.number ?? record.external_id}-source`);
  return downloadXml(ctx);
}

/**
 * The original the source delivered the document's XML in (a Factur-X or ZUGFeRD PDF), or null. Only a CII or UBL
 * document can have one, so a KSeF document's download does not look.
 */
async function _original(ctx: Context, record: DocumentRecord): Promise<StoredBlob | null> {
  const embeddable = record.format === "cii" || record.format === "ubl";
  return embeddable && record.xml_available && record.sha256 ? ctx.tenant.getDerived(documentOriginalKey(record.sha256)) : null;
}

async function getDocument(ctx: Context): Promise<ApiResponse> {
  const { record, json: body } = await findDocument(ctx);
  const sha256 = record.xml_available ? record.sha256 : null;
  const verdict = sha256 ? await storedVerdict(ctx, sha256) : null;
  return json(200, await withInvoice(ctx, withValidation(body, verdict), sha256));
}

/** The documents routes. */
export const documentRoutes: ApiRoute[] = [
  {
    method: "GET", pattern: "/api/v1/documents", scope: "documents:read", handle: listDocuments,
    openapi: {
      id: "listDocuments", tag: "Documents", summary: "List documents: the change feed or pages",
      description: "Without `page`: cursor mode, the change feed in order of last change, oldest first (a document that changes again moves to the end; delivery is at-least-once, deduplicate by id). With `page`: page mode for browsing. Filters apply to both.",
      params: ["Cursor", "Limit", "Page", "PerPage", "Sort", ...DOCUMENT_FILTERS, "Expand"],
      ok: { 200: okJson("A page of documents", "DocumentList") },
    },
  },
  {
    method: "GET", pattern: "/api/v1/documents/:id", scope: "documents:read", handle: getDocument,
    openapi: { id: "getDocument", tag: "Documents", summary: "Get a document", params: ["DocumentId"], ok: { 200: okJson("The document", "Document") }, errors: ["NOT_FOUND"] },
  },
  ...downloadRoutes({
    pattern: "/api/v1/documents/:id", scope: "documents:read", tag: "Documents", idParam: "DocumentId", resource: "Document",
    errors: ["NOT_FOUND", "XML_NOT_AVAILABLE"],
    xml: { handle: downloadXml, description: "The exact bytes received from the source." },
    pdf: { handle: downloadPdf, description: "An A4 rendering of the invoice, made from its XML (deterministic: same XML, same bytes); for a document the source delivered as a Factur-X or ZUGFeRD PDF, that PDF as received (the document the seller issued), unless `lang` or `as` asks for the rendering." },
  }),
  {
    method: "GET", pattern: "/api/v1/documents/:id/source", scope: "documents:read", handle: downloadSource,
    openapi: {
      id: "getDocumentSource", tag: "Documents", summary: "Download what the source delivered",
      description: "The PDF a Factur-X or ZUGFeRD document came in (`application/pdf`, README \"EU formats\"); for a document delivered as XML, the same bytes as `/xml`.",
      params: ["DocumentId", ...DOWNLOAD_PARAMS], ok: download("Source"), errors: ["NOT_FOUND", "XML_NOT_AVAILABLE"],
    },
  },
];
