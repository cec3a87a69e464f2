/**
 * The public entry of the core library for teams embedding it: the app and its
 * adapters, the storage and source contracts, and the building blocks (XML,
 * invoices, multipart, PDF, cursors, webhooks). It re-exports; it holds no logic.
 * @module
 */

// The application and its adapters
export { createApp, DEFAULT_ANONYMOUS_LIMIT, DEFAULT_RATE_LIMIT, DEFAULT_UPLOAD_LIMIT, type App, type AppOptions } from "./app.ts";
export type { RateLimitConfig } from "./pipeline/rate_limit.ts";
export type { InvoiceReader, PdfJob } from "./api/invoice_reader.ts";
export type { KsefSendHook } from "./api/context.ts";
export type { KsefOfflineSigning } from "./contracts/ksef_send.ts";
export type { SyncRunner } from "./jobs/sync_runner.ts";
export type { WebhookWorker } from "./jobs/webhooks/worker.ts";
export type { VerdictBackfill, VerdictBackfillResult } from "./jobs/verdict_backfill.ts";
export { Metrics } from "./observe/metrics.ts";
export { fromNodeRequest, toNodeListener, writeNodeResponse, type NodeRequestLike, type NodeResponseLike } from "./http/node_adapter.ts";
export { fromFetchRequest, toFetchHandler, toFetchResponse, type FetchHandlerOptions } from "./http/fetch_adapter.ts";
export type { ApiRequest, ApiResponse, ResponseBody, StreamBody } from "./http/types.ts";
export { ApiError, HTTP_ERROR_STATUS, type ErrorDetails, type HttpErrorCode } from "./http/errors.ts";
export { apiError, API_ERROR_STATUS, ERROR_STATUS, toApiError, type ApiErrorCode, type ErrorCode } from "./api/errors.ts";
export { createJsonLogger, LOG_LEVELS, silentLogger, type Logger, type LogLevel } from "./observe/log.ts";
export { loadConfig, parseArgs, parseSize, type Config } from "./config.ts";

// Contracts that adapters and sources implement
export type * from "./contracts/storage.ts";
export { SourceError, type DocumentSource, type KsefSourceInfo, type PullContext, type SkippedPart, type SourceFactory, type SourceContext, type SourceItem, type SourceType } from "./contracts/document_source.ts";
export { signalUnavailable, StorageUnavailableError } from "./contracts/storage_errors.ts";
export type { UpstreamWarning, UpstreamWarningRecord } from "./contracts/upstream_warnings.ts";
export type { WebhookTransport } from "./contracts/webhook_transport.ts";

// Tokens and cursors
export { generateToken, hashSecret, parseScopes, SCOPES, type Scope, type TokenRecord } from "./auth/tokens.ts";
export { createCursorCodec, type CursorCodec } from "./api/cursor.ts";

// XML, invoices, multipart, PDF
export { parseXml, XML_PARSE_LIMITS, XmlError, type XmlParseOptions } from "./formats/xml/parse.ts";
export type { XmlAttribute, XmlComment, XmlContent, XmlDocument, XmlElement, XmlProcessingInstruction } from "./formats/xml/tree.ts";
export { readInvoice, requireSubmissionFields } from "./formats/invoice/read.ts";
export { type KsefFa3WriteOptions, type KsefFa3WriteResult, writeKsefFa3 } from "./formats/invoice/ksef_write.ts";
export type { TracedWriteResult, WriteLoss, WriteOptions, WriteResult } from "./formats/invoice/write_result.ts";
export { fieldAt, writeInvoice, WRITTEN_FORMATS, type WriteInvoiceOptions, type WrittenInvoice } from "./formats/invoice/write_invoice.ts";
export { completeInvoice, type ComputeFinding, type WrittenFormat } from "./formats/invoice/compute.ts";
export { convertInvoice, EN16931_PROFILE, type Conversion, type ConversionLoss } from "./formats/invoice/convert.ts";
export { extractEmbeddedInvoice, isPdf, PdfReadError, type EmbeddedInvoice, type PdfReadLimits, type PdfReadReason } from "./formats/pdf/read/embedded_invoice.ts";
export { PDF_READ_REASONS } from "./formats/pdf/read/read_error.ts";
export type { WrittenField } from "./formats/invoice/write_trace.ts";
export { InvoiceError } from "./formats/invoice/errors.ts";
export { MultipartError, type MultipartErrorKind } from "./formats/multipart/errors.ts";
export type * from "./formats/invoice/model.ts";
export { DOCUMENT_TYPES, INVOICE_FORMATS } from "./formats/invoice/vocabulary.ts";
export { addDecimals, compareDecimals, negateDecimal, parseDecimal, sumDecimals } from "./formats/invoice/decimal.ts";
export { DEFAULT_MULTIPART_LIMITS, MultipartParser, parseBoundary, parseMultipart, type MultipartLimits, type MultipartPart } from "./formats/multipart/parse.ts";
export { PdfFonts, type PdfFontFiles } from "./formats/pdf/pdf_fonts.ts";
export { renderInvoicePdf, type RenderedPdf, type RenderOptions } from "./formats/pdf/invoice_pdf.ts";
export { FACTURX_FLAVOURS, facturXLevel, type FacturXFlavour, type FacturXOptions } from "./formats/pdf/facturx.ts";
export { encodeQr, type QrCode } from "./formats/pdf/qr.ts";
export { KSEF_QR_HOSTS, ksefQrHost, ksefVerificationLink, type KsefQrEnvironment } from "./formats/pdf/ksef_link.ts";
export type { SignatureAlgorithm, Signer } from "./formats/xades/signer.ts";
export { buildCsr, csrToPem, enrollmentSubject, type CertificateEnrollmentData, type CsrOptions } from "./formats/pkcs10/csr.ts";
export { generateCsrKeyPair, type CsrKeyPair } from "./formats/pkcs10/key_pair.ts";
export { KEY_USAGES, parseCertificate, formatName, type CertificateInfo, type KeyUsage, type NameAttribute } from "./formats/x509/certificate.ts";
export { buildKsefCertificateLink, KSEF_CONTEXT_TYPES, ksefCertificateLinkPayload, signKsefCertificateLink, verifyKsefCertificateLink, type KsefCertificateLinkInput, type KsefContextType, type KsefSignedLinkInput } from "./formats/pdf/ksef_certificate_link.ts";
export { addPolishWorkingDays, easterSunday, endOfWarsawDay, isPolishWorkingDay, polishPublicHolidays, warsawDate } from "./ksef/working_days.ts";
export { offlineDeadline, type KsefFailure, type OfflineDeadline, type OfflineIssue } from "./ksef/offline_deadline.ts";
export { DEFAULT_DEADLINE_NEAR_MS, isDeadlineNear, nearDeadlinesBefore } from "./ksef/deadline_near.ts";
export { compileSchema, XsdCompileError, type SchemaFile } from "./formats/xsd/compile.ts";
export { validateXsd } from "./formats/xsd/validate.ts";
export type { CompiledSchema } from "./formats/xsd/model.ts";
export { formatOf, validateInvoice, validationSummary, type ValidationReport, type ValidationSummary } from "./formats/validation/invoice_validation.ts";
export { checkKsefFile } from "./formats/validation/ksef_file.ts";
export { SchemaSet, schemaSetOf, type SchemaFiles } from "./formats/validation/schema_set.ts";
export type { Severity, Violation } from "./formats/validation/violation.ts";

// Webhooks
export { signWebhook, verifyWebhook, webhookHeaders, type WebhookHeaders } from "./jobs/webhooks/signature.ts";
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./jobs/webhooks/events.ts";
