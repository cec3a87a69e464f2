/**
 * What a route handler receives, and the route definition that the app's
 * router, the scope check and the OpenAPI document are all built from.
 * @module
 */
import type { SchemaSet } from "../formats/validation/schema_set.ts";
import type { Scope, TokenRecord } from "../auth/tokens.ts";
import type { CursorCodec } from "./cursor.ts";
import type { PdfFonts } from "../formats/pdf/pdf_fonts.ts";
import type { Logger } from "../observe/log.ts";
import type { MultipartPart } from "../formats/multipart/parse.ts";
import type { IdempotencyTag, Storage, TenantStore } from "../contracts/storage.ts";
import type { KsefSendHook } from "../contracts/ksef_send.ts";
import type { SyncRunner } from "../jobs/sync_runner.ts";
import type { SourceFactory } from "../contracts/document_source.ts";
import type { PageCache } from "./page_cache.ts";
import type { InvoiceJsonBuilder, InvoiceReader, InvoiceValidator, PdfRenderer, UploadChecker } from "./invoice_reader.ts";
import type { SharedBuilds } from "./shared_builds.ts";
import type { ShaCache } from "./sha_cache.ts";
import type { ApiRequest, ApiResponse } from "../http/types.ts";
import type { ApiOperation } from "./openapi/operation.ts";

/** Shared services of the app, built once from its options. */
export interface AppServices {
  storage: Storage;
  cursors: CursorCodec;
  sync: SyncRunner;
  /** The document sources of a tenant (what they say of themselves, e.g. the KSeF environment of their invoices). */
  sources: SourceFactory;
  logger: Logger;
  now: () => number;
  /** `expandedListBytes`: where a list with `expand=invoice` stops (README "Limits"). */
  limits: { jsonBytes: number; uploadBytes: number; expandedListBytes: number };
  /** Reads invoice XML: large inputs in bounded slots, off the event loop where the embedder allows. */
  readInvoice: InvoiceReader;
  /** Builds the `invoice` object's JSON bytes, large invoices in the same slots (and threads) as readInvoice. */
  readInvoiceJson: InvoiceJsonBuilder;
  /** Renders an invoice's PDF, large invoices in the same slots (and threads) as readInvoice. */
  renderPdf: PdfRenderer;
  /** Reads and validates an upload from one parse, off the event loop where the embedder allows. */
  checkUpload: UploadChecker;
  /** The verdict on invoice XML alone, off the event loop where the embedder allows (large ones in slots). */
  validate: InvoiceValidator;
  /** Throws the 429/503 a large read of `tenant` would get now (its share of the waiting places, or all, taken). */
  admitLarge: (tenant: string) => void;
  /** Serialised feed pages, valid while their feed does not change. */
  pages: PageCache;
  /** Invoice JSON by XML SHA-256, for the `invoice` object (README “The invoice object”). */
  invoices: ShaCache;
  /** A document's `validation` object (JSON) by XML SHA-256 (README "Validation"): each stored XML is judged once. */
  verdicts: ShaCache;
  /** Builds of invoice JSON, PDFs and verdicts in flight: concurrent requests for one result wait for one build. */
  builds: SharedBuilds;
  /** Allow plain http and private, loopback and link-local webhook targets (development and tests). */
  webhookAllowPrivate: boolean;
  /** The fonts PDFs are drawn with, parsed once; null when the app was given none. */
  pdfFonts: PdfFonts | null;
  /** The official XML Schemas, compiled once; null when the app was given none (the schema check is then left out). */
  schemas: SchemaSet | null;
  /** Sending to KSeF (README "Sending to KSeF"): which tenants send, and a nudge for the sender; null when none does. */
  ksefSend?: KsefSendHook | null;
}

export type { KsefOfflineSigning, KsefSendHook } from "../contracts/ksef_send.ts";

/** The context of any request. */
export interface PublicContext {
  req: ApiRequest;
  params: Record<string, string>;
  requestId: string;
  app: AppServices;
}

/** A POST body, read (and fingerprinted) before the handler runs. */
/**
 * The body a route reads before its handler: `json`; `multipart` (a form with the `xml` part); `upload` (a form, or
 * the XML itself); `invoice` (a form, or the JSON of an invoice to create, README "Creating invoices"); `any` (a
 * form, the XML itself, or that JSON).
 */
export type BodyKind = "json" | "multipart" | "upload" | "invoice" | "any";

export type RequestBody =
  | { kind: "none" }
  | { kind: "json"; value: Record<string, unknown>; raw: Uint8Array }
  | { kind: "multipart"; parts: MultipartPart[] };

/** The context of an authenticated request: the tenant's store is the only way to its data. */
export interface Context extends PublicContext {
  tenant: TenantStore;
  token: TokenRecord;
  body: RequestBody;
  /** The request's idempotency key and fingerprint, when it sent one (the idempotency conventions in /docs). */
  idempotency: { key: string; fingerprint: string } | null;
}

/** The tag that makes a store commit the key's record with the effect; undefined without a key. */
export function idempotencyTag(ctx: Context, respond: IdempotencyTag["respond"]): IdempotencyTag | undefined {
  return ctx.idempotency ? { ...ctx.idempotency, respond } : undefined;
}

/**
 * A route of the API: public routes have no scope and get no tenant; a list of scopes lets a token with any one of
 * them through, and an empty list any valid token. `body` is
 * the kind of body read before the handler runs; `openapi` is the route's
 * operation in the OpenAPI document, kept beside the route it describes.
 */
export type ApiRoute =
  | { method: string; pattern: string; scope: Scope | readonly Scope[]; body?: BodyKind; openapi: ApiOperation; handle(ctx: Context): Promise<ApiResponse> }
  | { method: string; pattern: string; scope: null; openapi: ApiOperation; handle(ctx: PublicContext): Promise<ApiResponse> };
