/**
 * `GET /api/v1/summary` (README "Summary"): one tenant's state at a glance, a part per scope the token holds
 * (a part it may not read is left out; with none of them, 403). Counts come from the store's counters
 * (lib/contracts/summary_counts.ts), never from reading the records, so the answer costs the same at a million
 * documents as at a thousand; what it does read is bounded by other things (webhook endpoints, sources, the
 * submissions in flight to KSeF).
 * @module
 */
import type { ApiRoute, Context } from "./context.ts";
import { okJson } from "./openapi/operation.ts";
import { runJson } from "../contracts/record_json.ts";
import { COUNT_KEY } from "../contracts/summary_counts.ts";
import type { KsefSessionType, TenantStore } from "../contracts/storage.ts";
import { json } from "../http/respond.ts";
import type { ApiResponse } from "../http/types.ts";
import { DEFAULT_DEADLINE_NEAR_MS, nearDeadlinesBefore } from "../ksef/deadline_near.ts";
import { warsawDate } from "../ksef/working_days.ts";
import { webhookView } from "./webhooks/view.ts";

/** Hours in `per_hour` (README "Summary": the last 48 hours). */
export const SUMMARY_HOURS = 48;
/** Days in `per_day` (README "Summary": the last 30 days). */
export const SUMMARY_DAYS = 30;
/**
 * Submissions in flight read for `ksef_sessions` at most: KSeF's own cap on a batch session (sesja-wsadowa.md:
 * 10,000 invoices), so one full session is always seen whole.
 */
export const SUMMARY_PENDING_READ = 10_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const STATUSES = ["queued", "sending", "accepted", "rejected", "not_sent"] as const;

/** The UTC hours (as ISO times) and days of the windows ending at `now`, oldest first. */
export function summaryWindows(now: number): { hours: string[]; days: string[] } {
  const hour0 = Math.floor(now / HOUR_MS) * HOUR_MS - (SUMMARY_HOURS - 1) * HOUR_MS;
  const day0 = Math.floor(now / DAY_MS) * DAY_MS - (SUMMARY_DAYS - 1) * DAY_MS;
  return {
    hours: Array.from({ length: SUMMARY_HOURS }, (_, i) => new Date(hour0 + i * HOUR_MS).toISOString()),
    days: Array.from({ length: SUMMARY_DAYS }, (_, i) => new Date(day0 + i * DAY_MS).toISOString().slice(0, 10)),
  };
}

async function getSummary(ctx: Context): Promise<ApiResponse> {
  const scopes = ctx.token.scopes;
  const now = ctx.app.now();
  const { hours, days } = summaryWindows(now);
  const out: Record<string, unknown> = {};
  const wantSubs = scopes.includes("submissions:read");
  const wantDocs = scopes.includes("documents:read");
  const keys: string[] = [];
  if (wantSubs) {
    for (const s of STATUSES) keys.push(COUNT_KEY.submissionStatus + s);
    keys.push(COUNT_KEY.submissionMode + "online", COUNT_KEY.submissionMode + "offline");
    for (const h of hours) {
      const k = h.slice(0, 13);
      keys.push(COUNT_KEY.submissionReceived + k, COUNT_KEY.submissionAccepted + k, COUNT_KEY.submissionRejected + k);
    }
  }
  if (wantDocs) {
    keys.push(COUNT_KEY.documentsTotal, COUNT_KEY.documentsXmlMissing, COUNT_KEY.documentsInvalid);
    for (const d of days) keys.push(COUNT_KEY.documentsSynced + d);
  }
  const counts = keys.length > 0 ? await ctx.tenant.summaryCounts(keys, wantSubs ? [COUNT_KEY.offlineOpen] : []) : new Map<string, number>();
  const n = (k: string): number => counts.get(k) ?? 0;
  if (wantSubs) {
    // Overdue: the deadline day has ended (in Warsaw, where the deadline is counted); near: it ends within the
    // window of the `submission.ksef_deadline_near` event, as the feed's `overdue=true` filter has it.
    const today = warsawDate(now);
    const nearBefore = nearDeadlinesBefore(now, ctx.app.ksefSend?.deadlineNearMs ?? DEFAULT_DEADLINE_NEAR_MS);
    let overdue = 0, near = 0;
    for (const [k, v] of counts) {
      if (!k.startsWith(COUNT_KEY.offlineOpen)) continue;
      const deadline = k.slice(COUNT_KEY.offlineOpen.length);
      if (deadline < today) overdue += v;
      else if (deadline < nearBefore) near += v;
    }
    out.submissions = {
      by_status: Object.fromEntries(STATUSES.map((s) => [s, n(COUNT_KEY.submissionStatus + s)])),
      by_mode: { online: n(COUNT_KEY.submissionMode + "online"), offline: n(COUNT_KEY.submissionMode + "offline") },
      offline_overdue: overdue,
      offline_deadline_near: near,
      per_hour: hours.map((hour) => {
        const k = hour.slice(0, 13);
        return { hour, received: n(COUNT_KEY.submissionReceived + k), accepted: n(COUNT_KEY.submissionAccepted + k), rejected: n(COUNT_KEY.submissionRejected + k) };
      }),
      ksef_sessions: await _sessions(ctx.tenant),
    };
  }
  if (wantDocs) {
    const sources = ctx.app.sources(ctx.tenant.tenant);
    out.documents = {
      total: n(COUNT_KEY.documentsTotal),
      invalid: n(COUNT_KEY.documentsInvalid),
      xml_missing: n(COUNT_KEY.documentsXmlMissing),
      per_day: days.map((day) => ({ day, synced: n(COUNT_KEY.documentsSynced + day) })),
      sources: await Promise.all(sources.map(async (s) => {
        const run = await ctx.tenant.lastRun(s.name);
        return { source: s.name, type: s.type ?? (s.ksef ? "ksef" : "custom"), last_run: run && runJson(run) };
      })),
    };
  }
  if (scopes.includes("webhooks:read")) {
    const hooks = await ctx.tenant.listWebhooks();
    out.webhooks = await Promise.all(hooks.map(async (w) => {
      const v = webhookView(w, false, await ctx.tenant.getDeliveryState(w.id), now);
      return { id: v.id, url: v.url, status: v.status, consecutive_failures: v.consecutive_failures, last_error: v.last_error, next_attempt_at: v.next_attempt_at };
    }));
  }
  return json(200, JSON.stringify(out));
}

// The KSeF sessions with invoices in them now: the submissions `sending`, grouped by their session.
async function _sessions(tenant: TenantStore): Promise<{ type: KsefSessionType; reference: string; opened_at: string; invoices: number }[]> {
  const bySession = new Map<string, { type: KsefSessionType; reference: string; opened_at: string; invoices: number }>();
  for (const s of await tenant.pendingKsefSubmissions(SUMMARY_PENDING_READ)) {
    const k = s.ksef;
    if (!k || k.status !== "sending" || !k.session) continue;
    const seen = bySession.get(k.session);
    // The session's opening is not kept with the invoice: the earliest change of an invoice in it stands for it.
    if (seen) {
      seen.invoices++;
      if (k.updated_at < seen.opened_at) seen.opened_at = k.updated_at;
    } else bySession.set(k.session, { type: k.session_type ?? "online", reference: k.session, opened_at: k.updated_at, invoices: 1 });
  }
  return [...bySession.values()];
}

/** The summary route. */
export const summaryRoutes: ApiRoute[] = [
  {
    method: "GET", pattern: "/api/v1/summary", scope: ["submissions:read", "documents:read", "webhooks:read"], handle: getSummary,
    openapi: {
      id: "getSummary", tag: "Operations", summary: "The tenant's state at a glance",
      description: "A part per scope the token holds: `submissions` (submissions:read), `documents` (documents:read), `webhooks` (webhooks:read). A part the token may not read is left out; a token with none of the three scopes gets 403. Counts come from counters the store keeps as it writes, so the answer costs the same whatever the number of documents. `per_hour` covers the last 48 UTC hours and `per_day` the last 30 UTC days, oldest first, the current hour and day last.",
      ok: { 200: okJson("The summary", "Summary") },
    },
  },
];
