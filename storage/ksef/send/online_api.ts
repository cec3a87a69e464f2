/**
 * The calls of KSeF's online (interactive) session, as open-api.json describes them: open a session, send an
 * encrypted invoice, read an invoice's status, fetch its UPO, close the session. Each call keeps the endpoint's
 * documented limits itself (open-api.json `x-rate-limits`), waits out a 429's `Retry-After`, and retries 5xx,
 * timeouts and network errors with backoff; when those retries run out it throws KsefOutage, which the sender
 * takes as "try again later" (a submission is never refused because KSeF was unreachable). Other 4xx answers
 * are returned to the caller, which knows what they mean for its call. KSeF's technical warnings on an answer
 * (`X-System-Warning`) come with it, and are told to the owner's hook (which logs them).
 * @module
 */
import type { UpstreamWarning } from "../../../lib/contracts/upstream_warnings.ts";
import { parseSystemWarning, SYSTEM_WARNING_HEADER, type SystemWarning } from "../../../lib/ksef/system_warning.ts";
import type { KsefClient } from "../connection/client.ts";
import type { HttpTransport } from "../connection/http.ts";
import { SlidingWindows, type WindowLimit } from "./windows.ts";

/** A KSeF answer: status and the raw body. */
export interface KsefAnswer {
  status: number;
  body: Uint8Array;
  /** KSeF's technical warnings on it (`X-System-Warning`), with the request; absent when it gave none. */
  warnings?: UpstreamWarning[];
}

/** KSeF did not answer usefully after every retry (5xx, timeouts, network, 429 storms): try again later. */
export class KsefOutage extends Error {
  override name = "KsefOutage";
}

/** KSeF refuses the token (401 after a renewal, or 403: no InvoiceWrite): fix the configuration, then it resumes. */
export class KsefAccessDenied extends Error {
  override name = "KsefAccessDenied";
}

/** The endpoints the sender calls, each with its own limits. */
export type SendGroup = "open" | "send" | "status" | "upo" | "close" | "batchOpen" | "batchClose" | "session" | "list" | "sessionUpo";

/** open-api.json `x-rate-limits` of each endpoint (per context and IP; limity-api.md: 1 s, 1 min, 1 h windows). */
export const SEND_LIMITS: Readonly<Record<SendGroup, WindowLimit>> = {
  open: { perSecond: 10, perMinute: 30, perHour: 120 }, // POST /sessions/online
  send: { perSecond: 10, perMinute: 30, perHour: 180 }, // POST /sessions/online/{ref}/invoices
  status: { perSecond: 30, perMinute: 120, perHour: 1200 }, // GET /sessions/{ref}/invoices/{invoiceRef}
  upo: { perSecond: 10, perMinute: 120, perHour: 1200 }, // GET /sessions/{ref}/invoices/{invoiceRef}/upo and …/ksef/{n}/upo
  close: { perSecond: 10, perMinute: 30, perHour: 120 }, // POST /sessions/online/{ref}/close
  batchOpen: { perSecond: 10, perMinute: 20, perHour: 60 }, // POST /sessions/batch
  batchClose: { perSecond: 10, perMinute: 20, perHour: 60 }, // POST /sessions/batch/{ref}/close
  session: { perSecond: 10, perMinute: 120, perHour: 1200 }, // GET /sessions/{ref}
  list: { perSecond: 10, perMinute: 20, perHour: 200 }, // GET /sessions/{ref}/invoices and …/invoices/failed
  sessionUpo: { perSecond: 10, perMinute: 120, perHour: 1200 }, // GET /sessions/{ref}/upo/{upoRef}
};

/** The sender's knobs; tests shrink them. */
export interface OnlineApiTuning {
  /** Delays before each retry of a 5xx, timeout or network error; their count is the number of retries per call. */
  retryDelays: readonly number[];
  requestTimeoutMs: number;
  /** One `Retry-After` second in ms (1000; tests shrink it). */
  retryAfterUnitMs: number;
  /** 429 answers waited out per call before it counts as an outage. */
  max429: number;
  /** Per-endpoint limits (default SEND_LIMITS; the test environment has none, limity-api.md). */
  limits: Partial<Record<SendGroup, WindowLimit>>;
}

export const DEFAULT_ONLINE_TUNING: OnlineApiTuning = {
  retryDelays: [1000, 2000, 4000, 8000, 16000],
  requestTimeoutMs: 60_000,
  retryAfterUnitMs: 1000,
  max429: 10,
  limits: {},
};

/** Online-session calls over one KsefClient (which authenticates and holds the certificates). */
export class OnlineApi {
  #client: KsefClient;
  #baseUrl: string;
  #t: OnlineApiTuning;
  #windows: SlidingWindows<SendGroup>;
  #http: HttpTransport;
  #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  #now: () => number;
  #onSystemWarnings: ((operation: string, warnings: SystemWarning[]) => void) | undefined;

  constructor(o: {
    client: KsefClient; baseUrl: string; tuning?: Partial<OnlineApiTuning>; http: HttpTransport; now: () => number; sleep: (ms: number, signal: AbortSignal) => Promise<void>;
    /** Told of KSeF's technical warnings on an API answer, with the request (`POST /path`). */
    onSystemWarnings?: (operation: string, warnings: SystemWarning[]) => void;
  }) {
    this.#client = o.client;
    this.#baseUrl = o.baseUrl;
    this.#t = { ...DEFAULT_ONLINE_TUNING, ...o.tuning };
    this.#windows = new SlidingWindows({ ...SEND_LIMITS, ...this.#t.limits });
    this.#http = o.http;
    this.#sleep = o.sleep;
    this.#now = o.now;
    this.#onSystemWarnings = o.onSystemWarnings;
  }

  /**
   * A JSON (or XML, for UPOs) request with the access token; a 401 renews the token once. A 401 after that, or a
   * 403, is about the token, not the invoice: it throws KsefAccessDenied, so nothing is rejected for it.
   */
  async call(group: SendGroup, method: string, path: string, body: unknown, signal: AbortSignal, extra: Record<string, string> = {}): Promise<KsefAnswer> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await this.#client.accessToken(signal);
      const answer = await this.#send(group, method, path, { authorization: `Bearer ${bearer}`, ...extra }, body, signal);
      if (answer.status === 401 && attempt === 0) {
        this.#client.dropAccessToken();
        continue;
      }
      // Said of what signs in: the token, or the certificate's subject (README "KSeF").
      const who = this.#client.signInKind === "token" ? "the KSeF token" : "the sign-in certificate's subject";
      if (answer.status === 401) throw new KsefAccessDenied(`KSeF refuses the access it granted: check that ${who === "the KSeF token" ? "the KSeF token is still active" : "the sign-in certificate is not revoked and its subject still has rights"}`);
      if (answer.status === 403) throw new KsefAccessDenied(`KSeF refuses ${method} ${_pathName(path)}: ${who} needs the InvoiceWrite permission to send invoices`);
      return answer;
    }
  }

  /**
   * A request to a URL KSeF handed out (a batch part's upload, a UPO's download link: sesja-wsadowa.md, open-api.json
   * PartUploadRequest and upoDownloadUrl): exactly the method and headers given, no access token, no pacing (those
   * URLs are not limited); 5xx, timeouts and network errors are retried as for the API.
   */
  async transfer(method: string, url: string, headers: Record<string, string>, body: Uint8Array | undefined, signal: AbortSignal): Promise<KsefAnswer> {
    return this.#send(null, method, url, headers, body, signal);
  }

  async #send(group: SendGroup | null, method: string, path: string, auth: Record<string, string>, body: unknown, signal: AbortSignal): Promise<KsefAnswer> {
    let failures = 0;
    let throttled = 0;
    for (;;) {
      if (group !== null) {
        const pace = this.#windows.delay(group, this.#now());
        if (pace > 0) await this.#wait(pace, signal);
        this.#windows.record(group, this.#now());
      }
      let problem = "";
      try {
        // open-api.json: with X-Error-Format every operation answers its errors as Problem Details (answerError reads both).
        const api = group !== null;
        const headers: Record<string, string> = api
          ? { accept: group === "upo" || group === "sessionUpo" ? "application/xml" : "application/json", "x-error-format": "problem-details", ...auth }
          : { ...auth };
        if (api && body !== undefined) headers["content-type"] = "application/json";
        const payload = body === undefined ? null : body instanceof Uint8Array ? body : JSON.stringify(body);
        const res = await this.#http.request({ method, url: api ? `${this.#baseUrl}${path}` : path, headers, body: payload, signal, timeoutMs: this.#t.requestTimeoutMs });
        if (res.status === 429) {
          if (++throttled > this.#t.max429) throw new KsefOutage(`KSeF kept answering 429 to ${method} ${_pathName(path)}`);
          await this.#wait(retryAfterSeconds(res.header("retry-after"), this.#now()) * this.#t.retryAfterUnitMs, signal);
          continue;
        }
        // Only the API's own answers: the URLs KSeF hands out are another service's (a blob store).
        const warnings = api ? parseSystemWarning(res.header(SYSTEM_WARNING_HEADER)) : [];
        const operation = `${method} ${_pathName(path)}`;
        if (warnings.length > 0) this.#onSystemWarnings?.(operation, warnings);
        if (res.status < 500) return { status: res.status, body: res.body, ...(warnings.length > 0 ? { warnings: warnings.map((w) => ({ ...w, operation })) } : {}) };
        problem = `HTTP ${res.status}`;
      } catch (e) {
        if (signal.aborted) throw e;
        if (e instanceof KsefOutage) throw e;
        problem = (e as Error).name === "TimeoutError" ? `no answer within ${this.#t.requestTimeoutMs} ms` : "network error";
      }
      const delay = this.#t.retryDelays[failures++];
      if (delay === undefined) throw new KsefOutage(`KSeF is not reachable or failing (${problem} for ${method} ${_pathName(path)}, ${failures} attempts)`);
      await this.#wait(delay, signal);
    }
  }

  async #wait(ms: number, signal: AbortSignal): Promise<void> {
    if (ms > 0) await this.#sleep(ms, signal);
    if (signal.aborted) throw signal.reason ?? new Error("aborted");
  }
}

/** limity-api.md: `Retry-After` in seconds; an HTTP date is accepted too (RFC 9110 §10.2.3). Missing: 1 s. */
export function retryAfterSeconds(v: string | null, now: number): number {
  if (v === null) return 1;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? 1 : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The JSON of an answer's body, or null. */
export function answerJson(a: KsefAnswer): Record<string, unknown> | null {
  try {
    const v = JSON.parse(new TextDecoder().decode(a.body)) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * KSeF's error of a refused request, from either body form open-api.json allows: Problem Details
 * (`application/problem+json`, BadRequestProblemDetails: `errors[]` of ApiError `{code, description, details}`,
 * `title`, `detail`) or the deprecated ExceptionResponse (`exception.exceptionDetailList[]`).
 */
export function answerError(a: KsefAnswer): { code: string; message: string; details: string[] } {
  const body = answerJson(a) ?? {};
  const list = (body.exception as { exceptionDetailList?: { exceptionCode?: number; exceptionDescription?: string; details?: string[] }[] } | undefined)?.exceptionDetailList;
  if (Array.isArray(list) && list[0]) {
    return { code: `KSEF_${list[0].exceptionCode ?? a.status}`, message: String(list[0].exceptionDescription ?? `HTTP ${a.status}`), details: (list[0].details ?? []).map(String) };
  }
  const first = Array.isArray(body.errors) ? (body.errors[0] as { code?: unknown; description?: unknown; details?: unknown } | undefined) : undefined;
  if (first && typeof first === "object" && (typeof first.code === "number" || typeof first.code === "string")) {
    return { code: `KSEF_${first.code}`, message: String(first.description ?? body.detail ?? `HTTP ${a.status}`), details: Array.isArray(first.details) ? first.details.map(String) : [] };
  }
  const message = [body.title, body.detail].filter((x) => typeof x === "string").join(": ") || `HTTP ${a.status}`;
  return { code: `KSEF_${a.status}`, message, details: [] };
}

// For messages: the path without identifiers that could be long.
function _pathName(path: string): string {
  return path.split("?")[0]!;
}
