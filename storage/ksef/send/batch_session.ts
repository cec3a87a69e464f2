/**
 * Batch sessions (sesja-wsadowa.md, faktury/sesje/sesja-sprawdzenie-stanu-i-pobranie-upo.md, open-api.json): the
 * queued invoices of one form code go into one package; POST /sessions/batch; every part uploaded to its
 * `partUploadRequests` URL with exactly the method and headers KSeF gave, a few at once; POST …/close; then
 * GET /sessions/{ref} until processing ends, every invoice's status from GET /sessions/{ref}/invoices (and
 * …/invoices/failed for any not listed there), each ending as online sending ends it (outcome.ts), and the
 * collective UPO's pages kept. Each step is stored before the next (batch_steps.ts), so after a crash a session
 * resumes: parts not confirmed are uploaded again. A session that can no longer be completed (a part refused,
 * the upload window gone) is never closed, so KSeF cancels it, and one KSeF fails as a whole: either way its
 * invoices go back to the queue, so none is in two live sessions and none is forgotten.
 * @module
 */
import { randomBytes } from "node:crypto";
import type { SubmissionRecord, TenantStore } from "../../../lib/contracts/storage.ts";
import { sessionUpoKey } from "../../../lib/contracts/ksef_upo.ts";
import type { InvoiceFormat } from "../../../lib/formats/invoice/model.ts";
import { KEY_WITHDRAWN, type KsefClient } from "../connection/client.ts";
import { pickCertificate } from "../connection/crypto.ts";
import { buildBatchPackage } from "./batch_package.ts";
import { BatchSteps, type BatchOpened, type PartUpload } from "./batch_steps.ts";
import { answerError, answerJson, type KsefAnswer, type OnlineApi } from "./online_api.ts";
import { batchOfflineMode, noteInvoicingMode } from "./offline_send.ts";
import { isoOf, type InvoiceStatus, type Outcomes } from "./outcome.ts";
import { FORM_CODES, SessionRefused } from "./session_pool.ts";
import { readUpoDocuments } from "./upo.ts";
import { eachAtOnce } from "./at_once.ts";

/** The knobs of batch sending; tests shrink them. */
export interface BatchTuning {
  /** Bytes of a part before encryption (sesja-wsadowa.md: at most 100 MB). */
  partBytes: number;
  /** Parts uploaded at once. */
  uploadsAtOnce: number;
  /** Waits between session status polls within one pass; when they run out the next pass asks again. */
  pollDelays: readonly number[];
}

export const DEFAULT_BATCH_TUNING: BatchTuning = {
  partBytes: 100_000_000,
  uploadsAtOnce: 4,
  // GET /sessions/{ref} allows 10/s and 120/min (open-api.json x-rate-limits): about one poll a second at most.
  pollDelays: [500, 1000, 1000, 2000, 2000, 4000, 4000, 8000, 8000],
};

/** open-api.json GET /sessions/{ref}/invoices pageSize: 10 to 1000. */
const PAGE_SIZE = 1000;
/** open-api.json SessionStatusResponse (batch): 100 opened, 150 processing, 200 done, 445 no valid invoice. */
const PROCESSING = new Set([100, 150]);
const PROCESSED = new Set([200, 445]);
/** UPO downloads at once (from pre-signed URLs, which are not limited). */
const DOWNLOADS_AT_ONCE = 64;
/**
 * Invoices whose outcomes are written together: their UPOs are downloaded first, then every write of the chunk is
 * made in one turn of the event loop, so that they meet in one flush of the store (one pack of UPOs, one commit of
 * states) rather than a flush for every few invoices, each flush costing a disk sync.
 */
const OUTCOME_CHUNK = 1000;
/** State writes of a session's invoices at once (joining it, back to the queue, their collective UPO page): flushed together. */
const WRITES_AT_ONCE = 1000;
/** Invoice statuses that mean "processing was cut short, send again" (open-api.json InvoiceStatusInfo). */
const RESEND_CODES = new Set([405, 500, 550]);

/** What driving a session did. */
export interface BatchProgress {
  finished: number;
  inFlight: boolean;
}

/** One KSeF invoice status as the session lists give it. */
interface _Listed {
  referenceNumber?: string;
  invoiceFileName?: string | null;
  invoiceHash?: string;
  ksefNumber?: string | null;
  acquisitionDate?: string | null;
  upoDownloadUrl?: string | null;
  status?: InvoiceStatus;
  invoicingMode?: string | null;
}

/** A tenant's batch sessions. */
export class BatchSessions {
  #store: TenantStore;
  #api: OnlineApi;
  #client: KsefClient;
  #out: Outcomes;
  #steps: BatchSteps;
  #now: () => number;
  #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  #t: BatchTuning;
  /** Batch sessions opened so far (tests, benchmark). */
  opened = 0;
  /** Renews the sender's lease during long steps; false when another process took it over. */
  keepAlive: () => Promise<boolean> = async () => true;

  constructor(o: { store: TenantStore; api: OnlineApi; client: KsefClient; outcomes: Outcomes; now: () => number; sleep: (ms: number, signal: AbortSignal) => Promise<void>; tuning?: Partial<BatchTuning> }) {
    this.#store = o.store;
    this.#api = o.api;
    this.#client = o.client;
    this.#out = o.outcomes;
    this.#steps = new BatchSteps(o.store);
    this.#now = o.now;
    this.#sleep = o.sleep;
    this.#t = { ...DEFAULT_BATCH_TUNING, ...o.tuning };
  }

  /**
   * Sends queued submissions of one form code as one batch session: the package is built and stored, the session
   * opened and stored, then each submission is `sending` in it, and the session is driven as far as it goes now.
   */
  async start(format: InvoiceFormat, subs: SubmissionRecord[], signal: AbortSignal): Promise<BatchProgress> {
    const formCode = FORM_CODES[format];
    if (!formCode) throw new RangeError(`${format} is not sent to KSeF`);
    const cert = pickCertificate(await this.#client.certificates(signal), "SymmetricKeyEncryption", this.#now());
    const pkg = await buildBatchPackage({ store: this.#store, subs, cert, id: randomBytes(12).toString("hex"), partBytes: this.#t.partBytes });
    const body = {
      formCode, batchFile: { fileSize: pkg.fileSize, fileHash: pkg.fileHash, fileParts: pkg.parts.map((p) => ({ ordinalNumber: p.ordinalNumber, fileSize: p.fileSize, fileHash: p.fileHash })) },
      encryption: pkg.encryption, offlineMode: batchOfflineMode(subs),
    };
    const answer = await this.#api.call("batchOpen", "POST", "/sessions/batch", body, signal);
    const json = answerJson(answer);
    if (answer.status !== 201 || typeof json?.referenceNumber !== "string" || !Array.isArray(json.partUploadRequests)) {
      const e = answerError(answer);
      // klucze-publiczne-do-szyfrowania.md §4.4: a withdrawn key; the next pass packs again with the key now published.
      if (e.code === `KSEF_${KEY_WITHDRAWN}`) this.#client.forgetCertificates();
      throw new SessionRefused(`KSeF refused to open a batch session (${e.code} ${e.message})`);
    }
    const opened: BatchOpened = { reference: json.referenceNumber, format, package: pkg, uploads: json.partUploadRequests as PartUpload[], opened_at: new Date(this.#now()).toISOString() };
    await this.#steps.recordOpened(opened);
    this.opened++;
    await eachAtOnce(subs, WRITES_AT_ONCE, (sub) => this.#join(sub, opened.reference));
    return this.drive(opened.reference, new Map(subs.map((s) => [s.id, s])), signal);
  }

  /** Takes a session as far as it goes now: the steps not yet stored, then its invoices' outcomes. */
  async drive(reference: string, pending: ReadonlyMap<string, SubmissionRecord>, signal: AbortSignal): Promise<BatchProgress> {
    const opened = await this.#steps.opened(reference);
    const members = opened ? opened.package.files.map((f) => pending.get(f.id)).filter((s): s is SubmissionRecord => s !== undefined) : [];
    const mine = (s: SubmissionRecord): boolean => s.ksef!.session === reference && s.ksef!.session_type === "batch" && s.ksef!.status === "sending";
    if (!opened) {
      // Not stored means not opened by us: nothing of it can be processed (defensive; submissions join after the record).
      for (const sub of pending.values()) if (mine(sub)) await this.#out.requeue(sub, null);
      return { finished: 0, inFlight: false };
    }
    const failed = await this.#steps.failed(reference);
    if (failed) return this.#requeueAll(reference, members, failed);
    // A crash while submissions joined the session: the rest join now (they are still queued, in no session).
    await eachAtOnce(members.filter((s) => s.ksef!.status === "queued" && s.ksef!.session === null), WRITES_AT_ONCE, (sub) => this.#join(sub, reference));
    if (!(await this.#steps.closed(reference))) {
      const refused = await this.#uploadParts(opened, signal);
      if (refused) return this.#fail(reference, members, refused);
      if (!(await this.#close(reference, signal))) return { finished: 0, inFlight: true };
    }
    return this.#outcomes(opened, members.filter(mine), signal);
  }

  async #join(sub: SubmissionRecord, reference: string): Promise<void> {
    await this.#out.save(sub, { status: "sending", session: reference, session_type: "batch", reference: null, attempts: sub.ksef!.attempts + 1 });
  }

  // Uploads the parts not yet confirmed; the refusal that makes the session impossible to complete, or null.
  async #uploadParts(opened: BatchOpened, signal: AbortSignal): Promise<{ code: string; message: string } | null> {
    const todo: number[] = [];
    for (const p of opened.package.parts) if (!(await this.#steps.partDone(opened.reference, p.ordinalNumber))) todo.push(p.ordinalNumber);
    let refused: { code: string; message: string } | null = null;
    const next = async (): Promise<void> => {
      for (let n = todo.shift(); n !== undefined && refused === null; n = todo.shift()) {
        if (!(await this.keepAlive())) throw new Error("The sending lease was taken over");
        const part = opened.package.parts.find((p) => p.ordinalNumber === n)!;
        const how = opened.uploads.find((u) => u.ordinalNumber === n);
        const blob = await this.#store.getDerived(part.key);
        if (!how || !blob) {
          refused = { code: "KSEF_BATCH_PART_MISSING", message: `Part ${n} of the batch package cannot be uploaded` };
          return;
        }
        const headers = Object.fromEntries(Object.entries(how.headers ?? {}).filter((e): e is [string, string] => typeof e[1] === "string"));
        const answer = await this.#api.transfer(how.method, how.url, headers, await blob.bytes(), signal);
        // sesja-wsadowa.md §5: 201 the part is taken; 400, 401, 403 (e.g. the upload time is over) it is not.
        if (answer.status >= 200 && answer.status < 300) await this.#steps.recordPart(opened.reference, n);
        else refused = { code: `KSEF_${answer.status}`, message: `KSeF refused part ${n} of the batch package (HTTP ${answer.status}); the session cannot be completed and its invoices are sent again` };
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.#t.uploadsAtOnce) }, next));
    return refused;
  }

  // POST …/close; a refusal is looked into: a session KSeF already processes (closed before a crash) counts as closed.
  async #close(reference: string, signal: AbortSignal): Promise<boolean> {
    const answer = await this.#api.call("batchClose", "POST", `/sessions/batch/${encodeURIComponent(reference)}/close`, undefined, signal);
    if (answer.status !== 204) {
      const code = (await this.#status(reference, signal)).code;
      if (code === 100) throw new SessionRefused(`KSeF refused to close batch session ${reference} (${answerError(answer).code})`);
    }
    await this.#steps.recordClosed(reference);
    return true;
  }

  async #status(reference: string, signal: AbortSignal): Promise<{ code: number | null; json: Record<string, unknown> | null; answer: KsefAnswer }> {
    const answer = await this.#api.call("session", "GET", `/sessions/${encodeURIComponent(reference)}`, undefined, signal);
    const json = answerJson(answer);
    const code = (json?.status as { code?: unknown } | undefined)?.code;
    return { code: answer.status === 200 && typeof code === "number" ? code : null, json, answer };
  }

  // Polls the session until KSeF processed it (or this pass's polls run out), then writes every outcome.
  async #outcomes(opened: BatchOpened, members: SubmissionRecord[], signal: AbortSignal): Promise<BatchProgress> {
    if (members.length === 0) return { finished: 0, inFlight: false };
    const ref = opened.reference;
    let st = await this.#status(ref, signal);
    for (const wait of this.#t.pollDelays) {
      if (st.code === null || !PROCESSING.has(st.code)) break;
      if (!(await this.keepAlive())) return { finished: 0, inFlight: true };
      await this.#sleep(wait, signal);
      st = await this.#status(ref, signal);
    }
    if (st.code === null) {
      const e = answerError(st.answer);
      return this.#fail(ref, members, { code: e.code, message: `KSeF does not know the batch session any more (${e.message})` });
    }
    if (PROCESSING.has(st.code)) return { finished: 0, inFlight: true };
    const status = st.json!.status as InvoiceStatus;
    if (!PROCESSED.has(st.code)) return this.#fail(ref, members, { code: `KSEF_${st.code}`, message: status.description ?? "KSeF failed the batch session" });
    const pages = ((st.json!.upo as { pages?: { referenceNumber: string; downloadUrl: string }[] } | null | undefined)?.pages) ?? [];
    if (st.code === 200 && pages.length === 0) return { finished: 0, inFlight: true }; // the collective UPO is on its way
    await this.#keepSessionUpo(ref, pages, members, signal);
    // Statuses are taken a page at a time (memory holds a page, not the session's list): …/invoices, then
    // …/invoices/failed for any not found there; one that neither lists was not taken by KSeF.
    const files = new Map(opened.package.files.map((f) => [f.id, f]));
    const left = new Map<string, SubmissionRecord>();
    for (const sub of members) {
      left.set(files.get(sub.id)!.name, sub);
      left.set(files.get(sub.id)!.hash, sub);
    }
    const progress: BatchProgress = { finished: 0, inFlight: false };
    for (const path of ["invoices", "invoices/failed"]) {
      for (let token: string | null | undefined; left.size > 0 && token !== null;) {
        if (!(await this.keepAlive())) return { finished: progress.finished, inFlight: true };
        const page = await this.#page(ref, path, token, signal);
        token = page.next;
        const found: [SubmissionRecord, _Listed][] = [];
        for (const inv of page.invoices) {
          const sub = left.get(inv.invoiceFileName ?? "") ?? left.get(inv.invoiceHash ?? "");
          if (!sub) continue;
          left.delete(files.get(sub.id)!.name);
          left.delete(files.get(sub.id)!.hash);
          found.push([sub, inv]);
        }
        await this.#settle(ref, found, progress, signal);
      }
    }
    await this.#settle(ref, [...new Set(left.values())].map((sub) => [sub, undefined]), progress, signal);
    return progress;
  }

  // Writes the outcomes of `found`: their UPOs downloaded first, then every write at once (one flush of the store).
  async #settle(ref: string, found: [SubmissionRecord, _Listed | undefined][], progress: BatchProgress, signal: AbortSignal): Promise<void> {
    for (let i = 0; i < found.length; i += OUTCOME_CHUNK) {
      const chunk = found.slice(i, i + OUTCOME_CHUNK);
      const upos = new Map<string, KsefAnswer>();
      await eachAtOnce(chunk, DOWNLOADS_AT_ONCE, async ([sub, inv]) => {
        if (inv?.status?.code === 200) upos.set(sub.id, await this.#upo(ref, inv, signal));
      });
      await eachAtOnce(chunk, chunk.length, async ([sub, inv]) => {
        if (await this.#outcome(sub, ref, inv, upos.get(sub.id), signal)) progress.finished++;
        else progress.inFlight = true;
      });
    }
  }

  // An accepted invoice's UPO: from its `upoDownloadUrl` (not limited) when KSeF gave one, from the API otherwise.
  async #upo(ref: string, inv: _Listed, signal: AbortSignal): Promise<KsefAnswer> {
    if (inv.upoDownloadUrl) return this.#api.transfer("GET", inv.upoDownloadUrl, {}, undefined, signal);
    return this.#api.call("upo", "GET", `/sessions/${encodeURIComponent(ref)}/invoices/${encodeURIComponent(inv.referenceNumber ?? "")}/upo`, undefined, signal);
  }

  // One invoice's outcome from its listed status (and its UPO, downloaded when it was accepted); true when it is final now.
  async #outcome(sub: SubmissionRecord, ref: string, inv: _Listed | undefined, upo: KsefAnswer | undefined, signal: AbortSignal): Promise<boolean> {
    const code = inv?.status?.code;
    if (!inv || typeof code !== "number") {
      // Processed, yet not listed: KSeF did not take this file; it is sent again.
      await this.#out.requeue(sub, { code: "KSEF_NOT_PROCESSED", message: "KSeF's batch session does not list this invoice", details: [] });
      return false;
    }
    if (PROCESSING.has(code)) return false;
    const invRef = inv.referenceNumber ?? null;
    if (code === 200) {
      noteInvoicingMode(sub, inv);
      return this.#out.accept(sub, upo!, String(inv.ksefNumber ?? ""), isoOf(inv.acquisitionDate), ref, invRef ?? undefined);
    }
    if (invRef !== null && sub.ksef!.reference !== invRef) await this.#out.save(sub, { reference: invRef });
    if (code === 440) return this.#out.duplicate(sub, inv.status!, signal);
    const error = { code: `KSEF_${code}`, message: inv.status!.description ?? "", details: (inv.status!.details ?? []).map(String) };
    if (RESEND_CODES.has(code)) {
      await this.#out.requeue(sub, error);
      return false;
    }
    await this.#out.reject(sub, error.code, error.message, error.details);
    return true;
  }

  // One page of a session's invoice list (open-api.json: 1,000 a page at most, continued by x-continuation-token);
  // a refusal ends the list (those not listed are then sent again).
  async #page(ref: string, path: string, token: string | undefined, signal: AbortSignal): Promise<{ invoices: _Listed[]; next: string | null }> {
    const answer = await this.#api.call("list", "GET", `/sessions/${encodeURIComponent(ref)}/${path}?pageSize=${PAGE_SIZE}`, undefined, signal, token ? { "x-continuation-token": token } : {});
    const json = answerJson(answer);
    if (answer.status !== 200 || !Array.isArray(json?.invoices)) return { invoices: [], next: null };
    const next = typeof json.continuationToken === "string" && json.continuationToken !== "" ? json.continuationToken : null;
    return { invoices: json.invoices as _Listed[], next };
  }

  // The collective UPO (sesja-sprawdzenie-stanu-i-pobranie-upo.md): each page stored, and for each submission the page listing it.
  async #keepSessionUpo(ref: string, pages: { referenceNumber: string; downloadUrl: string }[], members: SubmissionRecord[], signal: AbortSignal): Promise<void> {
    const byHash = new Map(members.map((s) => [Buffer.from(s.sha256, "hex").toString("base64"), s]));
    for (const [i, page] of pages.entries()) {
      let answer = await this.#api.transfer("GET", page.downloadUrl, {}, undefined, signal).catch(() => null);
      if (answer?.status !== 200) answer = await this.#api.call("sessionUpo", "GET", `/sessions/${encodeURIComponent(ref)}/upo/${encodeURIComponent(page.referenceNumber)}`, undefined, signal);
      if (answer.status !== 200) continue; // the per-invoice UPOs still come; this page is asked for by nobody else
      const key = new TextEncoder().encode(await this.#steps.putUpoPage(ref, i + 1, answer.body));
      const listing = readUpoDocuments(answer.body).map((doc) => (doc.documentHash ? byHash.get(doc.documentHash) : undefined));
      await eachAtOnce(listing.filter((s) => s !== undefined), WRITES_AT_ONCE, (sub) => this.#store.putDerived(sessionUpoKey(sub.id), key).then(() => {}));
    }
  }

  // The session cannot be completed or KSeF failed it: stored first, then its invoices go back to the queue.
  async #fail(reference: string, members: SubmissionRecord[], why: { code: string; message: string }): Promise<BatchProgress> {
    await this.#steps.recordFailed(reference, why);
    return this.#requeueAll(reference, members, why);
  }

  async #requeueAll(reference: string, members: SubmissionRecord[], why: { code: string; message: string }): Promise<BatchProgress> {
    const theirs = members.filter((sub) => sub.ksef!.session === reference && sub.ksef!.status === "sending");
    await eachAtOnce(theirs, WRITES_AT_ONCE, (sub) => this.#out.requeue(sub, { ...why, details: [] }));
    return { finished: 0, inFlight: false };
  }
}
