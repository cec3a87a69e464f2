/**
 * The thread of kdf_thread.ts: it runs the PKCS#12 KDF (lib/formats/pkcs12/kdf.ts) for the requests posted to it,
 * one at a time, and answers each with the key or the error's message. Nothing else: the file is read and parsed
 * on the main thread.
 * @module
 */
import { parentPort } from "node:worker_threads";
import { pkcs12Kdf } from "../../lib/formats/pkcs12/kdf.ts";
import { INVOICE_THREAD_NICE, setThreadNice } from "./thread_priority.ts";

/** What the main thread posts: a PKCS#12 KDF request (key_derivation.ts KdfRequest of kind "pkcs12") and its id. */
export interface KdfThreadRequest {
  id: number;
  hash: string;
  purpose: number;
  password: Uint8Array;
  salt: Uint8Array;
  iterations: number;
  length: number;
}

// Behind the event loop when both want a core, as the invoice threads are (thread_priority.ts).
setThreadNice(INVOICE_THREAD_NICE);

parentPort!.on("message", (r: KdfThreadRequest) => {
  try {
    parentPort!.postMessage({ id: r.id, key: pkcs12Kdf(r.hash, r.purpose, r.password, r.salt, r.iterations, r.length) });
  } catch (e) {
    parentPort!.postMessage({ id: r.id, error: (e as Error).message });
  }
});
parentPort!.postMessage({ ready: true });
