/**
 * A page of a change feed (README “Parameters” cursor mode), shared by documents and
 * submissions: the cursor is decoded for the tenant, feed and filters, the
 * page is read from the store, and the body is the stored items' JSON joined
 * with `next_cursor` and `has_more`. Bodies are kept in the page cache until
 * the feed grows, so a polling client costs no store read.
 * @module
 */
import type { ChangePage, Collection, TenantStore } from "../contracts/storage.ts";
import { json, listBody } from "../http/respond.ts";
import type { ApiResponse } from "../http/types.ts";
import { Buffer } from "node:buffer";
import type { Context } from "./context.ts";
import { withInvoices } from "./invoice_expand.ts";

/** Feed entries looked at per request at most, so that a selective filter cannot make a page cost O(n). */
export const FEED_SCAN_LIMIT = 10_000;

/** What one feed request asks for. */
export interface FeedRequest<F> {
  collection: Collection;
  cursor: string | null;
  limit: number;
  /** The filters, and their canonical key bound into the cursor ("" for none). */
  filter: F;
  filterKey: string;
  /** Put the whole invoice on every item (`expand=invoice`). */
  expand: boolean;
  /** What else the page depends on (e.g. the day `overdue` compares with): in the page cache's key, not the cursor. */
  variant?: string;
  /**
   * Reads `limit` items after feed position `from`: a module-level function rather than a closure made per
   * request, as most requests are answered from the page cache without reading.
   */
  read(tenant: TenantStore, from: number, limit: number, maxScan: number, filter: F): Promise<ChangePage>;
}

// The page cut to its first `n` items (those that fit the expand budget): read again with that limit for the
// feed position after them, has_more set.
async function _shortPage<F>(ctx: Context, r: FeedRequest<F>, from: number, n: number): Promise<ChangePage> {
  const short = await r.read(ctx.tenant, from, n, FEED_SCAN_LIMIT, r.filter);
  return { items: short.items, next: short.next, hasMore: true };
}

/** The response to a feed request. */
export async function feedListing<F>(ctx: Context, r: FeedRequest<F>): Promise<ApiResponse> {
  const scope = `${ctx.tenant.tenant}\u0000${r.collection}`;
  const from = r.cursor === null ? 0 : ctx.app.cursors.decode(scope, r.cursor, r.filterKey);
  const version = await ctx.tenant.feedLength(r.collection);
  const key = `${scope}\u0000${from}\u0000${r.limit}\u0000${r.filterKey}\u0000${r.expand}\u0000${r.variant ?? ""}`;
  let body = ctx.app.pages.get(key, version);
  if (!body) {
    let page = await r.read(ctx.tenant, from, r.limit, FEED_SCAN_LIMIT, r.filter);
    let items = page.items;
    if (r.expand) {
      items = await withInvoices(ctx, page.items, ctx.app.limits.expandedListBytes);
      if (items.length < page.items.length) {
        const short = await _shortPage(ctx, r, from, items.length);
        // The feed only grows at its end, so these are the same entries; were one replaced (a store could
        // differ), the cut page is built again on its own.
        if (!short.items.every((it, i) => Buffer.compare(it, page.items[i]!) === 0)) items = await withInvoices(ctx, short.items);
        page = short;
      }
    }
    const next = ctx.app.cursors.encode(scope, page.next, r.filterKey);
    body = listBody(items, `"next_cursor":"${next}","has_more":${page.hasMore}`);
    ctx.app.pages.set(key, version, body);
  }
  return json(200, body);
}
