/**
 * The KSeF simulator with its online and batch sides, in a process of its own for bench/ksef_send.bench.ts (so that
 * the sender's CPU is measured without the simulator's): prints `{"url": …}` on its first line, exits with stdin.
 * @module
 */
import { startKsefSimulator } from "../test/support/ksef_simulator.ts";
import { batchSessions } from "../test/support/ksef_simulator_batch.ts";
import { onlineSessions } from "../test/support/ksef_simulator_online.ts";

const [nip, token] = process.argv.slice(2) as [string, string];
const online = onlineSessions();
const batch = batchSessions(online);
const sim = await startKsefSimulator({
  tokens: [{ token, nip, permissions: ["InvoiceRead", "InvoiceWrite"] }], routes: [...batch.routes, ...online.routes], rawRoutes: batch.rawRoutes,
  limitGroup: (m, p) => batch.limitGroup(m, p) ?? online.limitGroup(m, p), limits: { "batch-list": {}, "batch-status": {}, "batch-open": {}, "batch-close": {}, "batch-upo": {}, "batch-sessionUpo": {} },
});
process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
process.stdin.resume();
process.stdin.on("end", () => void sim.close().then(() => process.exit(0)));
