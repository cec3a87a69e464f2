/**
 * The uploading client of bench/upload_pressure.bench.ts, in a process of its own: a tenant that uploads the
 * given files, `inFlight` at a time, one after another, until it is sent SIGTERM. It prints each answer's status
 * on a line. A process of its own, because sending megabytes from the measuring process would delay its own
 * timers and sockets, and the other tenant's latencies would then measure the client, not the server.
 *
 *   node --import tsx bench/support_uploader.ts URL TOKEN IN_FLIGHT FILE…
 * @module
 */
import { readFileSync } from "node:fs";
import process from "node:process";

const [url, token, inFlight, ...files] = process.argv.slice(2);
const docs = files.map((f) => readFileSync(f));
let stop = false;
process.on("SIGTERM", () => (stop = true));

async function uploader(i: number): Promise<void> {
  while (!stop) {
    const form = new FormData();
    form.append("xml", new Blob([docs[i % docs.length]! as Uint8Array<ArrayBuffer>], { type: "application/xml" }), "big.xml");
    try {
      const res = await fetch(`${url}/api/v1/submissions`, { method: "POST", headers: { "x-api-token": token! }, body: form });
      await res.arrayBuffer();
      process.stdout.write(`${res.status}\n`);
    } catch {
      process.stdout.write("error\n"); // the connection was closed under the upload
    }
  }
}

await Promise.all(Array.from({ length: Number(inFlight) }, (_, i) => uploader(i)));
