/**
 * `POST /api/v1/submissions` (the OpenAPI document): the invoice in the `xml` part, checked and stored; a KSeF FA
 * invoice of a tenant that sends is queued for KSeF (README "Sending to KSeF"), online or, asked with
 * `ksef_mode=offline` or issued so by itself while KSeF does not answer, offline with its deadline (README
 * "Offline invoices", `tryby-offline.md`). The plain fields are strict: a bad or repeated value is 400.
 * @module
 */
import { fieldsFromInvoice } from "../../contracts/record_json.ts";
import type { KsefIssueMode, StoredResponse, SubmissionConversion, SubmissionInput, SubmissionRecord } from "../../contracts/storage.ts";
import { WRITTEN_FORMATS } from "../../formats/invoice/write_invoice.ts";
import { convertUpload } from "../conversion.ts";
import { uploadedInvoice } from "../pdf_upload.ts";
import { makeInvoiceXml, writtenFormat } from "./create_json.ts";
import { requireSubmissionFields } from "../../formats/invoice/read.ts";
import { isKsefFormat } from "../../formats/invoice/vocabulary.ts";
import { validationSummary } from "../../formats/validation/invoice_validation.ts";
import { badRequest, validationError } from "../../http/errors.ts";
import { json } from "../../http/respond.ts";
import type { ApiResponse } from "../../http/types.ts";
import { offlineDeadline } from "../../ksef/offline_deadline.ts";
import { idempotencyTag, type Context } from "../context.ts";
import { apiError } from "../errors.ts";
import { refusal, withFields } from "../validation.ts";
import { correctableOriginal, linkCorrection } from "./technical_correction.ts";

/** The values of the `ksef_mode` field, the first the default. */
export const KSEF_MODES = ["online", "offline"] as const satisfies readonly KsefIssueMode[];

/** What a submission is made from besides its XML, and how it is issued. */
export interface SubmissionOrigin {
  /** `ksef_mode` as asked. */
  asked: KsefIssueMode | undefined;
  /** `corrects`: the offline submission this one technically corrects. */
  corrects: string | undefined;
  /** The bytes received, when the XML was written or converted from them. */
  source?: { mediaType: string; bytes: Uint8Array };
  conversion?: SubmissionConversion;
  /** The invoice-object field of an XML path of the written XML, for the refusal of a created invoice. */
  fieldAt?: (path: string) => string | null;
}

/** Stores an uploaded invoice (or one created from JSON, or converted with `as`) as a submission (201), or refuses it. */
export async function createSubmission(ctx: Context): Promise<ApiResponse> {
  if (ctx.body.kind === "json") return _createFromJson(ctx, ctx.body.value, ctx.body.raw);
  const part = ctx.body.kind === "multipart" ? ctx.body.parts.find((p) => p.name === "xml") : undefined;
  if (!part) throw validationError("xml", "required", "xml is required");
  if (part.body.length === 0) throw validationError("xml", "empty", "xml is empty");
  const origin: SubmissionOrigin = { asked: _oneOf(ctx, "ksef_mode", KSEF_MODES), corrects: _plainField(ctx, "corrects") };
  const as = _oneOf(ctx, "as", WRITTEN_FORMATS);
  // A Factur-X or ZUGFeRD PDF is its embedded invoice, the PDF kept as what the seller issued (README "EU formats").
  const upload = uploadedInvoice(part.body);
  const received = upload.pdf ? { mediaType: "application/pdf", bytes: upload.pdf } : { mediaType: "application/xml", bytes: part.body };
  const converted = as === undefined ? null : await convertUpload(ctx, upload.xml, as, false);
  // Already in that format (or no `as`): stored as uploaded.
  if (converted === null) return storeSubmission(ctx, upload.xml, upload.pdf ? { ...origin, source: received } : origin);
  return storeSubmission(ctx, converted.xml, { ...origin, source: received, conversion: { from: converted.from, losses: converted.losses } });
}

/** The submission of a JSON request (201), or its refusal. */
async function _createFromJson(ctx: Context, body: Record<string, unknown>, raw: Uint8Array): Promise<ApiResponse> {
  const format = writtenFormat(body["format"]);
  const asked = _optionalString(body, "ksef_mode");
  if (asked !== undefined && !(KSEF_MODES as readonly string[]).includes(asked)) throw badRequest("ksef_mode", "invalid_value", `ksef_mode must be one of ${KSEF_MODES.join(", ")}`);
  const corrects = _optionalString(body, "corrects");
  const made = makeInvoiceXml(body["invoice"], format, new Date(ctx.app.now()));
  return storeSubmission(ctx, made.xml, {
    asked: asked as (typeof KSEF_MODES)[number] | undefined, corrects,
    source: { mediaType: "application/json", bytes: raw }, conversion: { from: "json", losses: made.losses }, fieldAt: made.fieldAt,
  });
}

/** Checks `xml` as an upload and stores it as a submission with what it was made from (201), or refuses it. */
export async function storeSubmission(ctx: Context, xml: Uint8Array, origin: SubmissionOrigin): Promise<ApiResponse> {
  const { asked, corrects } = origin;
  const { invoice, report } = await ctx.app.checkUpload(xml, { tenant: ctx.tenant.tenant });
  requireSubmissionFields(invoice);
  if (!report.valid) throw refusal(origin.fieldAt ? withFields(report, origin.fieldAt) : report);
  const fields = fieldsFromInvoice(invoice);
  // KSeF FA and FA_RR invoices of a tenant that sends are queued for KSeF (README "Sending to KSeF"); UBL, CII and
  // PEF never are (PEF goes to KSeF through a Peppol service provider).
  const send = isKsefFormat(invoice.format) && (ctx.app.ksefSend?.sends(ctx.tenant.tenant) ?? false);
  // A technical correction is sent as an offline invoice (offlineMode: true) with the original's deadline.
  let original: SubmissionRecord | null = null;
  if (corrects !== undefined) {
    if (!send) throw validationError("corrects", "not_sent", "corrects is for KSeF FA and FA_RR invoices of a tenant that sends to KSeF");
    if (asked === "online") throw validationError("ksef_mode", "correction_is_offline", "A technical correction is sent with offlineMode: true: leave out ksef_mode or give offline");
    original = await correctableOriginal(ctx, corrects);
  }
  // Issued offline by itself while KSeF has not answered for the tenant's offline_when_unavailable.
  const auto = send && original === null && asked === undefined && (await ctx.app.ksefSend?.issuesOffline?.(ctx.tenant.tenant)) === true;
  const issue = original ? { ..._issue(ctx, send, "offline", fields.issue_date, false), deadline: original.ksef!.deadline ?? null } : _issue(ctx, send, asked, fields.issue_date, auto);
  const blob = await ctx.tenant.putBlob(xml);
  const source = origin.source ? await ctx.tenant.putBlob(origin.source.bytes) : null;
  const created = (body: string): StoredResponse => ({ status: 201, location: `/api/v1/submissions/${(JSON.parse(body) as SubmissionRecord).id}`, body });
  const input: SubmissionInput = {
    fields: { ...fields, validation: validationSummary(report) }, xml: blob, ...(send ? { send, issue } : {}), ...(original ? { corrects: original.id } : {}),
    ...(source && origin.source ? { source: { media_type: origin.source.mediaType, sha256: source.sha256, size: source.size } } : {}),
    ...(origin.conversion ? { conversion: origin.conversion } : {}),
  };
  const result = await ctx.tenant.createSubmission(input, new Date(ctx.app.now()).toISOString(), idempotencyTag(ctx, created));
  if ("duplicateOf" in result) {
    throw apiError("DUPLICATE_SUBMISSION", "This invoice was already submitted", { existing_id: result.duplicateOf });
  }
  if (original) await linkCorrection(ctx, original, result.created.id);
  // submission.created is delivered from the submissions feed (lib/jobs/webhooks/endpoint_pass.ts).
  if (send) ctx.app.ksefSend?.wake();
  const sub = await ctx.tenant.getSubmission(result.created.id);
  return json(201, sub!.json, { location: `/api/v1/submissions/${result.created.id}` });
}

/**
 * How the invoice is issued: offline when asked (offline24, the seller's choice) or, when nothing was asked, while
 * KSeF has not answered for the tenant's `offline_when_unavailable`. Offline needs a sending tenant and its usable
 * certificate of type Offline (KOD II is signed with it). The deadline counts from the issue date (`P_1`) by the
 * offline24 rule: for an invoice issued during an unavailability that is the earliest the rules allow.
 */
function _issue(ctx: Context, send: boolean, asked: KsefIssueMode | undefined, issueDate: string | null, auto: boolean): NonNullable<SubmissionInput["issue"]> {
  const tenant = ctx.tenant.tenant;
  if (asked === "offline") {
    if (!send) throw validationError("ksef_mode", "not_sent", "ksef_mode offline is for KSeF FA invoices of a tenant that sends to KSeF (a ksef source with \"send\": true)");
    if (!ctx.app.ksefSend?.offlineCertificate?.(tenant)) {
      throw validationError("ksef_mode", "offline_certificate_missing", "ksef_mode offline needs a valid KSeF certificate of type Offline: set offline_certificate and offline_key on the tenant's ksef source");
    }
  }
  const offline = send && (asked === "offline" || (asked === undefined && auto));
  if (!offline || issueDate === null) return { mode: "online", deadline: null };
  const d = offlineDeadline({ mode: "offline24", issueDate });
  return { mode: "offline", deadline: d.deadline };
}

/** A plain multipart field's value; undefined when absent, 400 when repeated or empty. */
function _plainField(ctx: Context, name: string): string | undefined {
  const parts = ctx.body.kind === "multipart" ? ctx.body.parts.filter((p) => p.name === name) : [];
  if (parts.length === 0) return undefined;
  if (parts.length > 1) throw badRequest(name, "repeated", `${name} is given more than once`);
  const v = new TextDecoder().decode(parts[0]!.body).trim();
  if (v === "") throw badRequest(name, "empty", `${name} is empty`);
  return v;
}

/** A plain field's value among `allowed`; undefined when absent, 400 when repeated or not one of them. */
function _oneOf<T extends string>(ctx: Context, name: string, allowed: readonly T[]): T | undefined {
  const v = _plainField(ctx, name);
  if (v !== undefined && !(allowed as readonly string[]).includes(v)) throw badRequest(name, "invalid_value", `${name} must be one of ${allowed.join(", ")}`);
  return v as T | undefined;
}

function _optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v === "") throw badRequest(name, "invalid_value", `${name} must be a non-empty string`);
  return v;
}
