/**
 * The query parameters of the list endpoints (README “Parameters”): the mode, limits,
 * sort and filters, validated into typed values. A bad value is 400 with
 * `details.field` and `details.issue`; a parameter of the other mode is 400
 * too (unknown ones are refused by lib/pipeline/strict_params.ts).
 * @module
 */
import { DOCUMENT_TYPES, INVOICE_FORMATS } from "../formats/invoice/vocabulary.ts";
import { parseDate } from "../formats/invoice/query.ts";
import { badRequest } from "../http/errors.ts";
import type { DocumentFilter, DocumentSort } from "../contracts/storage.ts";

export const CURSOR_LIMIT = { min: 1, max: 500, default: 50 } as const; // README “Parameters”
export const PAGE_SIZE = { min: 1, max: 200, default: 50 } as const; // README “Parameters”
export const PAGE_WINDOW = 10_000; // README “Parameters”: page × per_page beyond this must use the feed

export const SORTS = ["-issue_date", "issue_date", "-synced_at", "synced_at"] as const;

/** The parsed list request. */
export type ListQuery =
  | { mode: "cursor"; cursor: string | null; limit: number; filter: DocumentFilter; filterKey: string }
  | { mode: "page"; page: number; perPage: number; sort: DocumentSort; filter: DocumentFilter; filterKey: string };

/** An integer parameter in [min, max], or `fallback` when absent. */
export function intParam(q: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const v = q.get(name);
  if (v === null) return fallback;
  if (!/^\d+$/.test(v)) throw badRequest(name, "not_an_integer", `${name} must be an integer`);
  const n = v.length > 15 ? Number.MAX_SAFE_INTEGER : Number(v); // past 15 digits, doubles are no longer exact
  if (n < min || n > max) throw badRequest(name, "out_of_range", `${name} must be between ${min} and ${max}`);
  return n;
}

function _oneOf<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw badRequest(name, "invalid_value", `${name} must be one of ${allowed.join(", ")}`);
  return v as T;
}

function _date(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  // Only YYYY-MM-DD comes back unchanged, and only a day of the calendar (2024-02-30, 2024-13-01 are refused).
  if (parseDate(v) !== v) throw badRequest(name, "invalid_date", `${name} must be a date YYYY-MM-DD`);
  return v;
}

function _taxId(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (v.length === 0 || v.length > 64) throw badRequest(name, "invalid_value", `${name} must be 1 to 64 characters`);
  return v;
}

// The KsefNumber schema of KSeF's open-api.json (35 characters; 36 accepted for KSeF 1.0 numbers).
const KSEF_NUMBER = /^([1-9](\d[1-9]|[1-9]\d)\d{7})-(20[2-9][0-9]|2[1-9]\d{2}|[3-9]\d{3})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])-([0-9A-F]{6})-?([0-9A-F]{6})-([0-9A-F]{2})$/;

function _ksefNumber(q: URLSearchParams): string | undefined {
  const v = q.get("ksef_number");
  if (v === null) return undefined;
  if (!KSEF_NUMBER.test(v)) throw badRequest("ksef_number", "invalid_value", "ksef_number must be a KSeF number, e.g. 5265877635-20250826-0100001AF629-AF");
  return v;
}

/** The query parameters parseFilter reads. */
const FILTER_PARAMS: ReadonlySet<string> = new Set(["type", "format", "issue_date_from", "issue_date_to", "seller_tax_id", "buyer_tax_id", "xml_available", "ksef_number"]);

/** The filters of README “Parameters” and a canonical key for binding cursors to them. */
export function parseFilter(q: URLSearchParams): { filter: DocumentFilter; filterKey: string } {
  const filter: DocumentFilter = {};
  // Most list requests have no filter: one pass over the parameters instead of a lookup of each filter's name.
  if (!_hasAny(q, FILTER_PARAMS)) return { filter, filterKey: "[]" };
  const type = _oneOf(q, "type", DOCUMENT_TYPES);
  if (type) filter.type = type;
  const format = _oneOf(q, "format", INVOICE_FORMATS);
  if (format) filter.format = format;
  const from = _date(q, "issue_date_from");
  if (from) filter.issue_date_from = from;
  const to = _date(q, "issue_date_to");
  if (to) filter.issue_date_to = to;
  const seller = _taxId(q, "seller_tax_id");
  if (seller !== undefined) filter.seller_tax_id = seller;
  const buyer = _taxId(q, "buyer_tax_id");
  if (buyer !== undefined) filter.buyer_tax_id = buyer;
  const xml = _oneOf(q, "xml_available", ["true", "false"] as const);
  if (xml) filter.xml_available = xml === "true";
  const ksef = _ksefNumber(q);
  if (ksef !== undefined) filter.ksef_number = ksef;
  const entries = Object.entries(filter);
  const filterKey = entries.length === 0 ? "[]" : JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
  return { filter, filterKey };
}

function _hasAny(q: URLSearchParams, names: ReadonlySet<string>): boolean {
  for (const name of q.keys()) if (names.has(name)) return true;
  return false;
}

/** Parses a documents list request into cursor or page mode. */
export function parseListQuery(q: URLSearchParams): ListQuery {
  const { filter, filterKey } = parseFilter(q);
  if (q.has("page")) {
    if (q.has("cursor")) throw badRequest("cursor", "conflicts_with_page", "Use either cursor or page, not both");
    if (q.has("limit")) throw badRequest("limit", "applies to cursor mode only", "limit applies to cursor mode only: use per_page with page");
    // One maximum for the server and OpenAPI, the page window: any larger page fails the check below.
    const page = intParam(q, "page", 1, Number.MAX_SAFE_INTEGER, 1);
    const perPage = intParam(q, "per_page", PAGE_SIZE.min, PAGE_SIZE.max, PAGE_SIZE.default);
    if (page * perPage > PAGE_WINDOW) {
      throw badRequest("page", "window_exceeded", `page × per_page may not exceed ${PAGE_WINDOW}: use cursor mode (omit page) to read further`);
    }
    const sort = _oneOf(q, "sort", SORTS) ?? "-issue_date";
    return { mode: "page", page, perPage, sort, filter, filterKey };
  }
  // Parameters of page mode are refused, not ignored, without page (the conventions in /docs).
  for (const name of ["per_page", "sort"]) {
    if (q.has(name)) throw badRequest(name, "applies to page mode only", `${name} applies to page mode only: add page, or leave ${name} out`);
  }
  const limit = intParam(q, "limit", CURSOR_LIMIT.min, CURSOR_LIMIT.max, CURSOR_LIMIT.default);
  return { mode: "cursor", cursor: q.get("cursor"), limit, filter, filterKey };
}
