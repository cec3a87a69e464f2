/**
 * The `/xml` and `/pdf` downloads of documents and submissions (README “Documents and the inbox”,
 * §5, §8). The XML is the stored blob as it is. The PDF is rendered once per
 * XML content, language, renderer version, KSeF state (number, environment, offline codes) and
 * Factur-X/ZUGFeRD flavour with its date (README "Getting a Factur-X PDF") and then kept, so repeated
 * downloads cost a file read; rendering is deterministic, so the key that names
 * a rendering also identifies its bytes and serves as the strong ETag.
 * @module
 */
import { createHash } from "node:crypto";
import type { ApiRoute, Context } from "./context.ts";
import type { Scope } from "../auth/tokens.ts";
import type { ErrorCode } from "./errors.ts";
import { DOWNLOAD_PARAMS, download } from "./openapi/operation.ts";
import { downloadResponse } from "../http/download.ts";
import { convertUpload } from "./conversion.ts";
import { EN16931_PROFILE } from "../formats/invoice/convert.ts";
import { ApiError, badRequest, validationError } from "../http/errors.ts";
import type { ApiResponse } from "../http/types.ts";
import { defaultPdfLang, RENDERER_VERSION } from "../formats/pdf/invoice_pdf.ts";
import { storageUnavailableCode } from "../contracts/storage_errors.ts";
import type { StoredBlob } from "../contracts/storage.ts";
import type { PdfJob } from "./invoice_reader.ts";
import type { InvoiceFormat } from "../formats/invoice/vocabulary.ts";
import type { KsefQrEnvironment } from "../formats/pdf/ksef_link.ts";
import { FORMAT_NAMES } from "../formats/pdf/code_words.ts";
import { FACTURX_FLAVOURS, type FacturXFlavour } from "../formats/pdf/facturx.ts";
import { pdfDates } from "../formats/pdf/pdfa3.ts";

/** Files up to this size are sent from memory in one write; larger ones are streamed in chunks (README “Documents and the inbox”). */
export const SMALL_FILE_BYTES = 256 * 1024;

/** The `/xml` download of a stored blob, named after the invoice. */
export async function xmlDownload(ctx: Context, blob: StoredBlob, filename: string): Promise<ApiResponse> {
  return downloadResponse(ctx.req, {
    size: blob.size, hash: blob.sha256, contentType: "application/xml", extension: "xml",
    filename, body: blob.size <= SMALL_FILE_BYTES ? await blob.bytes() : blob,
  });
}

/** The extension of a source's file name by its media type. */
const _SOURCE_EXTENSIONS: Readonly<Record<string, string>> = { "application/json": "json", "application/pdf": "pdf", "application/xml": "xml" };

/** A submission's `/source` download: the bytes received, with their media type. */
export async function sourceDownload(ctx: Context, blob: StoredBlob, mediaType: string, filename: string): Promise<ApiResponse> {
  return downloadResponse(ctx.req, {
    size: blob.size, hash: blob.sha256, contentType: mediaType, extension: _SOURCE_EXTENSIONS[mediaType] ?? "bin",
    filename, body: blob.size <= SMALL_FILE_BYTES ? await blob.bytes() : blob,
  });
}

/** What a KSeF invoice's PDF shows besides its XML (README "Sending to KSeF", "Offline invoices"). */
export interface KsefPdfState {
  /** Its KSeF number, once known. */
  ksefNumber?: string | null;
  /** The KSeF environment it belongs to: the host of its QR codes (default production). */
  environment?: KsefQrEnvironment;
  /** Issued offline: KOD I reads OFFLINE until the KSeF number is known. */
  offline?: boolean;
  /** Its signed KOD II link (an offline invoice). */
  certificateLink?: string | null;
}

/**
 * The PDF download of the invoice whose XML blob is `sha256` and whose format is `format`, or null when that XML
 * is missing. A rendering in another language than the format's default says so in its file name (`…_en.pdf`).
 * With `?as=factur-x` or `?as=zugferd` it is a PDF/A-3b carrying the CII invoice, dated `madeAt` (the record's time,
 * so that the same record gives the same bytes).
 */
export async function pdfResponse(ctx: Context, sha256: string, filename: string, format: InvoiceFormat | null, ksef: KsefPdfState, madeAt: string): Promise<ApiResponse | null> {
  const lang = ctx.req.query.get("lang");
  if (lang !== null && lang !== "pl" && lang !== "en") throw badRequest("lang", "invalid_value", "lang must be pl or en");
  const flavour = _facturXFlavour(ctx, format);
  const { ksefNumber, environment = "prod", offline = false, certificateLink } = ksef;
  // Everything the rendering depends on is in its key; a production, online one keeps the key it always had.
  const key = `pdf-v${RENDERER_VERSION}-${lang ?? "auto"}-${sha256}${ksefNumber ? `-${ksefNumber}` : ""}${environment === "prod" ? "" : `-${environment}`}` +
    `${offline ? "-offline" : ""}${certificateLink ? `-${createHash("sha256").update(certificateLink).digest("hex").slice(0, 32)}` : ""}` +
    `${flavour ? `-${flavour}-${pdfDates(madeAt).xmp.replace(/\D/g, "")}` : ""}`;
  const job: PdfJob = {
    ...(lang ? { lang } : {}), xmlSha256: sha256, ...(ksefNumber ? { ksefNumber } : {}), ...(environment === "prod" ? {} : { ksefEnvironment: environment }),
    ...(offline ? { offline } : {}), ...(certificateLink ? { certificateLink } : {}),
  };
  const facturX = flavour ? { flavour, date: madeAt } : null;
  // Concurrent requests for one rendering wait for one build (README "Limits").
  const pdf = await ctx.tenant.getDerived(key)
    ?? await ctx.app.builds.run(`${ctx.tenant.tenant}/${key}`, () => ctx.req.aborted?.() === true, (gone) => _renderAndKeep(ctx, sha256, key, job, facturX, gone));
  if (pdf === null) return null;
  return downloadResponse(ctx.req, {
    size: pdf.size, hash: createHash("sha256").update(key).digest("hex"), contentType: "application/pdf", extension: "pdf",
    filename: lang && lang !== defaultPdfLang(format) ? `${filename}_${lang}` : filename, body: pdf.size <= SMALL_FILE_BYTES ? await pdf.bytes() : pdf,
  });
}

/** The CII of a stored invoice: its XML when it is CII, else converted and validated; 422 naming why it cannot be. */
async function _ciiOf(ctx: Context, xml: Uint8Array): Promise<Uint8Array> {
  // Factur-X embeds CII at its EN 16931 profile, whatever CIUS the invoice claimed (Factur-X 1.0, profiles).
  const converted = await convertUpload(ctx, xml, "cii", false, EN16931_PROFILE);
  if (converted === null) return xml;
  const report = await ctx.app.validate(converted.xml, { tenant: ctx.tenant.tenant });
  if (!report.valid) {
    const first = report.errors[0]!;
    throw new ApiError("VALIDATION_ERROR", `This invoice cannot be written as a valid CII invoice: ${first.rule}: ${first.message}`, {
      field: "as", issue: "not_valid_cii", violations: [...report.errors, ...report.warnings],
    });
  }
  return converted.xml;
}

/**
 * The `as` of a PDF download, or null for the plain rendering. The file embeds CII: the stored XML when it is CII;
 * an invoice stored in another format is refused (422), since no CII copy of it is written here.
 */
function _facturXFlavour(ctx: Context, format: InvoiceFormat | null): FacturXFlavour | null {
  const as = ctx.req.query.get("as");
  if (as === null) return null;
  const flavour = FACTURX_FLAVOURS.find((f) => f === as);
  if (flavour === undefined) throw badRequest("as", "invalid_value", `as must be one of ${FACTURX_FLAVOURS.join(", ")}`);
  if (format === null || format === "ksef-fa-rr1") {
    const name = format === null ? "in an unknown format" : FORMAT_NAMES[format];
    throw validationError("as", "not_cii", `This invoice is ${name}: it has no CII counterpart to embed`);
  }
  return flavour;
}

// Renders the invoice of the XML `sha256` and keeps it as the derived blob `key`; null when that XML is missing.
// A Factur-X/ZUGFeRD rendering embeds the stored XML when it is CII, else the invoice written as CII (README
// "Converting invoices"), which must pass CII's schema and the EN 16931 rules.
async function _renderAndKeep(ctx: Context, sha256: string, key: string, job: PdfJob, facturX: { flavour: FacturXFlavour; date: string } | null,
  gone: () => boolean): Promise<StoredBlob | null> {
  const blob = await ctx.tenant.getBlob(sha256);
  if (!blob) return null;
  const xml = await blob.bytes();
  const ciiXml = facturX ? await _ciiOf(ctx, xml) : null;
  // A large invoice is rendered off the event loop, in the large-read slots (lib/api/invoice_reader.ts).
  const rendered = await ctx.app.renderPdf(xml, { tenant: ctx.tenant.tenant, gone, ...job, ...(facturX && ciiXml ? { facturX: { ...facturX, ciiXml } } : {}) });
  if (rendered.missingGlyphs.length > 0) {
    ctx.app.logger.warn("characters without a glyph were drawn as ?", { request_id: ctx.requestId, characters: rendered.missingGlyphs.map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`) });
  }
  try {
    await ctx.tenant.putDerived(key, rendered.bytes);
    return (await ctx.tenant.getDerived(key))!;
  } catch (e) {
    // Reading needs no space: with the disk full the rendering is served, just not kept.
    const code = storageUnavailableCode(e);
    if (code === null) throw e;
    ctx.app.logger.warn("rendering served without caching it: storage unavailable", { request_id: ctx.requestId, code });
    const bytes = rendered.bytes;
    return { sha256: key, size: bytes.length, bytes: async () => bytes, stream: async function* (start, end) { yield bytes.subarray(start, end); } };
  }
}

/**
 * The KSeF environment a document's invoice belongs to: that of its source when the source says (a `ksef` source
 * does, DocumentSource.ksef), else the tenant's (tenantQrEnvironment): a KSeF invoice dropped in the inbox of a tenant
 * that works against KSeF's test environment is a test invoice.
 */
export function sourceQrEnvironment(ctx: Context, sourceName: string): KsefQrEnvironment {
  return ctx.app.sources(ctx.tenant.tenant).find((s) => s.name === sourceName)?.ksef?.qrEnvironment ?? tenantQrEnvironment(ctx);
}

/**
 * The KSeF environment of a tenant's submissions and of its invoices that come from no `ksef` source: that of its
 * `ksef` source that sends, else of its first `ksef` source whether it sends or not (README "Offline invoices":
 * a test tenant's invoice must never carry a production code, kody-qr.md "Środowiska"), else production.
 */
export function tenantQrEnvironment(ctx: Context): KsefQrEnvironment {
  const sources = ctx.app.sources(ctx.tenant.tenant);
  return (sources.find((s) => s.ksef?.sends === true) ?? sources.find((s) => s.ksef !== undefined))?.ksef?.qrEnvironment ?? "prod";
}

/** What the `/xml` and `/pdf` routes of one resource say of themselves beyond what they share. */
export interface DownloadRoutesOptions {
  /** The resource's item path, e.g. `/api/v1/documents/:id`: the routes are it plus `/xml` and `/pdf`. */
  pattern: string;
  scope: Scope;
  tag: string;
  /** The id's name in components.parameters, e.g. `DocumentId`. */
  idParam: string;
  /** The resource in operation ids and summaries: `Document` gives getDocumentXml and "Download a document's XML". */
  resource: string;
  /** Error codes both routes give beyond those every operation of their kind gives. */
  errors: ErrorCode[];
  xml: { handle(ctx: Context): Promise<ApiResponse>; description: string };
  pdf: { handle(ctx: Context): Promise<ApiResponse>; description: string };
}

/** A resource's two download routes: the XML as stored and its PDF rendering (in `lang`, or Factur-X with `as`), both raw files with ranges. */
export function downloadRoutes(o: DownloadRoutesOptions): ApiRoute[] {
  const noun = o.resource.toLowerCase();
  const route = (kind: "Xml" | "Pdf", what: string, params: string[], d: DownloadRoutesOptions["xml"], errors: ErrorCode[]): ApiRoute => ({
    method: "GET", pattern: `${o.pattern}/${kind.toLowerCase()}`, scope: o.scope, handle: d.handle,
    openapi: {
      id: `get${o.resource}${kind}`, tag: o.tag, summary: `Download a ${noun}'s ${what}`, description: d.description,
      params: [o.idParam, ...params, ...DOWNLOAD_PARAMS], ok: download(kind), errors: [...o.errors, ...errors],
    },
  });
  // `as` of an invoice that is not CII is 422 (_facturXFlavour).
  return [route("Xml", "XML", [], o.xml, []), route("Pdf", "PDF rendering", ["Lang", "PdfAs"], o.pdf, ["VALIDATION_ERROR"])];
}
