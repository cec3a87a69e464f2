/**
 * The `components` of the OpenAPI document (document.ts): a JSON Schema for
 * every body the API sends or accepts (the error envelope in the OpenAPI document, README “Webhooks”), one schema per error code,
 * and the shared parameters and headers. JSON Schema 2020-12 as OpenAPI 3.1 uses
 * it; nullable fields are type arrays, money a decimal string. It only describes.
 * @module
 */
import { SCOPES } from "../../auth/tokens.ts";
import { CURSOR_LIMIT, PAGE_SIZE, PAGE_WINDOW, SORTS } from "../list_query.ts";
import { DOCUMENT_TYPES, INVOICE_FORMATS } from "../../formats/invoice/vocabulary.ts";
import type { ErrorCode } from "../errors.ts";
import { MAX_WEBHOOK_URL_LENGTH } from "../../jobs/webhooks/address_guard.ts";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from "../../jobs/webhooks/events.ts";
import { MAX_DESCRIPTION } from "../webhooks/routes.ts";
import { DELIVERY_ATTEMPTS_KEPT, DELIVERY_ATTEMPTS_MAX_AGE_MS } from "../../contracts/storage.ts";
import { MAX_UPSTREAM_WARNING_CHARS, MAX_UPSTREAM_WARNINGS } from "../../contracts/upstream_warnings.ts";

/** A JSON Schema or another OpenAPI object, as plain JSON. */
export type Json = Record<string, unknown>;

/** A `$ref` to a component of `kind`. */
export function ref(name: string, kind: "schemas" | "parameters" | "headers" | "responses" = "schemas"): Json {
  return { $ref: `#/components/${kind}/${name}` };
}

const CROCKFORD = "[0-9A-HJKMNP-TV-Z]{26}"; // lib/contracts/ids.ts: prefix, then 26 Crockford base32 characters


const STRING: Json = { type: "string" };
const TIMESTAMP: Json = {
  type: "string", format: "date-time", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
  description: "ISO 8601 UTC with milliseconds and Z", examples: ["2026-11-21T23:25:01.123Z"],
};
const DATE: Json = { type: "string", format: "date", pattern: "^\\d{4}-\\d{2}-\\d{2}$", examples: ["2026-11-20"] };
const DECIMAL: Json = {
  type: "string", pattern: "^-?\\d+(\\.\\d+)?$",
  description: "A decimal number as a string, copied from the invoice, never a JSON number", examples: ["1230.00"],
};
const SHA256: Json = { type: "string", pattern: "^[0-9a-f]{64}$", description: "Hex SHA-256 of the XML bytes" };
const COUNT: Json = { type: "integer", minimum: 0 };
// The KsefNumber schema of KSeF's own open-api.json (CIRFMF/ksef-docs).
const KSEF_NUMBER: Json = {
  type: "string", minLength: 35, maxLength: 36,
  pattern: "^([1-9](\\d[1-9]|[1-9]\\d)\\d{7})-(20[2-9][0-9]|2[1-9]\\d{2}|[3-9]\\d{3})(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])-([0-9A-F]{6})-?([0-9A-F]{6})-([0-9A-F]{2})$",
  examples: ["5265877635-20250826-0100001AF629-AF"],
};

/** `schema` that also allows null (its `type` becomes a type array). */
function _orNull(schema: Json): Json {
  return { ...schema, type: [schema.type, "null"] };
}

/** A closed object: every listed property required unless named in `optional`. */
function _object(properties: Record<string, Json>, optional: string[] = []): Json {
  return { type: "object", required: Object.keys(properties).filter((k) => !optional.includes(k)), additionalProperties: false, properties };
}

function _id(prefix: string): Json {
  return { type: "string", pattern: `^${prefix}_${CROCKFORD}$`, examples: [`${prefix}_01JDQ3W5Y8ZK4M6N7P8Q9R0S1T`] };
}

function _links(collection: string, prefix: string, downloads: boolean): Json {
  const self = `^/api/v1/${collection}/${prefix}_${CROCKFORD}`;
  const props: Record<string, Json> = { self: { type: "string", pattern: `${self}$` } };
  if (downloads) {
    // null while the XML is not available (documents; a submission always has its XML)
    props.xml = { type: ["string", "null"], pattern: `${self}/xml$` };
    props.pdf = { type: ["string", "null"], pattern: `${self}/pdf$` };
  }
  return _object(props);
}

const PARTY: Json = _object({ name: _orNull(STRING), tax_id: _orNull(STRING) });
const TOTALS: Json = _object({ net: _orNull(DECIMAL), tax: _orNull(DECIMAL), gross: _orNull(DECIMAL) });
/** The `invoice` property of documents and submissions (README “Documents and the inbox”, README “The invoice object”). */
const INVOICE: Json = {
  oneOf: [ref("Invoice"), { type: "null" }],
  description: "The whole invoice. On GET of one document or submission, and on list items with `expand=invoice`; absent from other list items, 201 answers and webhook payloads; null while the XML is not available",
};
const FEED_TAIL: Record<string, Json> = {
  next_cursor: {
    type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$",
    description: "Always present: after the last page it points past the newest change. Store it only after processing the page.",
  },
  has_more: { type: "boolean", description: "True when more changes exist now" },
};

function _webhook(withSecret: boolean): Json {
  const props: Record<string, Json> = {
    id: ref("WebhookId"),
    url: { type: "string", format: "uri" },
    events: { type: "array", minItems: 1, items: ref("WebhookEventName") },
    description: _orNull(STRING),
    status: { type: "string", enum: ["enabled", "disabled"], description: "disabled after the last failed retry or a 410 Gone" },
  };
  if (withSecret) {
    props.secret = {
      type: "string", pattern: "^whsec_[A-Za-z0-9+/]+={0,2}$",
      description: "Signing secret (Standard Webhooks); shown only in this response",
    };
  }
  props.created_at = ref("Timestamp");
  props.last_attempt_at = { ..._orNull(TIMESTAMP), description: "When a delivery to the endpoint was last attempted" };
  props.last_success_at = { ..._orNull(TIMESTAMP), description: "When a delivery last succeeded (a 2xx within 10 s)" };
  props.last_error = {
    type: ["object", "null"], required: ["status", "message"], additionalProperties: false,
    description: "The last failure while failures continue; null after a success",
    properties: { status: { type: ["integer", "null"], description: "The receiver's HTTP status; null for a network error or timeout" }, message: STRING },
  };
  props.consecutive_failures = { ...COUNT, description: "Failed attempts since the last success" };
  props.next_attempt_at = { ..._orNull(TIMESTAMP), description: "When the next scheduled retry is due; null when none waits or the endpoint is disabled" };
  return _object(props);
}

const FIELD_ISSUE: Json = {
  type: "object", required: ["field", "issue"],
  properties: {
    field: { type: "string", description: "e.g. `xml`, `url`, `cursor`, `Idempotency-Key` or an XML path such as `xml:/Faktura/Fa/P_2`" },
    issue: STRING,
    violations: { type: "array", maxItems: 200, items: { $ref: "#/components/schemas/Violation" }, description: "An invoice that fails validation: every error, then every warning" },
  },
};
const NO_DETAILS: Json = { type: "object" };

/** Each error code of the error envelope in the OpenAPI document: when it is given and what its `details` hold. */
export const ERROR_CODES: Record<ErrorCode, { description: string; details: Json }> = {
  BAD_REQUEST: { description: "The request cannot be read: malformed body, bad header or query parameter, invalid cursor", details: FIELD_ISSUE },
  UNAUTHENTICATED: { description: "Token missing, unknown, revoked or expired", details: NO_DETAILS },
  FORBIDDEN: {
    description: "The token lacks the scope",
    details: { type: "object", required: ["required_scope"], properties: { required_scope: { type: "string", enum: [...SCOPES] } } },
  },
  NOT_FOUND: { description: "No such resource for this tenant (malformed, unknown and foreign ids alike)", details: NO_DETAILS },
  XML_NOT_AVAILABLE: { description: "The document exists but its XML (and so its PDF) is not yet available", details: NO_DETAILS },
  UPO_NOT_AVAILABLE: { description: "The submission exists but KSeF has not (yet) issued its official receipt (UPO)", details: NO_DETAILS },
  NO_EMBEDDED_INVOICE: { description: "The upload is a PDF that carries no embedded invoice (no `factur-x.xml`, `zugferd-invoice.xml`, `ZUGFeRD-invoice.xml` or `xrechnung.xml`): README \"EU formats\"", details: NO_DETAILS },
  METHOD_NOT_ALLOWED: {
    description: "The path does not support the method; `Allow` lists those it does",
    details: { type: "object", required: ["allow"], properties: { allow: { type: "array", items: STRING } } },
  },
  DUPLICATE_SUBMISSION: {
    description: "The tenant already submitted this invoice (same XML bytes, or same seller tax id + type + number)",
    details: { type: "object", required: ["existing_id"], properties: { existing_id: ref("SubmissionId") } },
  },
  IDEMPOTENCY_KEY_IN_USE: { description: "A request with this Idempotency-Key is still being processed", details: NO_DETAILS },
  PAYLOAD_TOO_LARGE: {
    description: "The body is over the limit",
    details: { type: "object", required: ["limit_bytes"], properties: { limit_bytes: { type: "integer", minimum: 1 } } },
  },
  HEADERS_TOO_LARGE: { description: "The request headers are over the limit (answered by the HTTP parser, on any path)", details: NO_DETAILS },
  UNSUPPORTED_MEDIA_TYPE: {
    description: "Wrong Content-Type for the endpoint",
    details: { type: "object", required: ["expected"], properties: { expected: STRING } },
  },
  VALIDATION_ERROR: { description: "Readable but invalid content", details: FIELD_ISSUE },
  IDEMPOTENCY_KEY_MISMATCH: { description: "The Idempotency-Key was used with a different request", details: NO_DETAILS },
  RATE_LIMITED: {
    description: "Over the request limit, or over the tenant's share of the places waiting for large invoice reads (README \"Limits\"); retry after `Retry-After` seconds",
    details: { type: "object", required: ["retry_after_seconds"], properties: { retry_after_seconds: { type: "integer", minimum: 1 } } },
  },
  INTERNAL_ERROR: { description: "A bug; logged with the request id", details: NO_DETAILS },
  UPSTREAM_ERROR: { description: "The external document source failed", details: NO_DETAILS },
  SERVICE_UNAVAILABLE: { description: "Draining for shutdown, storage unavailable or overloaded; retry after `Retry-After` seconds", details: NO_DETAILS },
};

/** The component name of the error body of `code`: `NOT_FOUND` → `NotFoundError`. */
export function errorSchemaName(code: ErrorCode): string {
  return code.toLowerCase().split("_").map((w) => w[0]!.toUpperCase() + w.slice(1)).join("") + "Error";
}

function _errorSchemas(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [code, e] of Object.entries(ERROR_CODES) as [ErrorCode, (typeof ERROR_CODES)[ErrorCode]][]) {
    out[errorSchemaName(code)] = {
      description: e.description,
      allOf: [ref("Error"), { properties: { error: { properties: { code: { const: code }, details: e.details } } } }],
    };
  }
  return out;
}

/** The JSON Schemas of `components.schemas`. */
export function schemas(): Record<string, Json> {
  return {
    Timestamp: TIMESTAMP,
    Date: DATE,
    Decimal: DECIMAL,
    DocumentId: _id("doc"),
    SubmissionId: _id("sub"),
    SyncRunId: _id("sync"),
    WebhookId: _id("whk"),
    RequestId: { ..._id("req"), description: "The `X-Request-Id` of the response" },
    DocumentFormat: {
      type: "string", enum: INVOICE_FORMATS,
      description: "ksef-fa2, ksef-fa3: KSeF FA(2), FA(3); ksef-fa-rr1: KSeF FA_RR(1), the VAT RR invoice a buyer of farm produce issues " +
        "(the farmer is the seller, the issuing buyer the buyer); ksef-pef3: KSeF PEF(3)/PEF_KOR(3), a Peppol UBL 2.1 invoice or credit note " +
        "with KSeF's Polish extension, read as ubl; ubl: UBL 2.1 / Peppol BIS 3.0; cii: UN/CEFACT CII (XRechnung, Factur-X/ZUGFeRD)",
    },
    DocumentType: { type: "string", enum: DOCUMENT_TYPES },
    Party: PARTY,
    Totals: TOTALS,
    Document: {
      description: "A synchronized invoice. Fields the XML does not hold are null; before the XML arrives, those the source's metadata did not supply.",
      ..._object({
        id: ref("DocumentId"),
        source: { type: "string", minLength: 1, examples: ["inbox"] },
        external_id: STRING,
        format: { type: ["string", "null"], enum: [...INVOICE_FORMATS, null], description: "See DocumentFormat" },
        type: { type: ["string", "null"], enum: [...DOCUMENT_TYPES, null] },
        number: _orNull(STRING),
        issue_date: _orNull(DATE),
        currency: { type: ["string", "null"], description: "ISO 4217 code as written in the invoice" },
        seller: _orNull(PARTY),
        buyer: _orNull(PARTY),
        totals: _orNull(TOTALS),
        ksef_number: { ..._orNull(KSEF_NUMBER), description: "The number KSeF assigned, when the source knows it (the `ksef` source always does)" },
        xml_available: { type: "boolean" },
        sha256: _orNull(SHA256),
        size: _orNull({ type: "integer", minimum: 0, description: "Bytes of the XML" }),
        received_at: _orNull(TIMESTAMP),
        synced_at: ref("Timestamp"),
        updated_at: ref("Timestamp"),
        links: _links("documents", "doc", true),
        validation: { anyOf: [ref("Validation"), { type: "null" }], description: "GET /documents/{id} only: whether the document would pass validation (documents are never refused); null before its XML arrives" },
        invoice: INVOICE,
      }, ["invoice", "validation"]),
    },
    DocumentFeedPage: {
      description: "Cursor mode (no `page` parameter): the change feed, oldest change first",
      ..._object({ data: { type: "array", items: ref("Document") }, ...FEED_TAIL }),
    },
    DocumentPage: {
      description: "Page mode (`page` given)",
      ..._object({
        data: { type: "array", items: ref("Document") },
        page: { type: "integer", minimum: 1 },
        per_page: { type: "integer", minimum: PAGE_SIZE.min, maximum: PAGE_SIZE.max },
        total: COUNT,
        total_pages: COUNT,
      }),
    },
    DocumentList: { oneOf: [ref("DocumentFeedPage"), ref("DocumentPage")] },
    Submission: {
      description: "An accepted upload; number, issue date and seller tax id are always present",
      ..._object({
        id: ref("SubmissionId"),
        status: { type: "string", const: "accepted" },
        format: ref("DocumentFormat"),
        type: ref("DocumentType"),
        number: { type: "string", minLength: 1 },
        issue_date: ref("Date"),
        currency: { type: ["string", "null"], description: "ISO 4217 code as written in the invoice" },
        seller: _object({ name: _orNull(STRING), tax_id: { type: "string", minLength: 1 } }),
        buyer: ref("Party"),
        totals: ref("Totals"),
        sha256: SHA256,
        size: { type: "integer", minimum: 1 },
        ksef_number: { ..._orNull(KSEF_NUMBER), description: "The number KSeF assigned (equals `ksef.ksef_number`); null until then" },
        ksef: { oneOf: [ref("SubmissionKsef"), { type: "null" }], description: "Sending to KSeF (README \"Sending to KSeF\": FA(2), FA(3), FA_RR(1)); null for a tenant that does not send, and for UBL, CII and PEF" },
        created_at: ref("Timestamp"),
        updated_at: { ...ref("Timestamp"), description: "The last change (a change of `ksef` moves the submission to the end of the feed)" },
        links: _object({
          self: { type: "string", pattern: `^/api/v1/submissions/sub_${CROCKFORD}$` },
          xml: { type: "string", pattern: `^/api/v1/submissions/sub_${CROCKFORD}/xml$` },
          pdf: { type: "string", pattern: `^/api/v1/submissions/sub_${CROCKFORD}/pdf$` },
          source: { type: "string", pattern: `^/api/v1/submissions/sub_${CROCKFORD}/source$`, description: "The bytes as received (`source`); the XML itself when that is what was received" },
          upo: { type: ["string", "null"], pattern: `^/api/v1/submissions/sub_${CROCKFORD}/upo$`, description: "The UPO download once KSeF issued it (with `ksef.status` accepted), null before" },
        }),
        validation: { anyOf: [ref("Validation"), { type: "null" }], description: "The verdict stored with the submission; null for submissions made before validation existed" },
        source: {
          oneOf: [_object({ media_type: { type: "string", enum: ["application/json", "application/xml", "application/pdf"] }, sha256: SHA256, size: { type: "integer", minimum: 1 } }), { type: "null" }],
          description: "What was received when the stored XML was written or converted from it (README \"Creating invoices\"): the JSON of a created invoice, the original of an upload converted with `as`, the PDF of a Factur-X upload; null when the XML was stored as received. Downloaded from `links.source`",
        },
        conversion: {
          oneOf: [_object({
            from: { type: "string", description: "The format converted from (`ksef-fa2`, `ubl`, …), or `json` for an invoice created from JSON" },
            losses: { type: "array", items: ref("ConversionLoss"), description: "Each value the written format has no place for (README \"Converting invoices\")" },
          }), { type: "null" }],
          description: "How the stored XML was made from the source; null for an XML stored as received",
        },
        invoice: INVOICE,
      }, ["invoice"]),
    },
    ConversionLoss: {
      description: "A value the converted invoice has no place for: nothing is dropped silently",
      ..._object({
        path: { type: ["string", "null"], description: "Its XML path in the source, when known" },
        field: { type: "string", description: "Its path in the invoice object (`invoice.references.buyer_reference`)" },
        value: { type: "string" },
        reason: { type: "string" },
      }),
    },
    KsefSendStatus: {
      type: "string", enum: ["queued", "sending", "accepted", "rejected"],
      description: "queued: accepted here, waiting to be sent; sending: in a KSeF session (online or batch), waiting for KSeF's verdict; accepted: KSeF assigned a KSeF number (and issued its UPO); rejected: KSeF refused it. A KSeF outage never rejects: the submission stays queued or sending.",
    },
    SubmissionKsef: {
      description: "How sending the submission to KSeF goes",
      ..._object({
        status: ref("KsefSendStatus"),
        ksef_number: _orNull(KSEF_NUMBER),
        acquired_at: { ..._orNull(TIMESTAMP), description: "KSeF's `acquisitionDate`: when it assigned the KSeF number" },
        session: { type: ["string", "null"], description: "The reference number of the KSeF session it was sent in, online or batch (for a duplicate taken as the original acceptance: the original's session); null while queued" },
        session_type: { type: ["string", "null"], enum: ["online", "batch", null], description: "The kind of that session: `online` (interactive, one invoice a request) or `batch` (a ZIP package of many, README \"Sending to KSeF\", the source's `send_mode`); null while queued" },
        reference: { type: ["string", "null"], description: "The invoice's reference number in that session" },
        attempts: { type: "integer", minimum: 0, description: "Times it was sent" },
        error: {
          oneOf: [{ type: "null" }, _object({
            code: { type: "string", pattern: "^KSEF_[0-9A-Z_]+$", examples: ["KSEF_450", "KSEF_440"], description: "`KSEF_` and KSeF's invoice status or exception code" },
            message: { type: "string", description: "KSeF's description" },
            details: { type: "array", items: STRING, description: "KSeF's details (for 440: originalKsefNumber, originalSessionReferenceNumber)" },
          })],
          description: "Why KSeF refused it (or, while still queued or sending, the last transient refusal); null otherwise",
        },
        updated_at: ref("Timestamp"),
        mode: { type: "string", enum: ["online", "offline"], description: "How the invoice was issued (README \"Offline invoices\"): `offline` when uploaded with `ksef_mode=offline` or issued offline by itself during a KSeF outage (`offline_when_unavailable`); it is then sent with `offlineMode: true`" },
        invoicing_mode: { type: ["string", "null"], enum: ["online", "offline", null], description: "KSeF's own verdict (`invoicingMode` of the invoice's status), null until known. KSeF marks an invoice offline by itself when the day of its issue date (`P_1`) is before the day KSeF received it" },
        deadline: { type: ["string", "null"], format: "date", description: "For an offline invoice: the last day (Europe/Warsaw) to get it to KSeF, counted in Polish working days (offline24: the next working day after the issue date); null for an online one" },
        deadline_warned_at: { ..._orNull(TIMESTAMP), description: "When `submission.ksef_deadline_near` fired for it (once); null before" },
        corrects: { type: ["string", "null"], description: "A technical correction (README \"Offline invoices\", KSeF's `offline/korekta-techniczna.md`): the id of the offline submission it corrects; null otherwise" },
        corrected_by: { type: ["string", "null"], description: "The id of the latest technical correction of this (rejected, offline) submission; null while there is none" },
        warnings: {
          type: "array", maxItems: MAX_UPSTREAM_WARNINGS, items: ref("UpstreamWarning"),
          description: `KSeF's technical warnings (its \`X-System-Warning\` header, README "KSeF") on the requests made for this submission: sending it, reading its status and UPO. They did not change KSeF's answer; each distinct one once, the first ${MAX_UPSTREAM_WARNINGS}; those of session-wide requests are only logged`,
        },
      }),
    },
    UpstreamWarning: {
      description: "A warning KSeF gave beside an answer it did not change (its `X-System-Warning` header: `[code]: message`, KSeF API 2.6.0), e.g. about something it may refuse in the future",
      ..._object({
        code: { type: ["string", "null"], maxLength: 100, description: "The warning's code, as KSeF gave it; null when it came without one" },
        message: { type: "string", maxLength: MAX_UPSTREAM_WARNING_CHARS, description: "KSeF's words (ASCII-folded by KSeF); a longer one is cut, ending in `…`" },
        operation: { type: "string", examples: ["POST /sessions/online/20251010-SO-2F14610000-242991F8C9-B4/invoices"], description: "The request that first drew it: method and path" },
        at: { ...TIMESTAMP, description: "When it was first heard" },
      }),
    },
    Violation: {
      description: "One finding of validation: the rule, how bad, where",
      ..._object({
        rule: { type: "string", description: "`XSD`, `KSEF-FILE`, or the EN 16931 artefacts' own id (`BR-CO-10`, `UBL-SR-01`, ...)", examples: ["XSD"] },
        severity: { type: "string", enum: ["error", "warning"] },
        path: { type: "string", description: "The element's path, e.g. `/Faktura/Fa/P_2` (`[n]` among same-named siblings), or `/` for the whole file" },
        line: { type: ["integer", "null"], minimum: 1 },
        column: { type: ["integer", "null"], minimum: 1 },
        message: STRING,
      }),
    },
    Validation: {
      description: "The verdict the receiver would give: the checks run, whether the invoice passes them, every error that says why not (the same violations as POST /validate) and its warnings, at most 200 together",
      ..._object({
        valid: { type: "boolean" },
        checks: {
          type: "array",
          items: STRING,
          description: "The checks run: KSeF's file rules, the schema, the EN 16931 rules, and the CIUS rule pack the invoice's specification identifier (BT-24) names: XRECHNUNG:3.0.2, or PEPPOL-BIS:3.0 3.0.21 (UBL) / PEPPOL-BIS:3.0 3.0.13 (CII)",
          examples: [["KSEF-FILE", "XSD:FA(3) 1-0E"], ["KSEF-FILE", "XSD:FA_RR(1) 1-1E"], ["XSD:PEF(3) 2-1", "EN16931:1.3.16"], ["XSD:UBL 2.1", "EN16931:1.3.16"], ["XSD:UBL 2.1", "EN16931:1.3.16", "PEPPOL-BIS:3.0 3.0.21"], ["XSD:UBL 2.1", "EN16931:1.3.16", "XRECHNUNG:3.0.2"]],
        },
        errors: { type: "array", items: ref("Violation"), maxItems: 200, description: "Why the invoice would not pass; `[]` when `valid` (always so for a submission, which an error refuses)" },
        warnings: { type: "array", items: ref("Violation"), maxItems: 200 },
      }),
    },
    ValidationReport: {
      description: "The answer of POST /validate",
      ..._object({
        valid: { type: "boolean" },
        format: ref("DocumentFormat"),
        checks: { type: "array", items: STRING },
        errors: { type: "array", items: ref("Violation"), maxItems: 200 },
        warnings: { type: "array", items: ref("Violation"), maxItems: 200 },
      }),
    },
    SubmissionFeedPage: {
      description: "The submissions feed in order of last change, oldest first (a submission whose KSeF state changes moves to the end)",
      ..._object({ data: { type: "array", items: ref("Submission") }, ...FEED_TAIL }),
    },
    SubmissionUpload: {
      type: "object", required: ["xml"],
      properties: { xml: { type: "string", contentMediaType: "application/xml", description: "The invoice XML: a file part or a plain field" } },
      description: "Other parts are ignored",
    },
    SubmissionCreate: {
      type: "object", required: ["xml"],
      properties: {
        xml: { type: "string", contentMediaType: "application/xml", description: "The invoice XML: a file part or a plain field" },
        ksef_mode: {
          type: "string", enum: ["online", "offline"], default: "online",
          description: "How a KSeF FA invoice of a tenant that sends is issued (README \"Offline invoices\", KSeF's `tryby-offline.md`): `online`, or `offline` (offline24): issued at once with KOD I labelled OFFLINE and KOD II signed with the tenant's KSeF certificate of type Offline, sent to KSeF later with `offlineMode: true` by `ksef.deadline`. Without this field an upload is online, or offline by itself once KSeF has not answered for the source's `offline_when_unavailable`, counted from KSeF's first unanswered request (a 5xx, a timeout, a refused connection) to its first answer. A bad or repeated value is 400; `offline` for a tenant that does not send (or an invoice that is not KSeF FA) is 422 `not_sent`, and without a usable certificate 422 `offline_certificate_missing`.",
        },
        corrects: {
          type: "string", pattern: "^sub_[0-9A-HJKMNP-TV-Z]{26}$",
          description: "A technical correction (README \"Offline invoices\", KSeF's `offline/korekta-techniczna.md`): the id of an offline submission KSeF rejected for a technical reason (status 430, 435, 440, 450, 500, an input validation exception, or a file over the size limit). The upload is sent in an online session with `offlineMode: true` and `hashOfCorrectedInvoice` (the rejected file's SHA-256), keeps the original's deadline, and the two are linked (`ksef.corrects`, `ksef.corrected_by`). 422 on `corrects` with `details.issue` `not_found`, `not_offline`, `not_technically_rejected`, `already_corrected` (KSeF accepted a correction) or `correction_pending` (one is still being sent); 422 on `ksef_mode` `correction_is_offline` with `ksef_mode=online`.",
        },
        as: {
          type: "string", enum: ["ksef-fa3", "ubl", "cii"],
          description: "Convert the upload first (README \"Converting invoices\"): `/xml` is then the converted invoice (what is validated, stored and sent to KSeF), `/source` the upload, and `conversion.losses` lists what the target had no place for. A UBL or CII invoice of a Polish seller goes to KSeF with `as=ksef-fa3`; an FA(2) becomes FA(3). A conversion that cannot yield a valid invoice is 422",
        },
      },
      description: "Other parts are ignored",
    },
    SubmissionCreateJson: {
      type: "object", required: ["format", "invoice"], additionalProperties: false,
      description: "An invoice to create from the invoice object (README \"Creating invoices\"): the server computes what follows from the other values (line net amounts, the VAT breakdown per rate, the totals; FA(3)'s P_13_x, P_14_x, P_14_xW and P_15), checks what is given against it, writes the XML of `format`, validates it like an upload and stores it; `/xml` is the written XML, `/source` this JSON. A refused object is 422 whose `details.violations` each name `field`, the JSON path at fault",
      properties: {
        format: { type: "string", enum: ["ksef-fa3", "ubl", "cii"], description: "The format written" },
        invoice: { ...ref("InvoiceInput"), description: "The invoice object as `GET /submissions/{id}` answers it, every field optional: an absent value is null, an absent list empty. The minimal FA(3): `seller` (name, tax_id NIP, address), `buyer` (name, tax_id or no_tax_id, address), `number`, `issue_date`, `currency`, `lines` (name, quantity, unit, net_price, vat_rate: FA(3)'s P_12 code such as \"23\" or \"zw\", or vat_category)" },
        ksef_mode: { type: "string", enum: ["online", "offline"], description: "As for an upload" },
        corrects: { type: "string", pattern: "^sub_[0-9A-HJKMNP-TV-Z]{26}$", description: "As for an upload" },
      },
    },
    ConvertRequestJson: {
      type: "object", required: ["invoice"], additionalProperties: false,
      description: "The JSON of a creation: the invoice object, written as `to`",
      properties: { invoice: ref("InvoiceInput"), format: { type: "string", enum: ["ksef-fa3", "ubl", "cii"], description: "When given, equal to `to`" } },
    },
    Conversion: {
      description: "A converted invoice (README \"Converting invoices\")",
      ..._object({
        format: { type: "string", enum: ["ksef-fa3", "ubl", "cii"], description: "The format written" },
        xml: { type: "string", description: "The converted invoice's XML" },
        losses: { type: "array", items: ref("ConversionLoss") },
        validation: ref("Validation"),
      }),
    },
    SyncRunRequest: {
      type: "object",
      properties: { source: { type: "string", minLength: 1, description: "The source to sync; the tenant's first source when absent" } },
      description: "Empty, `{}` or `{\"source\": \"<name>\"}`; another field is 400 `unknown parameter`",
    },
    KsefCertificateExpiring: {
      description: "A ksef source's KSeF certificate nears its end: sent once per certificate at 30, 7 and 1 days left, restarts included (README \"KSeF certificates from the command line\"); when several thresholds are crossed at once (a certificate first seen 5 days before its end), one event for the nearest, and the larger ones are not sent later; a repeat after a crash keeps its `webhook-id`",
      ..._object({
        source: { type: "string", description: "The ksef source's name in sources.json" },
        type: { type: "string", enum: ["authentication", "offline"], description: "`authentication`: the certificate it signs in with; `offline`: the one that signs KOD II" },
        serial: { type: "string", pattern: "^[0-9A-F]+$", description: "The certificate's serial number, upper-case hex" },
        subject: { type: "string", description: "The certificate's subject, e.g. `CN=…, organizationIdentifier=VATPL-…, C=PL`" },
        not_after: TIMESTAMP,
        days_left: { type: "integer", minimum: 0, description: "Whole days left when the notice fired" },
        threshold_days: { type: "integer", enum: [30, 7, 1], description: "The threshold this notice is for: the nearest one crossed when it fired" },
      }),
    },
    SyncRun: {
      description: "A sync run; `error` is present when the run failed",
      ..._object({
        id: ref("SyncRunId"),
        source: STRING,
        status: { type: "string", enum: ["queued", "running", "succeeded", "failed"] },
        requested_at: ref("Timestamp"),
        started_at: _orNull(TIMESTAMP),
        finished_at: _orNull(TIMESTAMP),
        waiting_until: { ..._orNull(TIMESTAMP), description: "While the run waits out a limit of the source (e.g. KSeF's 429 `Retry-After` or its documented hourly limits): until when; null otherwise" },
        counts: _object({ fetched: COUNT, created: COUNT, updated: COUNT, unchanged: COUNT, failed: COUNT }),
        errors: {
          type: "array", maxItems: 100, description: "Documents that failed to import (the first 100)",
          items: _object({ external_id: STRING, code: STRING, message: STRING }),
        },
        skipped: {
          type: "array",
          description: "What the run deliberately did not look at, so that a run that looked at nothing never reads as \"nothing new\": e.g. a KSeF role (`part`: `Subject1`…) exported less than the source's `min_interval` ago (`reason`: `min_interval`)",
          items: _object({
            source: STRING,
            part: { type: "string", description: "The part of the source, e.g. the KSeF subject type" },
            reason: { type: "string", examples: ["min_interval"] },
            next_at: { ..._orNull(TIMESTAMP), description: "When the part may be looked at again; null when the source does not say" },
          }),
        },
        warnings: {
          type: "array", maxItems: MAX_UPSTREAM_WARNINGS, items: ref("UpstreamWarning"),
          description: `Warnings the source's upstream gave while the run read it, which did not change its answers: for a \`ksef\` source, KSeF's \`X-System-Warning\` header (README "KSeF"). Each distinct one once, the first ${MAX_UPSTREAM_WARNINGS}; every one is also logged`,
        },
        error: {
          description: "Why the source failed",
          ..._object({
            code: {
              type: "string", examples: ["UPSTREAM_ERROR", "KSEF_CERTIFICATE_REJECTED"],
              description: "The source's own code, or `SOURCE_NOT_CONFIGURED` or `SERVICE_UNAVAILABLE`. `http`: `UPSTREAM_ERROR`. `ksef` (README \"KSeF\"): " +
                "`KSEF_CERTIFICATE_REJECTED` (KSeF refused the sign-in signature or certificate: its status or exception code and words in `message`), " +
                "`KSEF_CREDENTIALS_UNUSABLE` (the configured certificate, key, `.p12` or passphrase cannot be used here, so nothing was sent to KSeF: `message` names the `sources.json` field and the file's name, never the server's paths), " +
                "`KSEF_CERTIFICATE_EXPIRED` (the sign-in certificate has ended or is not yet valid, or no KSeF encryption key is valid now), " +
                "`KSEF_TOKEN_REJECTED` (a KSeF token refused; after 31 December 2026 every token), `KSEF_PERMISSION_DENIED`, `KSEF_WRONG_NIP`, " +
                "`KSEF_UNAVAILABLE`, `KSEF_PACKAGE_UNDECRYPTABLE`, `KSEF_PROTOCOL_ERROR`",
            },
            message: STRING,
          }),
        },
        links: _links("documents/sync", "sync", false),
      }, ["error"]),
    },
    Summary: {
      description: "One tenant's state at a glance (README \"Summary\"): each part only when the token has its scope",
      ..._object({
        submissions: {
          description: "With `submissions:read`",
          ..._object({
            by_status: { description: "Submissions by `ksef.status`; `not_sent` for those never sent to KSeF", ..._object({ queued: COUNT, sending: COUNT, accepted: COUNT, rejected: COUNT, not_sent: COUNT }) },
            by_mode: { description: "Submissions sent to KSeF by how they were issued", ..._object({ online: COUNT, offline: COUNT }) },
            offline_overdue: { ...COUNT, description: "Offline submissions KSeF has not accepted whose deadline day has ended" },
            offline_deadline_near: { ...COUNT, description: "Offline submissions KSeF has not accepted whose deadline is near (the window of `submission.ksef_deadline_near`)" },
            per_hour: {
              type: "array", minItems: 48, maxItems: 48, description: "The last 48 UTC hours, oldest first: submissions received, and KSeF verdicts given, in each",
              items: _object({ hour: ref("Timestamp"), received: COUNT, accepted: COUNT, rejected: COUNT }),
            },
            ksef_sessions: {
              type: "array", description: "The KSeF sessions with invoices in flight",
              items: _object({ type: { type: "string", enum: ["online", "batch"] }, reference: STRING, opened_at: ref("Timestamp"), invoices: COUNT }),
            },
          }),
        },
        documents: {
          description: "With `documents:read`",
          ..._object({
            total: COUNT,
            invalid: { ...COUNT, description: "Documents whose XML was judged invalid (`validation.valid` false) when it was imported, or, for documents stored before verdicts were kept, by the judging the server does in the background after it starts" },
            xml_missing: COUNT,
            per_day: {
              type: "array", minItems: 30, maxItems: 30, description: "The last 30 UTC days, oldest first: documents last synced on each",
              items: _object({ day: DATE, synced: COUNT }),
            },
            sources: {
              type: "array", description: "Each configured source with its newest sync run",
              items: _object({ source: STRING, type: { type: "string", examples: ["inbox", "http", "ksef"] }, last_run: { oneOf: [ref("SyncRun"), { type: "null" }] } }),
            },
          }),
        },
        webhooks: {
          type: "array", description: "With `webhooks:read`: each endpoint's delivery health",
          items: _object({
            id: ref("WebhookId"), url: STRING, status: { type: "string", enum: ["enabled", "disabled"] }, consecutive_failures: COUNT,
            last_error: {
              type: ["object", "null"], required: ["status", "message"], additionalProperties: false,
              properties: { status: { type: ["integer", "null"] }, message: STRING },
            },
            next_attempt_at: _orNull(TIMESTAMP),
          }),
        },
      }, ["submissions", "documents", "webhooks"]),
    },
    Token: {
      description: "The presented token (README \"Security model\"): never its secret",
      ..._object({
        tenant: { type: "string", description: "The tenant whose data the token reaches" },
        key_id: { type: "string", pattern: "^[A-Za-z0-9]{8,32}$", description: "The public part of `itk_<key id>_<secret>`, as `token list` shows it" },
        scopes: { type: "array", items: { type: "string", enum: [...SCOPES] }, description: "What the token may do (README \"Security model\")" },
        created_at: ref("Timestamp"),
        expires_at: { ..._orNull(TIMESTAMP), description: "When the token stops working; null when it does not expire" },
      }),
    },
    WebhookEventName: { type: "string", enum: [...WEBHOOK_EVENT_TYPES, ALL_EVENTS], description: "`*` subscribes to every event type" },
    WebhookRequest: {
      type: "object", required: ["url", "events"],
      properties: {
        url: { type: "string", format: "uri", maxLength: MAX_WEBHOOK_URL_LENGTH, description: "https (http and private targets only when the server allows them); no credentials" },
        events: { type: "array", minItems: 1, items: ref("WebhookEventName"), description: "Event types, or exactly `[\"*\"]`" },
        description: { type: ["string", "null"], maxLength: MAX_DESCRIPTION },
      },
    },
    Webhook: { description: "A webhook endpoint, without its secret", ..._webhook(false) },
    WebhookCreated: { description: "A new webhook endpoint with its secret, shown only once", ..._webhook(true) },
    WebhookList: _object({ data: { type: "array", items: ref("Webhook") } }),
    WebhookPatch: {
      type: "object", examples: [{ status: "enabled" }],
      description: "Any of the fields; each is validated as on registration. `enabled` on a disabled endpoint resumes delivery where it stopped, nothing skipped; `disabled` pauses it",
      properties: {
        url: { type: "string", format: "uri", maxLength: MAX_WEBHOOK_URL_LENGTH },
        events: { type: "array", minItems: 1, items: ref("WebhookEventName") },
        description: { type: ["string", "null"], maxLength: MAX_DESCRIPTION },
        status: { type: "string", enum: ["enabled", "disabled"] },
      },
    },
    EventId: _id("evt"),
    DeliveryAttempt: {
      description: "One delivery attempt to an endpoint",
      ..._object({
        event_id: ref("EventId"),
        type: { type: "string", enum: [...WEBHOOK_EVENT_TYPES] },
        attempt: { type: "integer", minimum: 1, description: "The event's scheduled attempt number (from 1 again after a disabled endpoint is re-enabled); a manual retry repeats the number of the attempt before it" },
        manual: { type: "boolean", description: "True for an attempt asked for with the retry endpoint" },
        attempted_at: ref("Timestamp"),
        status_code: { type: ["integer", "null"], description: "The receiver's HTTP status; null when no answer came" },
        duration_ms: COUNT,
        error: { type: ["string", "null"], description: "Why the attempt failed; null on success" },
      }),
    },
    DeliveryList: {
      description: `The endpoint's recent attempts, newest last (kept ${DELIVERY_ATTEMPTS_MAX_AGE_MS / 86_400_000} days or the last ${DELIVERY_ATTEMPTS_KEPT}, whichever is less)`,
      ..._object({ data: { type: "array", items: ref("DeliveryAttempt") }, ...FEED_TAIL }),
    },
    RedeliveryAccepted: {
      description: "The event will be sent once more, now; the retry schedule is unaffected",
      ..._object({ webhook_id: ref("WebhookId"), event_id: ref("EventId"), status: { type: "string", const: "queued" }, requested_at: ref("Timestamp") }),
    },
    ErrorCode: { type: "string", enum: Object.keys(ERROR_CODES) },
    Error: {
      description: "The error envelope: exactly one top-level key",
      ..._object({
        error: _object({
          code: ref("ErrorCode"),
          message: { type: "string", description: "For humans; never stack traces, paths or secrets" },
          details: { type: "object", description: "Always an object, `{}` when there is nothing to add" },
          request_id: ref("RequestId"),
        }),
      }),
    },
    ..._errorSchemas(),
    Health: _object({ status: { type: "string", const: "ok" } }),
    Ready: _object({
      status: { type: "string", const: "ready" },
      warning_count: { type: "integer", minimum: 0, description: "How many warnings the operator should act on (a certificate ending soon, a key file others can read); shown to everyone" },
      warnings: {
        type: "array", minItems: 1, items: { type: "string" },
        description: "The warnings' text, which names tenants, sources, files and certificate serials: only to a client in OPS_ALLOW or with the OPS_TOKEN, and only when there are any",
      },
    }, ["warnings"]),
    OpsForbiddenError: {
      description: "The client is neither at an address in OPS_ALLOW nor carries Authorization: Bearer with the OPS_TOKEN",
      allOf: [ref("Error"), { properties: { error: { properties: { code: { const: "FORBIDDEN" }, details: NO_DETAILS } } } }],
    },
  };
}

function _query(name: string, schema: Json, description: string): Json {
  return { name, in: "query", required: false, schema, description };
}

function _pathId(schema: string, what: string): Json {
  return { name: "id", in: "path", required: true, schema: ref(schema), description: `The ${what}'s id; malformed, unknown and foreign ids answer 404` };
}

/** The shared parameters of `components.parameters`. */
export function parameters(): Record<string, Json> {
  return {
    DocumentId: _pathId("DocumentId", "document"),
    SubmissionId: _pathId("SubmissionId", "submission"),
    SyncRunId: _pathId("SyncRunId", "sync run"),
    WebhookId: _pathId("WebhookId", "webhook"),
    EventId: { name: "evt_id", in: "path", required: true, schema: ref("EventId"), description: "The event's id (`webhook-id` of its deliveries); one never delivered to this endpoint answers 404" },
    XCorrelationId: {
      name: "X-Correlation-Id", in: "header", required: false,
      schema: { type: "string", pattern: "^[!-~]{1,128}$" },
      description: "Echoed in the response; a UUID is generated when absent. Over 128 characters or outside visible ASCII: 400",
    },
    IdempotencyKey: {
      name: "Idempotency-Key", in: "header", required: false,
      schema: { type: "string", format: "uuid", pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$" },
      description: "A UUID v4. A repeat with the same request replays the first response (kept 24 h) with `Idempotent-Replayed: true`",
    },
    IfNoneMatch: { name: "If-None-Match", in: "header", required: false, schema: STRING, description: "An ETag from a previous download: 304 when unchanged" },
    Range: { name: "Range", in: "header", required: false, schema: { type: "string", examples: ["bytes=0-1023"] }, description: "A single byte range: 206, or 416 when unsatisfiable" },
    IfRange: { name: "If-Range", in: "header", required: false, schema: STRING, description: "Honour `Range` only while the ETag still matches" },
    Cursor: _query("cursor", { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" }, "Opaque `next_cursor` of a previous page; absent = from the beginning. Tampered, foreign or made with other filters: 400"),
    Expand: _query("expand", { type: "string", enum: ["invoice"] }, "`invoice` puts the whole invoice on every item; any other value is 400. A cursor-mode page stops early, with `has_more: true` and a `next_cursor`, once its body would exceed 16 MiB (always at least one item); a numbered page over 16 MiB is 400 with `details.issue: \"response too large\"` and `details.limit_bytes`"),
    Limit: _query("limit", { type: "integer", minimum: CURSOR_LIMIT.min, maximum: CURSOR_LIMIT.max, default: CURSOR_LIMIT.default }, "Items per page in cursor mode"),
    Page: _query("page", { type: "integer", minimum: 1, maximum: PAGE_WINDOW }, `Chooses page mode. page × per_page may not exceed ${PAGE_WINDOW} (use cursor mode beyond); not together with cursor`),
    PerPage: _query("per_page", { type: "integer", minimum: PAGE_SIZE.min, maximum: PAGE_SIZE.max, default: PAGE_SIZE.default }, "Items per page in page mode"),
    Sort: _query("sort", { type: "string", enum: SORTS, default: "-issue_date" }, "Page-mode order; ties broken by id"),
    Type: _query("type", ref("DocumentType"), "Only documents of this type"),
    Format: _query("format", ref("DocumentFormat"), "Only documents of this format"),
    IssueDateFrom: _query("issue_date_from", ref("Date"), "Issued on or after (inclusive)"),
    IssueDateTo: _query("issue_date_to", ref("Date"), "Issued on or before (inclusive)"),
    SellerTaxId: _query("seller_tax_id", { type: "string", minLength: 1, maxLength: 64 }, "Seller tax id as written"),
    BuyerTaxId: _query("buyer_tax_id", { type: "string", minLength: 1, maxLength: 64 }, "Buyer tax id as written"),
    XmlAvailable: _query("xml_available", { type: "boolean" }, "`true` or `false`"),
    KsefNumber: _query("ksef_number", KSEF_NUMBER, "Only the document with this KSeF number"),
    KsefStatus: _query("ksef_status", ref("KsefSendStatus"), "Only submissions whose `ksef.status` is this"),
    KsefMode: _query("ksef_mode", { type: "string", enum: ["online", "offline"] }, "Only submissions sent to KSeF that were issued this way (`ksef.mode`, README \"Offline invoices\")"),
    Overdue: _query("overdue", { type: "string", enum: ["true"] }, "`true`: only offline submissions KSeF has not accepted (yet) whose `ksef.deadline` has passed or is near: its day ends within the server's deadline-near window (`KSEF_DEADLINE_NEAR`, default 12 hours), the window of `submission.ksef_deadline_near`"),
    SubmissionType: _query("type", ref("DocumentType"), "Only submissions of this type"),
    SubmissionFormat: _query("format", ref("DocumentFormat"), "Only submissions of this format"),
    ConvertTo: _query("to", { type: "string", enum: ["ksef-fa3", "ubl", "cii"] }, "The format to convert to (required)"),
    ConvertKeep: _query("keep", { type: "string", enum: ["notes"] }, "`notes`: also write each value the target has no place for into its free text (FA(3) DodatkowyOpis, UBL/CII notes)"),
    Lang: _query("lang", { type: "string", enum: ["pl", "en"] }, "Language of the rendering; by default chosen from the invoice"),
    PdfAs: _query("as", { type: "string", enum: ["factur-x", "zugferd"] },
      "A PDF/A-3b that carries the invoice as CII (README \"Getting a Factur-X PDF\"): `factur-x` (Factur-X 1.0) or `zugferd` (ZUGFeRD 2.3, the same names but " +
      "for an XRechnung invoice, embedded as `xrechnung.xml` at the profile XRECHNUNG). The CII is embedded as stored; an invoice stored in another format is 422 " +
      "VALIDATION_ERROR with `details.field` `as`"),
  };
}

/** The shared headers of `components.headers`. */
export function headers(): Record<string, Json> {
  const h = (schema: Json, description: string, required = false): Json => ({ description, required, schema });
  return {
    XRequestId: h(ref("RequestId"), "The request's id, equal to `error.request_id` in an error body", true),
    XCorrelationId: h({ type: "string", pattern: "^[!-~]{1,128}$" }, "The client's X-Correlation-Id, or a generated UUID", true),
    XContentTypeOptions: h({ type: "string", const: "nosniff" }, "Always nosniff", true),
    RateLimitPolicy: h({ type: "string", examples: ['"token";q=100;w=10'] }, "The token's limit (draft-ietf-httpapi-ratelimit-headers); absent when limiting is off"),
    RateLimit: h({ type: "string", examples: ['"token";r=99;t=1'] }, "Requests left and seconds until the bucket is full; absent when limiting is off"),
    RetryAfter: h({ type: "integer", minimum: 1 }, "Seconds to wait before retrying", true),
    Location: h({ type: "string", pattern: "^/api/v1/" }, "The created or accepted resource"),
    IdempotentReplayed: h({ type: "string", const: "true" }, "Present when this is the stored response of an earlier request with the same Idempotency-Key"),
    Allow: h({ type: "string", examples: ["GET, HEAD"] }, "The methods the path supports", true),
    ETag: h({ type: "string", pattern: '^"[0-9a-f]{64}"$' }, "Strong, from the content hash", true),
    ContentDisposition: h({ type: "string", pattern: '^attachment; filename="' }, "The invoice number made filename-safe, with `filename*=UTF-8''…` for non-ASCII", true),
    CacheControl: h({ type: "string", const: "private, no-cache" }, "Revalidate with If-None-Match", true),
    CacheControlNoStore: h({ type: "string", const: "no-store" }, "A JSON answer may hold a tenant's data: no cache keeps it (RFC 9111 §5.2.2.5)", true),
    AcceptRanges: h({ type: "string", const: "bytes" }, "Single byte ranges are served", true),
    ContentLength: h({ type: "integer", minimum: 0 }, "Bytes of this response's body", true),
    ContentRange: h({ type: "string", pattern: "^bytes (\\d+-\\d+|\\*)/\\d+$" }, "The range sent, or `bytes */size` on 416", true),
  };
}
