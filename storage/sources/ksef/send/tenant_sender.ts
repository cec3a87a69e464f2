/**
 * One tenant's sending to KSeF, one pass at a time (README "Sending to KSeF"): queued submissions are sent in
 * the order they were accepted, then the invoices in flight are looked up until KSeF's verdict is final; an
 * accepted invoice's UPO is fetched and stored byte for byte before `accepted` is written. Every state is stored
 * before the call that follows it (`sending` with the session, then the invoice's reference after KSeF gave it),
 * so a crash at any instant leaves either a reference to look up or an invoice to send again; KSeF's duplicate
 * answer (440) with the same content then stands for the original acceptance.
 * @module
 */
import { createHash } from "node:crypto";
import { upoKey } from "../../../../lib/contracts/ksef_upo.ts";
import type { SubmissionKsef, SubmissionRecord, TenantStore } from "../../../../lib/contracts/storage.ts";
import { answerError, answerJson, KsefOutage, type OnlineApi } from "./online_api.ts";
import { FORM_CODES, SessionRefused, type SessionPool } from "./session_pool.ts";
import { readUpo } from "./upo.ts";

/** faktury/weryfikacja-faktury.md: an invoice file is at most 1,000,000 bytes, 3,000,000 with attachments. */
export const MAX_INVOICE_BYTES = 3_000_000;
/** KSeF statuses that mean "processing was cut short, send again" (open-api.json InvoiceStatusInfo: 405, 550). */
const RESEND_CODES = new Set([405, 550]);
/** Sends of one invoice before a repeated "send again" answer (or 500) becomes its rejection. */
export const MAX_ATTEMPTS = 5;
/** Invoice statuses (and UPOs) read at once; the per-endpoint limits still pace them. */
const LOOKUPS_AT_ONCE = 8;
/** Submissions looked at per pass. */
const BATCH = 500;


/** What a pass did (for the job's logs and the tests). */
export interface PassOutcome {
  sent: number;
  finished: number;
  /** True while invoices still wait for a verdict (the job comes back soon). */
  inFlight: boolean;
}

/** Sends one tenant's queue. */
export class TenantSender {
  #store: TenantStore;
  #api: OnlineApi;
  #pool: SessionPool;
  #now: () => number;
  /** Renews the sender's lease during a long pass; false when another process took it over (the pass stops). */
  keepAlive: () => Promise<boolean> = async () => true;

  constructor(o: { store: TenantStore; api: OnlineApi; pool: SessionPool; now: () => number }) {
    this.#store = o.store;
    this.#api = o.api;
    this.#pool = o.pool;
    this.#now = o.now;
  }

  get pool(): SessionPool {
    return this.#pool;
  }

  /** One pass over the queue. KsefOutage and SessionRefused propagate: the job tries again later. */
  async pass(signal: AbortSignal): Promise<PassOutcome> {
    const pending = await this.#store.pendingKsefSubmissions(BATCH);
    const out: PassOutcome = { sent: 0, finished: 0, inFlight: false };
    for (const sub of pending) {
      if (!(await this.keepAlive())) return out;
      if (sub.ksef!.status === "queued" || sub.ksef!.reference === null) {
        if (await this.#sendOne(sub, signal)) out.sent++;
      }
    }
    // Verdicts are independent of each other: a few are looked up at once (their order does not matter).
    const inFlight = (await this.#store.pendingKsefSubmissions(BATCH)).filter((sub) => sub.ksef!.status === "sending" && sub.ksef!.reference !== null);
    for (let i = 0; i < inFlight.length; i += LOOKUPS_AT_ONCE) {
      if (!(await this.keepAlive())) return out;
      const done = await Promise.all(inFlight.slice(i, i + LOOKUPS_AT_ONCE).map((sub) => this.#lookUp(sub, signal)));
      for (const d of done) {
        if (d) out.finished++;
        else out.inFlight = true;
      }
    }
    await this.#pool.closeDue(signal);
    return out;
  }

  async #save(sub: SubmissionRecord, change: Partial<SubmissionKsef>): Promise<SubmissionKsef> {
    const ksef: SubmissionKsef = { ...sub.ksef!, ...change, updated_at: new Date(this.#now()).toISOString() };
    await this.#store.saveSubmissionKsef(sub.id, ksef);
    sub.ksef = ksef;
    return ksef;
  }

  async #reject(sub: SubmissionRecord, code: string, message: string, details: string[]): Promise<void> {
    await this.#save(sub, { status: "rejected", error: { code, message, details } });
  }

  // Sends one invoice: `sending` with the session is stored first, the reference after KSeF gave it.
  async #sendOne(sub: SubmissionRecord, signal: AbortSignal): Promise<boolean> {
    const blob = await this.#store.getBlob(sub.sha256);
    if (!blob) throw new Error(`The XML of submission ${sub.id} is missing`);
    if (!sub.format || !FORM_CODES[sub.format]) {
      await this.#reject(sub, "KSEF_FORM_NOT_SUPPORTED", `${sub.format} is not sent to KSeF`, []);
      return false;
    }
    if (blob.size > MAX_INVOICE_BYTES) {
      await this.#reject(sub, "KSEF_FILE_TOO_LARGE", `The invoice has ${blob.size} bytes; KSeF takes at most ${MAX_INVOICE_BYTES} (weryfikacja-faktury.md)`, []);
      return false;
    }
    if (sub.ksef!.attempts >= MAX_ATTEMPTS) {
      await this.#reject(sub, sub.ksef!.error?.code ?? "KSEF_500", sub.ksef!.error?.message ?? "KSeF did not process the invoice", sub.ksef!.error?.details ?? []);
      return false;
    }
    const session = await this.#pool.sessionFor(sub.format, signal);
    const body = this.#pool.encrypt(session, await blob.bytes());
    await this.#save(sub, { status: "sending", session: session.reference, reference: null, attempts: sub.ksef!.attempts + 1 });
    const answer = await this.#api.call("send", "POST", `/sessions/online/${encodeURIComponent(session.reference)}/invoices`, body, signal);
    const json = answerJson(answer);
    if (answer.status === 202 && typeof json?.referenceNumber === "string") {
      this.#pool.used(session);
      await this.#save(sub, { reference: json.referenceNumber });
      return true;
    }
    // A refusal of the request itself: the session may be gone (closed or expired at KSeF), so the invoice is sent
    // again in a new one; a second refusal is KSeF's verdict on the invoice.
    this.#pool.drop(session);
    const e = answerError(answer);
    if (sub.ksef!.attempts >= 2) await this.#reject(sub, e.code, e.message, e.details);
    else await this.#save(sub, { error: e });
    return false;
  }

  // Looks an invoice up by its reference; true when its verdict is final now.
  async #lookUp(sub: SubmissionRecord, signal: AbortSignal): Promise<boolean> {
    const k = sub.ksef!;
    const path = `/sessions/${encodeURIComponent(k.session!)}/invoices/${encodeURIComponent(k.reference!)}`;
    const answer = await this.#api.call("status", "GET", path, undefined, signal);
    const json = answerJson(answer);
    const status = json?.status as { code?: number; description?: string; details?: string[] | null; extensions?: Record<string, string | null> | null } | undefined;
    if (answer.status !== 200 || typeof status?.code !== "number") {
      // KSeF does not know the reference (e.g. lost with its session): send again; a 440 then finds the original.
      await this.#save(sub, { reference: null, error: answerError(answer) });
      return false;
    }
    if (status.code === 100 || status.code === 150) return false;
    if (status.code === 200) return this.#accept(sub, `${path}/upo`, String(json!.ksefNumber ?? ""), _iso(json!.acquisitionDate), k.session!, signal);
    if (status.code === 440) return this.#duplicate(sub, status.extensions ?? {}, status, signal);
    const error = { code: `KSEF_${status.code}`, message: status.description ?? "", details: (status.details ?? []).map(String) };
    if (RESEND_CODES.has(status.code) || status.code === 500) {
      await this.#save(sub, { reference: null, error });
      return false;
    }
    await this.#reject(sub, error.code, error.message, error.details);
    return true;
  }

  // Fetches the UPO and stores it before writing `accepted`: an accepted submission always has its receipt.
  async #accept(sub: SubmissionRecord, upoPath: string, ksefNumber: string, acquired: string | null, session: string, signal: AbortSignal): Promise<boolean> {
    const upo = await this.#api.call("upo", "GET", upoPath, undefined, signal);
    if (upo.status !== 200) return false; // not issued yet: the next pass asks again
    await this.#store.putDerived(upoKey(sub.id), upo.body);
    await this.#save(sub, { status: "accepted", ksef_number: ksefNumber, acquired_at: acquired ?? readUpo(upo.body).acquiredAt, session, error: null });
    return true;
  }

  /**
   * KSeF's 440 "Duplikat faktury": the same seller, type and number were accepted before, maybe from this very
   * invoice sent before a crash. The original's UPO names the hash of what was accepted; the same hash as ours
   * makes it our acceptance, with the original's KSeF number and receipt. Otherwise it is a rejection.
   */
  async #duplicate(sub: SubmissionRecord, ext: Record<string, string | null>, status: { code?: number; description?: string; details?: string[] | null }, signal: AbortSignal): Promise<boolean> {
    const original = ext.originalKsefNumber ?? null;
    const originalSession = ext.originalSessionReferenceNumber ?? null;
    const details = [...(status.details ?? []).map(String), ...(original ? [`originalKsefNumber: ${original}`] : []), ...(originalSession ? [`originalSessionReferenceNumber: ${originalSession}`] : [])];
    if (original && originalSession) {
      const path = `/sessions/${encodeURIComponent(originalSession)}/invoices/ksef/${encodeURIComponent(original)}/upo`;
      const upo = await this.#api.call("upo", "GET", path, undefined, signal);
      const blob = await this.#store.getBlob(sub.sha256);
      const ours = blob ? createHash("sha256").update(await blob.bytes()).digest("base64") : null;
      const read = upo.status === 200 ? readUpo(upo.body) : null;
      if (read && ours !== null && read.documentHash === ours) {
        await this.#store.putDerived(upoKey(sub.id), upo.body);
        await this.#save(sub, { status: "accepted", ksef_number: original, acquired_at: read.acquiredAt, session: originalSession, error: null });
        return true;
      }
    }
    await this.#reject(sub, "KSEF_440", status.description ?? "Duplikat faktury", details);
    return true;
  }
}

function _iso(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export { KsefOutage, SessionRefused };
