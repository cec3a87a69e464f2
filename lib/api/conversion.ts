/**
 * Converting invoices between formats (README "Converting invoices"): `POST /api/v1/convert?to=…[&keep=notes]`,
 * which answers the converted XML and stores nothing, and the conversion of an upload with `as` before it is stored.
 * FA(2) → FA(3); UBL ↔ CII; UBL/CII of a Polish seller → FA(3); FA(3) → UBL/CII. The mapping is convert.ts's, the
 * XML the writers'; every value the target has no place for is a loss, with `keep=notes` also written into the
 * target's free text (FA(3) DodatkowyOpis, UBL/CII notes). convertToFormat() takes plain inputs, so that the
 * `convert` command (README "Converting from the command line") runs the same code without a server.
 * @module
 */
import type { ConversionLossRecord } from "../contracts/storage.ts";
import { completeInvoice, type WrittenFormat } from "../formats/invoice/compute.ts";
import { convertInvoice } from "../formats/invoice/convert.ts";
import type { Invoice } from "../formats/invoice/model.ts";
import { writeInvoice, WRITTEN_FORMATS } from "../formats/invoice/write_invoice.ts";
import type { WriteLoss } from "../formats/invoice/write_result.ts";
import { type ValidationReport, validationSummary } from "../formats/validation/invoice_validation.ts";
import { isUblFormat } from "../formats/invoice/vocabulary.ts";
import { badRequest, validationError } from "../http/errors.ts";
import { json } from "../http/respond.ts";
import type { ApiResponse } from "../http/types.ts";
import type { ApiRoute, Context } from "./context.ts";
import { jsonResponse } from "./openapi/operation.ts";
import { ref } from "./openapi/schemas.ts";
import { makeInvoiceXml } from "./submissions/create_json.ts";
import { objectRefusal, refusal, withFields } from "./validation.ts";
import { uploadedInvoice } from "./pdf_upload.ts";

/** An upload converted: the written XML, the format it came from, and what it lost. */
export interface ConvertedUpload {
  xml: Uint8Array;
  from: string;
  losses: ConversionLossRecord[];
}

/**
 * What a conversion takes from its caller, so that the API and the command line (README "Converting from the
 * command line") share one code path: the clock, and the reader and the validator of invoice XML.
 */
export interface ConversionOptions {
  /** Also write each lost value into the target's free text (`keep=notes`, `--keep-notes`). */
  keepNotes: boolean;
  /** When the XML is made (FA(3)'s DataWytworzeniaFa). */
  now: Date;
  /** The invoice of XML bytes; throws XmlError or InvoiceError when it cannot be read. */
  read: (xml: Uint8Array) => Promise<Invoice>;
  /** The verdict on XML bytes, as an upload gets it. */
  validate: (xml: Uint8Array) => Promise<ValidationReport>;
}

/** What is converted: invoice XML, or the JSON of a creation (`{"format"?, "invoice"}`, its keys already checked). */
export type ConversionInput = { kind: "xml"; bytes: Uint8Array } | { kind: "json"; value: Record<string, unknown> };

/** A converted invoice: its XML in `format`, where it came from, what it lost, and the verdict on it (valid). */
export interface Conversion {
  format: WrittenFormat;
  from: string;
  xml: Uint8Array;
  losses: ConversionLossRecord[];
  report: ValidationReport;
}

/**
 * The invoice of `input` written as `to` and validated (`POST /api/v1/convert`, the `convert` command). An invoice
 * already in `to` is validated as it is. Throws 422 VALIDATION_ERROR naming why when it cannot yield a valid
 * invoice: the conversion refused, or the converted invoice failing validation, with its violations; the formats'
 * XmlError and InvoiceError when the XML cannot be read.
 */
export async function convertToFormat(input: ConversionInput, to: WrittenFormat, options: ConversionOptions): Promise<Conversion> {
  let xml: Uint8Array;
  let from: string;
  let losses: ConversionLossRecord[];
  let fieldOf: ((path: string) => string | null) | null = null;
  if (input.kind === "json") {
    const format = input.value["format"];
    if (format !== undefined && format !== to) throw badRequest("format", "invalid_value", "format, when given, must equal to");
    const made = makeInvoiceXml(input.value["invoice"], to, options.now);
    ({ xml, losses } = made);
    from = "json";
    fieldOf = made.fieldAt;
  } else {
    const converted = await convertXml(input.bytes, to, options);
    xml = converted?.xml ?? input.bytes;
    from = converted?.from ?? to;
    losses = converted?.losses ?? [];
  }
  const report = await options.validate(xml);
  if (!report.valid) throw refusal(fieldOf === null ? report : withFields(report, fieldOf));
  return { format: to, from, xml, losses, report };
}

/**
 * convertXml() for an upload of the request's tenant (`as=`, `POST /api/v1/convert`, a Factur-X rendering, which
 * asks for the specification identifier of its profile).
 */
export function convertUpload(ctx: Context, bytes: Uint8Array, to: WrittenFormat, keepNotes: boolean, profile?: string): Promise<ConvertedUpload | null> {
  return convertXml(bytes, to, {
    keepNotes, now: new Date(ctx.app.now()), read: (xml) => ctx.app.readInvoice(xml, { tenant: ctx.tenant.tenant }), ...(profile ? { profile } : {}),
  });
}

/**
 * The invoice of `bytes` written as `to`; null when it already is `to` (nothing to convert). 422 naming why when
 * it cannot be (no Polish seller NIP for FA(3), a VAT rate FA(3) has no code for, an FA_RR invoice).
 */
export async function convertXml(bytes: Uint8Array, to: WrittenFormat, options: Omit<ConversionOptions, "validate"> & { profile?: string }): Promise<ConvertedUpload | null> {
  const source = await options.read(bytes);
  const from = source.format;
  if (from === to || (to === "ubl" && isUblFormat(from))) return null;
  if (from === "ksef-fa-rr1") throw validationError("xml", "not_convertible", "An FA_RR(1) invoice (VAT RR, issued by a buyer of farm produce) has no counterpart in FA(3), UBL or CII");
  const c = convertInvoice(source, to);
  if (c.refusals.length > 0) throw objectRefusal(c.refusals.map((r) => ({ rule: "CONVERSION", ...r })));
  if (options.profile !== undefined) c.invoice.profile = options.profile;
  // Values the target computes and the source does not carry (EN 16931's line net total, FA(3)'s summary fields).
  completeInvoice(c.invoice, to);
  const now = options.now;
  let written = writeInvoice(c.invoice, to, { now });
  const losses: WriteLoss[] = [...c.losses, ...written.losses];
  if (options.keepNotes && losses.length > 0) {
    _keepInFreeText(c.invoice, to, losses);
    written = writeInvoice(c.invoice, to, { now });
  }
  return { xml: new TextEncoder().encode(written.xml), from, losses: _withSourcePaths(source, losses) };
}

/** Each loss also as the target's free text: FA(3) DodatkowyOpis (key, value), UBL/CII notes (BT-22). */
function _keepInFreeText(inv: Invoice, to: WrittenFormat, losses: readonly WriteLoss[]): void {
  for (const l of losses) {
    if (to === "ksef-fa3") inv.additional_info.push({ line_number: null, key: l.field.slice(0, 256), value: l.value.slice(0, 256) });
    else inv.notes.push({ subject_code: null, text: `${l.field}: ${l.value}` });
  }
}

/**
 * The losses with the source's XML path of each value where the source is a written format: the source written
 * again, traced, says where each field of it stands (FA(2)'s elements are FA(3)'s, under its own namespace).
 */
function _withSourcePaths(source: Invoice, losses: readonly WriteLoss[]): ConversionLossRecord[] {
  if (losses.length === 0) return [];
  const own: WrittenFormat | null = source.format === "ksef-fa2" || source.format === "ksef-fa3" ? "ksef-fa3" : source.format === "cii" ? "cii" : isUblFormat(source.format) ? "ubl" : null;
  let fields: readonly { path: string; field: string }[] = [];
  try {
    if (own !== null) fields = writeInvoice(source, own, { trace: true }).fields;
  } catch {
    fields = []; // a source that cannot be written again keeps its losses without paths
  }
  return losses.map((l) => {
    const hit = fields.find((f) => f.field === l.field || l.field.startsWith(`${f.field}.`) || l.field.startsWith(`${f.field}[`));
    return { path: hit?.path ?? null, ...l };
  });
}

/** POST /api/v1/convert: the invoice of the body as `to`, stored nowhere. */
async function convertRequest(ctx: Context): Promise<ApiResponse> {
  const to = _oneQuery(ctx, "to", WRITTEN_FORMATS, true)!;
  const keepNotes = _oneQuery(ctx, "keep", ["notes"] as const, false) === "notes";
  let input: ConversionInput;
  if (ctx.body.kind === "json") {
    input = { kind: "json", value: ctx.body.value }; // its fields are checked against ConvertRequestJson before the handler runs
  } else {
    const part = ctx.body.kind === "multipart" ? ctx.body.parts.find((p) => p.name === "xml") : undefined;
    if (!part) throw validationError("xml", "required", "xml is required");
    if (part.body.length === 0) throw validationError("xml", "empty", "xml is empty");
    input = { kind: "xml", bytes: uploadedInvoice(part.body).xml };
  }
  const tenant = ctx.tenant.tenant;
  const { xml, losses, report } = await convertToFormat(input, to, {
    keepNotes, now: new Date(ctx.app.now()),
    read: (bytes) => ctx.app.readInvoice(bytes, { tenant }), validate: (bytes) => ctx.app.validate(bytes, { tenant }),
  });
  const accept = ctx.req.header("accept") ?? "";
  if (/\bapplication\/json\b/.test(accept)) {
    return json(200, JSON.stringify({ format: to, xml: new TextDecoder().decode(xml), losses, validation: validationSummary(report) }));
  }
  return { status: 200, headers: { "content-type": "application/xml; charset=utf-8", "x-conversion-losses": String(losses.length) }, body: xml };
}

/** A query parameter among `allowed`: 400 when missing (if required) or not one of them. */
function _oneQuery<T extends string>(ctx: Context, name: string, allowed: readonly T[], required: boolean): T | undefined {
  const v = ctx.req.query.get(name);
  if (v === null) {
    if (required) throw badRequest(name, "required", `${name} is required: one of ${allowed.join(", ")}`);
    return undefined;
  }
  if (!(allowed as readonly string[]).includes(v)) throw badRequest(name, "invalid_value", `${name} must be one of ${allowed.join(", ")}`);
  return v as T;
}

/** The 200 of a conversion: the XML with its count of losses, or (asked with Accept) the JSON with the losses. */
function _converted(): Record<string, unknown> {
  const res = jsonResponse("The converted invoice: its XML, or with `Accept: application/json` the JSON with its losses and verdict", ref("Conversion"), {
    "X-Conversion-Losses": { description: "How many values the target has no place for (with the XML answer)", schema: { type: "integer", minimum: 0 } },
  });
  const content = res["content"] as Record<string, unknown>;
  content["application/xml"] = { schema: { type: "string", contentMediaType: "application/xml" } };
  return res;
}

/** The conversion route. */
export const conversionRoutes: ApiRoute[] = [
  {
    method: "POST", pattern: "/api/v1/convert", scope: "submissions:write", body: "any", handle: convertRequest,
    openapi: {
      id: "convertInvoice", tag: "Submissions", summary: "Convert an invoice to another format",
      description: "The invoice of the body (multipart with the `xml` part, the XML itself as `application/xml`, or the JSON of a creation, `{\"invoice\": {…}}`) written as `to`, validated as an upload would be; nothing is stored and no event fires. FA(2) → FA(3); UBL ↔ CII; UBL or CII of a Polish seller → FA(3); FA(3) → UBL or CII (README \"Converting invoices\" has the table of what maps to what). 200 `application/xml` with `X-Conversion-Losses: <n>`, the number of values the target has no place for; with `Accept: application/json`, `{format, xml, losses, validation}`. `keep=notes` also writes each lost value into the target's free text. An invoice already in `to` is answered as it is. A conversion that cannot yield a valid invoice is 422 naming why (`CONVERSION`: no Polish seller NIP for FA(3), a VAT rate FA(3) has no code for), and a converted invoice that fails validation 422 with its violations.",
      params: ["ConvertTo", "ConvertKeep"], jsonBody: "ConvertRequestJson",
      ok: { 200: _converted() },
      errors: ["VALIDATION_ERROR", "NO_EMBEDDED_INVOICE"],
    },
  },
];
