/**
 * Webhook delivery (README “Webhooks”). The outbox is the tenant's change feeds
 * themselves: every change is already durable when it is written, so an event
 * cannot be lost between a change and its outbox entry. Each endpoint keeps its
 * own position in each feed and its own retry list, so a slow or dead endpoint
 * holds up no other. Event ids are derived from the change, so they are the
 * same on every attempt and after a restart (at-least-once, deduplicable).
 * @module
 */
import type { WebhookTransport } from "../../contracts/webhook_transport.ts";
import type { Storage } from "../../contracts/storage.ts";
import type { Logger } from "../../observe/log.ts";
import type { Metrics } from "../../observe/metrics.ts";
import { reportFailure, repeatEvery } from "../background.ts";
import { COLLECTIONS, feedPosition, serveEndpoint, type EndpointPass } from "./endpoint_pass.ts";

export type { WebhookTransport } from "../../contracts/webhook_transport.ts";
export { ATTEMPT_TIMEOUT_MS, eventOf, initialDeliveryState, type WebhookEvent } from "./endpoint_pass.ts";

/** Options of the delivery worker. */
export interface WebhookWorkerOptions {
  storage: Storage;
  transport: WebhookTransport;
  /** Delays between attempts, ms (README “Webhooks” default: 5s,5m,30m,2h,5h,10h,14h,20h,24h). */
  schedule: readonly number[];
  now: () => number;
  random?: () => number;
  logger: Logger;
  metrics?: Metrics;
  /** This node's name in leases: each endpoint is served by one node at a time. */
  nodeId: string;
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
  const busy = new Map<string, Promise<void>>();
  let cancel: (() => void) | null = null;
  let stopped = false;
  const pass: EndpointPass = { o, random: o.random ?? Math.random, stopped: () => stopped };

  async function runOnce(): Promise<void> {
    if (stopped) return;
    const work: Promise<void>[] = [];
    for (const tenantId of await o.storage.tenants()) {
      const t = o.storage.tenant(tenantId);
      for (const hook of await t.listWebhooks()) {
        // Disabled endpoints are visited only for their retry-now requests.
        if (hook.status === "deleted" || busy.has(hook.id)) continue;
        const p = serveEndpoint(pass, t, hook)
          .catch((e: unknown) => reportFailure(o, "webhook_delivery", e, { tenant: tenantId, webhook: hook.id }))
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
      // A failing pass (storage down) is logged and counted; the next tick tries again.
      cancel = repeatEvery("webhook_worker", intervalMs, runOnce, o);
    },
    async stop() {
      stopped = true;
      cancel?.();
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
          for (const c of COLLECTIONS) n += Math.max(0, (await t.feedLength(c)) - feedPosition(s, c));
          n += s.retries.length;
        }
      }
      return n;
    },
  };
}
