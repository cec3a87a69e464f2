/**
 * Shared setup of the sending tests: a KSeF simulator with its online-session side, a real server whose tenants
 * "acme" and "beta" send to it with the same NIP (and "plain" does not send), the sender job with fast retries,
 * and helpers to upload invoices and run the sender until nothing is in flight.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type { SendMode } from "../../../../storage/ksef/connection/config.ts";
import { ksefSource } from "../../../../storage/ksef/receive/source.ts";
import { createKsefSender, type KsefSendConfig, type KsefSender } from "../../../../storage/ksef/send/job.ts";
import { createKsefSendHook, OfflineCertificates } from "../../../../storage/ksef/send/send_hook.ts";
import { createHttpTransport } from "../../../../storage/transports/webhook_http.ts";
import { createJsonLogger, silentLogger, type Logger } from "../../../../lib/observe/log.ts";
import { startKsefSimulator, type KsefSimulator } from "../../../support/ksef_simulator.ts";
import { onlineSessions, type OnlineOptions, type OnlineSide } from "../../../support/ksef_simulator_online.ts";
import { batchSessions, type BatchOptions, type BatchSide } from "../../../support/ksef_simulator_batch.ts";
import { fixturePath, startServer, type TestServer } from "../../../support/server.ts";

export const NIP = "5265877635";
export const TOKEN = `20251010-EC-1DCE3E3000-12ECB5B36E-45|nip-${NIP}|919f704466624ce29cd5ac7b65ded5e7cccc112eee314f2aaa76e02cd16df7b9`;
/** The buyer of the FA(3) sample (Podmiot2), whose tenant "buyer" syncs from KSeF. */
export const BUYER_NIP = "1111111111";
const BUYER_TOKEN = `20251010-EC-1DCE3E3000-12ECB5B36E-46|nip-${BUYER_NIP}|${"1".repeat(64)}`;
const FA3 = readFileSync(fixturePath("samples", "ksef-fa3", "FA_3_Przyklad_4_EUR.xml"), "utf8");

/** A valid FA(3) invoice of seller NIP with its own number. */
export function fa3(number: string, note = ""): Uint8Array {
  return Buffer.from(FA3.replace(/<P_2>[^<]*<\/P_2>/, `<P_2>${number}</P_2>`).replace(/<NIP>5451824119<\/NIP>/, `<NIP>${NIP}</NIP>`).replace("</Faktura>", `${note}</Faktura>`));
}

/** Fast retries and backoff; no documented limits (KSeF's test environment has them off, limity-api.md). */
export const FAST_SEND = {
  retryDelays: [5, 10, 20], retryAfterUnitMs: 20, requestTimeoutMs: 5000, backoffMs: [20, 200] as const, pollDelays: [5, 10, 20],
  limits: { open: {}, send: {}, status: {}, upo: {}, close: {}, batchOpen: {}, batchClose: {}, session: {}, list: {}, sessionUpo: {} },
};

export interface SendSetup {
  sim: KsefSimulator;
  online: OnlineSide;
  batch: BatchSide;
  server: TestServer;
  sender: KsefSender;
  tokens: Record<"acme" | "beta" | "plain" | "buyer", string>;
  /** Uploads through the API; `fields` are plain multipart fields (e.g. `ksef_mode`). */
  upload(tenant: "acme" | "beta" | "plain", xml: Uint8Array, name?: string, fields?: Record<string, string>): Promise<Record<string, unknown>>;
  get(tenant: "acme" | "beta" | "plain", id: string): Promise<Record<string, unknown>>;
  /** Runs sender passes until nothing is queued or sending for every sending tenant (at most `max` passes). */
  settle(max?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the simulator, the server and the sender. */
export async function sendSetup(online: OnlineOptions = {}, tuning: Record<string, unknown> = {}, permissions = ["InvoiceRead", "InvoiceWrite"], sendMode: SendMode = "online", batchOptions: BatchOptions = {}, extra: Pick<KsefSendConfig, "offline" | "offlineWhenUnavailableMs" | "signer" | "subjectIdentifier"> & { now?: () => number; logger?: Logger } = {}): Promise<SendSetup> {
  const { now, signer, subjectIdentifier, logger, ...offline } = extra;
  // A signer signs in with its certificate (KSeF grants its subject's NIP the same permissions); else the token.
  const signIn = signer ? { signer, ...(subjectIdentifier ? { subjectIdentifier } : {}) } : { token: TOKEN };
  const side = onlineSessions(online);
  const batch = batchSessions(side, batchOptions);
  const sim = await startKsefSimulator({ tokens: [
    { token: TOKEN, nip: NIP, permissions },
    { token: BUYER_TOKEN, nip: BUYER_NIP, permissions: ["InvoiceRead"] },
  ], certificates: [{ nip: NIP, permissions }], routes: [...batch.routes, ...side.routes], rawRoutes: batch.rawRoutes, limitGroup: (m, p) => batch.limitGroup(m, p) ?? side.limitGroup(m, p) });
  const sending = new Set(["acme", "beta"]);
  let sender: KsefSender | null = null;
  // As server.ts has it: the tenants' configurations, their Offline certificates, the hook the API asks.
  const configs = (): KsefSendConfig[] => [...sending].map((tenant) => ({ tenant, baseUrl: sim.url, nip: NIP, ...signIn, sendMode, ...offline }));
  const certificates = new OfflineCertificates();
  certificates.load(configs());
  const server: TestServer = await startServer({
    // The buyer's tenant syncs from KSeF: what was sent and accepted comes back as its document.
    sources: (tenant) => tenant !== "buyer" ? [] : [ksefSource({
      name: "ksef", baseUrl: sim.url, nip: BUYER_NIP, token: BUYER_TOKEN, subjects: ["Subject2"],
      stateFile: join(server.dataDir, "buyer-ksef.json"), tuning: { retryDelays: [5], pollDelays: [5], maxPolls: 50, reportWaitsFromMs: 0 },
    })],
    ksefSend: createKsefSendHook({ configs, certificates, sender: () => sender, wake: () => {}, ...(now ? { now } : {}) }),
    webhooks: { transport: createHttpTransport(true), allowPrivate: true, schedule: [5_000] },
  });
  sender = createKsefSender({
    storage: server.storage, nodeId: "test-node", logger: logger ?? (process.env.SEND_DEBUG ? createJsonLogger("debug", (l) => process.stderr.write(l)) : silentLogger),
    configs,
    tuning: { ...FAST_SEND, ...tuning }, ...(now ? { now } : {}),
  });
  const tokens = {
    acme: (await server.token("acme")).token, beta: (await server.token("beta")).token, plain: (await server.token("plain")).token,
    buyer: (await server.token("buyer")).token,
  };
  const s: SendSetup = {
    sim, online: side, batch, server, sender, tokens,
    async upload(tenant, xml, name = "invoice.xml", fields = {}) {
      const form = new FormData();
      form.append("xml", new Blob([new Uint8Array(xml)], { type: "application/xml" }), name);
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const res = await server.fetch("/api/v1/submissions", tokens[tenant], { method: "POST", body: form });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    },
    async get(tenant, id) {
      return (await (await server.fetch(`/api/v1/submissions/${id}`, tokens[tenant])).json()) as Record<string, unknown>;
    },
    async settle(max = 50) {
      for (let i = 0; i < max; i++) {
        await sender!.passNow();
        let waiting = 0;
        for (const t of sending) waiting += (await server.storage.tenant(t).pendingKsefSubmissions(1)).length;
        if (waiting === 0) return;
        await sender!.due(); // a tenant backing off after an outage is tried again when its backoff ends
      }
      throw new Error("the sender did not settle");
    },
    async close() {
      await sender!.close();
      await server.close();
      await sim.close();
    },
  };
  return s;
}

/** A webhook receiver on 127.0.0.1 that keeps every body it gets. */
export async function receiver(): Promise<{ url: string; types: () => string[]; bodies: Record<string, unknown>[]; close(): Promise<void> }> {
  const bodies: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, bodies,
    types: () => bodies.map((b) => String(b.type)),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
