/**
 * Key derivations off the event loop for the KSeF file signer (README "KSeF"; server.ts hands it to
 * storage/ksef/connection/credentials.ts deferSignerLoads()): a `.p12` may ask for 2,000,000
 * iterations of the PKCS#12 KDF for its MAC, seconds of hashing that would hold every tenant's requests. PBKDF2
 * goes to node:crypto's asynchronous pbkdf2() (the runtime's thread pool); the PKCS#12 KDF, which node:crypto
 * lacks, to one thread of its own (kdf_worker.ts), started on the first such request and ended when idle. On Deno
 * (whose server starts no threads) and where the thread cannot start, it runs in slices on the event loop instead
 * (key_derivation.ts deriveKeyAsync): other requests run between slices, at the price of a slower derivation.
 * @module
 */
import { Worker } from "node:worker_threads";
import { deriveKeyAsync, type KdfRequest } from "../../lib/formats/pkcs8/key_derivation.ts";

/** An idle thread ends after this long: key files change seldom, and an idle thread holds some 10 MB. */
const _IDLE_MS = 30_000;

/** Derives keys off the event loop. */
export interface KdfThread {
  derive(r: KdfRequest): Promise<Uint8Array>;
  /** Ends the thread, if one runs. */
  close(): Promise<void>;
}

type _Reply = { ready: true } | { id: number; key?: Uint8Array; error?: string };

/** A deriver with at most one thread, started when first needed. */
export function createKdfThread(): KdfThread {
  let worker: Worker | null = null;
  let broken = "Deno" in globalThis; // Deno: slices on the event loop, as its server runs no threads
  let next = 0;
  let idle: ReturnType<typeof setTimeout> | null = null;
  const pending = new Map<number, { resolve: (key: Uint8Array) => void; reject: (e: Error) => void }>();

  function start(): Worker {
    // Compiled (the npm package's dist/) this module is .js and so is the thread's entry; on a Node without type
    // stripping (20, run through tsx) the thread registers tsx itself, as invoice_workers.ts does.
    const compiled = import.meta.url.endsWith(".js");
    const url = new URL(compiled ? "./kdf_worker.js" : "./kdf_worker.ts", import.meta.url).href;
    const strips = typeof (process.features as { typescript?: unknown }).typescript === "string";
    const boot = compiled || strips
      ? `import(${JSON.stringify(url)});`
      : `import("tsx/esm/api").then((t) => t.register()).then(() => import(${JSON.stringify(url)}));`;
    const w = new Worker(boot, { eval: true });
    w.unref(); // it never keeps the process alive
    w.on("message", (r: _Reply) => {
      if ("ready" in r) return;
      const p = pending.get(r.id);
      pending.delete(r.id);
      if (r.key !== undefined) p?.resolve(new Uint8Array(r.key));
      else p?.reject(new RangeError(r.error ?? "The key derivation failed"));
      if (pending.size === 0) rest();
    });
    // A thread that fails is not started again: what it had in hand, and everything after, is sliced instead.
    const died = (): void => {
      if (worker !== w) return;
      worker = null;
      broken = true;
      const lost = [...pending.values()];
      pending.clear();
      for (const p of lost) p.reject(new _ThreadStopped());
    };
    w.on("error", died);
    w.on("exit", died);
    return w;
  }

  function rest(): void {
    if (idle !== null) clearTimeout(idle);
    idle = setTimeout(() => {
      idle = null;
      if (pending.size > 0 || worker === null) return;
      const w = worker;
      worker = null;
      void w.terminate();
    }, _IDLE_MS);
    (idle as { unref?: () => void }).unref?.();
  }

  async function onThread(r: Extract<KdfRequest, { kind: "pkcs12" }>): Promise<Uint8Array> {
    worker ??= start();
    if (idle !== null) (clearTimeout(idle), idle = null);
    const id = next++;
    const w = worker;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage({ id, hash: r.hash, purpose: r.id, password: r.password, salt: r.salt, iterations: r.iterations, length: r.length });
    });
  }

  return {
    async derive(r) {
      if (r.kind !== "pkcs12" || broken) return deriveKeyAsync(r);
      try {
        return await onThread(r);
      } catch (e) {
        if (e instanceof _ThreadStopped) return deriveKeyAsync(r);
        throw e;
      }
    },
    async close() {
      if (idle !== null) (clearTimeout(idle), idle = null);
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}

class _ThreadStopped extends Error {}
