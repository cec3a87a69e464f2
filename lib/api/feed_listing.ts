/**
 * A page of a change feed (API.md §4.1 cursor mode), shared by documents and
 * submissions: the cursor is decoded for the tenant, feed and filters, the
 * page is read from the store, and the body is the stored items' JSON joined
 * with `next_cursor` and `has_more`. Bodies are kept in the page cache until
 * the feed grows, so a polling client costs no store read.
 * @module
 */
import type { ChangePage, Collection } from "../contracts/storage.ts";
import { json, listBody } from "../http/respond.ts";
import type { ApiResponse } from "../http/types.ts";
import type { Context } from "./context.ts";
import { withInvoices } from "./invoice_expand.ts";

/** Feed entries looked at per request at most, so that a selective filter cannot make a page cost O(n). */
export const FEED_SCAN_LIMIT = 10_000;

/** What one feed request asks for. */
export interface FeedRequest {
  collection: Collection;
  cursor: string | null;
  limit: number;
  /** The canonical filters, bound into the cursor ("" for none). */
  filterKey: string;
  /** Put the whole invoice on every item (`expand=invoice`). */
  expand: boolean;
  /** Reads `limit` items after feed position `from`. */
  read(from: number, limit: number, maxScan: number): Promise<ChangePage>;
}

/** The response to a feed request. */
export async function feedListing(ctx: Context, r: FeedRequest): Promise<ApiResponse> {
  const scope = `${ctx.tenant.tenant}\u0000${r.collection}`;
  const from = r.cursor === null ? 0 : ctx.app.cursors.decode(scope, r.cursor, r.filterKey);
  const version = await ctx.tenant.feedLength(r.collection);
  const key = `${scope}\u0000${from}\u0000${r.limit}\u0000${r.filterKey}\u0000${r.expand}`;
  let body = ctx.app.pages.get(key, version);
  if (!body) {
    const page = await r.read(from, r.limit, FEED_SCAN_LIMIT);
    const next = ctx.app.cursors.encode(scope, page.next, r.filterKey);
    body = listBody(r.expand ? await withInvoices(ctx, page.items) : page.items, `"next_cursor":"${next}","has_more":${page.hasMore}`);
    ctx.app.pages.set(key, version, body);
  }
  return json(200, body);
}
