/**
 * The online sessions of one sending tenant (sesja-interaktywna.md): at most one per form code (FA(2), FA(3), FA_RR(1)),
 * opened when the first invoice waits, reused for the ones after it, and closed after 5 idle minutes, before its
 * `validUntil`, or at the per-session limit. Each session gets a fresh AES-256 key and IV, the key wrapped with
 * KSeF's SymmetricKeyEncryption certificate (RSA-OAEP SHA-256, open-api.json EncryptionInfo; a 21470 for a
 * withdrawn key fetches the certificates again and retries once); the key lives only
 * in memory, so after a restart invoices are sent in a new session (their earlier references are still looked up).
 * @module
 */
import { createCipheriv } from "node:crypto";
import type { InvoiceFormat } from "../../../lib/formats/invoice/model.ts";
import { newPackageKey, pickCertificate, sha256Base64 } from "../connection/crypto.ts";
import { KEY_WITHDRAWN, type KsefClient } from "../connection/client.ts";
import { answerError, answerJson, type KsefAnswer, type OnlineApi } from "./online_api.ts";

/**
 * open-api.json OpenOnlineSessionRequest.formCode (and OpenBatchSessionRequest's): the forms this service sends.
 * FA_RR(1)'s value is FA_RR, as its XSD's TKodFormularza says (api-changelog.md 2.3.0 corrected it from RR).
 * PEF(3) is sent by Peppol service providers only (PefInvoiceWrite), so it has none here.
 */
export const FORM_CODES: Readonly<Partial<Record<InvoiceFormat, { systemCode: string; schemaVersion: string; value: string }>>> = {
  "ksef-fa2": { systemCode: "FA (2)", schemaVersion: "1-0E", value: "FA" },
  "ksef-fa3": { systemCode: "FA (3)", schemaVersion: "1-0E", value: "FA" },
  "ksef-fa-rr1": { systemCode: "FA_RR (1)", schemaVersion: "1-1E", value: "FA_RR" },
};

/** The session knobs; tests shrink them. */
export interface SessionTuning {
  /** A session without invoices for this long is closed (5 minutes). */
  idleMs: number;
  /** A session is closed this long before its `validUntil`, so no invoice is sent into one about to end. */
  expiryMarginMs: number;
  /** Invoices per session before it is closed and a new one opened (limity.md: 10,000 invoices per session). */
  maxInvoices: number;
}

export const DEFAULT_SESSION_TUNING: SessionTuning = { idleMs: 5 * 60_000, expiryMarginMs: 10 * 60_000, maxInvoices: 10_000 };

/** An open session with its key. */
export interface OnlineSession {
  format: InvoiceFormat;
  reference: string;
  validUntil: number;
  key: Uint8Array;
  iv: Uint8Array;
  sent: number;
  lastUsed: number;
}

/** Why a session could not be opened: KSeF's error (the sender logs it and tries later). */
export class SessionRefused extends Error {
  override name = "SessionRefused";
}

/** A tenant's sessions. */
export class SessionPool {
  #api: OnlineApi;
  #client: KsefClient;
  #t: SessionTuning;
  #now: () => number;
  #open = new Map<InvoiceFormat, OnlineSession>();
  /** Sessions opened so far (for tests and the benchmark). */
  opened = 0;

  constructor(o: { api: OnlineApi; client: KsefClient; tuning?: Partial<SessionTuning>; now: () => number }) {
    this.#api = o.api;
    this.#client = o.client;
    this.#t = { ...DEFAULT_SESSION_TUNING, ...o.tuning };
    this.#now = o.now;
  }

  /** The open session for a format, opened now if there is none usable. */
  async sessionFor(format: InvoiceFormat, signal: AbortSignal): Promise<OnlineSession> {
    const open = this.#open.get(format);
    if (open && !this.#due(open)) return open;
    if (open) await this.close(open, signal);
    const formCode = FORM_CODES[format];
    if (!formCode) throw new RangeError(`${format} is not sent to KSeF`);
    let key: ReturnType<typeof newPackageKey>;
    let answer: KsefAnswer;
    for (let attempt = 0; ; attempt++) {
      const cert = pickCertificate(await this.#client.certificates(signal), "SymmetricKeyEncryption", this.#now());
      key = newPackageKey(cert);
      const encryption: Record<string, string> = { ...key.encryption };
      // klucze-publiczne-do-szyfrowania.md §4.2: name the key used, so that a withdrawn one is refused with 21470.
      if (cert.publicKeyId) encryption.publicKeyId = cert.publicKeyId;
      answer = await this.#api.call("open", "POST", "/sessions/online", { formCode, encryption }, signal);
      // §4.4: after 21470 the certificates are fetched again and the session opened with the key now published.
      if (attempt > 0 || answer.status !== 400 || answerError(answer).code !== `KSEF_${KEY_WITHDRAWN}`) break;
      this.#client.forgetCertificates();
    }
    const body = answerJson(answer);
    if (answer.status !== 201 || typeof body?.referenceNumber !== "string") {
      const e = answerError(answer);
      throw new SessionRefused(`KSeF refused to open an online session (${e.code} ${e.message})`);
    }
    const validUntil = Date.parse(String(body.validUntil));
    const session: OnlineSession = {
      format, reference: body.referenceNumber, validUntil: Number.isNaN(validUntil) ? this.#now() + 3_600_000 : validUntil,
      key: key.key, iv: key.iv, sent: 0, lastUsed: this.#now(),
    };
    this.#open.set(format, session);
    this.opened++;
    return session;
  }

  /** The body of POST /sessions/online/{ref}/invoices: the invoice encrypted with the session's key, hashes and sizes of both forms. */
  encrypt(session: OnlineSession, xml: Uint8Array): Record<string, unknown> {
    const cipher = createCipheriv("aes-256-cbc", session.key, session.iv);
    const encrypted = new Uint8Array(Buffer.concat([cipher.update(xml), cipher.final()]));
    return {
      invoiceHash: sha256Base64(xml), invoiceSize: xml.length,
      encryptedInvoiceHash: sha256Base64(encrypted), encryptedInvoiceSize: encrypted.length,
      encryptedInvoiceContent: Buffer.from(encrypted).toString("base64"),
    };
  }

  /** Counts an invoice sent into the session. */
  used(session: OnlineSession): void {
    session.sent++;
    session.lastUsed = this.#now();
  }

  /** Forgets a session KSeF no longer takes invoices into (it closes it at its expiry). */
  drop(session: OnlineSession): void {
    if (this.#open.get(session.format) === session) this.#open.delete(session.format);
  }

  /** Closes sessions that are idle, about to expire or full. */
  async closeDue(signal: AbortSignal): Promise<void> {
    for (const s of [...this.#open.values()]) if (this.#due(s)) await this.close(s, signal);
  }

  /** Closes every open session (shutdown). */
  async closeAll(signal: AbortSignal): Promise<void> {
    for (const s of [...this.#open.values()]) await this.close(s, signal);
  }

  /** POST /sessions/online/{ref}/close; a refusal (already closed or expired) only forgets it. */
  async close(session: OnlineSession, signal: AbortSignal): Promise<void> {
    this.drop(session);
    await this.#api.call("close", "POST", `/sessions/online/${encodeURIComponent(session.reference)}/close`, undefined, signal);
  }

  #due(s: OnlineSession): boolean {
    const now = this.#now();
    return now - s.lastUsed >= this.#t.idleMs || now >= s.validUntil - this.#t.expiryMarginMs || s.sent >= this.#t.maxInvoices;
  }
}
