import { test } from "node:test";
import assert from "node:assert/strict";
import { createJsonLogger } from "../../lib/observe/log.ts";
import { Metrics } from "../../lib/observe/metrics.ts";
import { createSyncRunner } from "../../lib/jobs/sync_runner.ts";
import { createWebhookWorker } from "../../lib/jobs/webhooks/worker.ts";
import { MemoryStorage } from "../../storage/memory.ts";

/** A storage whose tenants() rejects while `down`, announcing each call. */
class FlakyStorage extends MemoryStorage {
  down = true;
  calls: ((ok: boolean) => void)[] = [];
  override async tenants(): Promise<string[]> {
    const ok = !this.down;
    this.calls.shift()?.(ok);
    if (!ok) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    return super.tenants();
  }
  nextCall(): Promise<boolean> {
    return new Promise((resolve) => this.calls.push(resolve));
  }
}

function logSink() {
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  const logger = createJsonLogger("debug", (l) => {
    lines.push(JSON.parse(l) as Record<string, unknown>);
    waiters.shift()?.();
  });
  return { lines, logger, next: () => new Promise<void>((r) => waiters.push(r)) };
}

const LOOPS = [
  {
    loop: "webhook_worker",
    start(storage: FlakyStorage, sink: ReturnType<typeof logSink>, metrics: Metrics) {
      const w = createWebhookWorker({
        storage, transport: async () => ({ status: 204, retryAfter: null }), schedule: [1000], now: Date.now, logger: sink.logger, metrics, nodeId: "n1",
      });
      w.start(5);
      return () => w.stop();
    },
  },
  {
    loop: "sync_poll",
    start(storage: FlakyStorage, sink: ReturnType<typeof logSink>, metrics: Metrics) {
      const r = createSyncRunner({ storage, sources: () => [], now: Date.now, logger: sink.logger, metrics, nodeId: "n1" });
      r.start(5);
      return () => r.stop();
    },
  },
];

for (const { loop, start } of LOOPS) {
  test(`the ${loop} loop survives passes whose storage call rejects: logged at error, counted, retried`, { timeout: 5_000 }, async () => {
    const storage = new FlakyStorage();
    const sink = logSink();
    const metrics = new Metrics();
    const stop = start(storage, sink, metrics);
    try {
      await sink.next();
      await sink.next();
      const errors = sink.lines.filter((l) => l.level === "error");
      assert.ok(errors.length >= 2, JSON.stringify(sink.lines));
      assert.equal(errors[0]!.loop, loop);
      assert.match(errors[0]!.error as string, /ECONNREFUSED/);
      assert.match(errors[0]!.stack as string, /\n\s+at /, "the stack is logged");
      const text = await metrics.render();
      const m = new RegExp(`background_failures_total\\{loop="${loop}"\\} (\\d+)`).exec(text);
      assert.ok(m && Number(m[1]) >= 2, text);
      // Storage comes back: the next pass goes through.
      storage.down = false;
      while (!(await storage.nextCall()));
    } finally {
      await stop();
    }
  });
}
