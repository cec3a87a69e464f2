/**
 * WORKERS > 1 on node:cluster: the primary forks the HTTP workers, restarts one
 * that dies, and stops them all on SIGTERM; a worker that cannot listen (port in
 * use) exits with LISTEN_FAILED and the primary stops instead of forking again
 * and again. The primary's own work (syncs, deliveries) is the caller's.
 * @module
 */
import cluster from "node:cluster";
import type { Logger } from "../../lib/observe/log.ts";
import { urlOf } from "./http_listener.ts";
import { onStopSignal } from "./signals.ts";

/** A worker's exit code when it could not listen: the primary reports it and gives up. */
export const LISTEN_FAILED = 3;

/** Whether this process is a forked HTTP worker. */
export function isClusterWorker(): boolean {
  return !cluster.isPrimary;
}

/** Options of the primary. */
export interface ClusterOptions {
  workers: number;
  host: string;
  logger: Logger;
  /** Called once every worker is gone after SIGTERM/SIGINT, or after a worker could not listen (with its code). */
  onStopped(listenFailed: boolean): Promise<void>;
}

/** Forks the workers; resolves with the URL once one listens. */
export function forkWorkers(o: ClusterOptions): Promise<string> {
  let stopping = false;
  const listening = new Promise<string>((resolve) => {
    cluster.once("listening", (_w, address) => resolve(urlOf(o.host, address.port)));
  });
  const stopAll = async (listenFailed: boolean): Promise<void> => {
    const exits = Object.values(cluster.workers ?? {}).map((w) => new Promise<void>((done) => {
      if (!w || w.isDead()) return done();
      w.once("exit", () => done());
      w.process.kill("SIGTERM");
    }));
    await Promise.all(exits);
    await o.onStopped(listenFailed);
  };
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    if (code === LISTEN_FAILED) {
      stopping = true;
      void stopAll(true);
      return;
    }
    o.logger.error("worker died, starting another", { worker: worker.id, code, signal });
    cluster.fork();
  });
  for (let i = 0; i < o.workers; i++) cluster.fork();
  onStopSignal((signal) => {
    if (stopping) return;
    stopping = true;
    o.logger.info("shutting down", { signal });
    void stopAll(false);
  });
  return listening;
}
