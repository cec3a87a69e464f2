/**
 * The sending job (README "Sending to KSeF"): for every tenant whose `ksef` source has `"send": true`, one sender
 * at a time among every process and node, under the tenant's `ksef-send` lease (as sync runs have theirs); it
 * passes over the tenant's queue whenever it is woken or its poll interval passes. When KSeF is unreachable or
 * failing (KsefOutage), refuses a session, or the token is rejected, nothing is rejected: the submissions stay
 * queued or sending and the tenant is tried again after a backoff. KSeF's technical warnings (`X-System-Warning`)
 * are logged with the tenant and the request, each distinct one at most once an hour.
 * @module
 */
import { createHash } from "node:crypto";
import { setMaxListeners } from "node:events";
import { abortableSleep } from "../../../lib/contracts/document_source.ts";
import type { Storage } from "../../../lib/contracts/storage.ts";
import type { Logger } from "../../../lib/observe/log.ts";
import type { SystemWarning } from "../../../lib/ksef/system_warning.ts";
import { KsefClient } from "../connection/client.ts";
import { Pacer } from "../connection/pacing.ts";
import { chooseSignIn, type SignInOptions } from "../connection/sign_in_choice.ts";
import type { SendMode } from "../connection/config.ts";
import type { OfflineCertificateFiles } from "../offline/offline_certificate.ts";
import { DEFAULT_TUNING } from "../receive/source.ts";
import { fetchTransport, nodeTransport, type HttpTransport } from "../connection/http.ts";
import { OnlineApi, type OnlineApiTuning } from "./online_api.ts";
import { BatchSessions, type BatchTuning } from "./batch_session.ts";
import { Outcomes } from "./outcome.ts";
import type { ChoiceTuning } from "./send_choice.ts";
import { SessionPool, type SessionTuning } from "./session_pool.ts";
import { TenantSender } from "./tenant_sender.ts";
import { warnNearDeadlines } from "./deadline_warnings.ts";
import { memoryAvailability, observedFetch, observedTransport, type KsefAvailability } from "./availability.ts";
import { DEFAULT_DEADLINE_NEAR_MS } from "../../../lib/ksef/deadline_near.ts";

/**
 * A tenant's sending configuration: its `ksef` source with `"send": true`. It signs in with `signer` (a certificate
 * and its key: the files' signer or an embedder's own) when given, else with `token` (until 31 December 2026).
 */
export interface KsefSendConfig extends SignInOptions {
  tenant: string;
  baseUrl: string;
  nip: string;
  /** How invoices go (default "auto"). */
  sendMode?: SendMode;
  /** The KSeF certificate of type Offline and its key (absolute paths), when the tenant issues offline invoices. */
  offline?: OfflineCertificateFiles;
  /** New uploads are issued offline by themselves once KSeF has not answered for this long (ms). */
  offlineWhenUnavailableMs?: number;
}

/** How long a sender's lease runs without renewal: a node that dies frees the tenant's queue after this. */
export const SEND_LEASE_MS = 30_000;
/** A pass renews its lease when this much of it has passed (well before it runs out). */
const RENEW_AFTER_MS = SEND_LEASE_MS / 3;
/** How often a tenant's offline deadlines are looked at: well within the 12-hour warning, and cheap between. */
const DEADLINE_CHECK_MS = 60_000;
/** Waiting submissions looked at for deadlines per pass (limity.md: a batch session's 10,000). */
const DEADLINE_SCAN_LIMIT = 10_000;
/** Backoff after a failed pass (outage, refused session): doubling from the first, up to the last. */
const BACKOFF_MS = [5_000, 300_000] as const;
/** A distinct KSeF warning is logged at most once in this long per tenant: KSeF may repeat one on every answer. */
const WARNING_LOG_EVERY_MS = 3_600_000;
/** Distinct warnings remembered per tenant for that (a bound on memory; past it the memory starts over). */
const WARNINGS_REMEMBERED = 1000;

/** Options of the job. */
export interface KsefSenderOptions {
  storage: Storage;
  /** The sending tenants now (sources.json is read again on every call). */
  configs: () => KsefSendConfig[];
  nodeId: string;
  logger: Logger;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Used by the KSeF client, and by the sender instead of node:http when no `http` is given. */
  fetch?: typeof fetch;
  /** The sender's HTTP (default: node:http with kept-alive connections, or `fetch` when that is given); the caller closes one it gives. */
  http?: HttpTransport;
  tuning?: Partial<OnlineApiTuning & SessionTuning & BatchTuning & ChoiceTuning & { backoffMs: readonly [number, number] }>;
  /** How long before the end of its deadline day an offline invoice's deadline is near (default 12 hours). */
  deadlineNearMs?: number;
  /** Where KSeF's answers and silences are recorded for every process to read (default: this process only). */
  availability?: KsefAvailability;
}

/** The running job. */
export interface KsefSender {
  /** Passes every `pollMs` (and whenever woken). */
  start(pollMs: number): void;
  /** Asks for a pass soon (e.g. after a new submission). */
  wake(): void;
  /** One pass over every sending tenant now; resolves when it ends. */
  passNow(): Promise<void>;
  /** Resolves when the earliest tenant backing off after a failure may be tried again (at once when none is). */
  due(): Promise<void>;
  /** Online sessions opened per tenant (tests, benchmark). */
  sessionsOpened(tenant: string): number;
  /** Batch sessions opened per tenant (tests, benchmark). */
  batchesOpened(tenant: string): number;
  /** Since when (ms) KSeF has not answered the tenant's sending (from its first unanswered request), null while it answers. */
  unavailableSince(tenant: string): number | null;
  close(): Promise<void>;
}

interface _Tenant {
  key: string;
  sender: TenantSender;
  failures: number;
  notBefore: number;
  /** When offline deadlines were last looked at. */
  deadlinesCheckedAt: number;
}

/** Builds the job. */
export function createKsefSender(o: KsefSenderOptions): KsefSender {
  const abort = new AbortController();
  // Every request in flight listens to it (64 UPO downloads at once in a batch): not a leak.
  setMaxListeners(0, abort.signal);
  const job: _Job = {
    o, now: o.now ?? Date.now, sleep: o.sleep ?? abortableSleep, abort, tenants: new Map(), backoff: o.tuning?.backoffMs ?? BACKOFF_MS,
    http: o.http ?? (o.fetch ? fetchTransport(o.fetch) : nodeTransport()), availability: o.availability ?? memoryAvailability(),
  };
  const { now, sleep, tenants, http, availability } = job;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  async function passAll(): Promise<void> {
    do {
      again = false;
      let progress = false;
      for (const c of o.configs()) {
        if (abort.signal.aborted) return;
        try {
          if (await _passTenant(job, c)) progress = true;
        } catch (e) {
          o.logger.error("sending to KSeF failed", { tenant: c.tenant, error: (e as Error).message });
        }
      }
      if (progress) again = true; // more may wait behind a full batch
    } while (again && !abort.signal.aborted);
  }

  function passNow(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = passAll().finally(() => (running = null));
    return running;
  }

  return {
    start(pollMs) {
      timer ??= setInterval(() => void passNow(), pollMs);
      timer.unref?.();
      void passNow();
    },
    wake() {
      void passNow();
    },
    passNow,
    async due() {
      // Only tenants backing off count: one that is not would otherwise make every wait zero.
      const t = now();
      const waits = [...tenants.values()].map((x) => x.notBefore - t).filter((w) => w > 0);
      if (waits.length > 0) await sleep(Math.min(...waits), abort.signal);
    },
    sessionsOpened: (tenant) => tenants.get(tenant)?.sender.pool.opened ?? 0,
    batchesOpened: (tenant) => tenants.get(tenant)?.sender.batch.opened ?? 0,
    unavailableSince: (tenant) => availability.since(tenant),
    async close() {
      if (timer) clearInterval(timer);
      abort.abort();
      await running?.catch(() => {});
      for (const [tenant, t] of tenants) {
        // Sessions are closed so that KSeF issues their UPOs now (the per-invoice ones are fetched already).
        await t.sender.pool.closeAll(AbortSignal.timeout(5_000)).catch(() => {});
        await o.storage.tenant(tenant).releaseLease("ksef-send", o.nodeId).catch(() => {});
      }
      if (!o.http) http.close();
    },
  };
}

/** What one sender's steps share: its options, clock, stop signal, the tenants' sender stacks and transports. */
interface _Job {
  o: KsefSenderOptions;
  now: () => number;
  sleep: typeof abortableSleep;
  abort: AbortController;
  tenants: Map<string, _Tenant>;
  backoff: readonly [number, number];
  http: HttpTransport;
  availability: KsefAvailability;
}

/** A tenant's sender stack (client, online API, sessions, batches, outcomes), made again when its sign-in changes. */
function _senderOf(job: _Job, c: KsefSendConfig): _Tenant {
  const { o, now, sleep, tenants, http, availability } = job;
  // The same sign-in keeps its client (and sessions): the token, or the certificate and how it is named.
  const who = c.signer ? `${_fingerprint(c.signer.certificate)}\u0000${c.subjectIdentifier ?? ""}` : c.token ?? "";
  const key = `${c.baseUrl}\u0000${c.nip}\u0000${who}\u0000${c.sendMode ?? "auto"}`;
  const known = tenants.get(c.tenant);
  if (known && known.key === key) return known;
  const onSystemWarnings = _warningLog(o.logger, c.tenant, now);
  const client = new KsefClient({
    ...DEFAULT_TUNING, baseUrl: c.baseUrl.replace(/\/+$/, ""), nip: c.nip, signIn: chooseSignIn(c), pacer: new Pacer(), now, sleep,
    // Every request reports whether KSeF answered (offline_when_unavailable counts from the first that did not).
    onWait: async () => {}, onSystemWarnings, fetch: observedFetch(o.fetch ?? fetch, c.tenant, availability, now),
  });
  const api = new OnlineApi({ client, baseUrl: c.baseUrl.replace(/\/+$/, ""), now, sleep, tuning: o.tuning ?? {}, http: observedTransport(http, c.tenant, availability, now), onSystemWarnings });
  const pool = new SessionPool({ api, client, now, tuning: o.tuning ?? {} });
  const store = o.storage.tenant(c.tenant);
  const outcomes = new Outcomes({ store, api, now });
  const batch = new BatchSessions({ store, api, client, outcomes, now, sleep, tuning: o.tuning ?? {} });
  const sender = new TenantSender({ store, api, pool, batch, outcomes, mode: c.sendMode ?? "auto", choice: o.tuning ?? {}, now });
  const t: _Tenant = { key, sender, failures: 0, notBefore: 0, deadlinesCheckedAt: -Infinity };
  tenants.set(c.tenant, t);
  return t;
}

/** One tenant's turn: its lease, its offline deadlines, its backoff after a failed pass, then the pass. */
async function _passTenant(job: _Job, c: KsefSendConfig): Promise<boolean> {
  const { o, now, abort, backoff } = job;
  const t = _senderOf(job, c);
  const store = o.storage.tenant(c.tenant);
  // Offline deadlines are looked at once a minute, also while the tenant backs off: they come near in outages.
  const backingOff = now() < t.notBefore;
  const deadlines = now() >= t.deadlinesCheckedAt + DEADLINE_CHECK_MS;
  if (backingOff && !deadlines) return false;
  if (!(await store.claimLease("ksef-send", o.nodeId, SEND_LEASE_MS))) return false; // another process sends for it
  if (deadlines) {
    t.deadlinesCheckedAt = now();
    await warnNearDeadlines(store, await store.pendingKsefSubmissions(DEADLINE_SCAN_LIMIT), now(), o.deadlineNearMs ?? DEFAULT_DEADLINE_NEAR_MS);
  }
  if (backingOff) return false;
  let renewed = now();
  t.sender.keepAlive = async () => {
    if (now() - renewed < RENEW_AFTER_MS) return true;
    renewed = now();
    return store.claimLease("ksef-send", o.nodeId, SEND_LEASE_MS);
  };
  try {
    const r = await t.sender.pass(abort.signal);
    t.failures = 0;
    return r.sent > 0 || r.finished > 0;
  } catch (e) {
    if (abort.signal.aborted) return false;
    const wait = Math.min(backoff[1], backoff[0] * 2 ** t.failures++);
    t.notBefore = now() + wait;
    o.logger.warn("sending to KSeF paused", { tenant: c.tenant, error: (e as Error).message, retry_in_ms: wait });
    return false;
  }
}

/** Logs KSeF's warnings of one tenant's requests, each distinct one at most once in WARNING_LOG_EVERY_MS. */
function _warningLog(logger: Logger, tenant: string, now: () => number): (operation: string, warnings: SystemWarning[]) => void {
  const last = new Map<string, number>();
  return (operation, warnings) => {
    for (const w of warnings) {
      const key = `${w.code ?? ""}\u0000${w.message}`;
      const at = last.get(key);
      if (at !== undefined && now() - at < WARNING_LOG_EVERY_MS) continue;
      if (last.size >= WARNINGS_REMEMBERED) last.clear();
      last.set(key, now());
      logger.warn("upstream warning", { tenant, operation, code: w.code, message: w.message });
    }
  };
}

function _fingerprint(der: Uint8Array): string {
  return createHash("sha256").update(der).digest("hex");
}
