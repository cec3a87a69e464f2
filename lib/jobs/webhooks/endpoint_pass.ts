/**
 * One delivery pass over one webhook endpoint (README “Webhooks”), under the endpoint's
 * lease: retry-now requests, then due retries, then the new changes of each
 * feed. It decides retries and disabling; which endpoints are visited, and
 * when, is the worker's (worker.ts).
 * @module
 */
import type { WebhookTransport } from "../../contracts/webhook_transport.ts";
import { createHash } from "node:crypto";
import { deterministicId } from "../../contracts/ids.ts";
import type { Logger } from "../../observe/log.ts";
import type { Metrics } from "../../observe/metrics.ts";
import type { Collection, DeliveryState, NoticeRecord, RawChange, Redelivery, SyncRunRecord, TenantStore, WebhookRecord } from "../../contracts/storage.ts";
import { runJson } from "../../contracts/record_json.ts";
import { reportFailure } from "../background.ts";
import { applyResume, recordAttempt, statusMessage, type AttemptOf, type AttemptOutcome } from "./delivery_health.ts";
import { buildEventBody, eventMatches, type WebhookEventType } from "./events.ts";
import { nextAttemptDelay, parseRetryAfter } from "./retry_schedule.ts";
import { webhookHeaders } from "./signature.ts";
import { changeWebhook } from "./webhook_change.ts";

/** The change feeds that events come from, in the order a pass reads them. */
export const COLLECTIONS: Collection[] = ["documents", "submissions", "runs", "notices"];
const BATCH = 50; // changes read per feed and endpoint per pass
/** An endpoint's lease: one node delivers to it at a time; renewed after each attempt (at most 10 s), so 30 s is ample. */
const ENDPOINT_LEASE_MS = 30_000;
/** README “Webhooks”: an attempt succeeds on a 2xx within 10 s. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** The worker's options that a pass reads. */
export interface EndpointPassOptions {
  transport: WebhookTransport;
  schedule: readonly number[];
  now: () => number;
  logger: Logger;
  metrics?: Metrics | undefined;
  nodeId: string;
}

/** What a pass needs of its worker: its options, its random source, and whether it is stopping. */
export interface EndpointPass {
  o: EndpointPassOptions;
  random: () => number;
  /** True once the worker stops: the pass ends before its next attempt. */
  stopped: () => boolean;
}

/** An event derived from a change. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  timestamp: string;
  data: unknown;
}

type _Result = AttemptOutcome & { retryAfterMs: number | null };

const _dec = new TextDecoder();

/** The event a change stands for, if any. */
export function eventOf(tenant: string, collection: Collection, change: RawChange): WebhookEvent | null {
  const record = JSON.parse(_dec.decode(change.json)) as Record<string, unknown>;
  let type: WebhookEventType;
  let time: string;
  let data: unknown = record;
  if (collection === "notices") {
    // A notice is its event (README "Webhooks"): its type, time and data as appended.
    // Its id comes from the notice's key and due time, not its feed position: a notice appended again after a
    // crash keeps its event id.
    const notice = record as unknown as NoticeRecord;
    const seed = createHash("sha256").update(`${tenant}\u0000notices\u0000${notice.key}`).digest();
    return { id: deterministicId("evt", Date.parse(notice.due_at), seed), type: notice.type as WebhookEventType, timestamp: notice.created_at, data: notice.data };
  } else if (collection === "documents") {
    type = change.first ? "document.created" : "document.updated";
    time = record.updated_at as string;
  } else if (collection === "submissions") {
    // Of a submission's later versions only KSeF's final verdict is an event (README "Sending to KSeF"), and the
    // deadline-near mark of an offline one.
    // An offline one's deadline-near mark is the version whose update is the mark itself (README "Offline invoices").
    // Linking a rejected one to its technical correction (`corrected_by`) is not a second rejection.
    const ksef = record.ksef as { status?: string; deadline_warned_at?: string | null; updated_at?: string; corrected_by?: string | null } | null | undefined;
    if (change.first) type = "submission.created";
    else if (ksef?.status === "accepted") type = "submission.ksef_accepted";
    else if (ksef?.status === "rejected" && !ksef.corrected_by) type = "submission.ksef_rejected";
    else if (ksef?.deadline_warned_at && ksef.deadline_warned_at === ksef.updated_at) type = "submission.ksef_deadline_near";
    else return null;
    time = (change.first ? record.created_at : record.updated_at) as string;
  } else {
    const run = record as unknown as SyncRunRecord;
    if (run.status !== "succeeded" && run.status !== "failed") return null;
    type = run.status === "succeeded" ? "sync.completed" : "sync.failed";
    time = run.finished_at ?? run.requested_at;
    data = runJson(run);
  }
  const seed = createHash("sha256").update(`${tenant}\u0000${collection}\u0000${change.seq}`).digest();
  return { id: deterministicId("evt", Date.parse(time), seed), type, timestamp: time, data };
}

/** Where a new endpoint starts: after every change made so far. */
export async function initialDeliveryState(t: TenantStore): Promise<DeliveryState> {
  return {
    positions: {
      documents: await t.feedLength("documents"), submissions: await t.feedLength("submissions"), runs: await t.feedLength("runs"),
      notices: await t.feedLength("notices"),
    },
    retries: [],
  };
}

/**
 * Where an endpoint reads `c` next. A state saved before the notices feed existed has no position in it and
 * starts at its beginning: the feed came with that version, so every notice in it is younger than the endpoint,
 * and starting at its end would skip those noticed before the endpoint's first pass since (the certificate
 * watch checks at startup, before the worker's first pass).
 */
export function feedPosition(state: DeliveryState, c: Collection): number {
  return state.positions[c] ?? 0;
}

/** Serves one endpoint if no other node does: claims its lease, runs the pass, releases the lease. */
export async function serveEndpoint(w: EndpointPass, t: TenantStore, hook: WebhookRecord): Promise<void> {
  const { o } = w;
  const lease = `webhook:${hook.id}`;
  if (!(await t.claimLease(lease, o.nodeId, ENDPOINT_LEASE_MS))) return; // another node serves it
  try {
    // A renewal that fails (storage down) keeps going: the lease still runs, and the next renewal retries.
    const renew = () => t.claimLease(lease, o.nodeId, ENDPOINT_LEASE_MS).catch((e: unknown) => (reportFailure(o, "lease_renewal", e, { tenant: t.tenant, webhook: hook.id }), true));
    await _serveClaimed(w, t, hook, renew);
  } finally {
    await t.releaseLease(lease, o.nodeId);
  }
}

async function _serveClaimed(w: EndpointPass, t: TenantStore, hook: WebhookRecord, renew: () => Promise<boolean>): Promise<void> {
  const { o } = w;
  const requests = await t.pendingRedeliveries(hook.id);
  if (hook.status !== "enabled" && requests.length === 0) return;
  const state = (await t.getDeliveryState(hook.id)) ?? (await initialDeliveryState(t));
  await _redeliver(w, t, hook, state, requests);
  if (hook.status !== "enabled") return;
  if (applyResume(state, hook.resumed_at, o.now())) await t.saveDeliveryState(hook.id, state);
  // Due retries first, oldest first.
  const due = state.retries.filter((r) => r.next_at <= o.now()).sort((a, b) => a.next_at - b.next_at);
  for (const r of due) {
    if (w.stopped()) break;
    const [change] = await t.rawChanges(r.collection, r.seq, 1);
    const ev = change ? eventOf(t.tenant, r.collection, change) : null;
    const alive = ev ? await _deliver(w, t, hook.id, state, r.collection, r.seq, ev, r.attempts) : true;
    if (alive === null) return; // deleted or paused meanwhile: the retry stays as it was
    state.retries.splice(state.retries.indexOf(r), 1);
    if (typeof alive === "number") state.retries.push({ event_id: ev!.id, type: ev!.type, collection: r.collection, seq: r.seq, attempts: r.attempts + 1, next_at: o.now() + alive });
    await t.saveDeliveryState(hook.id, state);
    if (alive === false || !(await renew())) return;
  }
  // The state is written after each attempt and once more only if positions moved past changes that concern
  // no event of the endpoint: an idle endpoint costs no write at all.
  let moved = false;
  try {
    for (const c of COLLECTIONS) {
      for (const change of await t.rawChanges(c, feedPosition(state, c), BATCH)) {
        if (w.stopped()) return;
        const ev = eventOf(t.tenant, c, change);
        if (!ev || !eventMatches(hook.events, ev.type)) {
          state.positions[c] = change.seq + 1;
          moved = true;
          continue;
        }
        const alive = await _deliver(w, t, hook.id, state, c, change.seq, ev, 0);
        if (alive === null) return; // deleted or paused meanwhile: this change is not passed over
        state.positions[c] = change.seq + 1;
        if (typeof alive === "number") state.retries.push({ event_id: ev.id, type: ev.type, collection: c, seq: change.seq, attempts: 1, next_at: o.now() + alive });
        await t.saveDeliveryState(hook.id, state); // the position moves only after the attempt: at-least-once
        moved = false;
        if (alive === false || !(await renew())) return;
      }
    }
  } finally {
    if (moved) await t.saveDeliveryState(hook.id, state);
  }
}

// Retry-now requests (POST …/deliveries/{evt_id}/retry): one attempt each, outside the schedule, also while disabled.
async function _redeliver(w: EndpointPass, t: TenantStore, hook: WebhookRecord, state: DeliveryState, requests: Redelivery[]): Promise<void> {
  for (const r of requests) {
    const [change] = await t.rawChanges(r.collection, r.change_seq, 1);
    const ev = change ? eventOf(t.tenant, r.collection, change) : null;
    // Re-read before each attempt: none goes to a deleted endpoint, and each goes to its current url.
    const current = ev && ev.id === r.event_id ? await t.getWebhook(hook.id) : null;
    if (ev && current) {
      await _attempt(w, t, current, state, ev, { eventId: ev.id, type: ev.type, collection: r.collection, changeSeq: r.change_seq, attempt: r.attempt, manual: true });
      await t.saveDeliveryState(hook.id, state);
    }
    await t.completeRedelivery(hook.id, r.event_id); // only now: a crash before this sends it again (at least once)
  }
}

/**
 * Attempts one event with the endpoint as it is now, re-read just before: a DELETE, a pause or a new `url`
 * answered to a client holds from the next attempt on (only the one in flight goes out as it was). Null when
 * the endpoint is gone or no longer enabled (nothing sent); false when this attempt disabled it; a number (the
 * delay, ms) when it failed and is to be retried; true when it succeeded or no longer concerns the endpoint.
 */
async function _deliver(w: EndpointPass, t: TenantStore, id: string, state: DeliveryState, c: Collection, seq: number, ev: WebhookEvent, attemptsBefore: number): Promise<boolean | number | null> {
  const { o } = w;
  const hook = await t.getWebhook(id);
  if (!hook || hook.status !== "enabled") return null;
  if (!eventMatches(hook.events, ev.type)) return true; // its events were changed to leave this one out
  const of: AttemptOf = { eventId: ev.id, type: ev.type, collection: c, changeSeq: seq, attempt: attemptsBefore + 1, manual: false };
  const r = await _attempt(w, t, hook, state, ev, of);
  if (r.ok) return true;
  if (r.status === 410) {
    await _disable(w, t, hook, state, of, "receiver answered 410 Gone");
    return false;
  }
  const delay = nextAttemptDelay(o.schedule, attemptsBefore + 1, w.random, r.retryAfterMs);
  if (delay === null) {
    await _disable(w, t, hook, state, of, `event ${ev.id} failed ${attemptsBefore + 1} times`);
    return false;
  }
  return delay;
}

// One POST of an event; its outcome is recorded in the endpoint's health and attempt log.
async function _attempt(w: EndpointPass, t: TenantStore, hook: WebhookRecord, state: DeliveryState, ev: WebhookEvent, of: AttemptOf): Promise<_Result> {
  const { o } = w;
  const body = buildEventBody(ev.type, ev.timestamp, ev.data);
  const headers = { "content-type": "application/json", ...webhookHeaders(hook.secret, ev.id, Math.floor(o.now() / 1000), body) };
  const started = performance.now();
  let r: _Result;
  try {
    const res = await o.transport({ url: hook.url, headers, body, timeoutMs: ATTEMPT_TIMEOUT_MS });
    const ok = res.status >= 200 && res.status < 300;
    o.metrics?.inc("webhook_deliveries_total", "Webhook delivery attempts by outcome.", { outcome: ok ? "success" : `http_${res.status}` });
    r = { ok, status: res.status, error: ok ? null : statusMessage(res.status), durationMs: performance.now() - started, retryAfterMs: parseRetryAfter(res.retryAfter, o.now()) };
  } catch (e) {
    o.metrics?.inc("webhook_deliveries_total", "Webhook delivery attempts by outcome.", { outcome: "error" });
    r = { ok: false, status: null, error: e instanceof Error ? e.message : String(e), durationMs: performance.now() - started, retryAfterMs: null };
  }
  await recordAttempt(t, hook.id, state, of, r, o.now(), o.logger);
  return r;
}

// The failed event stays in the retry list, due at once: re-enabling the endpoint delivers it first (nothing skipped).
async function _disable(w: EndpointPass, t: TenantStore, hook: WebhookRecord, state: DeliveryState, of: AttemptOf, reason: string): Promise<void> {
  const { o } = w;
  state.retries.push({ event_id: of.eventId, type: of.type, collection: of.collection, seq: of.changeSeq, attempts: of.attempt, next_at: o.now() });
  // By compare-and-set on the endpoint as it is now: a PATCH of its url or events made meanwhile is kept, and
  // one that disabled or deleted it wins.
  await changeWebhook(t, hook.id, (current) => (current?.status === "enabled" ? { ...current, status: "disabled", disabled_reason: reason } : null));
  o.logger.error("webhook disabled", { tenant: t.tenant, webhook: hook.id, event: of.eventId, reason });
}
