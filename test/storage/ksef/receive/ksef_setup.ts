/**
 * Shared setup of the ksef source tests: a KSeF simulator with documented
 * limits, a real server whose tenant "acme" has a `ksef` source pointed at it,
 * invoice XML made from a real FA(2) sample, and a sync helper.
 */
import { readFileSync } from "node:fs";
import type { Logger } from "../../../../lib/observe/log.ts";
import { join } from "node:path";
import { ksefSource, type KsefSourceOptions } from "../../../../storage/ksef/receive/source.ts";
import { startKsefSimulator, type KsefSimulator, type SimOptions } from "../../../support/ksef_simulator.ts";
import { fixturePath, startServer, type TestServer } from "../../../support/server.ts";

export const NIP = "5265877635";
export const PARTNER = "7762811692";
export const OTHER = "1234563218";
export const TOKEN = `20251010-EC-1DCE3E3000-12ECB5B36E-45|nip-${NIP}|919f704466624ce29cd5ac7b65ded5e7cccc112eee314f2aaa76e02cd16df7b9`;
const SAMPLE = readFileSync(fixturePath("samples", "ksef-fa2", "FA_2_Przyklad_20.xml"), "utf8");

/** A valid FA(2) invoice with its own number. */
export function invoiceXml(number: string): Uint8Array {
  return Buffer.from(SAMPLE.replace(/<P_2>[^<]*<\/P_2>/, `<P_2>${number}</P_2>`));
}

/** Fast retries and polls, every wait reported (the simulator is no production root: no minimum interval). */
export const FAST = { retryDelays: [5, 10, 20], pollDelays: [5], maxPolls: 50, requestTimeoutMs: 5000, retryAfterUnitMs: 20, reportWaitsFromMs: 0 };

export interface Setup {
  sim: KsefSimulator;
  server: TestServer;
  apiToken: string;
  sync(): Promise<Record<string, unknown>>;
  docs(query?: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** A simulator and a server with one ksef source; `source` and `sim` override the defaults, `logger` hears the server. */
export async function setup(sim: Partial<SimOptions> = {}, source: Partial<KsefSourceOptions> = {}, logger?: Logger): Promise<Setup> {
  const s = await startKsefSimulator({ tokens: [{ token: TOKEN, nip: NIP, permissions: ["InvoiceRead"] }], ...sim });
  const server = await startServer({
    ...(logger ? { logger } : {}),
    sources: () => [ksefSource({
      name: "ksef", baseUrl: s.url, nip: NIP, token: TOKEN, subjects: ["Subject1", "Subject2", "Subject3"],
      stateFile: join(server.dataDir, "acme-ksef.json"), tuning: FAST, ...source,
    })],
  });
  const apiToken = (await server.token("acme")).token;
  return {
    sim: s, server, apiToken,
    sync: () => server.sync(apiToken),
    async docs(query = "") {
      // limit is of cursor mode, per_page of page mode: each is refused in the other (strict parameters).
      const res = await server.fetch(`/api/v1/documents?${query.includes("page=") ? "per_page=200" : "limit=500"}${query}`, apiToken);
      return ((await res.json()) as { data: Record<string, unknown>[] }).data;
    },
    async close() {
      await server.close();
      await s.close();
    },
  };
}
