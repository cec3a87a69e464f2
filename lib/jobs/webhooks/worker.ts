/**
 * Webhook delivery (API.md §6). The outbox is the tenant's change feeds
 * themselves: every change is already durable when it is written, so an event
 * cannot be lost between a change and its outbox entry. Each endpoint keeps its
 * own position in each feed and its own retry list, so a slow or dead endpoint
 * holds up no other. Event ids are derived from the change, so they are the
 * same on every attempt and after a restart (at-least-once, deduplicable).
 * @module
 */
import type { WebhookTransport } from "../../contracts/webhook_transport.ts";
import { createHash } from "node:crypto";
import { deterministicId } from "../../contracts/ids.ts";
import type { Logger } from "../../observe/log.ts";
import type { Metrics } from "../../observe/metrics.ts";
import type { Collection, DeliveryState, RawChange, Redelivery, Storage, SyncRunRecord, TenantStore, WebhookRecord } from "../../contracts/storage.ts";
import { runJson } from "../../contracts/record_json.ts";
import { applyResume, recordAttempt, statusMessage, type AttemptOf, type AttemptOutcome } from "./delivery_health.ts";
import { buildEventBody, eventMatches, type WebhookEventType } from "./events.ts";
import { nextAttemptDelay, parseRetryAfter } from "./retry_schedule.ts";
import { webhookHeaders } from "./signature.ts";

const COLLECTIONS: Collection[] = ["documents", "submissions", "runs"];
const BATCH = 50; // changes read per feed and endpoint per pass
/** An endpoint's lease: one node delivers to it at a time; renewed after each attempt (at most 10 s), so 30 s is ample. */
const ENDPOINT_LEASE_MS = 30_000;
/** API.md §6: an attempt succeeds on a 2xx within 10 s. */
export const ATTEMPT_TIMEOUT_MS = 10_000;


/** Options of the delivery worker. */
export type { WebhookTransport } from "../../contracts/webhook_transport.ts";

export interface WebhookWorkerOptions {
  storage: Storage;
  transport: WebhookTransport;
  /** Delays between attempts, ms (API.md §6 default: 5s,5m,30m,2h,5h,10h,14h,20h,24h). */
  schedule: readonly number[];
  now: () => number;
  random?: () => number;
  logger: Logger;
  metrics?: Metrics;
  /** This node's name in leases: each endpoint is served by one node at a time. */
  nodeId: string;
}

/** An event derived from a change. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  timestamp: string;
  data: unknown;
}

const _dec = new TextDecoder();

/** The event a change stands for, if any. */
export function eventOf(tenant: string, collection: Collection, change: RawChange): WebhookEvent | null {
  const record = JSON.parse(_dec.decode(change.json)) as Record<string, unknown>;
  let type: WebhookEventType;
  let time: string;
  let data: unknown = record;
  if (collection === "documents") {
    type = change.first ? "document.created" : "document.updated";
    time = record.updated_at as string;
  } else if (collection === "submissions") {
    type = "submission.created";
    time = record.created_at as string;
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
    positions: { documents: await t.feedLength("documents"), submissions: await t.feedLength("submissions"), runs: await t.feedLength("runs") },
    retries: [],
  };
}

/** The delivery worker. */
export interface WebhookWorker {
  /** One pass over every endpoint: due retries, then new changes. Resolves when the pass is done. */
  runOnce(): Promise<void>;
  /** Passes every `intervalMs` until stopped. */
  start(intervalMs: number): void;
  /** Stops after the attempts in progress. */
  stop(): Promise<void>;
  /** Events not yet delivered (feed entries behind each endpoint plus pending retries). */
  depth(): Promise<number>;
}

/** Creates the delivery worker. */
export function createWebhookWorker(o: WebhookWorkerOptions): WebhookWorker {
  const random = o.random ?? Math.random;
  const busy = new Map<string, Promise<void>>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopped = false;

  // One POST of an event; its outcome is recorded in the endpoint's health and attempt log.
  async function attempt(t: TenantStore, hook: WebhookRecord, state: DeliveryState, ev: WebhookEvent, of: AttemptOf): Promise<AttemptOutcome & { retryAfterMs: number | null }> {
    const body = buildEventBody(ev.type, ev.timestamp, ev.data);
    const headers = { "content-type": "application/json", ...webhookHeaders(hook.secret, ev.id, Math.floor(o.now() / 1000), body) };
    const started = performance.now();
    let r: AttemptOutcome & { retryAfterMs: number | null };
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
  async function disable(t: TenantStore, hook: WebhookRecord, state: DeliveryState, of: AttemptOf, reason: string): Promise<void> {
    state.retries.push({ event_id: of.eventId, type: of.type, collection: of.collection, seq: of.changeSeq, attempts: of.attempt, next_at: o.now() });
    const current = await t.getWebhook(hook.id);
    if (current && current.status === "enabled") await t.saveWebhook({ ...current, status: "disabled", disabled_reason: reason });
    o.logger.error("webhook disabled", { tenant: t.tenant, webhook: hook.id, event: of.eventId, reason });
  }

  // Attempts one event; on failure schedules its retry. Returns false when the endpoint got disabled.
  async function deliver(t: TenantStore, hook: WebhookRecord, state: DeliveryState, c: Collection, seq: number, ev: WebhookEvent, attemptsBefore: number): Promise<boolean> {
    const of: AttemptOf = { eventId: ev.id, type: ev.type, collection: c, changeSeq: seq, attempt: attemptsBefore + 1, manual: false };
    const r = await attempt(t, hook, state, ev, of);
    if (r.ok) return true;
    if (r.status === 410) {
      await disable(t, hook, state, of, "receiver answered 410 Gone");
      return false;
    }
    const delay = nextAttemptDelay(o.schedule, attemptsBefore + 1, random, r.retryAfterMs);
    if (delay === null) {
      await disable(t, hook, state, of, `event ${ev.id} failed ${attemptsBefore + 1} times`);
      return false;
    }
    state.retries.push({ event_id: ev.id, type: ev.type, collection: c, seq, attempts: attemptsBefore + 1, next_at: o.now() + delay });
    return true;
  }

  // Retry-now requests (POST …/deliveries/{evt_id}/retry): one attempt each, outside the schedule, also while disabled.
  async function redeliver(t: TenantStore, hook: WebhookRecord, state: DeliveryState, requests: Redelivery[]): Promise<void> {
    for (const r of requests) {
      const [change] = await t.rawChanges(r.collection, r.change_seq, 1);
      const ev = change ? eventOf(t.tenant, r.collection, change) : null;
      if (!ev || ev.id !== r.event_id) continue;
      await attempt(t, hook, state, ev, { eventId: ev.id, type: ev.type, collection: r.collection, changeSeq: r.change_seq, attempt: r.attempt, manual: true });
      await t.saveDeliveryState(hook.id, state);
    }
  }

  async function serveEndpoint(t: TenantStore, hook: WebhookRecord): Promise<void> {
    const lease = `webhook:${hook.id}`;
    if (!(await t.claimLease(lease, o.nodeId, ENDPOINT_LEASE_MS))) return; // another node serves it
    try {
      await serveClaimed(t, hook, () => t.claimLease(lease, o.nodeId, ENDPOINT_LEASE_MS));
    } finally {
      await t.releaseLease(lease, o.nodeId);
    }
  }

  async function serveClaimed(t: TenantStore, hook: WebhookRecord, renew: () => Promise<boolean>): Promise<void> {
    const requests = await t.takeRedeliveries(hook.id);
    if (hook.status !== "enabled" && requests.length === 0) return;
    const state = (await t.getDeliveryState(hook.id)) ?? (await initialDeliveryState(t));
    await redeliver(t, hook, state, requests);
    if (hook.status !== "enabled") return;
    if (applyResume(state, hook.resumed_at, o.now())) await t.saveDeliveryState(hook.id, state);
    // Due retries first, oldest first.
    const due = state.retries.filter((r) => r.next_at <= o.now()).sort((a, b) => a.next_at - b.next_at);
    for (const r of due) {
      if (stopped) break;
      state.retries.splice(state.retries.indexOf(r), 1);
      const [change] = await t.rawChanges(r.collection, r.seq, 1);
      const ev = change ? eventOf(t.tenant, r.collection, change) : null;
      const alive = ev ? await deliver(t, hook, state, r.collection, r.seq, ev, r.attempts) : true;
      await t.saveDeliveryState(hook.id, state);
      if (!alive || !(await renew())) return;
    }
    for (const c of COLLECTIONS) {
      for (const change of await t.rawChanges(c, state.positions[c], BATCH)) {
        if (stopped) return;
        const ev = eventOf(t.tenant, c, change);
        state.positions[c] = change.seq + 1;
        if (ev && eventMatches(hook.events, ev.type)) {
          const alive = await deliver(t, hook, state, c, change.seq, ev, 0);
          await t.saveDeliveryState(hook.id, state); // the position moves only after the attempt: at-least-once
          if (!alive || !(await renew())) return;
        }
      }
      await t.saveDeliveryState(hook.id, state);
    }
  }

  async function runOnce(): Promise<void> {
    if (stopped) return;
    const work: Promise<void>[] = [];
    for (const tenantId of await o.storage.tenants()) {
      const t = o.storage.tenant(tenantId);
      for (const hook of await t.listWebhooks()) {
        // Disabled endpoints are visited only for their retry-now requests.
        if (hook.status === "deleted" || busy.has(hook.id)) continue;
        const p = serveEndpoint(t, hook)
          .catch((e: unknown) => o.logger.error("webhook worker failed", { tenant: tenantId, webhook: hook.id, error: String(e) }))
          .finally(() => busy.delete(hook.id));
        busy.set(hook.id, p);
        work.push(p);
      }
    }
    await Promise.all(work);
  }

  return {
    runOnce,
    start(intervalMs) {
      // Endpoints are served concurrently; a pass does not wait for a slow endpoint before starting the others.
      timer = setInterval(() => void runOnce(), intervalMs);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await Promise.all(busy.values());
    },
    async depth() {
      let n = 0;
      for (const tenantId of await o.storage.tenants()) {
        const t = o.storage.tenant(tenantId);
        for (const hook of await t.listWebhooks()) {
          if (hook.status !== "enabled") continue;
          const s = await t.getDeliveryState(hook.id);
          if (!s) continue;
          for (const c of COLLECTIONS) n += Math.max(0, (await t.feedLength(c)) - s.positions[c]);
          n += s.retries.length;
        }
      }
      return n;
    },
  };
}
