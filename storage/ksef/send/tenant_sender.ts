/**
 * One tenant's sending to KSeF, one pass at a time (README "Sending to KSeF"): one queue, one set of states and
 * crash rules, whichever way an invoice goes. A pass first takes batch sessions in flight as far as they go
 * (batch_session.ts), then chooses for the queued invoices of each form code (send_choice.ts): online, each sent
 * in the order accepted, or together as a batch; then the online invoices in flight are looked up until KSeF's
 * verdict is final. Every state is stored before the call that follows it (`sending` with the session, then the
 * invoice's reference after KSeF gave it), so a crash at any instant leaves either a reference to look up or an
 * invoice to send again; KSeF's duplicate answer (440) with the same content then stands for the original
 * acceptance (outcome.ts).
 * @module
 */
import type { SubmissionRecord, TenantStore } from "../../../lib/contracts/storage.ts";
import type { InvoiceFormat } from "../../../lib/formats/invoice/model.ts";
import type { SendMode } from "../connection/config.ts";
import type { BatchSessions } from "./batch_session.ts";
import { answerError, answerJson, KsefOutage, type OnlineApi } from "./online_api.ts";
import { noteInvoicingMode, sendGroupOf, sendInvoiceFields, sendModeOf } from "./offline_send.ts";
import { isoOf, type Outcomes } from "./outcome.ts";
import { chooseSending, DEFAULT_CHOICE_TUNING, type ChoiceTuning } from "./send_choice.ts";
import { FORM_CODES, SessionRefused, type SessionPool } from "./session_pool.ts";

/** faktury/weryfikacja-faktury.md: an invoice file is at most 1,000,000 bytes, 3,000,000 with attachments. */
export const MAX_INVOICE_BYTES = 3_000_000;
/** KSeF statuses that mean "processing was cut short, send again" (open-api.json InvoiceStatusInfo: 405, 550). */
const RESEND_CODES = new Set([405, 550]);
/** Sends of one invoice before a repeated "send again" answer (or 500) becomes its rejection. */
export const MAX_ATTEMPTS = 5;
/** Invoice statuses (and UPOs) read at once; the per-endpoint limits still pace them. */
const LOOKUPS_AT_ONCE = 8;
/** Submissions looked at per pass: a whole batch session's worth (limity.md: 10,000 invoices a session). */
const PENDING_LIMIT = 10_000;


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
  #batch: BatchSessions;
  #out: Outcomes;
  #mode: SendMode;
  #choice: ChoiceTuning;
  #now: () => number;
  #alive: () => Promise<boolean> = async () => true;

  constructor(o: { store: TenantStore; api: OnlineApi; pool: SessionPool; batch: BatchSessions; outcomes: Outcomes; mode: SendMode; choice?: Partial<ChoiceTuning>; now: () => number }) {
    this.#store = o.store;
    this.#api = o.api;
    this.#pool = o.pool;
    this.#batch = o.batch;
    this.#out = o.outcomes;
    this.#mode = o.mode;
    this.#choice = { ...DEFAULT_CHOICE_TUNING, ...o.choice };
    this.#now = o.now;
  }

  /** Renews the sender's lease during a long pass; false when another process took it over (the pass stops). */
  get keepAlive(): () => Promise<boolean> {
    return this.#alive;
  }

  set keepAlive(f: () => Promise<boolean>) {
    this.#alive = f;
    this.#batch.keepAlive = f;
  }

  get pool(): SessionPool {
    return this.#pool;
  }

  get batch(): BatchSessions {
    return this.#batch;
  }

  /** One pass over the queue. KsefOutage and SessionRefused propagate: the job tries again later. */
  async pass(signal: AbortSignal): Promise<PassOutcome> {
    const out: PassOutcome = { sent: 0, finished: 0, inFlight: false };
    // Read once a pass: every write below changes the record in hand too (outcome.ts), so these stay current.
    const pending = await this.#store.pendingKsefSubmissions(PENDING_LIMIT);
    // Batch sessions in flight first: a crash may have left some of their invoices still queued, to join them now.
    const sessions = new Set(pending.filter((s) => s.ksef!.session_type === "batch" && s.ksef!.status === "sending").map((s) => s.ksef!.session!));
    if (sessions.size > 0) {
      const byId = new Map(pending.map((s) => [s.id, s]));
      for (const ref of sessions) {
        if (!(await this.keepAlive())) return out;
        const p = await this.#batch.drive(ref, byId, signal);
        out.finished += p.finished;
        if (p.inFlight) out.inFlight = true;
      }
    }
    // An online send cut short by a crash (sending, no reference) goes online again: it may be at KSeF already.
    const resend = pending.filter((s) => s.ksef!.status === "sending" && s.ksef!.session_type !== "batch" && s.ksef!.reference === null);
    const queued = pending.filter((s) => s.ksef!.status === "queued");
    for (const sub of resend) {
      if (!(await this.keepAlive())) return out;
      if (await this.#sendOne(sub, signal)) out.sent++;
    }
    // Grouped by form code and by offline mode (a batch session declares offlineMode for all its invoices).
    const byFormat = new Map<string, SubmissionRecord[]>();
    for (const sub of queued) {
      if (await this.#refused(sub)) continue;
      byFormat.set(sendGroupOf(sub), [...(byFormat.get(sendGroupOf(sub)) ?? []), sub]);
    }
    for (const subs of byFormat.values()) {
      const format: InvoiceFormat | null = subs[0]!.format;
      const choice = chooseSending(sendModeOf(subs, this.#mode), subs, this.#now(), this.#choice);
      if (choice.how === "hold") out.inFlight = true;
      else if (choice.how === "batch") {
        const p = await this.#batch.start(format!, choice.take, signal);
        out.sent += choice.take.length;
        out.finished += p.finished;
        if (p.inFlight) out.inFlight = true;
      } else {
        for (const sub of choice.take) {
          if (!(await this.keepAlive())) return out;
          if (await this.#sendOne(sub, signal)) out.sent++;
        }
      }
    }
    // Verdicts are independent of each other: a few are looked up at once (their order does not matter).
    const inFlight = pending.filter((sub) => sub.ksef!.status === "sending" && sub.ksef!.session_type !== "batch" && sub.ksef!.reference !== null);
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

  // What never reaches KSeF: a form it does not take, a file over its size limit, an invoice out of attempts.
  // The size is the record's (the XML's byte count at upload): the XML itself is read only by the send that needs it.
  async #refused(sub: SubmissionRecord): Promise<boolean> {
    if (!sub.format || !FORM_CODES[sub.format]) {
      await this.#out.reject(sub, "KSEF_FORM_NOT_SUPPORTED", `${sub.format} is not sent to KSeF`, []);
      return true;
    }
    if (sub.size > MAX_INVOICE_BYTES) {
      await this.#out.reject(sub, "KSEF_FILE_TOO_LARGE", `The invoice has ${sub.size} bytes; KSeF takes at most ${MAX_INVOICE_BYTES} (weryfikacja-faktury.md)`, []);
      return true;
    }
    if (sub.ksef!.attempts >= MAX_ATTEMPTS) {
      await this.#out.reject(sub, sub.ksef!.error?.code ?? "KSEF_500", sub.ksef!.error?.message ?? "KSeF did not process the invoice", sub.ksef!.error?.details ?? []);
      return true;
    }
    return false;
  }

  // Sends one invoice: `sending` with the session is stored first, the reference after KSeF gave it.
  async #sendOne(sub: SubmissionRecord, signal: AbortSignal): Promise<boolean> {
    if (await this.#refused(sub)) return false;
    const blob = await this.#store.getBlob(sub.sha256);
    if (!blob) throw new Error(`The XML of submission ${sub.id} is missing`);
    const session = await this.#pool.sessionFor(sub.format!, signal);
    const body = { ...this.#pool.encrypt(session, await blob.bytes()), ...(await sendInvoiceFields(this.#store, sub)) };
    await this.#out.save(sub, { status: "sending", session: session.reference, session_type: "online", reference: null, attempts: sub.ksef!.attempts + 1 });
    const answer = await this.#api.call("send", "POST", `/sessions/online/${encodeURIComponent(session.reference)}/invoices`, body, signal);
    const json = answerJson(answer);
    const heard = this.#out.heard(sub, [answer]);
    if (answer.status === 202 && typeof json?.referenceNumber === "string") {
      this.#pool.used(session);
      await this.#out.save(sub, { ...heard, reference: json.referenceNumber });
      return true;
    }
    // A refusal of the request itself: the session may be gone (closed or expired at KSeF), so the invoice is sent
    // again in a new one; a second refusal is KSeF's verdict on the invoice.
    this.#pool.drop(session);
    const e = answerError(answer);
    if (sub.ksef!.attempts >= 2) await this.#out.reject(sub, e.code, e.message, e.details, heard);
    else await this.#out.save(sub, { ...heard, error: e });
    return false;
  }

  // Looks an invoice up by its reference; true when its verdict is final now.
  async #lookUp(sub: SubmissionRecord, signal: AbortSignal): Promise<boolean> {
    const k = sub.ksef!;
    const path = `/sessions/${encodeURIComponent(k.session!)}/invoices/${encodeURIComponent(k.reference!)}`;
    const answer = await this.#api.call("status", "GET", path, undefined, signal);
    const json = answerJson(answer);
    const status = json?.status as { code?: number; description?: string; details?: string[] | null; extensions?: Record<string, string | null> | null } | undefined;
    const heard = this.#out.heard(sub, [answer]);
    if (answer.status !== 200 || typeof status?.code !== "number") {
      // KSeF does not know the reference (e.g. lost with its session): send again; a 440 then finds the original.
      await this.#out.save(sub, { ...heard, reference: null, error: answerError(answer) });
      return false;
    }
    if (status.code === 100 || status.code === 150) {
      if (heard.warnings) await this.#out.save(sub, heard); // still sending: this version is no event
      return false;
    }
    if (status.code === 200) {
      noteInvoicingMode(sub, json);
      const upo = await this.#api.call("upo", "GET", `${path}/upo`, undefined, signal);
      return this.#out.accept(sub, upo, String(json!.ksefNumber ?? ""), isoOf(json!.acquisitionDate), k.session!, undefined, heard);
    }
    if (status.code === 440) return this.#out.duplicate(sub, status, signal, heard);
    const error = { code: `KSEF_${status.code}`, message: status.description ?? "", details: (status.details ?? []).map(String) };
    if (RESEND_CODES.has(status.code) || status.code === 500) {
      await this.#out.save(sub, { ...heard, reference: null, error });
      return false;
    }
    await this.#out.reject(sub, error.code, error.message, error.details, heard);
    return true;
  }
}

export { KsefOutage, SessionRefused };
