/**
 * How a submission's KSeF state is written, whichever session it went in (README "Sending to KSeF"): each change
 * is stored at once; `accepted` only after its UPO is stored byte for byte; KSeF's duplicate answer (440) with the
 * same content as ours is the original acceptance; an invoice that must be sent again goes back to the queue.
 * Online and batch sending share these rules, so a submission ends the same way in either. KSeF's technical
 * warnings on the requests made for a submission are kept on it with the change that follows them (heard()).
 * @module
 */
import { createHash } from "node:crypto";
import { upoKey } from "../../../lib/contracts/ksef_upo.ts";
import type { KsefSendError, SubmissionKsef, SubmissionRecord, TenantStore } from "../../../lib/contracts/storage.ts";
import { addUpstreamWarnings } from "../../../lib/contracts/upstream_warnings.ts";
import type { KsefAnswer, OnlineApi } from "./online_api.ts";
import { readUpo } from "./upo.ts";

/** An invoice status of open-api.json InvoiceStatusInfo. */
export interface InvoiceStatus {
  code?: number;
  description?: string;
  details?: string[] | null;
  extensions?: Record<string, string | null> | null;
}

/** Writes submissions' KSeF outcomes to one tenant's store. */
export class Outcomes {
  #store: TenantStore;
  #api: OnlineApi;
  #now: () => number;

  constructor(o: { store: TenantStore; api: OnlineApi; now: () => number }) {
    this.#store = o.store;
    this.#api = o.api;
    this.#now = o.now;
  }

  /** Stores a change of a submission's `ksef` (a new version at the end of the feed). */
  async save(sub: SubmissionRecord, change: Partial<SubmissionKsef>): Promise<SubmissionKsef> {
    const ksef: SubmissionKsef = { ...sub.ksef!, ...change, updated_at: new Date(this.#now()).toISOString() };
    await this.#store.saveSubmissionKsef(sub.id, ksef);
    sub.ksef = ksef;
    return ksef;
  }

  /**
   * `before` (a change about to be saved, {} by default) with these answers' technical warnings added to the
   * submission's `ksef.warnings`, when any is new. Saved with the change they came before, never alone once the
   * verdict is final: a new version of an accepted or rejected submission would be its event again.
   */
  heard(sub: SubmissionRecord, answers: readonly KsefAnswer[], before: Partial<SubmissionKsef> = {}): Partial<SubmissionKsef> {
    const kept = before.warnings ?? sub.ksef!.warnings ?? [];
    const warnings = addUpstreamWarnings(kept, answers.flatMap((a) => a.warnings ?? []), new Date(this.#now()).toISOString());
    return warnings === null ? before : { ...before, warnings };
  }

  async reject(sub: SubmissionRecord, code: string, message: string, details: string[], heard: Partial<SubmissionKsef> = {}): Promise<void> {
    await this.save(sub, { ...heard, status: "rejected", error: { code, message, details } });
  }

  /** Back to the queue, out of its session, to be sent again (the error says why). */
  async requeue(sub: SubmissionRecord, error: KsefSendError | null): Promise<void> {
    await this.save(sub, { status: "queued", session: null, session_type: null, reference: null, error });
  }

  /**
   * Stores the UPO, then `accepted`: an accepted submission always has its receipt. False when the UPO is not there
   * yet. `heard`: warnings to keep with it (heard()); the UPO's own are added.
   */
  async accept(sub: SubmissionRecord, upo: KsefAnswer, ksefNumber: string, acquired: string | null, session: string, reference?: string, heard: Partial<SubmissionKsef> = {}): Promise<boolean> {
    const warnings = this.heard(sub, [upo], heard);
    if (upo.status !== 200) { // not issued yet: the next pass asks again
      if (warnings.warnings) await this.save(sub, warnings); // still sending: this version is no event
      return false;
    }
    await this.#store.putDerived(upoKey(sub.id), upo.body);
    await this.save(sub, {
      ...warnings, status: "accepted", ksef_number: ksefNumber, acquired_at: acquired ?? readUpo(upo.body).acquiredAt, session, error: null,
      ...(reference === undefined ? {} : { reference }),
    });
    return true;
  }

  /**
   * KSeF's 440 "Duplikat faktury": the same seller, type and number were accepted before, maybe from this very
   * invoice sent before a crash. The original's UPO names the hash of what was accepted; the same hash as ours
   * makes it our acceptance, with the original's KSeF number and receipt. Otherwise it is a rejection.
   */
  async duplicate(sub: SubmissionRecord, status: InvoiceStatus, signal: AbortSignal, heard: Partial<SubmissionKsef> = {}): Promise<boolean> {
    const ext = status.extensions ?? {};
    const original = ext.originalKsefNumber ?? null;
    const originalSession = ext.originalSessionReferenceNumber ?? null;
    const details = [...(status.details ?? []).map(String), ...(original ? [`originalKsefNumber: ${original}`] : []), ...(originalSession ? [`originalSessionReferenceNumber: ${originalSession}`] : [])];
    if (original && originalSession) {
      const path = `/sessions/${encodeURIComponent(originalSession)}/invoices/ksef/${encodeURIComponent(original)}/upo`;
      const upo = await this.#api.call("upo", "GET", path, undefined, signal);
      const blob = await this.#store.getBlob(sub.sha256);
      const ours = blob ? createHash("sha256").update(await blob.bytes()).digest("base64") : null;
      const read = upo.status === 200 ? readUpo(upo.body) : null;
      heard = this.heard(sub, [upo], heard);
      if (read && ours !== null && read.documentHash === ours) {
        await this.#store.putDerived(upoKey(sub.id), upo.body);
        await this.save(sub, { ...heard, status: "accepted", ksef_number: original, acquired_at: read.acquiredAt, session: originalSession, error: null });
        return true;
      }
    }
    await this.reject(sub, "KSEF_440", status.description ?? "Duplikat faktury", details, heard);
    return true;
  }
}

/** KSeF's `acquisitionDate` etc. as an ISO timestamp with milliseconds, or null. */
export function isoOf(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
