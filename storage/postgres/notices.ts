/**
 * The notices feed of a PostgreSQL tenant (README "Webhooks"): events that belong to no record, such as a KSeF
 * certificate nearing its end, appended to the `changes` table like every other feed's change, so the webhook
 * worker reads them the same way. A notice has no table of its own: it is never looked up, only read in order.
 * @module
 */
import type { NoticeRecord } from "../../lib/contracts/storage.ts";
import { inTransaction, type PgPool } from "./client.ts";
import { APPEND_CHANGE, lockFeed } from "./feed.ts";

/** Appends a notice at the end of the tenant's `notices` feed, committed before it resolves; its position. */
export function appendNotice(pool: PgPool, tenant: string, notice: NoticeRecord): Promise<number> {
  return inTransaction(pool, async (c) => {
    const seq = await lockFeed(c, tenant, "notices");
    await c.query(`WITH ${APPEND_CHANGE} SELECT 1`, [tenant, "notices", seq, true, JSON.stringify(notice)]);
    return seq;
  });
}
