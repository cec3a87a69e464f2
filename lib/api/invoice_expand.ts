/**
 * The `invoice` object on document and submission JSON (README “Documents and the inbox”, README “The invoice object”): added
 * to one document or submission, and to every item of a list asked with
 * `expand=invoice`. The invoice is read from the stored XML on demand (parsing
 * runs at about 100 MB/s) and its JSON kept in a bounded LRU keyed by the XML's
 * SHA-256, so the same bytes are read once. The JSON of a large invoice (as
 * large as lib/api/invoice_reader.ts's threshold) is built off the event loop
 * and kept as a derived blob named by the shape's version and the XML's
 * SHA-256, like the PDFs (lib/api/downloads.ts): built once, not per request. 201
 * answers and webhook payloads stay compact: they never come through here.
 * @module
 */
import type { Context } from "./context.ts";
import { INVOICE_JSON_VERSION } from "./documents/invoice_json.ts";
import { LARGE_XML_BYTES } from "./invoice_reader.ts";
import { ApiError, badRequest } from "../http/errors.ts";
import type { StoredBlob } from "../contracts/storage.ts";
import { storageUnavailableCode } from "../contracts/storage_errors.ts";

/**
 * Where a list page with `expand=invoice` stops early (README "Limits"): one 10 MB FA(3) with 186,000 lines
 * is about 157 MB of JSON, so a page of 500 of them would be tens of GB held for one client. 16 MiB keeps a
 * page of typical invoices (1–10 KB each) whole at the largest `limit`, and an item alone may pass it.
 */
export const MAX_EXPANDED_LIST_BYTES = 16 * 1024 * 1024;
const CLOSE_BRACE = 0x7d;
const INVOICE_KEY = new TextEncoder().encode(',"invoice":');
const NULL_INVOICE = new TextEncoder().encode(',"invoice":null}');

/** True when a list request asks for `expand=invoice`; any other `expand` value is 400. */
export function wantsInvoice(query: URLSearchParams): boolean {
  const v = query.get("expand");
  if (v === null) return false;
  if (v !== "invoice") throw badRequest("expand", "invalid_value", "expand must be invoice");
  return true;
}

/** The name of the derived blob that keeps the invoice JSON of the XML `sha256`. */
export function invoiceJsonKey(sha256: string): string {
  return `invoice-json-v${INVOICE_JSON_VERSION}-${sha256}`;
}

/** The invoice JSON of the XML blob `sha256`, or null when the blob is missing or unreadable. */
export async function invoiceBytes(ctx: Context, sha256: string): Promise<Uint8Array | null> {
  const hit = ctx.app.invoices.get(sha256);
  if (hit !== undefined) return hit;
  const blob = await ctx.tenant.getBlob(sha256);
  if (blob === null) return null;
  const key = invoiceJsonKey(sha256);
  if (blob.size < LARGE_XML_BYTES) return _buildJson(ctx, blob, key, () => _gone(ctx));
  const kept = await ctx.tenant.getDerived(key);
  if (kept !== null) return kept.bytes();
  // Concurrent requests for this large invoice's JSON wait for one build (README "Limits").
  return ctx.app.builds.run(`${ctx.tenant.tenant}/${key}`, () => _gone(ctx), (gone) => _buildJson(ctx, blob, key, gone));
}

// Builds the JSON of a stored XML and keeps it: a small one in memory, a large one as a derived blob.
async function _buildJson(ctx: Context, blob: StoredBlob, key: string, gone: () => boolean): Promise<Uint8Array | null> {
  let json: Uint8Array;
  try {
    json = await ctx.app.readInvoiceJson(await blob.bytes(), { tenant: ctx.tenant.tenant, gone });
  } catch (e) {
    if (e instanceof ApiError || gone()) throw e; // 429/503: too many large reads wait; or no one to answer
    // Stored XML was read once already, at import; failing now is a bug, not the client's error.
    ctx.app.logger.warn("stored XML could not be read as an invoice", { request_id: ctx.requestId, sha256: blob.sha256, error: String(e) });
    return null;
  }
  if (blob.size >= LARGE_XML_BYTES) await _keep(ctx, key, json);
  else ctx.app.invoices.set(blob.sha256, json);
  return json;
}

// Keeps a large invoice's JSON; with the disk full it is served all the same, just not kept.
async function _keep(ctx: Context, key: string, json: Uint8Array): Promise<void> {
  try {
    await ctx.tenant.putDerived(key, json);
  } catch (e) {
    const code = storageUnavailableCode(e);
    if (code === null) throw e;
    ctx.app.logger.warn("invoice JSON served without keeping it: storage unavailable", { request_id: ctx.requestId, code });
  }
}

/** A record's JSON with `"invoice"` added as its last key (null without XML). */
export async function withInvoice(ctx: Context, json: Uint8Array, sha256: string | null): Promise<Uint8Array> {
  const inv = sha256 === null ? null : await invoiceBytes(ctx, sha256);
  if (json[json.length - 1] !== CLOSE_BRACE) throw new TypeError("Cannot add the invoice: the record JSON is not an object");
  const head = json.subarray(0, json.length - 1);
  if (inv === null) return _concat([head, NULL_INVOICE]);
  return _concat([head, INVOICE_KEY, inv, new Uint8Array([CLOSE_BRACE])]);
}

/**
 * The list items with their invoices, each item's XML named by its own `sha256` and `xml_available`, as many
 * from the first as fit in `budget` bytes (always the first): the caller tells the client where to go on.
 */
export async function withInvoices(ctx: Context, items: readonly Uint8Array[], budget = Infinity): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  let total = 0;
  for (const item of items) {
    if (_gone(ctx)) throw new Error("The client went away while its page was being built");
    const r = JSON.parse(new TextDecoder().decode(item)) as { sha256?: string | null; xml_available?: boolean };
    const sha = r.xml_available === false ? null : (r.sha256 ?? null);
    const built = await withInvoice(ctx, item, sha);
    total += built.length + 1; // and its comma
    if (out.length > 0 && total > budget) break;
    out.push(built);
  }
  return out;
}

// True when the client has closed its connection (when the adapter can tell): nothing more is built for it.
function _gone(ctx: Context): boolean {
  return ctx.req.aborted?.() === true;
}

function _concat(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
